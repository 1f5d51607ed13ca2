import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import { createBoxMesh, createScene, type Engine, makePerspectiveCamera, type Scene } from '../../../engine/index.js';
import {
  createGpuPicker,
  type GpuPicker,
  PickError,
  type PickedIdentity,
  pickAsync,
  pickRectAsync,
} from '../../../picking/index.js';
import { pickRectByReadbackAsync } from '../../../picking/rect/pick-rect-readback.js';
import { checkRectReduceLimits } from '../../../picking/gpu/id-bitset-reduce.js';
import { pixelToPlane, type RefBox, type RefCamera, refRect } from '../../support/box-rays.js';
import { countDeviceCreates } from '../../support/create-counter.js';
import { gpuTest } from '../../support/gpu.js';
import { expectRectReference, rectKeyOf, seededRandom } from '../../support/rect-expect.js';

type Rect = { x: number; y: number; width: number; height: number };

const keyOf = rectKeyOf;
const random = seededRandom;

/** One box mesh per reference box, in order (scene order = the boxes' order). */
function addBoxes(scene: Scene, boxes: readonly RefBox[]): void {
  for (const b of boxes) {
    const size = [0, 1, 2].map((k) => b.max[k] - b.min[k]);
    const centre = [0, 1, 2].map((k) => (b.min[k] + b.max[k]) / 2);
    createBoxMesh(
      scene,
      b.key,
      { width: size[0], height: size[1], depth: size[2] },
      { worldMatrix: mat4.translation(centre) },
    );
  }
}

function makeScene(engine: Engine, camera: RefCamera, boxes: readonly RefBox[]): { scene: Scene; picker: GpuPicker } {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({
    position: [...camera.position],
    target: [...camera.target],
    fovY: camera.fovY,
  });
  addBoxes(scene, boxes);
  return { scene, picker: createGpuPicker(scene) };
}

/** `count` boxes of random size scattered (and overlapping, occluding each other) in front of `camera`. */
function randomBoxes(count: number, seed: number, spread = [4, 3, 2]): RefBox[] {
  const r = random(seed);
  return Array.from({ length: count }, (_, i) => {
    const c = spread.map((s) => (r() * 2 - 1) * s);
    const h = [0, 1, 2].map(() => 0.15 + r() * 0.6);
    return { key: `m${i}`, min: [c[0] - h[0], c[1] - h[1], c[2] - h[2]], max: [c[0] + h[0], c[1] + h[1], c[2] + h[2]] };
  });
}

const expectReference = expectRectReference;

async function bothPaths(picker: GpuPicker, rect: Rect): Promise<PickedIdentity[]> {
  const reduced = await pickRectAsync(picker, rect.x, rect.y, rect.width, rect.height);
  const readBack = await pickRectByReadbackAsync(picker, rect.x, rect.y, rect.width, rect.height);
  expect(reduced.map(keyOf).sort()).toEqual(readBack.map(keyOf).sort());
  return reduced;
}

const oblique: RefCamera = { position: [2.5, 1.5, 9], target: [0.2, -0.1, 0], fovY: 0.9 };
const straight: RefCamera = { position: [0, 0, 10], target: [0, 0, 0], fovY: 0.8 };

describe('pickRectAsync against float64 rays through every pixel centre', () => {
  gpuTest(
    'random overlapping boxes under an oblique camera: the union of first hits, in scene order, on both paths',
    async ({ engine }) => {
      const boxes = randomBoxes(40, 7);
      const { picker } = makeScene(engine, oblique, boxes);
      const order = boxes.map((b) => b.key);
      for (const rect of [
        { x: 0, y: 0, width: 160, height: 120 },
        { x: 30, y: 20, width: 50, height: 40 },
        { x: 71, y: 55, width: 13, height: 9 },
        { x: 100, y: 10, width: 60, height: 100 },
        { x: 5, y: 90, width: 120, height: 3 },
      ]) {
        const ref = refRect(oblique, 160, 120, boxes, rect);
        expect(ref.certain.size).toBeGreaterThan(0);
        expectReference(await bothPaths(picker, rect), ref, order, JSON.stringify(rect));
      }
      // Boxes of random sizes: no two meshes batch, and maxResults keeps the first identities in scene order.
      const all = (await pickRectAsync(picker, 0, 0, 160, 120)).map(keyOf);
      expect(all.length).toBeGreaterThan(5);
      expect((await pickRectAsync(picker, 0, 0, 160, 120, { maxResults: 5 })).map(keyOf)).toEqual(all.slice(0, 5));
    },
    [160, 120],
  );

  gpuTest(
    'a box wholly hidden behind another inside the rectangle is not reported; one peeking past the edge is',
    async ({ engine }) => {
      const boxes: RefBox[] = [
        { key: 'hidden', min: [-0.8, -0.6, -1.5], max: [0.8, 0.6, -1] },
        { key: 'peek', min: [1, -0.5, -1.5], max: [2.3, 0.5, -1] },
        { key: 'wall', min: [-1.5, -1.2, 0.5], max: [1.5, 1.2, 0.6] },
      ];
      const { picker } = makeScene(engine, straight, boxes);
      const rect = { x: 30, y: 20, width: 100, height: 80 };
      const ref = refRect(straight, 160, 120, boxes, rect);
      expect(ref.ambiguous).toBe(0);
      expect([...ref.certain].sort()).toEqual(['peek', 'wall']);
      expect((await bothPaths(picker, rect)).map(keyOf)).toEqual(['peek', 'wall']);
      // Only the wall's face in front of the hidden box.
      const inner = { x: 70, y: 50, width: 20, height: 20 };
      expect(refRect(straight, 160, 120, boxes, inner).certain).toEqual(new Set(['wall']));
      expect((await bothPaths(picker, inner)).map(keyOf)).toEqual(['wall']);
    },
    [160, 120],
  );

  gpuTest(
    'boxes straddling each border: in by one pixel centre is reported, out by one pixel is not',
    async ({ engine }) => {
      // The rectangle covers columns 40..99 and rows 30..69. Box edges lie on the plane z = 0 a quarter pixel past
      // (in) or short of (out) the centres of its border pixels; boxes are 0.01 deep so their sides cover no centre.
      const { x, y } = pixelToPlane(straight, 160, 120, 10);
      const box = (key: string, px: [number, number], py: [number, number]): RefBox => ({
        key,
        min: [x(px[0]), y(py[1]), -0.01],
        max: [x(px[1]), y(py[0]), 0],
      });
      const boxes = [
        box('inLeft', [10, 40.75], [33, 37]),
        box('outLeft', [10, 40.25], [40, 44]),
        box('inRight', [99.25, 130], [33, 37]),
        box('outRight', [99.75, 130], [40, 44]),
        box('inTop', [50, 55], [5, 30.75]),
        box('outTop', [60, 65], [5, 30.25]),
        box('inBottom', [50, 55], [69.25, 100]),
        box('outBottom', [60, 65], [69.75, 100]),
        box('inCorner', [10, 40.75], [5, 30.75]),
        box('outCorner', [99.75, 130], [69.75, 100]),
        box('far', [135, 150], [5, 20]),
      ];
      const { picker } = makeScene(engine, straight, boxes);
      const expected = ['inLeft', 'inRight', 'inTop', 'inBottom', 'inCorner'];
      for (const rect of [
        { x: 40, y: 30, width: 60, height: 40 },
        // Fractional: columns floor(40.3) .. ceil(99.7) − 1, rows 30 .. 69, the same pixels.
        { x: 40.3, y: 30.9, width: 59.4, height: 38.5 },
      ]) {
        const ref = refRect(straight, 160, 120, boxes, { x: 40, y: 30, width: 60, height: 40 });
        expect(ref.ambiguous).toBe(0);
        expect([...ref.certain]).toEqual(expect.arrayContaining(expected));
        expect(ref.certain.size).toBe(expected.length);
        expect((await bothPaths(picker, rect)).map(keyOf)).toEqual(expected);
      }
      // One pixel wider on every side reaches every "out" box.
      const wider = await pickRectAsync(picker, 39, 29, 62, 42);
      expect(wider.map(keyOf)).toEqual(boxes.slice(0, 10).map((b) => b.key));
    },
    [160, 120],
  );

  gpuTest(
    'rectangles at the canvas edges and corners; a rectangle leaving the canvas is refused, not clipped',
    async ({ engine }) => {
      // Boxes spill past the canvas on every side.
      const boxes = randomBoxes(50, 11, [6.5, 5, 2]);
      const { picker } = makeScene(engine, oblique, boxes);
      const order = boxes.map((b) => b.key);
      for (const rect of [
        { x: 0, y: 0, width: 160, height: 120 },
        { x: 0, y: 0, width: 1, height: 120 },
        { x: 159, y: 0, width: 1, height: 120 },
        { x: 0, y: 119, width: 160, height: 1 },
        { x: 0, y: 0, width: 9, height: 7 },
        { x: 143, y: 107, width: 17, height: 13 },
      ]) {
        const ref = refRect(oblique, 160, 120, boxes, rect);
        expectReference(await bothPaths(picker, rect), ref, order, JSON.stringify(rect));
      }
      for (const [x, y, w, h] of [
        [150, 0, 11, 5],
        [0, 110, 5, 10.5],
        [159.5, 119.5, 1, 1],
      ])
        await expect(pickRectAsync(picker, x, y, w, h)).rejects.toMatchObject({
          name: 'PickError',
          api: 'pickRectAsync',
          code: 'out-of-range',
          message: expect.stringMatching(/inside the 160×120 framebuffer/),
        });
    },
    [160, 120],
  );

  gpuTest(
    'thin instances are reported by instance index, hidden instances are not',
    async ({ engine }) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({
        position: [...oblique.position],
        target: [...oblique.target],
        fovY: oblique.fovY,
      });
      const r = random(23);
      const offset = [0.3, -0.2, 0.1];
      const matrices = new Float32Array(60 * 16);
      const boxes: RefBox[] = [];
      for (let i = 0; i < 60; i++) {
        const c = [(r() * 2 - 1) * 4, (r() * 2 - 1) * 3, (r() * 2 - 1) * 2];
        const s = [0.2 + r(), 0.2 + r(), 0.2 + r()];
        const m = mat4.scale(mat4.translation(c), s);
        matrices.set(m, i * 16);
        const w = c.map((v, k) => v + offset[k]);
        boxes.push({
          key: `inst#${i}`,
          min: [w[0] - s[0] / 2, w[1] - s[1] / 2, w[2] - s[2] / 2],
          max: [w[0] + s[0] / 2, w[1] + s[1] / 2, w[2] + s[2] / 2],
        });
      }
      createBoxMesh(
        scene,
        'plain',
        { width: 0.8, height: 0.8, depth: 0.8 },
        { worldMatrix: mat4.translation([-1, 1, 2.5]) },
      );
      createBoxMesh(scene, 'inst', {}, { worldMatrix: mat4.translation(offset), thinInstances: matrices });
      boxes.push({ key: 'plain', min: [-1.4, 0.6, 2.1], max: [-0.6, 1.4, 2.9] });
      const picker = createGpuPicker(scene);
      for (const rect of [
        { x: 0, y: 0, width: 160, height: 120 },
        { x: 40, y: 30, width: 60, height: 50 },
        { x: 90, y: 70, width: 21, height: 17 },
      ]) {
        const ref = refRect(oblique, 160, 120, boxes, rect);
        const found = await bothPaths(picker, rect);
        expectReference(found, ref, ['plain', 'inst'], JSON.stringify(rect));
        for (const f of found) expect(f.thinInstanceIndex >= 0).toBe(f.mesh!.name === 'inst');
      }
      const all = refRect(oblique, 160, 120, boxes, { x: 0, y: 0, width: 160, height: 120 });
      expect(all.possible.size).toBeLessThan(boxes.length); // some instances are hidden by others
    },
    [160, 120],
  );

  gpuTest(
    'a 1×1 rectangle reports what pickAsync hits at that pixel; empty space gives an empty result',
    async ({ engine }) => {
      const boxes = randomBoxes(30, 5);
      const { picker } = makeScene(engine, oblique, boxes);
      let hits = 0;
      for (let py = 1; py < 120; py += 9)
        for (let px = 2; px < 160; px += 11) {
          const info = await pickAsync(picker, px, py);
          const found = await pickRectAsync(picker, px, py, 1, 1);
          const single = info.hit ? [`${info.pickedMesh!.name}`] : [];
          expect(found.map(keyOf), `pixel ${px}, ${py}`).toEqual(single);
          const ref = refRect(oblique, 160, 120, boxes, { x: px, y: py, width: 1, height: 1 });
          if (ref.ambiguous === 0) expect(single).toEqual([...ref.certain]);
          hits += single.length;
        }
      expect(hits).toBeGreaterThan(20);
      // The sky above the boxes and a scene without meshes.
      const sky = { x: 0, y: 0, width: 160, height: 4 };
      expect(refRect(oblique, 160, 120, boxes, sky).possible.size).toBe(0);
      expect(await bothPaths(picker, sky)).toEqual([]);
      const empty = makeScene(engine, oblique, []);
      expect(await pickRectAsync(empty.picker, 0, 0, 160, 120)).toEqual([]);
    },
    [160, 120],
  );

  gpuTest(
    '2 000 meshes: the bitset spans many words and matches the reference',
    async ({ engine }) => {
      const camera: RefCamera = { position: [3, 14, 20], target: [0, 0, 0], fovY: 0.9 };
      const boxes: RefBox[] = [];
      for (let i = 0; i < 2000; i++) {
        const cx = ((i % 50) - 24.5) * 0.6;
        const cz = (Math.floor(i / 50) - 19.5) * 0.6;
        const h = 0.2 + ((i * 7919) % 13) * 0.03;
        boxes.push({ key: `g${i}`, min: [cx - 0.22, 0, cz - 0.22], max: [cx + 0.22, h, cz + 0.22] });
      }
      const { picker } = makeScene(engine, camera, boxes);
      const order = boxes.map((b) => b.key);
      for (const rect of [
        { x: 0, y: 0, width: 256, height: 192 },
        { x: 60, y: 50, width: 90, height: 70 },
      ]) {
        const ref = refRect(camera, 256, 192, boxes, rect);
        const found = await bothPaths(picker, rect);
        expectReference(found, ref, order, JSON.stringify(rect));
        if (rect.x === 0) {
          const words = new Set(found.map((f) => Math.floor((Number(f.mesh!.name.slice(1)) + 1) / 32)));
          expect(words.size).toBeGreaterThan(50);
          expect(found.length).toBeGreaterThan(1500);
        }
      }
    },
    [256, 192],
  );
});

describe('pickRectAsync input and limits', () => {
  gpuTest(
    'bad sizes, origins and options throw a PickError naming the value; the picker keeps working',
    async ({ engine }) => {
      const boxes = randomBoxes(20, 3);
      const { picker } = makeScene(engine, oblique, boxes);
      const rect = { x: 20, y: 10, width: 100, height: 90 };
      const before = (await pickRectAsync(picker, rect.x, rect.y, rect.width, rect.height)).map(keyOf);
      expectReference(
        await bothPaths(picker, rect),
        refRect(oblique, 160, 120, boxes, rect),
        boxes.map((b) => b.key),
        'before',
      );
      const counter = countDeviceCreates(engine.device);
      try {
        const bad: [unknown[], string, RegExp][] = [
          [[20, 10, 0, 5], 'out-of-range', /width 0 must be a finite number > 0/],
          [[20, 10, -4, 5], 'out-of-range', /width -4 must be a finite number > 0/],
          [[20, 10, Number.NaN, 5], 'out-of-range', /width NaN must be a finite number > 0/],
          [[20, 10, Infinity, 5], 'out-of-range', /width Infinity must be a finite number > 0/],
          [[20, 10, '5', 5], 'out-of-range', /width "5" must be a finite number > 0/],
          [[20, 10, 5, 0], 'out-of-range', /height 0 must be a finite number > 0/],
          [[20, 10, 5, -0.5], 'out-of-range', /height -0.5 must be a finite number > 0/],
          [[20, 10, 5, Number.NaN], 'out-of-range', /height NaN must be a finite number > 0/],
          [[Number.NaN, 10, 5, 5], 'bad-coordinates', /must be finite numbers/],
          [[200, 10, 5, 5], 'out-of-range', /outside the 160×120 framebuffer/],
          [[-30, -30, 10, 10], 'out-of-range', /outside the 160×120 framebuffer/],
          [[20, 500, 5, 5], 'out-of-range', /outside the 160×120 framebuffer/],
          [
            [100, 100, 100, 100],
            'out-of-range',
            /covers pixels 100\.\.199 × 100\.\.199: it must be at least 1×1 and inside/,
          ],
        ];
        for (const [args, code, message] of bad) {
          const call = pickRectAsync(picker, ...(args as [number, number, number, number]));
          await expect(call, JSON.stringify(args)).rejects.toBeInstanceOf(PickError);
          await expect(call).rejects.toMatchObject({
            api: 'pickRectAsync',
            code,
            message: expect.stringMatching(message),
          });
        }
        for (const maxResults of [0, 1.5, Number.NaN])
          await expect(pickRectAsync(picker, 20, 10, 5, 5, { maxResults })).rejects.toMatchObject({
            api: 'pickRectAsync',
            code: 'bad-option',
            message: expect.stringMatching(/maxResults .* must be an integer >= 1/),
          });
        // Nothing half-built: the warm marquee still creates no GPU object and answers the same.
        expect((await pickRectAsync(picker, rect.x, rect.y, rect.width, rect.height)).map(keyOf)).toEqual(before);
        expect(counter.count()).toBe(0);
      } finally {
        counter.restore();
      }
      expect((await pickAsync(picker, 80, 60)).hit).toBe(
        refRect(oblique, 160, 120, boxes, { x: 80, y: 60, width: 1, height: 1 }).possible.size > 0,
      );
    },
    [160, 120],
  );

  gpuTest(
    'the reduce checks the device limits it needs before the GPU sees them (forced small limits)',
    async ({ engine }) => {
      const real = engine.device.limits;
      const limits = {
        maxComputeWorkgroupSizeX: real.maxComputeWorkgroupSizeX,
        maxComputeWorkgroupSizeY: real.maxComputeWorkgroupSizeY,
        maxComputeInvocationsPerWorkgroup: real.maxComputeInvocationsPerWorkgroup,
        maxComputeWorkgroupsPerDimension: real.maxComputeWorkgroupsPerDimension,
        maxStorageBufferBindingSize: real.maxStorageBufferBindingSize,
        maxBufferSize: real.maxBufferSize,
      } as GPUSupportedLimits;
      const check = (forced: Partial<GPUSupportedLimits>, width: number, height: number, lastId: number) => () =>
        checkRectReduceLimits('pickRectAsync', { ...limits, ...forced } as GPUSupportedLimits, width, height, lastId);
      expect(check({}, 4096, 4096, 2000)).not.toThrow();
      const cases: [Partial<GPUSupportedLimits>, number, number, number, RegExp][] = [
        [
          { maxStorageBufferBindingSize: 64 },
          10,
          10,
          2000,
          /bitset of 2000 IDs needs 252 but the device's maxStorageBufferBindingSize is 64/,
        ],
        [{ maxBufferSize: 128 }, 10, 10, 2000, /needs 252 but the device's maxBufferSize is 128/],
        [
          { maxComputeWorkgroupsPerDimension: 4 },
          40,
          8,
          5,
          /40×8 tile needs 5 but the device's maxComputeWorkgroupsPerDimension is 4/,
        ],
        [
          { maxComputeInvocationsPerWorkgroup: 32 },
          8,
          8,
          5,
          /workgroup needs 64 but the device's maxComputeInvocationsPerWorkgroup is 32/,
        ],
        [{ maxComputeWorkgroupSizeY: 4 }, 8, 8, 5, /workgroup needs 8 but the device's maxComputeWorkgroupSizeY is 4/],
      ];
      for (const [forced, w, h, lastId, message] of cases) {
        expect(check(forced, w, h, lastId)).toThrow(PickError);
        expect(check(forced, w, h, lastId)).toThrow(
          expect.objectContaining({
            api: 'pickRectAsync',
            code: 'limit-exceeded',
            message: expect.stringMatching(message),
          }),
        );
      }
      // The device's own limits fit the largest marquee it can draw.
      const side = real.maxTextureDimension2D;
      expect(check({}, side, side, 2 ** 24 - 1)).not.toThrow();
    },
  );
});
