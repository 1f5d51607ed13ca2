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
import { blockFileName, blockModuleSource, type DocBlock, readDocBlocks } from './doc-blocks.js';

const blocks = readDocBlocks(repoRoot);
const scratch = mkdtempSync(join(tmpdir(), 'weft-doc-blocks-'));

/** Preludes a block asks for with a first line `// prelude: <name>`; each exports `gpu`, `engine` and `scene`. */
const preludes: Record<string, string> = {
  engine: `import { create, globals } from 'webgpu';
import { createBoxMesh, createEngineAsync, createScene, makePerspectiveCamera } from 'weft-gpu/engine';

Object.assign(globalThis, globals);
/** Dawn; kept referenced while the device lives. */
export const gpu = create([]);
export const engine = await createEngineAsync(gpu, { width: 320, height: 240 });
/** A scene with a camera at (2, 1.5, 3) looking at the origin and a unit box named "box" there. */
export const scene = createScene(engine);
scene.camera = makePerspectiveCamera({ position: [2, 1.5, 3], target: [0, 0, 0] });
createBoxMesh(scene, 'box');
`,
};

// Runs one block; a block that used the prelude gets its engine drained and disposed before the process exits.
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

function runBlockAsync(block: DocBlock): Promise<string | null> {
  return new Promise((done) => {
    execFile(
      join(repoRoot, 'node_modules/.bin/tsx'),
      ['run-block.ts', blockFileName(block), ...(block.prelude ? [`prelude-${block.prelude}.ts`] : [])],
      { cwd: scratch, timeout: 90_000, maxBuffer: 16 << 20 },
      (error, stdout, stderr) =>
        done(error ? `${where(block)} failed (${error.code ?? error.signal}):\n${stdout}\n${stderr}` : null),
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
    for (const name of ['wgpu-matrix', 'vitest', 'three'])
      symlinkSync(join(repoRoot, 'node_modules', name), join(modules, name), 'dir');
    mkdirSync(join(modules, '@babylonjs'), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules/@babylonjs/core'), join(modules, '@babylonjs/core'), 'dir');
    symlinkSync(join(repoRoot, 'node_modules/@webgpu/types'), join(modules, '@webgpu/types'), 'dir');
    symlinkSync(join(repoRoot, 'node_modules/@types/node'), join(modules, '@types/node'), 'dir');
    symlinkSync(join(repoRoot, 'node_modules/@types/three'), join(modules, '@types/three'), 'dir');
    writeFileSync(join(scratch, 'package.json'), '{ "name": "doc-blocks", "private": true, "type": "module" }\n');
    writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022' } }));
    writeFileSync(join(scratch, 'run-block.ts'), runner);
    for (const [name, source] of Object.entries(preludes)) writeFileSync(join(scratch, `prelude-${name}.ts`), source);
    for (const block of blocks) writeFileSync(join(scratch, blockFileName(block)), blockModuleSource(block));
  }, 300_000);
  afterAll(async () => {
    rmSync(scratch, { recursive: true, force: true });
    await removeBuiltPackageAsync();
  });

  test('the documents have ts blocks, and every prelude they name exists', () => {
    expect(blocks.length).toBeGreaterThan(10);
    expect(blocks.filter((block) => block.file === 'README.md').length).toBeGreaterThan(5);
    const unknown = blocks.filter((block) => block.prelude && !(block.prelude in preludes)).map(where);
    expect(unknown, 'unknown preludes').toEqual([]);
  });

  test('every block type-checks strictly against the built package (skipLibCheck false)', () => {
    const byFile = new Map(blocks.map((block) => [join(scratch, blockFileName(block)), block]));
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

  test('every runnable block runs on Dawn', async () => {
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
