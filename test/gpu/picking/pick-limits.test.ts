import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import { createBoxMesh, createScene, type Engine, makePerspectiveCamera, type Scene } from '../../../engine/index.js';
import {
  createGpuPicker,
  type GpuPicker,
  PickError,
  pickAsync,
  pickManyAsync,
  pickRectAsync,
  type PickingInfo,
} from '../../../picking/index.js';
import { pickPassDrawBudget } from '../../../picking/gpu/pick-pass-split.js';
import { gpuTest } from '../../support/gpu.js';

const who = (info: PickingInfo) =>
  info.hit ? `${info.pickedMesh!.name}${info.thinInstanceIndex >= 0 ? `#${info.thinInstanceIndex}` : ''}` : 'miss';

/** `count` walls much larger than the view, 0.01 apart in depth: every ray crosses all of them, wall0 is in front. */
function stackedWalls(engine: Engine, count: number): Scene {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [0, 0, 8], target: [0, 0, 0], fovY: 0.8 });
  for (let i = 0; i < count; i++)
    createBoxMesh(
      scene,
      `wall${i}`,
      { width: 40, height: 40, depth: 0.004 },
      { worldMatrix: mat4.translation([0, 0, -i * 0.01]) },
    );
  return scene;
}

/** Tangent of half the horizontal field of view, from the camera's own parameters (fovY 0.8). */
function worldXOfColumn(engine: Engine, column: number, depth: number): number {
  const aspect = engine.width / engine.height;
  const ndcX = ((column + 0.5) / engine.width) * 2 - 1;
  return ndcX * Math.tan(0.4) * aspect * depth;
}

async function chunked(picker: GpuPicker, points: { x: number; y: number }[], size: number): Promise<PickingInfo[]> {
  const out: PickingInfo[] = [];
  for (let i = 0; i < points.length; i += size) out.push(...(await pickManyAsync(picker, points.slice(i, i + size))));
  return out;
}

const summary = (info: PickingInfo) => `${who(info)}@${info.distance.toFixed(4)}`;

describe('picker limits', () => {
  gpuTest(
    'a pickManyAsync past one pass (points × overlapping meshes) splits and equals per-point picks',
    async ({ engine }) => {
      // 70 points × 256 walls crossing every ray = 17 920 draws, past one pass's draw budget: two passes. (The real
      // maxBufferSize bound, 1 100 points × 500 walls here, takes minutes on lavapipe; the unit test covers its plan.)
      const scene = stackedWalls(engine, 256);
      const picker = createGpuPicker(scene);
      expect(70 * 256).toBeGreaterThan(pickPassDrawBudget);
      const points = Array.from({ length: 70 }, (_, i) => ({ x: (i * 7) % 64, y: (i * 13) % 64 }));
      const big = await pickManyAsync(picker, points);
      const distanceOf = (p: { x: number; y: number }) => {
        // Analytic: the ray through the pixel centre meets wall0's front face (z = 0.002).
        const aspect = engine.width / engine.height;
        const dx = (((p.x + 0.5) / 64) * 2 - 1) * Math.tan(0.4) * aspect;
        const dy = (1 - ((p.y + 0.5) / 64) * 2) * Math.tan(0.4);
        return (8 - 0.002) * Math.hypot(dx, dy, 1);
      };
      big.forEach((info, i) => {
        expect(who(info), `point ${i}`).toBe('wall0');
        expect(info.distance).toBeCloseTo(distanceOf(points[i]), 2);
      });
      for (let i = 0; i < points.length; i += 9)
        expect(summary(big[i]), `point ${i}`).toBe(summary(await pickAsync(picker, points[i].x, points[i].y)));
      // The next pick is right.
      expect(who(await pickAsync(picker, 3, 40))).toBe('wall0');
    },
  );

  gpuTest(
    '10 000 points (past maxTextureDimension2D) just work and equal the same points in smaller calls',
    async ({ engine }) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0, 8], target: [0, 0, 0], fovY: 0.8 });
      // Left half: a box; right half: nothing.
      createBoxMesh(
        scene,
        'left',
        { width: 4, height: 40, depth: 0.2 },
        { worldMatrix: mat4.translation([-2.5, 0, 0]) },
      );
      const picker = createGpuPicker(scene);
      const points = Array.from({ length: 10_000 }, (_, i) => ({ x: i % 64, y: Math.floor(i / 64) % 64 }));
      expect(points.length).toBeGreaterThan(engine.device.limits.maxTextureDimension2D);
      const big = await pickManyAsync(picker, points);
      const expected = (p: { x: number }) => {
        // The box spans world x −4.5..−0.5 on its front face (z = 0.1): analytic projection of its edges.
        const edge = (x: number) => ((x / (8 - 0.1) / (Math.tan(0.4) * (engine.width / engine.height)) + 1) / 2) * 64;
        const centre = p.x + 0.5;
        return centre > edge(-4.5) && centre < edge(-0.5) ? 'left' : 'miss';
      };
      big.forEach((info, i) => expect(who(info), `point ${i}`).toBe(expected(points[i])));
      // Points on both sides of the 8 192 boundary equal the same points in a smaller call.
      expect(big.slice(8000, 8400).map(summary)).toEqual(
        (await chunked(picker, points.slice(8000, 8400), 200)).map(summary),
      );
      expect(who(await pickAsync(picker, 5, 5))).toBe('left');
    },
  );

  gpuTest('an oversize pickRectAsync (8292 × 1) is tiled and the next pick is right', async ({ engine }) => {
    const scene = stackedWalls(engine, 1);
    const picker = createGpuPicker(scene);
    const viewport = { width: 8292, height: 1 };
    expect(viewport.width).toBeGreaterThan(engine.device.limits.maxTextureDimension2D);
    const found = await pickRectAsync(picker, 0, 0, 8292, 1, { viewport });
    expect(found.map((f) => f.mesh?.name)).toEqual(['wall0']);
    // A mesh seen only in the last 100 columns is found too (the second tile).
    const scene2 = createScene(engine);
    scene2.camera = makePerspectiveCamera({ position: [0, 0, 8], target: [0, 0, 0], fovY: 0.8 });
    const edge = worldXOfColumn({ width: 8292, height: 1 } as Engine, 8250, 8);
    createBoxMesh(
      scene2,
      'far-right',
      { width: 3, height: 40, depth: 0.1 },
      {
        worldMatrix: mat4.translation([edge, 0, 0]),
      },
    );
    const picker2 = createGpuPicker(scene2);
    expect((await pickRectAsync(picker2, 0, 0, 8292, 1, { viewport })).map((f) => f.mesh?.name)).toEqual(['far-right']);
    expect(await pickRectAsync(picker2, 0, 0, 8200, 1, { viewport })).toEqual([]);
    expect(who(await pickAsync(picker, 10, 10))).toBe('wall0');
    expect((await pickRectAsync(picker, 0, 0, 64, 64)).map((f) => f.mesh?.name)).toEqual(['wall0']);
  });

  gpuTest(
    'a marquee starting mid-pixel covers every pixel it touches (7.4..12.1 reads columns 7–12)',
    async ({ engine }) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0, 8], target: [0, 0, 0], fovY: 0.8 });
      // A sliver covering only the centre of column 12 (a pixel is ~0.106 world units wide at z = 0).
      createBoxMesh(
        scene,
        'col12',
        { width: 0.02, height: 40, depth: 0.02 },
        {
          worldMatrix: mat4.translation([worldXOfColumn(engine, 12, 8), 0, 0]),
        },
      );
      const picker = createGpuPicker(scene);
      expect(who(await pickAsync(picker, 12, 30))).toBe('col12');
      expect(who(await pickAsync(picker, 11, 30))).toBe('miss');
      expect((await pickRectAsync(picker, 7.4, 20, 4.7, 4)).map((f) => f.mesh?.name)).toEqual(['col12']);
      // Same along y (rows 20.5..24.2 touch rows 20–24) and at pixel ratio 2.
      expect((await pickRectAsync(picker, 11.6, 20.5, 0.5, 3.7)).map((f) => f.mesh?.name)).toEqual(['col12']);
      expect((await pickRectAsync(picker, 3.7, 10, 2.36, 2, { devicePixelRatio: 2 })).map((f) => f.mesh?.name)).toEqual(
        ['col12'],
      );
      // Ending exactly on a pixel edge does not take the next column.
      expect(await pickRectAsync(picker, 7, 20, 5, 4)).toEqual([]);
    },
  );

  gpuTest('every bad pickRectAsync input rejects with a typed PickError naming the value', async ({ engine }) => {
    const scene = stackedWalls(engine, 1);
    const picker = createGpuPicker(scene);
    const bad: [string, () => Promise<unknown>, string, RegExp][] = [
      ['x NaN', () => pickRectAsync(picker, Number.NaN, 0, 2, 2), 'bad-coordinates', /NaN/],
      ['y string', () => pickRectAsync(picker, 0, '3' as never, 2, 2), 'bad-coordinates', /"3"/],
      ['width NaN', () => pickRectAsync(picker, 0, 0, Number.NaN, 2), 'out-of-range', /NaN/],
      ['width string', () => pickRectAsync(picker, 0, 0, '2' as never, 2), 'out-of-range', /"2"/],
      ['height −1', () => pickRectAsync(picker, 0, 0, 2, -1), 'out-of-range', /-1/],
      ['height Infinity', () => pickRectAsync(picker, 0, 0, 2, Number.POSITIVE_INFINITY), 'out-of-range', /Infinity/],
      ['outside', () => pickRectAsync(picker, 60, 60, 10, 10), 'out-of-range', /10/],
      ['options 42', () => pickRectAsync(picker, 0, 0, 2, 2, 42 as never), 'bad-option', /42/],
      ['unknown key', () => pickRectAsync(picker, 0, 0, 2, 2, { maxResult: 2 } as never), 'bad-option', /maxResult/],
      ['maxResults 0', () => pickRectAsync(picker, 0, 0, 2, 2, { maxResults: 0 }), 'bad-option', /maxResults 0/],
      ['maxResults string', () => pickRectAsync(picker, 0, 0, 2, 2, { maxResults: '3' as never }), 'bad-option', /"3"/],
      ['maxResults 1.5', () => pickRectAsync(picker, 0, 0, 2, 2, { maxResults: 1.5 }), 'bad-option', /1\.5/],
      ['viewport', () => pickRectAsync(picker, 0, 0, 2, 2, { viewport: { width: -4, height: 2 } }), 'bad-option', /-4/],
      ['viewport null', () => pickRectAsync(picker, 0, 0, 2, 2, { viewport: null as never }), 'bad-option', /null/],
      ['ratio', () => pickRectAsync(picker, 0, 0, 2, 2, { devicePixelRatio: 0 }), 'bad-option', /0/],
      ['filter', () => pickRectAsync(picker, 0, 0, 2, 2, { filter: 3 as never }), 'bad-option', /3/],
      ['discard', () => pickRectAsync(picker, 0, 0, 2, 2, { discard: 5 as never }), 'bad-rule', /5/],
    ];
    for (const [name, call, code, value] of bad) {
      const error = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, name).toBeInstanceOf(PickError);
      expect((error as PickError).code, `${name}: ${(error as Error).message}`).toBe(code);
      expect((error as PickError).api, name).toBe('pickRectAsync');
      expect((error as Error).message, name).toMatch(value);
    }
    expect((await pickRectAsync(picker, 0, 0, 64, 64)).map((f) => f.mesh?.name)).toEqual(['wall0']);
  });

  gpuTest('the staging pool shrinks after a burst of 1 000 picks', async ({ engine }) => {
    const scene = stackedWalls(engine, 1);
    const picker = createGpuPicker(scene);
    const burst = await Promise.all(Array.from({ length: 1000 }, (_, i) => pickAsync(picker, i % 64, (i >> 6) % 64)));
    expect(burst.every((info) => who(info) === 'wall0')).toBe(true);
    for (let i = 0; i < 20; i++) expect(who(await pickAsync(picker, i, i))).toBe('wall0');
    expect(picker.gpu!.staging.all.size).toBeLessThanOrEqual(4);
    // A burst of one large many-point pick is released too.
    await pickManyAsync(
      picker,
      Array.from({ length: 1000 }, (_, i) => ({ x: i % 64, y: (i >> 6) % 64 })),
    );
    for (let i = 0; i < 20; i++) await pickAsync(picker, i, i);
    expect(picker.gpu!.staging.all.size).toBeLessThanOrEqual(4);
    // A steady load of 16 concurrent picks keeps its 16 buffers: later rounds create none.
    const round = () => Promise.all(Array.from({ length: 16 }, (_, i) => pickAsync(picker, i, 2 * i)));
    await round();
    const created = picker.gpu!.staging.created;
    for (let r = 0; r < 5; r++) expect((await round()).every((info) => who(info) === 'wall0')).toBe(true);
    expect(picker.gpu!.staging.created).toBe(created);
    expect(picker.gpu!.staging.all.size).toBeLessThanOrEqual(16);
  });
});
