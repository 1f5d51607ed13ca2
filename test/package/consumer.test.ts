// The package as a user gets it: `npm pack` from a clone, a fresh project installs the tarball, then strict type
// checks over the TypeScript matrix (5.x and 7.x, skipLibCheck on/off, lib with/without DOM, three resolutions), the Node hello pick on Dawn, a Vite build of three pages with their sizes, the
// `weft` CLI from node_modules/.bin, publint and attw. Each step is its own test so a failure names the step; the
// summary table printed at the end is what the release note quotes.
//
// The pack runs in a copy of the working tree without dist/ (the files a clone has: tracked and untracked-not-ignored),
// with node_modules linked: it proves `prepack` builds from a clone, and never races other tests that write dist/.
// The install needs the npm registry (or an npm cache holding every package): without it the test fails, naming it.
import { spawn } from 'node:child_process';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, posix, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const fixtures = join(import.meta.dirname, 'fixtures');
const repoPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const exportedSubpaths = Object.entries(repoPackage.exports as Record<string, Record<string, string>>).filter(
  ([key]) => !key.endsWith('.json'),
);
const specifier = (key: string) => (key === '.' ? repoPackage.name : `${repoPackage.name}/${key.slice(2)}`);
/** Every subpath with code a consumer imports (the package's `exports`, as specifiers). */
const SUBPATHS = exportedSubpaths.filter(([, target]) => target.import).map(([key]) => specifier(key));
/** The declarations-only subpaths (`weft-gpu/vite/client`), which a consumer references as types. */
const TYPE_SUBPATHS = exportedSubpaths.filter(([, target]) => !target.import).map(([key]) => specifier(key));

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs a command without a shell; never throws (the exit code and output say what happened). Standard output goes
 * through a file: a tool that exits right after a large write to a pipe (attw) would lose the tail of its output.
 */
function run(command: string, args: string[], cwd: string, timeout = 120_000): Promise<RunResult> {
  const started = performance.now();
  const outFile = join(mkdtempSync(join(tmpdir(), 'weft-run-')), 'stdout');
  const out = openSync(outFile, 'w');
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env: cleanEnv(), stdio: ['ignore', out, 'pipe'] });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      stderr += `\n(killed after ${timeout} ms)`;
      child.kill('SIGKILL');
    }, timeout);
    const finish = (code: number) => {
      clearTimeout(timer);
      closeSync(out);
      const stdout = readFileSync(outFile, 'utf8');
      rmSync(dirname(outFile), { recursive: true, force: true });
      done({ code, stdout, stderr, ms: performance.now() - started });
    };
    child.on('error', (error) => {
      stderr += `\n${command}: ${error.message}`;
      finish(127);
    });
    child.on('close', (code, signal) => finish(code ?? (signal ? 128 : 1)));
  });
}

/**
 * The environment without what `npm test` exports about this repository (npm would act on the repo, not the copy) and
 * without vitest's variables (NODE_ENV=test would make Vite build for tests, not production).
 */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env))
    if (
      /^npm_(package|lifecycle)_|^npm_config_local_prefix$|^INIT_CWD$|^npm_command$|^VITEST|^TEST$|^NODE_ENV$/i.test(
        key,
      )
    )
      delete env[key];
  return env;
}

const tail = (text: string, lines = 25) => text.trim().split('\n').slice(-lines).join('\n');
const describeRun = (what: string, r: RunResult) =>
  `${what} exited ${r.code}\n--- stdout ---\n${tail(r.stdout)}\n--- stderr ---\n${tail(r.stderr)}`;

/** What a step produced for the next one; a later step whose input is missing fails naming the step it needs. */
function need<T>(value: T | undefined | null, step: string): T {
  if (value === undefined || value === null) throw new Error(`skipped: needs step "${step}", which failed`);
  return value;
}

/** The summary table rows, printed after the last step. */
const summary: { step: string; result: string; detail: string }[] = [];
function record(step: string, result: string, detail = ''): void {
  summary.push({ step, result, detail });
}

/** Runs a step's body; a step that throws before recording its row gets a FAIL row with the first line of the error. */
function inStep(step: string, body: () => Promise<void>): () => Promise<void> {
  return async () => {
    try {
      await body();
    } catch (error) {
      if (!summary.some((row) => row.step === step))
        record(step, 'FAIL', String((error as Error).message ?? error).split('\n')[0]);
      throw error;
    }
  };
}

function printSummary(): void {
  const width = (key: 'step' | 'result') => Math.max(key.length, ...summary.map((row) => row[key].length));
  const [w1, w2] = [width('step'), width('result')];
  const line = (a: string, b: string, c: string) => `${a.padEnd(w1)}  ${b.padEnd(w2)}  ${c}`.trimEnd();
  console.log(
    [
      `weft-gpu consumer test (${repoPackage.name}@${repoPackage.version}, node ${process.versions.node})`,
      line('step', 'result', 'detail'),
      line('-'.repeat(w1), '-'.repeat(w2), '------'),
      ...summary.flatMap((row) => {
        const [first, ...rest] = row.detail.split('\n');
        return [line(row.step, row.result, first), ...rest.map((more) => line('', '', more))];
      }),
    ].join('\n'),
  );
}

/** Relative link targets of a markdown file (outside code), as package paths; `..` above the package is kept. */
function findRelativeLinks(markdown: string, file: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
  const targets = [
    ...[...prose.matchAll(/\]\(\s*<([^>]*)>[^)]*\)/g)].map((m) => m[1]),
    ...[...prose.matchAll(/\]\(\s*([^)<\s]+)[^)]*\)/g)].map((m) => m[1]),
    ...[...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?([^\s>]+)>?/gm)].map((m) => m[1]),
    ...[...prose.matchAll(/<(?:a|img)\b[^>]*?\b(?:href|src)="([^"]+)"/gi)].map((m) => m[1]),
  ];
  return [
    ...new Set(
      targets
        .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#') && !t.startsWith('//'))
        .map((t) => decodeURIComponent(t.replace(/[#?].*$/, '')))
        .filter(Boolean)
        .map((t) => posix.normalize(t.startsWith('/') ? t.slice(1) : posix.join(posix.dirname(file), t))),
    ),
  ];
}

function listMarkdown(dir: string, prefix: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? listMarkdown(join(dir, entry.name), `${prefix}${entry.name}/`)
      : entry.name.endsWith('.md')
        ? [`${prefix}${entry.name}`]
        : [],
  );
}

interface TscReport {
  weft: string[];
  dependencies: string[];
  fixture: string[];
}

/** tsc's diagnostics split by where they are: weft's declarations, other packages, the fixture itself. */
function splitDiagnostics(output: string): TscReport {
  const report: TscReport = { weft: [], dependencies: [], fixture: [] };
  for (const line of output.split('\n').filter((l) => /error TS\d+/.test(l))) {
    if (line.includes(`node_modules/${repoPackage.name}/`)) report.weft.push(line);
    else if (line.includes('node_modules/')) report.dependencies.push(line);
    else report.fixture.push(line);
  }
  return report;
}

describe('weft-gpu as a consumer installs it', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'weft-package-'));
  const clone = join(scratch, 'clone');
  const consumer = join(scratch, 'consumer');
  let tarball: string | undefined;
  let installed = false;
  let attwReport: Promise<RunResult> | undefined;

  beforeAll(() => {
    record(
      'node / npm',
      'info',
      `${process.versions.node} / ${process.env.npm_config_user_agent?.split(' ')[0] ?? '?'}`,
    );
  });
  afterAll(() => {
    printSummary();
    if (!process.env.WEFT_KEEP_CONSUMER) rmSync(scratch, { recursive: true, force: true });
    else console.log(`consumer test files kept in ${scratch} (WEFT_KEEP_CONSUMER)`);
  });

  test(
    '1. npm pack from a clone builds dist (prepack) and ships README, LICENSE, CHANGELOG and every linked doc',
    inStep('1 npm pack', async () => {
      const listed = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], root);
      expect(listed.code, describeRun('git ls-files', listed)).toBe(0);
      for (const file of listed.stdout.split('\0').filter(Boolean)) {
        if (!existsSync(join(root, file)) || file.startsWith('dist/')) continue;
        mkdirSync(dirname(join(clone, file)), { recursive: true });
        cpSync(join(root, file), join(clone, file));
      }
      symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');
      expect(repoPackage.scripts?.prepack, 'package.json needs a "prepack" script that builds dist/').toBeTruthy();

      const packs = join(scratch, 'packs');
      mkdirSync(packs);
      const packed = await run('npm', ['pack', '--pack-destination', packs], clone, 180_000);
      expect(packed.code, describeRun('npm pack (in a copy of the working tree without dist/)', packed)).toBe(0);
      const tgz = readdirSync(packs).find((f) => f.endsWith('.tgz'));
      tarball = join(packs, need(tgz, 'npm pack wrote no .tgz'));
      // attw reads only the tarball: it runs while the consumer project installs (step 7b reads its report).
      attwReport = run(
        process.execPath,
        [join(root, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarball, '--format', 'json'],
        scratch,
      );
      const contents = await run('tar', ['-tzf', tarball], scratch);
      expect(contents.code, describeRun('tar -tzf', contents)).toBe(0);
      const files = contents.stdout
        .split('\n')
        .filter(Boolean)
        .map((f) => f.replace(/^package\//, ''));
      const shipped = new Set(files);

      // The documents, and every file package.json points at (exports conditions, main/module/types, bin).
      const pointedAt = (value: unknown): string[] =>
        typeof value === 'string'
          ? [value]
          : value && typeof value === 'object'
            ? Object.values(value).flatMap(pointedAt)
            : [];
      const targets = [repoPackage.exports, repoPackage.main, repoPackage.module, repoPackage.types, repoPackage.bin]
        .flatMap(pointedAt)
        .map((target) => posix.normalize(target));
      const required = [...new Set(['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', ...targets])];
      const missingRequired = required.filter((f) => !shipped.has(f));
      // Documents named in the shipped declarations and code ("see docs/composer.md") must ship too.
      const unpacked = join(scratch, 'unpacked');
      mkdirSync(unpacked);
      const extracted = await run('tar', ['-xzf', tarball, '-C', unpacked], scratch);
      expect(extracted.code, describeRun('tar -xzf', extracted)).toBe(0);
      const mentioned = files
        .filter((f) => /\.(d\.ts|js)$/.test(f))
        .flatMap((f) =>
          [
            ...readFileSync(join(unpacked, 'package', f), 'utf8').matchAll(
              /(?<![\w/.-])((?:\.{1,2}\/)?[\w./-]+\.md)\b/g,
            ),
          ]
            .map((m) => m[1])
            .filter((doc) => !shipped.has(posix.normalize(doc)) && !shipped.has(posix.join(posix.dirname(f), doc)))
            .map((doc) => `${f} mentions ${doc}`),
        );
      const markdown = ['README.md', ...listMarkdown(join(clone, 'docs'), 'docs/')];
      const links = markdown.flatMap((file) =>
        findRelativeLinks(readFileSync(join(clone, file), 'utf8'), file).map((target) => ({ file, target })),
      );
      const isShipped = (target: string) =>
        shipped.has(target) || files.some((f) => f.startsWith(`${target.replace(/\/$/, '')}/`));
      const broken = links.filter(({ target }) => target.startsWith('..') || !isShipped(target));
      const size = readFileSync(tarball).length;
      record(
        '1 npm pack',
        missingRequired.length || broken.length || mentioned.length ? 'FAIL' : 'ok',
        `${basename(tarball)}: ${files.length} files, ${(size / 1024).toFixed(1)} kB packed, build+pack ${(packed.ms / 1000).toFixed(1)} s; ` +
          `${links.length} relative links in ${markdown.length} markdown files, ${broken.length} not shipped; ` +
          `${mentioned.length} unshipped .md named in dist` +
          [
            ...missingRequired.map((f) => `missing ${f}`),
            ...broken.map(({ file, target }) => `${file} links to ${target}, not shipped`),
            ...mentioned,
          ]
            .map((l) => `\n  ${l}`)
            .join(''),
      );
      expect.soft(missingRequired, 'files the tarball must hold (documents and package.json targets)').toEqual([]);
      expect.soft(mentioned, 'markdown files named in dist/ (doc comments) that the tarball does not hold').toEqual([]);
      expect(
        broken.map(({ file, target }) => `${file} → ${target}`),
        'relative links of README.md and docs/*.md whose targets are not in the tarball',
      ).toEqual([]);
    }),
    200_000,
  );

  test(
    '2. a fresh project installs the tarball with webgpu, typescript, vite and @webgpu/types',
    inStep('2 install', async () => {
      const tgz = need(tarball, '1. npm pack');
      mkdirSync(consumer);
      writeFileSync(
        join(consumer, 'package.json'),
        `${JSON.stringify({ name: 'weft-consumer', private: true, type: 'module' }, null, 2)}\n`,
      );
      const dev = repoPackage.devDependencies as Record<string, string>;
      const specs = [
        tgz,
        `webgpu@${dev.webgpu}`,
        `typescript@${dev.typescript}`,
        `typescript7@${dev.typescript7}`,
        `vite@${dev.vite}`,
        `@webgpu/types@${repoPackage.dependencies['@webgpu/types']}`,
        // The optional peers of weft-gpu/three and weft-gpu/babylon, as their users install them.
        `three@${dev.three}`,
        `@types/three@${dev['@types/three']}`,
        `@babylonjs/core@${dev['@babylonjs/core']}`,
        // The optional peer of the WGSL check without a GPU (weft validate uses it when installed).
        `naga-wasm@${dev['naga-wasm']}`,
        // The optional peer of weft-gpu/typegpu.
        `typegpu@${dev.typegpu}`,
      ];
      const install = await run(
        'npm',
        ['install', ...specs, '--no-audit', '--no-fund', '--prefer-offline'],
        consumer,
        230_000,
      );
      if (install.code !== 0) {
        const offline =
          /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network|offline|ENOTCACHED|killed after/i.test(
            install.stderr,
          );
        record('2 install', 'FAIL', offline ? 'registry unreachable' : `npm exited ${install.code}`);
        throw new Error(
          `${offline ? 'The npm registry is unreachable and the npm cache does not hold every package: the consumer test needs network access to registry.npmjs.org (or a warm cache). ' : ''}${describeRun(`npm install ${specs.join(' ')}`, install)}`,
        );
      }
      const installedVersion = JSON.parse(
        readFileSync(join(consumer, 'node_modules', repoPackage.name, 'package.json'), 'utf8'),
      ).version;
      expect(installedVersion).toBe(repoPackage.version);
      record(
        '2 install',
        'ok',
        `${specs.map((s) => (s === tgz ? basename(s) : s)).join(' ')} in ${(install.ms / 1000).toFixed(1)} s`,
      );
      for (const file of [
        'every-subpath.js',
        'babylon-subpath.js',
        'compose-pipeline.js',
        'hello-pick.js',
        'vite-build.js',
        'good.wgsl',
        'bad.wgsl',
      ])
        cpSync(join(fixtures, file), join(consumer, file));
      // Stored as .txt: weft's own tsconfig would type-check it without the package installed.
      cpSync(join(fixtures, 'typed-uniforms.ts.txt'), join(consumer, 'typed-uniforms.ts'));
      cpSync(join(fixtures, 'pages'), join(consumer, 'pages'), { recursive: true });
      installed = true;
    }),
    260_000,
  );

  // The TypeScript matrix (issue 38): TypeScript 5.x and 7.x (exact-pinned dev dependencies, `typescript7` an alias),
  // skipLibCheck on and off, `lib` with and without DOM, bundler / node16 / nodenext resolution. Only the package's
  // declarations may bring the WebGPU types: the fixture's tsconfig lists no types at all, and the Node fixture (whose
  // `webgpu` import would bring them too) is not part of the program. TypeScript 7's lib.dom carries the WebGPU types,
  // so its program must not load @webgpu/types (every WebGPU name would be declared twice); TypeScript 5's must.
  const typescripts = [
    { name: `ts ${repoPackage.devDependencies.typescript}`, bin: 'node_modules/typescript/bin/tsc', webgpuTypes: true },
    {
      name: `ts ${String(repoPackage.devDependencies.typescript7).replace(/^npm:typescript@/, '')}`,
      bin: 'node_modules/typescript7/bin/tsc',
      webgpuTypes: false,
    },
  ];
  const resolutions = [
    { name: 'bundler', module: 'esnext', moduleResolution: 'bundler' },
    { name: 'node16', module: 'node16', moduleResolution: 'node16' },
    { name: 'nodenext', module: 'nodenext', moduleResolution: 'nodenext' },
  ];
  /** Errors per cell, `typescript resolution` → `skipLibCheck/lib` → count (printed as the matrix after the last cell). */
  const matrix = new Map<string, Map<string, string>>();
  // typed-uniforms.ts uses the declarations `weft types` writes (issue 37): generated once, by the installed CLI.
  let uniformTypes: Promise<RunResult> | undefined;
  const generateUniformTypes = async () => {
    uniformTypes ??= run(join(consumer, 'node_modules/.bin/weft'), ['types', 'weft-uniforms.d.ts'], consumer);
    const generated = await uniformTypes;
    expect(generated.code, describeRun('weft types weft-uniforms.d.ts', generated)).toBe(0);
    expect(readFileSync(join(consumer, 'weft-uniforms.d.ts'), 'utf8')).toContain("readonly 'pick': {");
  };
  for (const typescript of typescripts)
    for (const mode of resolutions) {
      const row = `${typescript.name} ${mode.name}`;
      test(
        `3. strict tsc matrix, ${row}: skipLibCheck on/off × lib with/without DOM, every subpath type-checks`,
        inStep(`3 tsc ${row}`, async () => {
          need(installed || null, '2. install');
          await generateUniformTypes();
          const subpathsImported = ['every-subpath.js', 'babylon-subpath.js']
            .map((f) => readFileSync(join(consumer, f), 'utf8'))
            .join('\n');
          expect(
            SUBPATHS.filter((s) => !subpathsImported.includes(`from '${s}'`)),
            'every-subpath.js and babylon-subpath.js import every package export',
          ).toEqual([]);
          const pages = readdirSync(join(consumer, 'pages')).map((f) =>
            readFileSync(join(consumer, 'pages', f), 'utf8'),
          );
          expect(
            TYPE_SUBPATHS.filter((s) => !pages.some((page) => page.includes(`/// <reference types="${s}" />`))),
            'a page references every declarations-only export',
          ).toEqual([]);
          const cells = new Map<string, string>();
          matrix.set(row, cells);
          const failures: string[] = [];
          for (const skipLibCheck of [false, true])
            for (const dom of [true, false]) {
              const cell = `skipLibCheck ${skipLibCheck}, lib ${dom ? 'es2023+dom' : 'es2023'}`;
              const config = `tsconfig.${typescript.bin.split('/')[1]}.${mode.name}.${skipLibCheck}.${dom}.json`;
              const compilerOptions = {
                strict: true,
                noEmit: true,
                skipLibCheck,
                target: 'es2022',
                lib: dom ? ['es2023', 'dom', 'dom.iterable'] : ['es2023'],
                module: mode.module,
                moduleResolution: mode.moduleResolution,
                types: [],
                allowJs: true,
                checkJs: true,
              };
              writeFileSync(
                join(consumer, config),
                `${JSON.stringify({ compilerOptions, include: ['every-subpath.js', 'compose-pipeline.js', 'typed-uniforms.ts', 'weft-uniforms.d.ts', 'pages/*.js'] }, null, 2)}\n`,
              );
              // weft-gpu/babylon in a program of its own (@babylonjs/core and @types/three both declare WebXR globals).
              const babylonConfig = config.replace(/^tsconfig\./, 'tsconfig.babylon.');
              writeFileSync(
                join(consumer, babylonConfig),
                `${JSON.stringify({ compilerOptions, include: ['babylon-subpath.js'] }, null, 2)}\n`,
              );
              // One run per program: the diagnostics, then (--listFiles) every file in the program.
              const runs = await Promise.all(
                [config, babylonConfig].map((file) =>
                  run(
                    process.execPath,
                    [join(consumer, typescript.bin), '-p', file, '--pretty', 'false', '--listFiles'],
                    consumer,
                  ),
                ),
              );
              const checked = {
                code: Math.max(...runs.map((r) => r.code)),
                stdout: runs.map((r) => r.stdout).join('\n'),
                stderr: runs.map((r) => r.stderr).join('\n'),
              };
              const webgpuTypes = checked.stdout
                .split('\n')
                .some((f) => /node_modules\/@webgpu\/types\/.*\.d\.ts$/.test(f));
              const report = splitDiagnostics(runs[0].stdout);
              const babylon = splitDiagnostics(runs[1].stdout);
              // @babylonjs/core 9.37 re-declares WebGPU limits its own way, which @webgpu/types 0.1.74 (weft's
              // declarations load it under TypeScript 5) declares otherwise: errors between those two files alone, in
              // any project that has both (docs/babylon.md says so). Any other error in the Babylon program counts.
              const known = (line: string) =>
                /node_modules\/(@babylonjs\/core\/Engines\/engine|@webgpu\/types\/dist\/index)\.d\.ts/.test(line);
              const babylonKnown = typescript.webgpuTypes ? babylon.dependencies.filter(known) : [];
              report.weft.push(...babylon.weft);
              report.fixture.push(...babylon.fixture);
              report.dependencies.push(...babylon.dependencies.filter((line) => !babylonKnown.includes(line)));
              const total = report.weft.length + report.fixture.length + report.dependencies.length;
              cells.set(
                cell,
                babylonKnown.length ? `${total} (+${babylonKnown.length} Babylon × @webgpu/types)` : String(total),
              );
              const detail = `${report.weft.length} in weft's declarations, ${report.fixture.length} in the fixture, ${report.dependencies.length} in other packages`;
              if (total || webgpuTypes !== typescript.webgpuTypes)
                failures.push(
                  `${cell}: ${detail}; @webgpu/types ${webgpuTypes ? 'loaded' : 'not loaded'} (expected ${typescript.webgpuTypes ? 'loaded' : 'not loaded'})` +
                    [...report.weft, ...report.fixture, ...report.dependencies]
                      .slice(0, 20)
                      .map((l) => `\n  ${l.replace(`${consumer}/`, '')}`)
                      .join(''),
                );
              const failedRun = runs.find((r, i) => r.code !== 0 && !(i === 1 && babylonKnown.length > 0));
              if (failedRun && total === 0)
                failures.push(
                  `${cell}: tsc exited ${failedRun.code}: ${tail(failedRun.stderr || failedRun.stdout, 5)}`,
                );
            }
          record(
            `3 tsc ${row}`,
            failures.length ? 'FAIL' : 'ok',
            [...cells].map(([cell, errors]) => `${cell}: ${errors} errors`).join('; ') +
              failures.map((f) => `\n  ${f}`).join(''),
          );
          expect(failures.join('\n')).toBe('');
        }),
        300_000,
      );
    }

  test('3. the TypeScript matrix (errors per cell, any file of the program)', () => {
    const columns = [...new Set([...matrix.values()].flatMap((cells) => [...cells.keys()]))];
    const rows = [...matrix].map(([row, cells]) => [row, ...columns.map((c) => cells.get(c) ?? '-')]);
    const widths = ['', ...columns].map((c, i) => Math.max(c.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
    const table = [line(['', ...columns]), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
    record('3 tsc matrix', rows.length === typescripts.length * resolutions.length ? 'info' : 'FAIL', table);
    expect(rows).toHaveLength(typescripts.length * resolutions.length);
  });

  test(
    '4. the Node hello pick runs on Dawn and names the box',
    inStep('4 node hello-pick', async () => {
      need(installed || null, '2. install');
      const hello = await run(process.execPath, ['hello-pick.js'], consumer, 60_000);
      const picked = hello.stdout.match(/^picked: (.*)$/m)?.[1] ?? '(no output)';
      record('4 node hello-pick', hello.code === 0 && picked === 'hello-box' ? 'ok' : 'FAIL', `picked: ${picked}`);
      expect(hello.code, describeRun('node hello-pick.js', hello)).toBe(0);
      expect(picked).toBe('hello-box');
    }),
    90_000,
  );

  test(
    '5. Vite builds compose-only, render-only, render + detailed pick and pick-only pages, run-time and precomposed (weft-gpu/vite), and a three.js page with and without weft-gpu/three',
    inStep('5 vite build', async () => {
      need(installed || null, '2. install');
      const built = await run(process.execPath, ['vite-build.js'], consumer, 200_000);
      expect(built.code, describeRun('node vite-build.js (vite build of four pages)', built)).toBe(0);
      const pages = JSON.parse(built.stdout.trim().split('\n').at(-1)!) as Record<
        string,
        { chunks: { file: string; entry: boolean; code: string }[]; warnings: string[] }
      >;
      const rows = Object.entries(pages).map(([page, { chunks, warnings }]) => {
        const code = chunks.map((c) => c.code).join('\n');
        const entry = chunks.filter((c) => c.entry);
        return {
          page,
          code,
          entryCode: entry.map((c) => c.code).join('\n'),
          warnings,
          chunks: chunks.length,
          bytes: chunks.reduce((sum, c) => sum + Buffer.byteLength(c.code), 0),
          gzip: chunks.reduce((sum, c) => sum + gzipSync(c.code).length, 0),
          entryGzip: entry.reduce((sum, c) => sum + gzipSync(c.code).length, 0),
        };
      });
      const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;
      const warnings = rows.flatMap((r) => r.warnings.map((w) => `  ${r.page}: ${w.split('\n')[0].slice(0, 200)}`));
      record(
        '5 vite build',
        'ok',
        [
          `${'page'.padEnd(24)} ${'chunks'.padStart(6)} ${'JS'.padStart(10)} ${'gzip'.padStart(10)} ${'entry gzip'.padStart(11)}`,
          ...rows.map(
            (r) =>
              `${r.page.padEnd(24)} ${String(r.chunks).padStart(6)} ${kB(r.bytes).padStart(10)} ${kB(r.gzip).padStart(10)} ${kB(r.entryGzip).padStart(11)}`,
          ),
          ...(warnings.length ? ['vite warnings:', ...new Set(warnings)] : []),
        ].join('\n'),
      );
      const byPage = Object.fromEntries(rows.map((r) => [r.page, r]));
      expect(Object.keys(byPage).sort()).toEqual([
        'compose-only',
        'pick-only',
        'pick-only-precomposed',
        'render-only',
        'render-pick',
        'render-pick-precomposed',
        'three-only',
        'three-pick-only',
      ]);
      // A three.js page that only picks, against the same three.js page without weft: what weft-gpu/three adds.
      const threeAdds = byPage['three-pick-only'].gzip - byPage['three-only'].gzip;
      record(
        '5 three pick page',
        'info',
        `three-only ${kB(byPage['three-only'].gzip)} gzip; three-pick-only ${kB(byPage['three-pick-only'].gzip)} gzip (entry ${kB(byPage['three-pick-only'].entryGzip)}): weft-gpu/three adds ${kB(threeAdds)}`,
      );
      expect(byPage['three-only'].code, 'three-only ships no weft').not.toContain('PickDiscardInput');
      expect(byPage['three-pick-only'].code, 'three-pick-only ships the pick pass').toContain('PickDiscardInput');
      expect(threeAdds).toBeGreaterThan(0);
      // No page loads glTF, so none bundles @gltf-transform/core and its Node file reader (weft-gpu/gltf is apart).
      expect(
        rows.flatMap((r) => r.warnings.filter((w) => /node:|externalized/.test(w)).map((w) => `${r.page}: ${w}`)),
        'Vite warnings about Node modules externalised for the browser',
      ).toEqual([]);
      // The scene-hierarchy path (the CPU picker's BVH code) is a chunk of its own that a small scene never loads.
      const bvhMarker = '"auto", "always" or "never"';
      for (const page of ['pick-only', 'pick-only-precomposed', 'render-pick']) {
        expect(byPage[page].entryCode.includes(bvhMarker), `${page}'s entry chunk holds the CPU picker`).toBe(false);
        expect(byPage[page].code.includes(bvhMarker), `${page} ships the CPU picker as a lazy chunk`).toBe(true);
      }
      for (const r of rows) expect(r.bytes, `${r.page} has JS`).toBeGreaterThan(0);
      // (three.js pages are left out of the size orderings below: three.js itself dominates them.)
      // Markers that survive minification: an API name in the engine's error messages, a WGSL struct of the pick pass.
      expect(byPage['compose-only'].code, 'compose-only ships no engine').not.toContain('createEngineAsync');
      expect(byPage['render-only'].code, 'render-only ships the engine').toContain('createEngineAsync');
      expect(byPage['render-only'].code, 'render-only ships no picking').not.toContain('PickDiscardInput');
      expect(byPage['render-pick'].code, 'render-pick ships picking').toContain('PickDiscardInput');
      expect(byPage['compose-only'].gzip).toBeLessThan(byPage['render-only'].gzip);
      expect(byPage['render-only'].gzip).toBeLessThan(byPage['render-pick'].gzip);
      // weft-gpu/vite: the same page with precomposed shaders ships no wesl and no linker, and is smaller.
      const linkerMarkers = ['weslLocation', 'wesl could not link the fragments', 'fragment dependencies form a cycle'];
      for (const marker of linkerMarkers) {
        expect(byPage['render-pick'].code.includes(marker), `render-pick has "${marker}"`).toBe(true);
        expect(byPage['render-pick-precomposed'].code.includes(marker), `precomposed page has "${marker}"`).toBe(false);
      }
      expect(byPage['render-pick-precomposed'].code).toContain('weft-precomposed/2');
      expect(byPage['render-pick-precomposed'].gzip).toBeLessThan(byPage['render-pick'].gzip);
      expect(byPage['pick-only-precomposed'].entryGzip).toBeLessThan(byPage['pick-only'].entryGzip);
    }),
    240_000,
  );

  test(
    '6. the weft CLI runs from node_modules/.bin: list, validate a good rule, validate a bad rule as JSON',
    inStep('6 weft CLI', async () => {
      need(installed || null, '2. install');
      const cliBin = join(consumer, 'node_modules/.bin/weft');
      expect(existsSync(cliBin), 'node_modules/.bin/weft (package.json "bin": { "weft": … })').toBe(true);
      const list = await run(cliBin, ['list'], consumer);
      expect(list.code, describeRun('weft list', list)).toBe(0);
      const variants = list.stdout.split('\n').filter((l) => /^\s*standard\b|^\s*pick\b/.test(l));
      expect(variants.length, `weft list names the standard and pick variants:\n${list.stdout}`).toBeGreaterThan(1);

      const good = await run(cliBin, ['validate', '--rule', 'good.wgsl'], consumer);
      expect(good.code, describeRun('weft validate --rule good.wgsl', good)).toBe(0);

      const bad = await run(cliBin, ['validate', '--rule', 'bad.wgsl', '--json'], consumer);
      let records: { file: string; line: number; column: number; message: string }[] = [];
      try {
        records = JSON.parse(bad.stdout);
      } catch {
        throw new Error(
          `weft validate --json printed no JSON: ${describeRun('weft validate --rule bad.wgsl --json', bad)}`,
        );
      }
      const errors = records.filter((r) => basename(r.file ?? '') === 'bad.wgsl');
      record(
        '6 weft CLI',
        bad.code === 1 && errors.length === 1 && good.code === 0 ? 'ok' : 'FAIL',
        `list: ${list.stdout.trim().split('\n').length} lines, exit ${list.code}; validate good.wgsl: exit ${good.code}; ` +
          `validate bad.wgsl --json: exit ${bad.code}, ${records.length} record(s)` +
          records.map((r) => `\n  ${r.file}:${r.line}:${r.column}: ${r.message}`).join(''),
      );
      expect(bad.code, describeRun('weft validate --rule bad.wgsl --json', bad)).toBe(1);
      // bad.wgsl misspells `worldPos` on line 4; the expression starts at column 10.
      expect(
        errors.map(({ line, column }) => ({ line, column })),
        JSON.stringify(records),
      ).toEqual([{ line: 4, column: 10 }]);
      expect(errors[0].message).toMatch(/worldPoz/);
      expect(records.length, 'one record per error (not one per rule variant)').toBe(errors.length);
    }),
    120_000,
  );

  test(
    '7a. publint finds no errors or warnings in the tarball',
    inStep('7 publint', async () => {
      const tgz = need(tarball, '1. npm pack');
      const bytes = readFileSync(tgz);
      const { messages, pkg } = await publint({
        pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
        level: 'suggestion',
      });
      const lines = messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`);
      const serious = messages.filter((m) => m.type !== 'suggestion');
      record(
        '7 publint',
        serious.length ? 'FAIL' : 'ok',
        `${messages.filter((m) => m.type === 'error').length} errors, ${messages.filter((m) => m.type === 'warning').length} warnings, ` +
          `${messages.filter((m) => m.type === 'suggestion').length} suggestions${lines.map((l) => `\n  ${l}`).join('')}`,
      );
      expect(lines.filter((l) => !l.startsWith('suggestion'))).toEqual([]);
    }),
    60_000,
  );

  test(
    '7b. @arethetypeswrong finds no problems (node10 and CommonJS-to-ESM only where the README says so)',
    inStep('7 attw', async () => {
      const attw = await need(attwReport, '1. npm pack');
      let problems: { kind: string; entrypoint?: string; resolutionKind?: string }[];
      try {
        problems = Object.values(JSON.parse(attw.stdout).problems ?? {}).flat() as typeof problems;
      } catch {
        throw new Error(`attw printed no JSON report: ${describeRun('attw --format json', attw)}`);
      }
      // The documented limits: node10 resolution is unsupported; the package is ESM-only (CommonJS gets it through
      // require(esm) on Node ≥ 20.19). attw reports both; they count only when the README does not say so.
      const readme = readFileSync(join(root, 'README.md'), 'utf8');
      const documented = {
        node10: /node10/i.test(readme),
        esmOnly: /ESM[- ]only/i.test(readme),
      };
      const excused = (p: (typeof problems)[number]) =>
        (p.resolutionKind === 'node10' && documented.node10) ||
        (p.kind === 'CJSResolvesToESM' && p.resolutionKind === 'node16-cjs' && documented.esmOnly);
      const counted = problems.filter((p) => !excused(p));
      const kinds = (list: typeof problems) =>
        [...new Set(list.map((p) => `${p.kind} (${p.resolutionKind ?? 'any'})`))].join(', ') || 'none';
      record(
        '7 attw',
        counted.length ? 'FAIL' : 'ok',
        `${counted.length} problems: ${kinds(counted)}; documented and excused: ${kinds(problems.filter(excused))}`,
      );
      expect(
        counted.map((p) => `${p.kind} ${p.entrypoint ?? ''} ${p.resolutionKind ?? ''}`),
        `attw problems (README says node10 unsupported: ${documented.node10}, ESM-only: ${documented.esmOnly})`,
      ).toEqual([]);
    }),
    60_000,
  );
});
