import { mat4, vec4 } from 'wgpu-matrix';
import { beforeAll, describe, expect } from 'vitest';
import { loadSceneHierarchyAsync } from '../../../picking/gpu-picker.js';
import {
  createBoxMesh,
  createScene,
  disposeMesh,
  type Engine,
  getCameraViewProjectionMatrix,
  makePerspectiveCamera,
  type Mesh,
  renderFrame,
  type Scene,
  whenEngineReadyAsync,
  setMeshWorldMatrix,
} from '../../../engine/index.js';
import {
  createGpuPicker,
  disposeGpuPicker,
  enableDetailedPicking,
  type GpuPicker,
  PickError,
  pickAsync,
  pickManyAsync,
  pickRectAsync,
  type PickingInfo,
} from '../../../picking/index.js';
import { makePickSnapshot } from '../../../picking/pick-snapshot.js';
import { gpuTest } from '../../support/gpu.js';
import { countDeviceCreates } from '../../support/create-counter.js';

interface Layout {
  scene: Scene;
  left: Mesh;
  middle: Mesh;
  right: Mesh;
  row: Mesh;
  back: Mesh;
}

/** Three boxes in a row at y = 1, a thin-instanced row of three at y = −1, a wide wall behind all of them. */
function knownLayout(engine: Engine): Layout {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [0, 0, 8], target: [0, 0, 0], fovY: 0.8 });
  const box = (name: string, x: number, y: number) =>
    createBoxMesh(scene, name, { width: 1, height: 1, depth: 1 }, { worldMatrix: mat4.translation([x, y, 0]) });
  const left = box('left', -2, 1);
  const middle = box('middle', 0, 1);
  const right = box('right', 2, 1);
  const instances = new Float32Array(48);
  [-2, 0, 2].forEach((x, i) => {
    instances.set(mat4.translation([x, 0, 0]), i * 16);
    instances[i * 16 + 3] = i + 10;
  });
  const row = createBoxMesh(scene, 'row', {}, { worldMatrix: mat4.translation([0, -1, 0]), thinInstances: instances });
  const back = createBoxMesh(
    scene,
    'back',
    { width: 12, height: 8, depth: 0.2 },
    { worldMatrix: mat4.translation([0, 0, -2]) },
  );
  return { scene, left, middle, right, row, back };
}

/** The framebuffer pixel a world point projects to (independent of the picker's maths). */
function pixelOf(engine: Engine, scene: Scene, point: [number, number, number]): [number, number] {
  const clip = vec4.transformMat4(
    [...point, 1],
    getCameraViewProjectionMatrix(scene.camera!, engine.width / engine.height),
  );
  return [
    Math.floor(((clip[0] / clip[3] + 1) / 2) * engine.width),
    Math.floor(((1 - clip[1] / clip[3]) / 2) * engine.height),
  ];
}

const who = (info: PickingInfo) =>
  info.hit ? `${info.pickedMesh!.name}${info.thinInstanceIndex >= 0 ? `#${info.thinInstanceIndex}` : ''}` : 'miss';

async function pickAt(
  picker: GpuPicker,
  layout: Layout,
  point: [number, number, number],
  options = {},
): Promise<string> {
  const [x, y] = pixelOf(picker.scene.engine, layout.scene, point);
  return who(await pickAsync(picker, x, y, options));
}

describe('GPU picker', () => {
  // The GPU picker loads its scene-hierarchy path on first need (the first large pick scans); these tests are about
  // that path, so it is loaded before they pick.
  beforeAll(() => loadSceneHierarchyAsync());
  gpuTest(
    'hits the object drawn at a pixel, instances by index, and misses the background',
    async ({ engine }) => {
      const layout = knownLayout(engine);
      const picker = createGpuPicker(layout.scene);
      expect(await pickAt(picker, layout, [-2, 1, 0.5])).toBe('left');
      expect(await pickAt(picker, layout, [2, 1, 0.5])).toBe('right');
      expect(await pickAt(picker, layout, [2, -1, 0.5])).toBe('row#2');
      expect(await pickAt(picker, layout, [0, 3, -1.9])).toBe('back');
      const miss = await pickAsync(picker, 0, 0);
      expect(miss.hit).toBe(false);
      expect(miss.pickedMesh).toBeNull();
      expect(miss.faceId).toBe(-1);
      // Basic mode: identity, point and distance, no triangle detail.
      const [x, y] = pixelOf(engine, layout.scene, [0, 1, 0.5]);
      const info = await pickAsync(picker, x, y);
      expect(info.faceId).toBe(-1);
      expect(info.pickedPoint![2]).toBeCloseTo(0.5, 4);
      expect(info.distance).toBeCloseTo(
        Math.hypot(info.pickedPoint![0], info.pickedPoint![1] - 0, info.pickedPoint![2] - 8),
        5,
      );
    },
    [96, 64],
  );

  gpuTest(
    'filter and pickable exclude; visible does not gate; ignore skips a mesh, one instance or a range',
    async ({ engine }) => {
      const layout = knownLayout(engine);
      const picker = createGpuPicker(layout.scene);
      expect(await pickAt(picker, layout, [0, 1, 0.5], { filter: (m: Mesh) => m !== layout.middle })).toBe('back');
      layout.middle.pickable = false;
      expect(await pickAt(picker, layout, [0, 1, 0.5])).toBe('back');
      layout.middle.pickable = true;
      layout.middle.visible = false; // an invisible collider still picks
      expect(await pickAt(picker, layout, [0, 1, 0.5])).toBe('middle');
      expect(await pickAt(picker, layout, [0, 1, 0.5], { ignore: [layout.middle] })).toBe('back');
      expect(await pickAt(picker, layout, [0, -1, 0.5], { ignore: [{ mesh: layout.row, thinInstances: 1 }] })).toBe(
        'back',
      );
      expect(await pickAt(picker, layout, [2, -1, 0.5], { ignore: [{ mesh: layout.row, thinInstances: 1 }] })).toBe(
        'row#2',
      );
      expect(
        await pickAt(picker, layout, [-2, -1, 0.5], { ignore: [{ mesh: layout.row, thinInstances: [0, 2] }] }),
      ).toBe('back');
      expect(
        await pickAt(picker, layout, [2, -1, 0.5], { ignore: [{ mesh: layout.row, thinInstances: [0, 2] }] }),
      ).toBe('row#2');
      await expect(
        pickAt(picker, layout, [2, -1, 0.5], { ignore: [{ mesh: layout.row, thinInstances: [2, 9] }] }),
      ).rejects.toThrow(/thin instances \[2, 9\]|must be an index or a \[start, end\) range inside 0..3/);
    },
    [96, 64],
  );

  gpuTest(
    'an ignored mesh consumes no ID: the next mesh takes the ID it would have had',
    async ({ engine }) => {
      const layout = knownLayout(engine);
      const picker = createGpuPicker(layout.scene);
      const all = makePickSnapshot('test', layout.scene.meshes, { preFilter: false }, null);
      const ignoring = makePickSnapshot('test', layout.scene.meshes, { ignore: [layout.left], preFilter: false }, null);
      expect(all.candidates.map((c) => [c.mesh.name, c.baseId, c.idCount])).toEqual([
        ['left', 1, 1],
        ['middle', 2, 1],
        ['right', 3, 1],
        ['row', 4, 3],
        ['back', 7, 1],
      ]);
      expect(ignoring.candidates.map((c) => [c.mesh.name, c.baseId])).toEqual([
        ['middle', 1],
        ['right', 2],
        ['row', 3],
        ['back', 6],
      ]);
      const [x, y] = pixelOf(engine, layout.scene, [2, 1, 0.5]);
      const infos = await pickManyAsync(picker, [{ x, y }], { ignore: [layout.left], preFilter: false });
      expect(who(infos[0])).toBe('right');
    },
    [96, 64],
  );

  gpuTest(
    'the answer is fixed when the pass is encoded: moving, removing or reordering meshes during the await changes nothing',
    async ({ engine }) => {
      const layout = knownLayout(engine);
      const picker = createGpuPicker(layout.scene);
      enableDetailedPicking(picker);
      const [x, y] = pixelOf(engine, layout.scene, [0, 1, 0.5]);
      const before = await pickAsync(picker, x, y);
      const pending = pickAsync(picker, x, y);
      setMeshWorldMatrix(layout.middle, mat4.translation([40, 0, 0]));
      layout.scene.meshes.reverse();
      disposeMesh(layout.left);
      const after = await pending;
      expect(who(after)).toBe('middle');
      expect(after.faceId).toBe(before.faceId);
      expect(after.pickedPoint).toEqual(before.pickedPoint);
      expect(after.pickedNormalWorld).toEqual(before.pickedNormalWorld);
      expect(who(await pickAsync(picker, x, y))).toBe('back');
    },
    [96, 64],
  );

  gpuTest(
    '100 concurrent picks each resolve with their own answer',
    async ({ engine }) => {
      const layout = knownLayout(engine);
      const picker = createGpuPicker(layout.scene);
      const targets: [[number, number, number], string][] = [
        [[-2, 1, 0.5], 'left'],
        [[0, 1, 0.5], 'middle'],
        [[2, 1, 0.5], 'right'],
        [[0, -1, 0.5], 'row#1'],
        [[0, 3, -1.9], 'back'],
      ];
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) => pickAt(picker, layout, targets[i % 5][0])),
      );
      expect(results).toEqual(Array.from({ length: 100 }, (_, i) => targets[i % 5][1]));
    },
    [96, 64],
  );

  gpuTest(
    'dispose rejects picks in flight with a clear error; later calls throw',
    async ({ engine }) => {
      const layout = knownLayout(engine);
      const picker = createGpuPicker(layout.scene);
      await pickAsync(picker, 10, 10);
      const inFlight = [pickAsync(picker, 20, 20), pickAsync(picker, 30, 30)];
      disposeGpuPicker(picker);
      for (const pick of inFlight)
        await expect(pick).rejects.toThrow('the picker was disposed while the pick was in flight');
      await expect(pickAsync(picker, 1, 1)).rejects.toThrow(
        'pickAsync: the picker was disposed; create a new one with createGpuPicker(scene)',
      );
      expect(() => enableDetailedPicking(picker)).toThrow(PickError);
    },
    [96, 64],
  );

  gpuTest(
    'after a device loss the picker rebuilds on the new device; a pick in flight is redrawn there',
    async ({ engine }) => {
      const layout = knownLayout(engine);
      const picker = createGpuPicker(layout.scene);
      enableDetailedPicking(picker);
      const [x, y] = pixelOf(engine, layout.scene, [2, 1, 0.5]);
      const before = await pickAsync(picker, x, y);
      const lost = engine.device;
      const pending = pickAsync(picker, x, y);
      lost.destroy();
      const during = await pending;
      await whenEngineReadyAsync(engine);
      expect(engine.device).not.toBe(lost);
      const after = await pickAsync(picker, x, y);
      expect(picker.gpu!.device).toBe(engine.device);
      for (const info of [during, after]) {
        expect(who(info)).toBe('right');
        expect(info.faceId).toBe(before.faceId);
        expect(info.pickedPoint).toEqual(before.pickedPoint);
      }
      expect(renderFrame(layout.scene)).toBe(true);
    },
    [96, 64],
  );

  gpuTest(
    'a warm pick, pickMany and pickRect create no GPU objects',
    async ({ engine }) => {
      const layout = knownLayout(engine);
      const picker = createGpuPicker(layout.scene);
      enableDetailedPicking(picker);
      const points = [
        { x: 10, y: 10 },
        { x: 40, y: 20 },
        { x: 60, y: 40 },
      ];
      await pickAsync(picker, 48, 20);
      await pickManyAsync(picker, points);
      await pickRectAsync(picker, 0, 0, 96, 64);
      const counter = countDeviceCreates(engine.device);
      try {
        for (let i = 0; i < 5; i++) {
          await pickAsync(picker, 48 - i, 20 + i);
          await pickManyAsync(picker, points);
          await pickRectAsync(picker, 0, 0, 96, 64);
        }
        expect(counter.count()).toBe(0);
      } finally {
        counter.restore();
      }
    },
    [96, 64],
  );

  gpuTest(
    'pickManyAsync gives exactly what single picks give, in one pass',
    async ({ engine }) => {
      const layout = knownLayout(engine);
      const picker = createGpuPicker(layout.scene);
      enableDetailedPicking(picker);
      const points = Array.from({ length: 64 }, (_, i) => ({ x: (i * 37) % 96, y: (i * 23) % 64 }));
      const many = await pickManyAsync(picker, points);
      const single = await Promise.all(points.map((p) => pickAsync(picker, p.x, p.y)));
      expect(many.filter((m) => m.hit).length).toBeGreaterThan(20);
      many.forEach((info, i) => {
        expect(who(info), `point ${i}`).toBe(who(single[i]));
        expect(info.faceId).toBe(single[i].faceId);
        // The same pixel rasterised in another viewport column: vertices snap to the sub-pixel grid at a
        // different offset, so continuous values agree to rounding (far inside the 1e-3 accuracy bound).
        info.pickedPoint?.forEach((c, k) =>
          expect(Math.abs(c - single[i].pickedPoint![k])).toBeLessThan(1e-5 * single[i].distance),
        );
        expect(Math.abs(info.bu - single[i].bu)).toBeLessThan(1e-5);
        expect(Math.abs(info.bv - single[i].bv)).toBeLessThan(1e-5);
      });
    },
    [96, 64],
  );

  gpuTest(
    'on a scene big enough for the scene hierarchy, pickManyAsync still equals single picks (filters and ignores too)',
    async ({ engine }) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0.3, 9, 7], target: [0, 0, 0], fovY: 0.9 });
      for (let i = 0; i < 120; i++) {
        createBoxMesh(
          scene,
          `b${i}`,
          { width: 0.5, height: 0.5 + (i % 3) * 0.3, depth: 0.5 },
          { worldMatrix: mat4.translation([(i % 12) * 0.8 - 4.4, 0, Math.floor(i / 12) * 0.8 - 3.6]) },
        );
      }
      const instances = new Float32Array(10 * 16);
      for (let k = 0; k < 10; k++) instances.set(mat4.translation([k * 0.8 - 3.6, 1.2, 0.4]), k * 16);
      const row = createBoxMesh(scene, 'row', { width: 0.4, height: 0.4, depth: 0.4 }, { thinInstances: instances });
      const picker = createGpuPicker(scene);
      const points = Array.from({ length: 80 }, (_, i) => ({ x: (i * 37) % 96, y: (i * 23) % 64 }));
      const options = {
        ignore: [scene.meshes[5], { mesh: row, thinInstances: [2, 5] as const }],
        filter: (m: Mesh) => m.name !== 'b7',
      };
      const many = await pickManyAsync(picker, points, options);
      const scan = await pickManyAsync(picker, points, { ...options, preFilter: false });
      const single: string[] = [];
      for (const p of points) single.push(who(await pickAsync(picker, p.x, p.y, options)));
      expect(many.map(who)).toEqual(single);
      expect(scan.map(who)).toEqual(single);
      expect(new Set(single).size).toBeGreaterThan(15);
      expect(single.some((w) => w.startsWith('row#'))).toBe(true);
    },
    [96, 64],
  );

  gpuTest(
    'pickRectAsync returns the deduplicated identities inside the marquee, capped by maxResults',
    async ({ engine }) => {
      const layout = knownLayout(engine);
      const picker = createGpuPicker(layout.scene);
      const [x0, y0] = pixelOf(engine, layout.scene, [-2.7, 1.7, 0.5]);
      const [x1, y1] = pixelOf(engine, layout.scene, [0.7, -1.7, 0.5]);
      const found = await pickRectAsync(picker, x0, y0, x1 - x0, y1 - y0);
      const names = found
        .map((f) => `${f.mesh!.name}${f.thinInstanceIndex >= 0 ? `#${f.thinInstanceIndex}` : ''}`)
        .sort();
      expect(names).toEqual(['back', 'left', 'middle', 'row#0', 'row#1']);
      expect(await pickRectAsync(picker, x0, y0, x1 - x0, y1 - y0, { maxResults: 2 })).toHaveLength(2);
    },
    [96, 64],
  );

  gpuTest(
    'bad input gives typed errors and the picker keeps working',
    async ({ engine }) => {
      const layout = knownLayout(engine);
      const picker = createGpuPicker(layout.scene);
      await expect(pickAsync(picker, Number.NaN, 3)).rejects.toThrow(
        'pickAsync: coordinates (NaN, 3) must be finite numbers',
      );
      await expect(pickAsync(picker, 96, 3)).rejects.toThrow(
        'pickAsync: pixel (96, 3) is outside the 96×64 framebuffer (0..95, 0..63)',
      );
      await expect(pickAsync(picker, -1, 3)).rejects.toBeInstanceOf(PickError);
      await expect(
        pickAsync(picker, 10, 10, { devicePixelRatio: 2, viewport: { width: 96, height: 64 } }),
      ).resolves.toBeDefined();
      await expect(pickAsync(picker, 50, 10, { devicePixelRatio: 2 })).rejects.toThrow(
        'pixel (50, 10) × ratio 2 is outside the 96×64 framebuffer',
      );
      await expect(pickManyAsync(picker, [])).rejects.toThrow(
        'pickManyAsync: points array(0) must be a non-empty array of { x, y }',
      );
      // The ray helper throws the PickError itself, naming the API and the point.
      const badPoint = await pickManyAsync(picker, [
        { x: 1, y: 1 },
        { x: Infinity, y: 0 },
      ]).catch((e: unknown) => e);
      expect(badPoint).toBeInstanceOf(PickError);
      expect(badPoint).toMatchObject({
        api: 'pickManyAsync',
        code: 'bad-coordinates',
        message: 'pickManyAsync: points[1]: coordinates (Infinity, 0) must be finite numbers',
      });
      await expect(
        pickManyAsync(picker, [
          { x: 1, y: 1 },
          { x: 3, y: 99 },
        ]),
      ).rejects.toMatchObject({
        code: 'out-of-range',
        message: expect.stringContaining('pickManyAsync: points[1]: pixel (3, 99) is outside'),
      });
      await expect(pickRectAsync(picker, Number.NaN, 1, 2, 2)).rejects.toMatchObject({
        api: 'pickRectAsync',
        code: 'bad-coordinates',
      });
      await expect(pickRectAsync(picker, 90, 60, 10, 10)).rejects.toThrow(
        /must be at least 1×1 and inside the 96×64 framebuffer/,
      );
      expect(await pickAt(picker, layout, [0, 1, 0.5])).toBe('middle');
    },
    [96, 64],
  );

  gpuTest(
    'in large scenes the scene hierarchy finds the same candidates as drawing everything',
    async ({ engine }) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 14, 9], target: [0, 0, 0], fovY: 0.9 });
      for (let i = 0; i < 120; i++) {
        createBoxMesh(
          scene,
          `box${i}`,
          { width: 0.6, height: 0.3 + (i % 5) * 0.2, depth: 0.6 },
          { worldMatrix: mat4.translation([(i % 12) - 5.5, 0, Math.floor(i / 12) - 4.5]) },
        );
      }
      const instances = new Float32Array(20 * 16);
      for (let i = 0; i < 20; i++)
        instances.set(mat4.translation([(i % 10) - 4.5, 1.5, Math.floor(i / 10) * 2 - 1]), i * 16);
      const row = createBoxMesh(
        scene,
        'floating',
        { width: 0.4, height: 0.4, depth: 0.4 },
        { thinInstances: instances },
      );
      const picker = createGpuPicker(scene);
      enableDetailedPicking(picker);
      let hits = 0;
      for (let k = 0; k < 150; k++) {
        const x = (k * 37) % 96;
        const y = (k * 53) % 64;
        const options = { ignore: [{ mesh: row, thinInstances: [3, 6] as const }, scene.meshes[7]] };
        const viaHierarchy = await pickAsync(picker, x, y, options);
        const drawingAll = await pickAsync(picker, x, y, { ...options, preFilter: false });
        expect(`${who(viaHierarchy)}:${viaHierarchy.faceId}`, `pixel ${x},${y}`).toBe(
          `${who(drawingAll)}:${drawingAll.faceId}`,
        );
        if (viaHierarchy.hit) hits++;
      }
      expect(hits).toBeGreaterThan(20);
    },
    [96, 64],
  );
});
