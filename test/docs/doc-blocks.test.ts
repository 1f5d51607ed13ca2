// Every ```ts block of README.md and docs/*.md is a test: type-checked strictly against the built package as a
// consumer imports it (node_modules/weft-gpu → the repository, so package.json `exports` → dist/), and the runnable
// ones run on Dawn. Conventions: docs/contributing.md, "Code blocks are tests".
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildPackageAsync, removeBuiltPackageAsync, repoRoot } from '../support/build-package.js';
import { blockFileName, blockFileNameOf, blockModuleSource, type DocBlock, readDocBlocks } from './doc-blocks.js';

const blocks = readDocBlocks(repoRoot);
const scratch = mkdtempSync(join(tmpdir(), 'weft-doc-blocks-'));

// Runs one block; a block that imports the prelude gets its engine drained and disposed before the process exits.
const runner = `import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
try {
  await import(pathToFileURL(resolve(process.argv[2])).href);
  if (process.argv[3]) {
    const { engine } = await import(pathToFileURL(resolve(process.argv[3])).href);
    const { disposeEngine } = await import('weft-gpu/engine');
    await engine.device.queue.onSubmittedWorkDone();
    disposeEngine(engine);
  }
} catch (error) {
  console.error(error);
  process.exit(1);
}
console.log('doc-block: done');
process.exit(0);
`;

const compilerOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['@webgpu/types', 'node'],
  isolatedModules: true,
};

function where(block: DocBlock): string {
  return `${block.file} block ${block.index} (line ${block.line}, ${block.mode})`;
}

/** `file:line` in the document for a diagnostic in a block file, or the diagnostic's own place elsewhere. */
function describeDiagnostic(diagnostic: ts.Diagnostic, byFile: Map<string, DocBlock>): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  if (!diagnostic.file || diagnostic.start === undefined) return `TS${diagnostic.code}: ${message}`;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  const block = byFile.get(diagnostic.file.fileName);
  if (!block) return `${diagnostic.file.fileName}:${line + 1}:${character + 1}: TS${diagnostic.code}: ${message}`;
  return `${where(block)} → ${block.file}:${block.line + line}:${character + 1}: TS${diagnostic.code}: ${message}`;
}

/** What a block printed, without the runner's marker and Dawn's own warnings. */
function printedLines(stdout: string): string[] {
  return stdout.split('\n').filter((line) => line.trim() && line !== 'doc-block: done' && !/^Warning: /.test(line));
}

/**
 * Most lines a block may print: an example prints the values that prove it worked, never an object graph (a dumped
 * mesh or engine runs to hundreds of lines).
 */
const maxPrintedLines = 12;

/** Why a run block's output is not what a reader should see (nothing printed, `undefined`, an object graph), or null. */
function checkPrinted(block: DocBlock, stdout: string): string | null {
  const lines = printedLines(stdout);
  const problems = [
    ...(lines.length === 0 ? ['prints nothing: an example prints what proves it worked'] : []),
    ...(lines.length > maxPrintedLines
      ? [`prints ${lines.length} lines (an object graph?), at most ${maxPrintedLines}`]
      : []),
    ...lines
      .filter((line) => /\bundefined\b|\[Object|\[object /.test(line))
      .map((line) => `prints ${JSON.stringify(line)}`),
  ];
  return problems.length
    ? `${where(block)}: ${problems.join('; ')}\n--- stdout ---\n${lines.slice(0, 20).join('\n')}`
    : null;
}

function runBlockAsync(block: DocBlock): Promise<string | null> {
  return new Promise((done) => {
    execFile(
      join(repoRoot, 'node_modules/.bin/tsx'),
      ['run-block.ts', blockFileName(block), ...(block.usesPrelude ? ['prelude.ts'] : [])],
      { cwd: scratch, timeout: 90_000, maxBuffer: 16 << 20 },
      (error, stdout, stderr) =>
        done(
          error
            ? `${where(block)} failed (${error.code ?? error.signal}):\n${stdout}\n${stderr}`
            : checkPrinted(block, stdout),
        ),
    );
  });
}

describe('README and docs code blocks', () => {
  beforeAll(async () => {
    const built = await buildPackageAsync();
    const modules = join(scratch, 'node_modules');
    mkdirSync(join(modules, '@webgpu'), { recursive: true });
    mkdirSync(join(modules, '@types'), { recursive: true });
    symlinkSync(built.dir, join(modules, 'weft-gpu'), 'dir');
    symlinkSync(join(repoRoot, 'node_modules/webgpu'), join(modules, 'webgpu'), 'dir');
    // What the README tells users to install next to weft-gpu (vitest for the snapshot-test example).
    // The host engines the adapter pages (docs/three.md, docs/babylon.md) install next to weft-gpu.
    // typegpu: the optional peer of weft-gpu/typegpu (docs/composer.md).
    for (const name of ['wgpu-matrix', 'vitest', 'three', 'typegpu'])
      symlinkSync(join(repoRoot, 'node_modules', name), join(modules, name), 'dir');
    mkdirSync(join(modules, '@babylonjs'), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules/@babylonjs/core'), join(modules, '@babylonjs/core'), 'dir');
    symlinkSync(join(repoRoot, 'node_modules/@webgpu/types'), join(modules, '@webgpu/types'), 'dir');
    symlinkSync(join(repoRoot, 'node_modules/@types/node'), join(modules, '@types/node'), 'dir');
    symlinkSync(join(repoRoot, 'node_modules/@types/three'), join(modules, '@types/three'), 'dir');
    writeFileSync(join(scratch, 'package.json'), '{ "name": "doc-blocks", "private": true, "type": "module" }\n');
    writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022' } }));
    writeFileSync(join(scratch, 'run-block.ts'), runner);
    for (const block of blocks) writeFileSync(join(scratch, blockFileNameOf(block)), blockModuleSource(block));
  }, 300_000);
  afterAll(async () => {
    rmSync(scratch, { recursive: true, force: true });
    await removeBuiltPackageAsync();
  });

  test('the documents have ts blocks; the prelude is one README block, and blocks import it as ./prelude.js', () => {
    expect(blocks.length).toBeGreaterThan(10);
    expect(blocks.filter((block) => block.file === 'README.md').length).toBeGreaterThan(5);
    const preludes = blocks.filter((block) => block.mode === 'prelude');
    expect(preludes.map(where), 'prelude blocks').toEqual([expect.stringMatching(/^README\.md /)]);
    expect(preludes[0].code).toMatch(/^\/\/ prelude\.ts\b/);
    // The old magic first line is gone: every example shows the import a reader copies.
    expect(blocks.filter((block) => /^\/\/ prelude:/m.test(block.code)).map(where)).toEqual([]);
    expect(blocks.filter((block) => block.usesPrelude).length).toBeGreaterThan(10);
  });

  test('every block type-checks strictly against the built package (skipLibCheck false)', () => {
    const byFile = new Map(blocks.map((block) => [join(scratch, blockFileNameOf(block)), block]));
    const program = ts.createProgram({ rootNames: [...byFile.keys()], options: compilerOptions });
    // Errors in the blocks and in weft's own declarations count; a dependency's declarations are the consumer
    // test's concern (test/package), so they are printed, not counted.
    const ours = (d: ts.Diagnostic) =>
      !d.file || byFile.has(d.file.fileName) || !d.file.fileName.includes('/node_modules/');
    const all = ts.getPreEmitDiagnostics(program);
    const others = all.filter((d) => !ours(d)).map((d) => describeDiagnostic(d, byFile));
    if (others.length)
      console.log(`doc blocks: ${others.length} diagnostics in dependencies' declarations:\n${others.join('\n')}`);
    console.log(`doc blocks: ${blocks.length} type-checked, ${blocks.filter((b) => b.mode === 'run').length} run`);
    expect(
      all
        .filter(ours)
        .map((d) => describeDiagnostic(d, byFile))
        .join('\n'),
    ).toBe('');
  }, 120_000);

  test('every runnable block runs on Dawn and prints what proves it worked (no undefined, no object graph)', async () => {
    const queue = blocks.filter((block) => block.mode === 'run');
    const failures: string[] = [];
    const worker = async () => {
      for (let block = queue.shift(); block; block = queue.shift()) {
        const failure = await runBlockAsync(block);
        if (failure) failures.push(failure);
      }
    };
    await Promise.all([worker(), worker()]);
    expect(failures.join('\n\n')).toBe('');
  }, 600_000);
});
