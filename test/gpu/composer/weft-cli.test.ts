import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { listVariants, makeWeftVariantRegistry } from '../../../index.js';

const registered = listVariants(makeWeftVariantRegistry()).length;

const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/broken-variants.ts', import.meta.url));

function weft(...args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/weft.ts', ...args],
      { cwd: root, maxBuffer: 32 << 20 },
      (error, stdout) => done({ code: error ? Number(error.code ?? 1) : 0, stdout }),
    );
  });
}

describe('weft CLI', () => {
  test('validate compiles every registered variant on Dawn and exits 0', async () => {
    const { code, stdout } = await weft('validate');
    expect(stdout).toContain(`all ${registered} variant(s) compile`);
    expect(code).toBe(0);
  });

  test('validate prints errors mapped to the fragment and exits 1', async () => {
    const { code, stdout } = await weft('validate', '--registry', fixture, 'cli-good', 'cli-bad-type', 'cli-unlinked');
    expect(code).toBe(1);
    expect(stdout).toMatch(/✓ cli-good \([0-9a-f]{16}\)/);
    expect(stdout).toMatch(
      /✗ cli-bad-type \([0-9a-f]{16}\)\n {4}cli-helper:2:10: no matching overload for 'operator \* \(vec4<f32>, u32\)'\n {8}return c \* 2u;\n {15}\^/,
    );
    expect(stdout).toContain("✗ cli-unlinked: composeShader: cli-helper:2:10: unresolved identifier 'missing'");
    expect(stdout).toContain('2 of 3 variant(s) failed');
  });

  test('compose prints the layouts and the WGSL; list names every variant', async () => {
    const composed = await weft('compose', 'pick-detail');
    expect(composed.code).toBe(0);
    expect(composed.stdout).toContain('// target @location(2) pickDetail: vec4u -> rgba32uint');
    expect(composed.stdout).toContain('enable primitive_index;');
    const list = await weft('list');
    expect(list.stdout.trim().split('\n')).toHaveLength(registered);
    expect((await weft('compose', 'nope')).code).toBe(1);
  });

  test("validate --rule checks a discard rule file and reports errors at the file's own lines", async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'weft-rule-'));
    const good = join(dir, 'clip.wgsl');
    const bad = join(dir, 'broken.wgsl');
    writeFileSync(
      good,
      'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.worldPos.y > limit[0];\n}\n',
    );
    writeFileSync(bad, 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.worldPos.q > 0.0;\n}\n');
    const ok = await weft('validate', '--rule', good, '--storage', 'limit:array<f32>');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('all 8 variant(s) compile');
    const broken = await weft('validate', '--rule', bad);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`${bad}:2:26: invalid vector swizzle character`);
    const unknown = join(dir, 'unknown.wgsl');
    writeFileSync(unknown, 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return bananas > 0.0;\n}\n');
    const unlinked = await weft('validate', '--rule', unknown);
    expect(unlinked.code).toBe(1);
    expect(unlinked.stdout).toContain(`${unknown}:2:10: unresolved identifier 'bananas'`);
    const printed = await weft('compose', 'rule-clip-basic-regular', '--rule', good, '--storage', 'limit:array<f32>');
    expect(printed.stdout).toContain('return input.worldPos.y > limit[0];');
  }, 120_000);
});
