import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { rollup } from 'rollup';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import config from '../../rollup.config.mjs';

const root = resolve(import.meta.dirname, '../..');
// The typescript plugin insists on its own outDir, so the build goes to dist/ as `npm run build` does.
const out = join(root, 'dist');
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
    const build = await rollup({ ...config, onwarn: () => undefined });
    rmSync(out, { recursive: true, force: true });
    await build.write(config.output);
    await build.close();
  }, 120_000);
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  test('every package.json export exists with its type declarations', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.sideEffects).toBe(false);
    for (const [subpath, target] of Object.entries(pkg.exports as Record<string, { types: string; import: string }>)) {
      for (const file of [target.import, target.types]) {
        expect(existsSync(join(out, file.replace(/^\.\/dist\//, ''))), `${subpath} → ${file}`).toBe(true);
      }
    }
  });

  test('importing the whole toolkit and using nothing ships nothing (no module side effects)', async () => {
    const code = await bundleConsumer(`import * as weft from '${join(out, 'index.js')}';\n`);
    expect(code.replace(/\/\/ .*\n/g, '').trim()).toBe('');
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

  test('a scene that uses VAT ships the VAT shader and CPU code (the markers above are real)', async () => {
    const code = await bundleConsumer(`import { makeVertexAnimation } from '${join(out, 'index.js')}';
export const walk = () => makeVertexAnimation({ frames: new Float32Array(16), boneCount: 1, frameCount: 1 });\n`);
    for (const present of ['function makeVertexAnimation(', 'fn vertexAnimationVertex'])
      expect(code, present).toContain(present);
  });
});
