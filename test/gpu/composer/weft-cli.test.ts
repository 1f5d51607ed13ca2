// The `weft` command as users get it: the built dist/cli/weft.js run by plain Node (no tsx), from a build of this
// process (see test/build/build-package.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  composeVariant,
  formatShaderSnapshot,
  getVariant,
  listVariants,
  makeWeftVariantRegistry,
} from '../../../index.js';
import { buildPackageAsync, removeBuiltPackageAsync } from '../../support/build-package.js';

const registry = makeWeftVariantRegistry();
const registered = listVariants(registry).length;
const fixture = fileURLToPath(new URL('./fixtures/broken-variants.ts', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'weft-cli-'));
let cli = '';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI; `nodeArgs` go before it (the .ts registry fixture needs `--import tsx`). */
function weft(args: string[], options: { env?: Record<string, string>; nodeArgs?: string[] } = {}): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [...(options.nodeArgs ?? []), cli, ...args],
      { cwd: scratch, maxBuffer: 32 << 20, env: { ...process.env, ...options.env } },
      (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A variant as weft's own snapshot test writes it: a name line, then formatShaderSnapshot's text. */
function snapshotOf(name: string): string {
  const variant = getVariant(registry, name);
  return `// ${name}: ${variant.description}\n${formatShaderSnapshot(composeVariant(registry, name))}`;
}

function writeRule(name: string, body: string): string {
  const file = join(scratch, name);
  writeFileSync(file, `fn pickDiscard(input: PickDiscardInput) -> bool {\n${body}\n}\n`);
  return file;
}

describe('weft CLI (built)', () => {
  beforeAll(async () => {
    cli = join((await buildPackageAsync()).dist, 'cli/weft.js');
  }, 180_000);
  afterAll(async () => {
    rmSync(scratch, { recursive: true, force: true });
    await removeBuiltPackageAsync();
  });

  test('--help describes the tool and each command; a bad command line exits 2 with the usage line', async () => {
    const help = await weft(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: weft <list|compose|validate|snapshot|types|help>');
    for (const command of ['list', 'compose <variant>', 'validate [variant…]', 'snapshot <dir>'])
      expect(help.stdout).toContain(command);
    expect((await weft(['-h'])).stdout).toBe(help.stdout);
    const compose = await weft(['compose', '--help']);
    expect(compose.code).toBe(0);
    expect(compose.stdout).toMatch(/^usage: weft compose <variant> \[--condition/);
    expect((await weft(['help', 'validate'])).stdout).toContain('npm install webgpu');
    const bare = await weft([]);
    expect(bare.code).toBe(2);
    const unknown = await weft(['compose', 'pick', '--colour']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--colour'");
    expect(unknown.stderr).toContain('usage: weft compose <variant>');
    const refused = await weft(['list', '--json']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--json is not an option of list');
    expect((await weft(['render'])).stderr).toContain('unknown command "render"');
  });

  test('list names every variant; compose prints WGSL or JSON and takes conditions', async () => {
    const list = await weft(['list']);
    expect(list.code).toBe(0);
    expect(list.stdout.trim().split('\n')).toHaveLength(registered);
    const printed = await weft(['compose', 'pick-detail']);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe(`${snapshotOf('pick-detail')}\n`);
    expect(printed.stdout).toContain('enable primitive_index;');
    const json = await weft(['compose', 'pick-detail', '--json']);
    const data = JSON.parse(json.stdout);
    expect(data.key).toBe(composeVariant(registry, 'pick-detail').key);
    expect(data.sourceMap).toBeUndefined();
    expect(data.conditions).toEqual({ primitiveDetail: true });
    const overridden = await weft(['compose', 'pick-detail', '--json', '--condition', 'primitiveDetail=false']);
    expect(JSON.parse(overridden.stdout)).toMatchObject({ conditions: {}, key: composeVariant(registry, 'pick').key });
    const missing = await weft(['compose', 'nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no variant named "nope"');
  });

  test('snapshot writes one .wgsl per variant, formatted by formatShaderSnapshot', async () => {
    const dir = join(scratch, 'snapshots');
    const run = await weft(['snapshot', dir]);
    expect(run.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(
      listVariants(registry)
        .map((v) => `${v.name}.wgsl`)
        .sort(),
    );
    for (const name of ['pick', 'pick-rule-sample-detail-thin-vertex-data-world-adjust'])
      expect(readFileSync(join(dir, `${name}.wgsl`), 'utf8'), name).toBe(snapshotOf(name));
  });

  test('validate compiles every registered variant on Dawn and exits 0', async () => {
    const { code, stdout } = await weft(['validate']);
    expect(stdout).toContain(`all ${registered} variant(s) compile`);
    expect(code).toBe(0);
  });

  test('validate prints errors mapped to the fragment and exits 1', async () => {
    const args = ['validate', '--registry', fixture, 'cli-good', 'cli-bad-type', 'cli-unlinked'];
    const { code, stdout } = await weft(args, { nodeArgs: ['--import', import.meta.resolve('tsx')] });
    expect(code).toBe(1);
    expect(stdout).toMatch(/✓ cli-good \([0-9a-f]{16}\)/);
    expect(stdout).toMatch(
      /✗ cli-bad-type \([0-9a-f]{16}\)\n {4}cli-helper:2:10: no matching overload for 'operator \* \(vec4<f32>, u32\)'\n {8}return c \* 2u;\n {15}\^/,
    );
    expect(stdout).toContain("✗ cli-unlinked\n    cli-helper:2:10: unresolved identifier 'missing'");
    expect(stdout).toContain('2 of 3 variant(s) failed with 2 distinct error(s)');
  });

  test("validate --rule: a good rule exits 0; a bad one reports each error once, at the rule file's line:column", async () => {
    const good = writeRule('clip.wgsl', '  return input.worldPos.y > limit[0];');
    const ok = await weft(['validate', '--rule', good, '--storage', 'limit:array<f32>']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('all 8 variant(s) compile');

    const bad = writeRule('broken.wgsl', '  return input.worldPos.q > 0.0;');
    const text = await weft(['validate', '--rule', bad]);
    expect(text.code).toBe(1);
    expect(text.stdout.split(`${bad}:2:26: invalid vector swizzle character`)).toHaveLength(2);
    expect(text.stdout).toContain('8 of 8 variant(s) failed with 1 distinct error(s)');
    const json = await weft(['validate', '--rule', bad, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual([
      {
        file: bad,
        line: 2,
        column: 26,
        severity: 'error',
        message: 'invalid vector swizzle character',
        variant: 'rule-broken-basic-regular',
        // naga reports the same line too; Dawn's message stands for both.
        checkedBy: 'dawn',
      },
    ]);

    const unlinked = writeRule('unknown.wgsl', '  return bananas > 0.0;');
    const records = JSON.parse((await weft(['validate', '--rule', unlinked, '--json'])).stdout);
    expect(records).toMatchObject([
      { file: unlinked, line: 2, column: 10, message: "unresolved identifier 'bananas'" },
    ]);
    const printed = await weft(['compose', 'rule-clip-basic-regular', '--rule', good, '--storage', 'limit:array<f32>']);
    expect(printed.stdout).toContain('return input.worldPos.y > limit[0];');
    expect((await weft(['validate', '--rule', good, '--json'])).code, 'limit is not declared').toBe(1);
  });

  test('validate without the webgpu package checks with naga alone, names the package and fails on naga errors', async () => {
    const env = { WEFT_CLI_WEBGPU_MODULE: 'webgpu-not-installed' };
    const run = await weft(['validate'], { env });
    expect(run.stderr).toContain('npm install webgpu-not-installed; checked the WGSL with naga only (no GPU compile)');
    expect(run.stdout).toContain(`all ${registered} variant(s) compile (checked by naga only)`);
    expect(run.code).toBe(0);

    const args = ['validate', '--registry', fixture, 'cli-good', 'cli-bad-type', 'cli-unlinked'];
    const bad = await weft(args, { env, nodeArgs: ['--import', import.meta.resolve('tsx')] });
    expect(bad.code).toBe(1);
    // naga's wording differs from Tint's and says where it comes from; the line and column are the fragment's.
    expect(bad.stdout).toMatch(
      /✗ cli-bad-type \([0-9a-f]{16}\)\n {4}cli-helper:2:10: Operation Multiply can't work with .* \[naga\]\n {8}return c \* 2u;\n {15}\^/,
    );
    expect(bad.stdout).toContain('2 of 3 variant(s) failed with 2 distinct error(s) (checked by naga only)');
    const json = await weft([...args, '--json'], { env, nodeArgs: ['--import', import.meta.resolve('tsx')] });
    expect(JSON.parse(json.stdout)).toMatchObject([
      { file: 'cli-helper', line: 2, column: 10, variant: 'cli-bad-type', checkedBy: 'naga' },
      { file: 'cli-helper', line: 2, column: 10, message: "unresolved identifier 'missing'", variant: 'cli-unlinked' },
    ]);
  });
  test('validate without naga-wasm compiles on Dawn only; without naga-wasm and webgpu it exits 2 naming both', async () => {
    const noNaga = { WEFT_CLI_NAGA_MODULE: 'naga-not-installed' };
    const dawn = await weft(['validate'], { env: noNaga });
    expect(dawn.stderr).toContain('naga-not-installed is not installed: compiling on Dawn only');
    expect(dawn.stdout).toContain(`all ${registered} variant(s) compile (checked by Dawn only)`);
    expect(dawn.code).toBe(0);
    const neither = await weft(['validate'], { env: { ...noNaga, WEFT_CLI_WEBGPU_MODULE: 'webgpu-not-installed' } });
    expect(neither.code).toBe(2);
    expect(neither.stderr).toMatch(/needs naga \(npm install naga-wasm.*or Dawn \(npm install webgpu\)/);
  });
});
