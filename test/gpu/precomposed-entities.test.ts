// Billboards and splats on Dawn with the composer's linker replaced by its stand-in, as weft-gpu/vite builds a page:
// their renderers and pick contributors take their shaders from the engine's precomposed table (weft's variants
// `billboard-*` / `splat-*`), and draw and pick what an independent float64 reference says. A variant the table
// lacks is a typed not-precomposed error naming the variant to declare; the declared ones keep working.
import { quat } from 'wgpu-matrix';
import { describe, expect, test, vi } from 'vitest';
import { makePrecomposedShaders } from '../../composer/precomposed-table.js';
import { makeWeftVariantRegistry } from '../../variants/weft-variants.js';
import { cameraBasis, pixelRay } from '../support/camera-rays.js';
import { nearest, type Ray, splatCandidate, spriteCandidate, type Vec3 } from '../support/entity-reference.js';
import { getNodeGpu } from '../support/gpu.js';

const linkModule = new URL('../../composer/link.ts', import.meta.url).pathname;
const standIn = new URL('../../composer/precomposed-link.ts', import.meta.url).pathname;
const [width, height] = [64, 48];
const eye: Vec3 = [0.5, 1, 7];
const fovY = 0.7;
const entityVariants = [
  'billboard-color',
  'billboard-pick',
  'billboard-pick-detail',
  'splat-pick',
  'splat-pick-detail',
];

describe('billboards and splats without the linker (the weft-gpu/vite build), on Dawn', () => {
  test('renderers and pick contributors read the engine table; an undeclared entity variant is named', async () => {
    const table = makePrecomposedShaders([{ registry: makeWeftVariantRegistry(), names: entityVariants }]);
    vi.resetModules();
    vi.doMock(linkModule, () => import(standIn));
    const engineApi = await import('../../engine/index.js');
    const pickingApi = await import('../../picking/index.js');
    const composerApi = await import('../../composer/index.js');
    const billboards = await import('../../entities/billboards/index.js');
    const splats = await import('../../entities/splats/index.js');
    const link = await import('../../composer/link.js');
    expect(link.linkerAvailable, 'the stand-in is in place').toBe(false);

    const engine = await engineApi.createEngineAsync(getNodeGpu(), { width, height });
    const uncaptured: string[] = [];
    engine.device.addEventListener('uncapturederror', (e) =>
      uncaptured.push((e as GPUUncapturedErrorEvent).error.message),
    );
    const miss = (run: () => unknown): InstanceType<typeof composerApi.ComposeError> => {
      try {
        run();
      } catch (error) {
        expect(error).toBeInstanceOf(composerApi.ComposeError);
        return error as InstanceType<typeof composerApi.ComposeError>;
      }
      throw new Error('no not-precomposed error');
    };
    try {
      const scene = engineApi.createScene(engine, { clearColor: [0, 0, 0, 1] });
      scene.camera = engineApi.makePerspectiveCamera({ position: eye, target: [0, 0, 0], fovY, far: 100 });
      const positions: number[] = [];
      for (let row = 0; row < 2; row++)
        for (let col = 0; col < 3; col++) positions.push(col * 1.4 - 1.4, row * 1.2 - 0.9, 0);
      const colors = new Float32Array(24).map((_, i) => (i % 4 === 3 ? 1 : 0.2 + ((i * 37) % 7) / 10));
      const system = billboards.createBillboardSystem(scene, 'sprites', {
        positions: new Float32Array(positions),
        sizes: [0.9, 0.7],
        colors,
      });
      const rotations = new Float32Array(8);
      rotations.set(quat.identity(), 0);
      rotations.set(quat.fromEuler(0.3, 0.8, 0.2, 'xyz'), 4);
      const splatMesh = splats.createSplatMesh(scene, 'splats', {
        centers: new Float32Array([-0.7, 1.6, -1, 1.2, 1.7, -1.5]),
        scales: new Float32Array([0.5, 0.3, 0.3, 0.6, 0.25, 0.4]),
        rotations,
        opacities: new Float32Array([0.9, 0.8]),
        colors: new Float32Array([1, 0.9, 0.1, 0.1, 1, 0.3]),
      });
      const target = engineApi.createRenderTarget(engine, { width, height, format: 'rgba8unorm' });
      const billboardTask = billboards.createBillboardRenderTask(system, { target });

      // No table: the old message, now true (this engine was given none).
      expect(miss(() => engineApi.runTasks(engine, [billboardTask])).message).toMatch(
        /No table was given to this engine.*weft's variant "billboard-color"/,
      );
      engineApi.usePrecomposedShaders(engine, table);
      // The table's shaders compile on the device first: until then frames return false.
      await engineApi.whenEngineReadyAsync(engine);
      engineApi.runTasks(engine, [billboardTask]);
      const pixels = await engineApi.readRenderTargetPixelsAsync(target);

      const picker = pickingApi.createGpuPicker(scene);
      expect(pickingApi.enableDetailedPicking(picker), 'Dawn on lavapipe has primitive-index').toBe(true);
      const points = Array.from({ length: width * height }, (_, i) => ({ x: i % width, y: Math.floor(i / width) }));
      const infos = await pickingApi.pickManyAsync(picker, points);

      // The reference: each pixel's ray against the sprite quads and splat ellipsoids, in float64.
      const camera = cameraBasis(eye, [0, 0, 0], fovY, width, height);
      const counts = { sprite: 0, splat: 0, miss: 0, worstColour: 0 };
      const mismatches: string[] = [];
      for (const [i, { x, y }] of points.entries()) {
        const ray: Ray = pixelRay(camera, x, y, width, height);
        const sprites = Array.from({ length: system.count }, (_, k) => spriteCandidate(system, camera, ray, k));
        const truth = nearest([...sprites, ...[0, 1].map((k) => splatCandidate(splatMesh, ray, k))]);
        if (truth === 'unsure') continue;
        const info = infos[i];
        const sprite = billboards.getPickedSpriteIndex(info);
        const got = !info.hit ? 'miss' : sprite >= 0 ? `sprite#${sprite}` : `splat#${splats.getPickedSplatIndex(info)}`;
        const expected = truth === 'miss' ? 'miss' : truth.name;
        if (got !== expected) mismatches.push(`(${x}, ${y}) ${got} ≠ ${expected}`);
        counts[expected.replace(/#\d+/, '') as 'sprite' | 'splat' | 'miss']++;
        // The billboard renderer's colour where only sprites are in the reference (splats are not drawn here).
        const spriteTruth = nearest(sprites);
        if (spriteTruth === 'unsure') continue;
        const index = spriteTruth === 'miss' ? -1 : Number(spriteTruth.name.split('#')[1]);
        for (let c = 0; c < 3; c++) {
          const want = index < 0 ? 0 : colors[index * 4 + c] * 255;
          counts.worstColour = Math.max(counts.worstColour, Math.abs(pixels[i * 4 + c] - want));
        }
      }
      console.log(`precomposed entities: picks ${JSON.stringify(counts)}, ${mismatches.length} mismatches`);
      expect(mismatches).toEqual([]);
      expect(counts.sprite).toBeGreaterThan(200);
      expect(counts.splat).toBeGreaterThan(40);
      expect(counts.worstColour).toBeLessThanOrEqual(1);

      // splat-color was not declared: the error names it and how to declare it; the billboards keep drawing.
      const splatTask = splats.createSplatRenderTask(splatMesh, { target });
      const error = miss(() => engineApi.runTasks(engine, [splatTask]));
      expect(error.code).toBe('not-precomposed');
      expect(error.message).toMatch(
        /The table holds .*billboard-color.*This is weft's variant "splat-color" \(weft:splats:splats\): declare it with weftVariants\(\{ variants: \["splat-color", …\] \}\)\.$/,
      );
      engineApi.runTasks(engine, [billboardTask]);
      expect([...(await engineApi.readRenderTargetPixelsAsync(target))]).toEqual([...pixels]);
      expect(uncaptured).toEqual([]);
    } finally {
      engineApi.disposeEngine(engine);
      vi.doUnmock(linkModule);
      vi.resetModules();
    }
  }, 120_000);
});
