// Marquee batches: separate meshes of equal geometry drawn as one instanced draw. Checked against float64 rays through
// every pixel centre cast at the analytic boxes (test/support/box-rays.ts), and against the unbatched readback path.
import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import {
  createBoxMesh,
  createScene,
  disposeMesh,
  type Engine,
  makePerspectiveCamera,
  makeStandardMaterial,
  type Scene,
  setMeshWorldMatrix,
  whenEngineReadyAsync,
} from '../../../engine/index.js';
import {
  createGpuPicker,
  type GpuPicker,
  type PickedIdentity,
  pickAsync,
  pickRectAsync,
} from '../../../picking/index.js';
import { pickRectByReadbackAsync } from '../../../picking/rect/pick-rect-readback.js';
import { type RefBox, type RefCamera, refRect } from '../../support/box-rays.js';
import { countDeviceCreates } from '../../support/create-counter.js';
import { gpuTest } from '../../support/gpu.js';
import { expectRectReference, rectKeyOf, seededRandom } from '../../support/rect-expect.js';

const keyOf = rectKeyOf;
const random = seededRandom;

/** A box mesh of `size` at `centre`; `mirror` flips x (same box in world, negative determinant). */
interface PlacedBox {
  key: string;
  size: number;
  centre: [number, number, number];
  mirror?: boolean;
  doubleSided?: boolean;
}

function refBoxOf(b: PlacedBox): RefBox {
  const h = b.size / 2;
  return {
    key: b.key,
    min: [b.centre[0] - h, b.centre[1] - h, b.centre[2] - h],
    max: [b.centre[0] + h, b.centre[1] + h, b.centre[2] + h],
  };
}

function makeScene(
  engine: Engine,
  camera: RefCamera,
  boxes: readonly PlacedBox[],
): { scene: Scene; picker: GpuPicker } {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({
    position: [...camera.position],
    target: [...camera.target],
    fovY: camera.fovY,
  });
  for (const b of boxes) {
    const world = mat4.translation(b.centre);
    if (b.mirror) mat4.scale(world, [-1, 1, 1], world);
    createBoxMesh(
      scene,
      b.key,
      { width: b.size, height: b.size, depth: b.size },
      { worldMatrix: world, ...(b.doubleSided ? { material: makeStandardMaterial({ doubleSided: true }) } : {}) },
    );
  }
  return { scene, picker: createGpuPicker(scene) };
}

/** Indexed draws the pass encodes while `work` runs (call plumbing on the real device: how many draws, not what). */
async function countDraws<T>(work: () => Promise<T>): Promise<{ result: T; draws: number }> {
  const proto = (globalThis as unknown as { GPURenderPassEncoder: { prototype: GPURenderPassEncoder } })
    .GPURenderPassEncoder.prototype;
  const original = proto.drawIndexed;
  let draws = 0;
  proto.drawIndexed = function (this: GPURenderPassEncoder, ...args: Parameters<GPURenderPassEncoder['drawIndexed']>) {
    draws++;
    return original.apply(this, args);
  };
  try {
    return { result: await work(), draws };
  } finally {
    proto.drawIndexed = original;
  }
}

function expectReference(found: PickedIdentity[], boxes: readonly PlacedBox[], camera: RefCamera, rect: Rect): void {
  const ref = refRect(camera, 160, 120, boxes.map(refBoxOf), rect);
  expect(ref.certain.size, `${JSON.stringify(rect)}: something to find`).toBeGreaterThan(0);
  expectRectReference(
    found,
    ref,
    boxes.map((b) => b.key),
    JSON.stringify(rect),
  );
}

type Rect = { x: number; y: number; width: number; height: number };

const oblique: RefCamera = { position: [2.5, 3, 9], target: [0.2, -0.1, 0], fovY: 0.9 };
const rects: Rect[] = [
  { x: 0, y: 0, width: 160, height: 120 },
  { x: 30, y: 20, width: 50, height: 40 },
  { x: 90, y: 50, width: 40, height: 60 },
];

describe('pickRectAsync batches meshes of equal geometry', () => {
  gpuTest(
    'two sizes of box interleaved in scene order: each size draws once, results are the reference in scene order',
    async ({ engine }) => {
      const r = random(11);
      const boxes: PlacedBox[] = Array.from({ length: 120 }, (_, i) => ({
        key: `b${i}`,
        size: i % 3 === 0 ? 0.5 : 0.3,
        centre: [(r() * 2 - 1) * 4, (r() * 2 - 1) * 2, (r() * 2 - 1) * 2],
      }));
      const { picker } = makeScene(engine, oblique, boxes);
      for (const rect of rects) {
        const { result, draws } = await countDraws(() =>
          pickRectAsync(picker, rect.x, rect.y, rect.width, rect.height),
        );
        expectReference(result, boxes, oblique, rect);
        // Two geometry classes, one raster state each: at most two draws, whatever the number of meshes in view.
        expect(draws, JSON.stringify(rect)).toBeLessThanOrEqual(2);
        const readBack = await pickRectByReadbackAsync(picker, rect.x, rect.y, rect.width, rect.height);
        expect(result.map(keyOf).sort()).toEqual(readBack.map(keyOf).sort());
      }
      // maxResults keeps the first results in scene order.
      const all = await pickRectAsync(picker, 0, 0, 160, 120);
      expect(all.length).toBeGreaterThan(10);
      expect((await pickRectAsync(picker, 0, 0, 160, 120, { maxResults: 7 })).map(keyOf)).toEqual(
        all.slice(0, 7).map(keyOf),
      );
    },
    [160, 120],
  );

  gpuTest(
    'mirrored and double-sided members cull as drawn: a box hidden inside each shell is never seen',
    async ({ engine }) => {
      // Every shell holds a smaller box. Drawn with the wrong front face, a culled shell would show its far faces,
      // which lie behind the inner box: the inner box would be reported.
      const boxes: PlacedBox[] = [];
      for (let i = 0; i < 24; i++) {
        const centre: [number, number, number] = [((i % 6) - 2.5) * 1.4, (Math.floor(i / 6) - 1.5) * 1.3, 0];
        boxes.push({ key: `shell${i}`, size: 1, centre, mirror: i % 2 === 1, doubleSided: i % 5 === 0 });
        boxes.push({ key: `inner${i}`, size: 0.5, centre, mirror: i % 3 === 0 });
      }
      const { picker } = makeScene(engine, oblique, boxes);
      for (const rect of rects) {
        const { result, draws } = await countDraws(() =>
          pickRectAsync(picker, rect.x, rect.y, rect.width, rect.height),
        );
        expectReference(result, boxes, oblique, rect);
        expect(result.map(keyOf).filter((k) => k.startsWith('inner'))).toEqual([]);
        // Shells: unmirrored, mirrored, double-sided; inner boxes: unmirrored, mirrored. Never one draw per mesh.
        expect(draws, JSON.stringify(rect)).toBeLessThanOrEqual(5);
      }
      // Without culling every face draws and the nearest wins: still only the shells.
      const noCull = await pickRectAsync(picker, 0, 0, 160, 120, { culling: 'none' });
      expectReference(noCull, boxes, oblique, { x: 0, y: 0, width: 160, height: 120 });
    },
    [160, 120],
  );

  gpuTest(
    'after a full-frame marquee, picks and small marquees create nothing and clear only their own texels',
    async ({ engine }) => {
      const boxes: PlacedBox[] = Array.from({ length: 12 }, (_, i) => ({
        key: `b${i}`,
        size: 0.5,
        centre: [((i % 4) - 1.5) * 1.2, (Math.floor(i / 4) - 1) * 1.2, 0],
      }));
      const { picker } = makeScene(engine, oblique, boxes);
      const full = { x: 0, y: 0, width: 160, height: 120 };
      const small = { x: 40, y: 30, width: 60, height: 50 };
      const warm = async () => {
        expectReference(await pickRectAsync(picker, 0, 0, 160, 120), boxes, oblique, full);
        expectReference(await pickRectAsync(picker, 40, 30, 60, 50), boxes, oblique, small);
        await pickAsync(picker, 80, 60);
      };
      await warm();
      // The point pass keeps its 1×1 targets: a pick does not clear the marquee's 160×120.
      expect([picker.gpu!.targets!.width, picker.gpu!.targets!.height]).toEqual([1, 1]);
      const counter = countDeviceCreates(engine.device);
      try {
        for (let i = 0; i < 3; i++) await warm();
        expect(counter.count(), 'GPU objects created by warm marquees and picks').toBe(0);
      } finally {
        counter.restore();
      }
      // A tiny marquee gets targets of its own size (the kept sets are over 4× its texels), replacing the oldest set.
      expectReference(await pickRectAsync(picker, 70, 50, 20, 20), boxes, oblique, {
        x: 70,
        y: 50,
        width: 20,
        height: 20,
      });
      expect(picker.gpu!.rectTargets.map((t) => [t.width, t.height])).toEqual([
        [20, 20],
        [60, 50],
      ]);
    },
    [160, 120],
  );

  gpuTest(
    'a marquee redrawn after a device loss draws its batch as at the call, the first member disposed meanwhile',
    async ({ engine }) => {
      const boxes: PlacedBox[] = Array.from({ length: 20 }, (_, i) => ({
        key: `b${i}`,
        size: 0.4,
        centre: [((i % 5) - 2) * 0.9, (Math.floor(i / 5) - 1.5) * 0.9, 0],
      }));
      const { scene, picker } = makeScene(engine, oblique, boxes);
      const full = { x: 0, y: 0, width: 160, height: 120 };
      expectReference(await pickRectAsync(picker, 0, 0, 160, 120), boxes, oblique, full);
      const lost = engine.device;
      const pending = pickRectAsync(picker, 0, 0, 160, 120);
      lost.destroy();
      // After the call: the batch's first member goes, another moves away. The answer is the scene at the call.
      const [first, seventh] = [scene.meshes[0], scene.meshes[7]];
      disposeMesh(first);
      setMeshWorldMatrix(seventh, mat4.translation([0, 0, 100]));
      expectReference(await pending, boxes, oblique, full);
      await whenEngineReadyAsync(engine);
      expect(engine.device).not.toBe(lost);
      const now = boxes.filter((b) => b.key !== 'b0' && b.key !== 'b7');
      expectReference(await pickRectAsync(picker, 0, 0, 160, 120), now, oblique, full);
    },
    [160, 120],
  );

  gpuTest(
    'a mesh moved or disposed after one marquee is drawn where it is now by the next',
    async ({ engine }) => {
      const boxes: PlacedBox[] = Array.from({ length: 30 }, (_, i) => ({
        key: `b${i}`,
        size: 0.4,
        centre: [((i % 10) - 4.5) * 0.8, (Math.floor(i / 10) - 1) * 0.8, 0],
      }));
      const { scene, picker } = makeScene(engine, oblique, boxes);
      const full = { x: 0, y: 0, width: 160, height: 120 };
      expectReference(await pickRectAsync(picker, 0, 0, 160, 120), boxes, oblique, full);
      // Move b3 far out of view, drop b4: equal geometry, so both had been drawn in the same batch.
      setMeshWorldMatrix(scene.meshes[3], mat4.translation([0, 0, 100]));
      disposeMesh(scene.meshes[4]);
      const after = boxes.filter((b) => b.key !== 'b3' && b.key !== 'b4');
      expectReference(await pickRectAsync(picker, 0, 0, 160, 120), after, oblique, full);
    },
    [160, 120],
  );
});
