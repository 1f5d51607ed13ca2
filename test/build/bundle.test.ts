import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { rollup } from 'rollup';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { declarationEntries, libraryEntries } from '../../rollup.config.mjs';
import { buildPackageAsync, removeBuiltPackageAsync, repoRoot } from '../support/build-package.js';

const root = repoRoot;
// The build goes to a folder of this process (see build-package.ts); `out` is its dist/.
let out = '';
let packageDir = '';
const scratch = mkdtempSync(join(tmpdir(), 'weft-consumer-'));

/** Bundles a consumer module against the built dist with tree-shaking, dependencies external. */
async function bundleConsumer(source: string): Promise<string> {
  const entry = join(scratch, `consumer-${Math.random().toString(36).slice(2)}.js`);
  writeFileSync(entry, source);
  const build = await rollup({
    input: entry,
    external: (id) => !id.startsWith('.') && !id.startsWith('/'),
    treeshake: { moduleSideEffects: false },
  });
  const { output } = await build.generate({ format: 'es', inlineDynamicImports: false });
  await build.close();
  return output.map((chunk) => ('code' in chunk ? `// ${chunk.fileName}\n${chunk.code}` : '')).join('\n');
}

describe('the published bundle', () => {
  beforeAll(async () => {
    ({ dir: packageDir, dist: out } = await buildPackageAsync());
  }, 180_000);
  afterAll(async () => {
    rmSync(scratch, { recursive: true, force: true });
    await removeBuiltPackageAsync();
  });

  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const inPackage = (file: string) => join(packageDir, file);

  test('every package.json export exists as { types@<7, types, import, default }, and main, module, types and bin', () => {
    expect(pkg.sideEffects).toBe(false);
    const all = Object.entries(pkg.exports as Record<string, Record<string, string> | string>).filter(
      ([subpath]) => subpath !== './package.json',
    );
    const entries = all.filter(([, target]) => typeof target === 'string' || 'import' in target);
    expect(entries).toHaveLength(libraryEntries.length);
    // Declarations written by hand (the type of virtual:weft-variants): `types` only, shipped as written.
    const typesOnly = all.filter(([, target]) => typeof target !== 'string' && !('import' in target));
    expect(typesOnly.map(([subpath]) => subpath)).toEqual(declarationEntries.map((entry) => `./${entry}`));
    for (const [subpath, target] of typesOnly) {
      const entry = subpath.slice(2);
      expect(target, subpath).toEqual({ types: `./dist/${entry}.d.ts` });
      expect(readFileSync(inPackage(`dist/${entry}.d.ts`), 'utf8')).toBe(
        readFileSync(join(root, `${entry}.d.ts`), 'utf8'),
      );
    }
    for (const [subpath, target] of entries) {
      expect(Object.keys(target), subpath).toEqual(['types@<7', 'types', 'import', 'default']);
      const { 'types@<7': ts5Types, types, import: esm, default: fallback } = target as Record<string, string>;
      expect(fallback, `${subpath}: require(esm) resolves the same module`).toBe(esm);
      expect(types, subpath).toBe(esm.replace(/\.js$/, '.d.ts'));
      expect(ts5Types, subpath).toBe(types.replace(/^\.\/dist\//, './dist/ts5/'));
      for (const file of [esm, types, ts5Types]) expect(existsSync(inPackage(file)), `${subpath} → ${file}`).toBe(true);
    }
    expect(pkg.exports['.']).toEqual({
      'types@<7': './dist/ts5/index.d.ts',
      types: pkg.types,
      import: pkg.main,
      default: pkg.main,
    });
    expect(pkg.module).toBe(pkg.main);
    expect(readFileSync(inPackage(pkg.bin.weft), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
  });

  test('the package ships its build, README, LICENSE, CHANGELOG and docs; runtime ranges dedupe, wesl stays exact', () => {
    expect(pkg.files).toEqual(['dist', 'README.md', 'LICENSE', 'CHANGELOG.md', 'docs']);
    expect(pkg.scripts.prepack).toBe('npm run build');
    expect(pkg.engines.node).toBe('>=20.19.0');
    for (const field of ['keywords', 'author', 'description', 'license']) expect(pkg[field], field).toBeTruthy();
    for (const [name, range] of Object.entries(pkg.dependencies as Record<string, string>))
      expect(range, name).toMatch(name === 'wesl' ? /^\d+\.\d+\.\d+$/ : /^\^\d+\.\d+\.\d+$/);
    expect(pkg.dependencies['@webgpu/types']).toBeDefined();
  });

  // TypeScript 7's lib.dom declares the WebGPU types, @webgpu/types declares them again: only the `types@<7` wrappers
  // may reference it. Every entry brings lib.dom itself, so a project whose `lib` has no DOM type-checks too.
  test('every entry declaration references lib dom; only its TypeScript < 7 wrapper references @webgpu/types', () => {
    for (const entry of libraryEntries) {
      const declaration = readFileSync(join(out, `${entry}.d.ts`), 'utf8');
      expect(declaration.split('\n')[0], entry).toBe('/// <reference lib="dom" />');
      const wrapper = readFileSync(join(out, 'ts5', `${entry}.d.ts`), 'utf8').split('\n');
      expect(wrapper[0], entry).toBe('/// <reference types="@webgpu/types" />');
      const target = posix.relative(posix.dirname(posix.join('ts5', entry)), `${entry}.js`);
      expect(wrapper[1], entry).toBe(`export * from '${target}';`);
    }
    const referencing = (dir: string): string[] =>
      readdirSync(join(out, dir), { withFileTypes: true }).flatMap((item) => {
        const path = posix.join(dir, item.name);
        if (item.isDirectory()) return path === 'ts5' ? [] : referencing(path);
        return item.name.endsWith('.d.ts') && readFileSync(join(out, path), 'utf8').includes('@webgpu/types')
          ? [path]
          : [];
      });
    expect(referencing('.'), 'declarations outside dist/ts5 that name @webgpu/types').toEqual([]);
  });

  test('CommonJS on Node >= 20.19 requires an entry (require(esm))', () => {
    const consumer = join(scratch, 'cjs-consumer');
    mkdirSync(join(consumer, 'node_modules'), { recursive: true });
    // The package folder holds the repository's package.json and this build's dist/.
    symlinkSync(packageDir, join(consumer, 'node_modules', 'weft-gpu'), 'dir');
    writeFileSync(join(consumer, 'package.json'), '{ "name": "cjs-consumer", "private": true }\n');
    const printed = execFileSync(
      process.execPath,
      [
        '--no-warnings',
        '--eval',
        "const c = require('weft-gpu/composer'); const r = require('weft-gpu'); console.log(typeof c.composeShader, typeof r.createEngineAsync);",
      ],
      { cwd: consumer, encoding: 'utf8' },
    );
    expect(printed.trim()).toBe('function function');
  });

  test('source maps name files that exist, and embed their sources', () => {
    const maps = [
      'engine/camera.js.map',
      'composer/compose-shader.js.map',
      'picking/gpu/pick-pass.js.map',
      'cli/weft.js.map',
    ];
    const nested = readdirSync(join(out, 'entities/billboards')).find((f) => f.endsWith('.js.map'));
    for (const name of [...maps, `entities/billboards/${nested}`]) {
      const map = JSON.parse(readFileSync(join(out, name), 'utf8')) as { sources: string[]; sourcesContent?: string[] };
      expect(map.sources.length, name).toBeGreaterThan(0);
      map.sources.forEach((source, i) => {
        const file = resolve(dirname(join(out, name)), source);
        expect(file.startsWith(`${root}/`), `${name}: ${source} stays in the repository`).toBe(true);
        expect(existsSync(file), `${name}: ${source}`).toBe(true);
        expect(map.sourcesContent?.[i], `${name}: ${source} is embedded`).toBe(readFileSync(file, 'utf8'));
      });
    }
  });

  test('importing the whole toolkit and using nothing ships nothing (no module side effects)', async () => {
    const code = await bundleConsumer(`import * as weft from '${join(out, 'index.js')}';\n`);
    expect(code.replace(/\/\/ .*\n/g, '').trim()).toBe('');
  });

  test('a page that composes ships no naga; the WGSL check imports naga-wasm at run time, hidden from bundlers', async () => {
    const composer = join(out, 'composer/index.js');
    const composing = await bundleConsumer(
      `import { composeShader } from '${composer}';\nexport const compose = (spec) => composeShader(spec);\n`,
    );
    expect(composing).toContain('composeShader');
    for (const absent of ['naga-wasm', 'checkWgslAsync']) expect(composing, absent).not.toContain(absent);
    const checking = await bundleConsumer(
      `import { checkWgslAsync } from '${composer}';\nexport const check = (code) => checkWgslAsync(code);\n`,
    );
    // The package name sits in a variable so bundlers neither follow nor emit naga (its .wasm is 2 MB).
    expect(checking).toMatch(/['"]naga-wasm['"]/);
    expect(checking).not.toMatch(/\bimport\(['"]naga-wasm['"]\)/);
    expect(checking).not.toMatch(/^import .*['"]naga-wasm['"]/m);
  });

  test('a scene that only renders ships no picking code, no CPU BVH and no glTF reader', async () => {
    const code =
      await bundleConsumer(`import { createEngineAsync, createScene, createBoxMesh, renderFrame } from '${join(out, 'engine/index.js')}';
export async function main(gpu) { const engine = await createEngineAsync(gpu, { width: 8, height: 8 }); const scene = createScene(engine); createBoxMesh(scene, 'b'); renderFrame(scene); }\n`);
    expect(code).toContain('createForwardRenderTask');
    for (const absent of ['pickAsync', 'makePickSnapshot', 'buildTriangleBvh', 'pickDiscard', 'WebIO'])
      expect(code, absent).not.toContain(absent);
    // The glTF reader and the bunny data load through dynamic import() only.
    expect(code).not.toMatch(/^import .*@gltf-transform/m);
    expect(code).not.toMatch(/^import .*['"]bunny['"]/m);
  });

  // Marker names from the billboard, splat and VAT code (WGSL entry points and TS functions).
  const optionalFeatureMarkers = [
    'createBillboardSystem',
    'billboardPickFragment',
    'createSplatMesh',
    'splatPickFragment',
    'splatColorFragment',
    'function makeVertexAnimation(',
    'fn vertexAnimationVertex',
    'makeVertexAnimationFragment',
  ];

  test('a scene that renders and picks meshes ships no billboard, splat or VAT code', async () => {
    const code =
      await bundleConsumer(`import { createEngineAsync, createScene, createBoxMesh, renderFrame } from '${join(out, 'index.js')}';
import { createGpuPicker, enableDetailedPicking, pickAsync } from '${join(out, 'index.js')}';
export async function main(gpu) { const engine = await createEngineAsync(gpu, { width: 8, height: 8 }); const scene = createScene(engine); createBoxMesh(scene, 'b'); renderFrame(scene);
  const picker = createGpuPicker(scene); enableDetailedPicking(picker); return pickAsync(picker, 1, 1); }\n`);
    expect(code).toContain('pickAsync');
    for (const absent of optionalFeatureMarkers) expect(code, absent).not.toContain(absent);
  });

  test('a scene with billboards ships their pick code in a chunk loaded on the first pick only', async () => {
    const code =
      await bundleConsumer(`import { createEngineAsync, createScene, createBillboardSystem } from '${join(out, 'index.js')}';
export async function main(gpu) { const engine = await createEngineAsync(gpu, { width: 8, height: 8 }); const scene = createScene(engine); createBillboardSystem(scene, 's', { positions: new Float32Array(3) }); }\n`);
    const chunks = code.split(/^\/\/ (?=\S+\.js$)/m);
    const entry = chunks.find((c) => c.includes('createBillboardSystem'))!;
    expect(entry).toContain('import(');
    expect(entry).not.toContain('billboardPickFragment');
    expect(code, 'the renderer is not used').not.toContain('billboardColorFragment');
    expect(chunks.some((c) => c.includes('billboardPickFragment'))).toBe(true);
    for (const absent of optionalFeatureMarkers.slice(2)) expect(code, absent).not.toContain(absent);
  });

  test('weft-gpu/vite from the package: a render + pick page ships the table and no wesl, its stand-in replaces the linker', async () => {
    const { weftVariants } = (await import(join(out, 'vite/index.js'))) as typeof import('../../vite/index.js');
    const page = `import precomposed from 'virtual:weft-variants';
import { createEngineAsync, createScene, createBoxMesh, renderFrame, usePrecomposedShaders } from '${join(out, 'engine/index.js')}';
import { createGpuPicker, pickAsync } from '${join(out, 'picking/index.js')}';
export async function main(gpu) { const engine = await createEngineAsync(gpu, { width: 8, height: 8 }); usePrecomposedShaders(engine, precomposed);
  const scene = createScene(engine); createBoxMesh(scene, 'b'); renderFrame(scene); return pickAsync(createGpuPicker(scene), 1, 1); }\n`;
    const bundle = async (plugins: unknown[]) => {
      const entry = join(scratch, `plugin-page-${Math.random().toString(36).slice(2)}.js`);
      writeFileSync(
        entry,
        page.replace(
          plugins.length ? '' : "import precomposed from 'virtual:weft-variants';",
          plugins.length ? '' : 'const precomposed = null;',
        ),
      );
      const build = await rollup({
        input: entry,
        plugins: plugins as never,
        external: (id) =>
          !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && id !== 'virtual:weft-variants',
        treeshake: { moduleSideEffects: false },
      });
      const { output } = await build.generate({ format: 'es' });
      await build.close();
      return output.map((chunk) => ('code' in chunk ? chunk.code : '')).join('\n');
    };
    const withPlugin = await bundle([weftVariants({ variants: ['pick', 'standard-normals'] })]);
    const without = await bundle([]);
    expect(without).toMatch(/from 'wesl'/);
    expect(without).toContain('wesl could not link the fragments');
    expect(withPlugin).not.toMatch(/from 'wesl'/);
    expect(withPlugin).not.toContain('wesl could not link the fragments');
    expect(withPlugin).toContain('weft-precomposed/2');
    // The library build keeps link.js opaque, so the consumer's bundler drops composeUncached and the compose steps too.
    expect(without).toContain('fragment dependencies form a cycle');
    expect(withPlugin).not.toContain('fragment dependencies form a cycle');
    expect(withPlugin).toContain('this page was built by weft-gpu/vite without the run-time linker');
  });

  test('a scene that uses VAT ships the VAT shader and CPU code (the markers above are real)', async () => {
    const code = await bundleConsumer(`import { makeVertexAnimation } from '${join(out, 'index.js')}';
export const walk = () => makeVertexAnimation({ frames: new Float32Array(16), boneCount: 1, frameCount: 1 });\n`);
    for (const present of ['function makeVertexAnimation(', 'fn vertexAnimationVertex'])
      expect(code, present).toContain(present);
  });
});
