// Overlay items (gizmo handles) drawn in the scene's pick pass: priority within the tolerance, ties, scene depth,
// several points, disposal and typed errors. Handle positions come from the test's own float64 camera maths.
import { mat4 } from 'wgpu-matrix';
import { describe, expect, vi } from 'vitest';
import {
  createBoxMesh,
  createScene,
  type Engine,
  makeBoxData,
  makePerspectiveCamera,
  MeshDataError,
  type Scene,
} from '../../../engine/index.js';
import {
  createGpuPicker,
  createPickOverlay,
  disposeGpuPicker,
  disposePickOverlay,
  enableDetailedPicking,
  type GpuPicker,
  PickError,
  type PickingInfo,
  pickAsync,
  pickManyAsync,
  setPickOverlayItems,
} from '../../../picking/index.js';
import { add, cameraBasis, dot, pixelRay, scale, sub } from '../../support/camera-rays.js';
import { gpuTest } from '../../support/gpu.js';

const width = 96;
const height = 72;
const eye: [number, number, number] = [0, 0, 6];
const fovY = 0.8;
const basis = cameraBasis(eye, [0, 0, 0], fovY, width, height);
/** Edge of a handle box: about 0.2 px at view depth 4, so it covers exactly the pixel centre its centre sits on. */
const handleSize = 0.01;

/** The world point at view depth `depth` on the ray through the centre of pixel (px, py) (float64, test maths). */
function pointAtPixel(px: number, py: number, depth: number): [number, number, number] {
  const ray = pixelRay(basis, px, py, width, height);
  return add(ray.origin, scale(ray.direction, depth / dot(ray.direction, basis.forward)));
}

/** Continuous framebuffer coordinates of a world point (pixel (x, y) spans x..x+1), float64. */
function project(p: readonly number[]): [number, number] {
  const d = sub(p, eye);
  const z = dot(d, basis.forward);
  const ndcX = dot(d, basis.right) / (z * basis.tanHalfFov * basis.aspect);
  const ndcY = dot(d, basis.up) / (z * basis.tanHalfFov);
  return [((ndcX + 1) / 2) * width, ((1 - ndcY) / 2) * height];
}

/** A scene with a wall filling the view at z = -1 (the scene geometry every overlay competes with). */
function makeWorld(engine: Engine): { scene: Scene; handles: Scene; picker: GpuPicker } {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: eye, target: [0, 0, 0], fovY });
  createBoxMesh(scene, 'wall', { width: 40, height: 40, depth: 0.2 }, { worldMatrix: mat4.translation([0, 0, -1]) });
  const handles = createScene(engine);
  return { scene, handles, picker: createGpuPicker(scene) };
}

/** A handle box centred on the centre of pixel (px, py) at view depth `depth`; checks the projection first. */
function handleAt(handles: Scene, name: string, px: number, py: number, depth = 4) {
  const centre = pointAtPixel(px, py, depth);
  const [sx, sy] = project(centre);
  expect(Math.abs(sx - (px + 0.5)) + Math.abs(sy - (py + 0.5))).toBeLessThan(1e-9);
  const s = handleSize;
  return {
    centre,
    mesh: createBoxMesh(handles, name, { width: s, height: s, depth: s }, { worldMatrix: mat4.translation(centre) }),
  };
}

describe('pick overlays (Dawn)', () => {
  gpuTest(
    'an on-top handle within 4 px of the point beats the wall under it; 5 px away (or 3 with tolerance 2) it loses',
    async ({ engine }) => {
      const { handles, picker } = makeWorld(engine);
      const c = [40, 30] as const;
      const handle = handleAt(handles, 'handle', c[0], c[1]);
      createPickOverlay(picker, [{ handleId: 'x-arrow', mesh: handle.mesh }]);
      const offsets: [number, number][] = [];
      for (let dy = -6; dy <= 6; dy++) for (let dx = -6; dx <= 6; dx++) offsets.push([dx, dy]);
      for (const detailed of [false, true]) {
        if (detailed) expect(enableDetailedPicking(picker)).toBe(true);
        const infos = await pickManyAsync(
          picker,
          offsets.map(([dx, dy]) => ({ x: c[0] + dx, y: c[1] + dy })),
        );
        offsets.forEach(([dx, dy], i) => {
          const info = infos[i];
          const inside = Math.max(Math.abs(dx), Math.abs(dy)) <= 4;
          expect(info.hit, `${dx},${dy}`).toBe(true);
          if (!inside) {
            expect(info.pickedOverlay, `${dx},${dy}`).toBeNull();
            expect(info.pickedMesh?.name).toBe('wall');
            return;
          }
          expect(info.pickedMesh, `${dx},${dy}`).toBeNull();
          expect(info.pickedOverlay?.handleId).toBe('x-arrow');
          expect(info.pickedOverlay?.itemIndex).toBe(0);
          // The winning pixel is the handle's own: offset from the pick point back to it.
          expect(info.pickedOverlay?.offset).toEqual([-dx || 0, -dy || 0]);
          expect(info.pickedOverlay?.pixelDistance).toBeCloseTo(Math.hypot(dx, dy), 12);
          expect(info.faceId).toBe(-1);
          // The point is on the handle's front face (within its size of its centre).
          const p = info.pickedPoint!;
          expect(Math.hypot(...sub(p, handle.centre))).toBeLessThan(handleSize);
        });
      }
      const narrow = await pickManyAsync(
        picker,
        [
          { x: c[0] + 2, y: c[1] },
          { x: c[0] + 3, y: c[1] },
        ],
        { overlayTolerance: 2 },
      );
      expect(narrow.map((i) => i.pickedOverlay?.handleId ?? i.pickedMesh?.name)).toEqual(['x-arrow', 'wall']);
      const off = await pickAsync(picker, c[0], c[1], { overlays: false });
      expect(off.pickedMesh?.name).toBe('wall');
      disposeGpuPicker(picker);
    },
    [width, height],
  );

  gpuTest(
    'equal pixel distances: the nearer handle wins; at equal depth the earlier item; the answer never changes',
    async ({ engine }) => {
      const { handles, picker } = makeWorld(engine);
      const c = [48, 36] as const;
      // Same view depth on both sides: the rasterised depths are equal (an unrotated camera, constant view z).
      const left = handleAt(handles, 'left', c[0] - 3, c[1], 4);
      const right = handleAt(handles, 'right', c[0] + 3, c[1], 4);
      const overlay = createPickOverlay(picker, [
        { handleId: 1, mesh: left.mesh },
        { handleId: 2, mesh: right.mesh },
      ]);
      const ids = async () =>
        (
          await pickManyAsync(
            picker,
            Array.from({ length: 4 }, () => ({ x: c[0], y: c[1] })),
          )
        ).map((i) => i.pickedOverlay?.handleId);
      expect(await ids()).toEqual([1, 1, 1, 1]);
      setPickOverlayItems(overlay, [
        { handleId: 2, mesh: right.mesh },
        { handleId: 1, mesh: left.mesh },
      ]);
      expect(await ids()).toEqual([2, 2, 2, 2]);
      // A nearer handle at the same pixel distance wins whatever the order.
      const near = handleAt(handles, 'near', c[0], c[1] + 3, 3);
      setPickOverlayItems(overlay, [
        { handleId: 1, mesh: left.mesh },
        { handleId: 2, mesh: right.mesh },
        { handleId: 3, mesh: near.mesh },
      ]);
      expect(await ids()).toEqual([3, 3, 3, 3]);
      // A closer pixel beats a nearer depth.
      const close = handleAt(handles, 'close', c[0] + 2, c[1] + 2, 5);
      setPickOverlayItems(overlay, [
        { handleId: 3, mesh: near.mesh },
        { handleId: 4, mesh: close.mesh },
      ]);
      expect(await ids()).toEqual([4, 4, 4, 4]);
      disposeGpuPicker(picker);
    },
    [width, height],
  );

  gpuTest(
    "on-top ignores scene depth; 'scene' depth is hidden behind nearer geometry and has no tolerance",
    async ({ engine }) => {
      const { scene, handles, picker } = makeWorld(engine);
      const c = [30, 40] as const;
      // A blocker in front of everything at the handle's pixel (view depth 2), and handles behind it (depth 4).
      createBoxMesh(
        scene,
        'blocker',
        { width: 0.5, height: 0.5, depth: 0.05 },
        {
          worldMatrix: mat4.translation(pointAtPixel(c[0], c[1], 2)),
        },
      );
      const hidden = handleAt(handles, 'hidden', c[0], c[1], 4);
      const overlay = createPickOverlay(picker, [{ handleId: 'h', mesh: hidden.mesh }]);
      const exact = await pickAsync(picker, c[0], c[1]);
      expect(exact.pickedOverlay?.handleId).toBe('h');
      expect(exact.pickedOverlay?.offset).toEqual([0, 0]);
      // Its point is the handle's, behind the blocker.
      expect(Math.hypot(...sub(exact.pickedPoint!, hidden.centre))).toBeLessThan(handleSize);

      setPickOverlayItems(overlay, [{ handleId: 'h', mesh: hidden.mesh, depth: 'scene' }]);
      expect((await pickAsync(picker, c[0], c[1])).pickedMesh?.name).toBe('blocker');
      // In front of the scene: a hit under the exact pixel only.
      const front = handleAt(handles, 'front', c[0] + 20, c[1], 1.5);
      setPickOverlayItems(overlay, [{ handleId: 'f', mesh: front.mesh, depth: 'scene' }]);
      const [under, beside] = await pickManyAsync(picker, [
        { x: c[0] + 20, y: c[1] },
        { x: c[0] + 22, y: c[1] },
      ]);
      expect(under.pickedOverlay?.handleId).toBe('f');
      expect(under.pickedOverlay?.offset).toEqual([0, 0]);
      expect(Math.hypot(...sub(under.pickedPoint!, front.centre))).toBeLessThan(handleSize);
      expect(beside.pickedOverlay).toBeNull();
      expect(beside.pickedMesh?.name).toBe('wall');
      disposeGpuPicker(picker);
    },
    [width, height],
  );

  gpuTest(
    'many points in one pass and one submit each answer as a single pick; pickable: false items are skipped',
    async ({ engine }) => {
      const { handles, picker } = makeWorld(engine);
      const a = handleAt(handles, 'a', 20, 20);
      const b = handleAt(handles, 'b', 70, 50);
      createPickOverlay(picker, [
        { handleId: 'a', mesh: a.mesh },
        { handleId: 'b', mesh: b.mesh },
      ]);
      const points = [
        { x: 20, y: 20 },
        { x: 23, y: 17 },
        { x: 30, y: 20 },
        { x: 70, y: 50 },
        { x: 66, y: 54 },
        { x: 0, y: 0 },
        { x: 95, y: 71 },
      ];
      const singles: PickingInfo[] = [];
      for (const p of points) singles.push(await pickAsync(picker, p.x, p.y));
      const submit = vi.spyOn(engine.device.queue, 'submit');
      const many = await pickManyAsync(picker, points);
      expect(submit).toHaveBeenCalledTimes(1);
      submit.mockRestore();
      const name = (i: (typeof many)[number]) => i.pickedOverlay?.handleId ?? i.pickedMesh?.name ?? null;
      expect(many.map(name)).toEqual(['a', 'a', 'wall', 'b', 'b', 'wall', 'wall']);
      expect(many.map(name)).toEqual(singles.map(name));
      many.forEach((info, i) => {
        expect(info.pickedOverlay?.offset).toEqual(singles[i].pickedOverlay?.offset);
        expect(info.pickedPoint).toEqual(singles[i].pickedPoint);
      });
      a.mesh.pickable = false;
      expect(name(await pickAsync(picker, 20, 20))).toBe('wall');
      disposeGpuPicker(picker);
    },
    [width, height],
  );

  gpuTest(
    'a request past one pass (1 000 points: 8192 / 9 = 910 blocks a pass) splits and still answers every point',
    async ({ engine }) => {
      const { handles, picker } = makeWorld(engine);
      const a = handleAt(handles, 'a', 20, 20);
      const b = handleAt(handles, 'b', 70, 50);
      createPickOverlay(picker, [
        { handleId: 'a', mesh: a.mesh },
        { handleId: 'b', mesh: b.mesh },
      ]);
      const points = Array.from({ length: 1000 }, (_, i) => ({ x: (i * 37) % width, y: (i * 53) % height }));
      const submit = vi.spyOn(engine.device.queue, 'submit');
      const infos = await pickManyAsync(picker, points);
      expect(submit.mock.calls.length).toBe(
        Math.ceil(1000 / Math.floor(engine.device.limits.maxTextureDimension2D / 9)),
      );
      expect(submit.mock.calls.length).toBeGreaterThan(1);
      submit.mockRestore();
      const within = (p: { x: number; y: number }, cx: number, cy: number) =>
        Math.max(Math.abs(p.x - cx), Math.abs(p.y - cy)) <= 4;
      const expected = points.map((p) => (within(p, 20, 20) ? 'a' : within(p, 70, 50) ? 'b' : 'wall'));
      expect(expected.filter((e) => e !== 'wall').length).toBeGreaterThan(10);
      expect(infos.map((i) => i.pickedOverlay?.handleId ?? i.pickedMesh?.name)).toEqual(expected);
      disposeGpuPicker(picker);
    },
    [width, height],
  );

  gpuTest(
    "a discard rule applies to the scene, not to the caller's handles",
    async ({ engine }) => {
      const { handles, picker } = makeWorld(engine);
      const a = handleAt(handles, 'a', 20, 20);
      createPickOverlay(picker, [{ handleId: 'a', mesh: a.mesh }]);
      const everything = {
        key: 'nothing',
        wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return true;\n}',
      };
      const [near, away] = await pickManyAsync(
        picker,
        [
          { x: 22, y: 20 },
          { x: 60, y: 20 },
        ],
        { discard: everything },
      );
      expect(near.pickedOverlay?.handleId).toBe('a');
      expect(away.hit).toBe(false);
      disposeGpuPicker(picker);
    },
    [width, height],
  );

  gpuTest(
    'disposal frees the GPU buffers of the meshes an overlay made; the picker goes on without it',
    async ({ engine }) => {
      const { picker } = makeWorld(engine);
      const centre = pointAtPixel(40, 30, 4);
      const overlay = createPickOverlay(picker, [
        {
          handleId: 7,
          geometry: makeBoxData({ width: handleSize, height: handleSize, depth: handleSize }),
          worldMatrix: mat4.translation(centre),
        },
      ]);
      const item = overlay.items[0];
      expect(item.owned).toBe(true);
      expect((await pickAsync(picker, 42, 31)).pickedOverlay?.handleId).toBe(7);
      const buffers = [...item.mesh.gpu!.vertexBuffers, item.mesh.gpu!.indexBuffer!];
      const destroyed = buffers.map((buffer) => vi.spyOn(buffer, 'destroy'));
      // Replacing the items disposes the old owned mesh too.
      setPickOverlayItems(overlay, [{ handleId: 8, geometry: makeBoxData({ width: 0.5, height: 0.5, depth: 0.5 }) }]);
      expect(item.mesh.disposed).toBe(true);
      expect(item.mesh.gpu).toBeNull();
      for (const spy of destroyed) expect(spy).toHaveBeenCalledTimes(1);
      expect((await pickAsync(picker, 48, 36)).pickedOverlay?.handleId).toBe(8);
      const second = overlay.items[0].mesh;
      disposePickOverlay(overlay);
      expect(second.disposed && second.gpu === null).toBe(true);
      expect(picker.overlays).toEqual([]);
      const after = await pickAsync(picker, 48, 36);
      expect(after.pickedOverlay).toBeNull();
      expect(after.pickedMesh?.name).toBe('wall');
      expect(() => setPickOverlayItems(overlay, [])).toThrow(expect.objectContaining({ code: 'disposed' }));
      // Disposing the picker disposes the overlays still on it.
      const last = createPickOverlay(picker, [{ handleId: 9, geometry: makeBoxData() }]);
      disposeGpuPicker(picker);
      expect(last.disposed && last.items.length === 0).toBe(true);
    },
    [width, height],
  );

  gpuTest(
    'bad input is a typed error naming the API, the value and what is allowed; nothing is half-built',
    async ({ engine }) => {
      const { scene, handles, picker } = makeWorld(engine);
      const good = handleAt(handles, 'good', 40, 30);
      const overlay = createPickOverlay(picker, [{ handleId: 'g', mesh: good.mesh }]);
      const refuse = (call: () => unknown, api: string, code: string, text: RegExp) => {
        let error: unknown;
        try {
          call();
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(PickError);
        expect((error as PickError).api).toBe(api);
        expect((error as PickError).code).toBe(code);
        expect((error as PickError).message).toMatch(text);
      };
      const wallMesh = scene.meshes[0];
      refuse(
        () => createPickOverlay(picker, 'x' as never),
        'createPickOverlay',
        'bad-option',
        /items "x" must be an array/,
      );
      refuse(
        () =>
          setPickOverlayItems(overlay, [
            { handleId: 'a', mesh: good.mesh },
            { handleId: 'a', mesh: good.mesh },
          ]),
        'setPickOverlayItems',
        'bad-option',
        /items\[1\]\.handleId "a" is used twice/,
      );
      refuse(
        () => createPickOverlay(picker, [{ handleId: 1, mesh: good.mesh, depth: 'front' as never }]),
        'createPickOverlay',
        'bad-option',
        /items\[0\]\.depth "front" must be 'on-top' or 'scene'/,
      );
      refuse(
        () => createPickOverlay(picker, [{ handleId: 1, mesh: wallMesh }]),
        'createPickOverlay',
        'bad-option',
        /"wall" is in the picked scene/,
      );
      refuse(
        () => createPickOverlay(picker, [{ handleId: Number.NaN, mesh: good.mesh }]),
        'createPickOverlay',
        'bad-option',
        /handleId NaN must be a string or a finite number/,
      );
      refuse(
        () => createPickOverlay(picker, [{ handleId: 1, mesh: good.mesh, geometry: makeBoxData() } as never]),
        'createPickOverlay',
        'bad-option',
        /exactly one of mesh/,
      );
      refuse(
        () => createPickOverlay(picker, [{ handleId: 1, mesh: good.mesh, colour: 1 } as never]),
        'createPickOverlay',
        'bad-option',
        /items\[0\]: unknown option "colour"/,
      );
      const instanced = createBoxMesh(handles, 'instanced', {}, { thinInstances: new Float32Array(mat4.identity()) });
      refuse(
        () => createPickOverlay(picker, [{ handleId: 1, mesh: instanced }]),
        'createPickOverlay',
        'unsupported',
        /"instanced" has thin instances/,
      );
      // Malformed geometry: the engine's typed data error; the meshes made before it in the same call are gone.
      const made = overlay.ownScene?.meshes.length ?? 0;
      expect(() =>
        setPickOverlayItems(overlay, [
          { handleId: 'ok', geometry: makeBoxData() },
          { handleId: 'bad', geometry: { positions: new Float32Array([0, 0, 0, 1]) } as never },
        ]),
      ).toThrow(MeshDataError);
      expect(overlay.ownScene?.meshes.length ?? 0).toBe(made);
      expect(overlay.items.map((i) => i.handleId)).toEqual(['g']);
      for (const bad of [-1, 1.5, 17, '4']) {
        await expect(pickAsync(picker, 40, 30, { overlayTolerance: bad as never })).rejects.toMatchObject({
          api: 'pickAsync',
          code: 'bad-option',
          message: expect.stringMatching(/overlayTolerance .* must be an integer 0\.\.16/),
        });
      }
      await expect(pickAsync(picker, 40, 30, { overlays: 1 as never })).rejects.toMatchObject({ code: 'bad-option' });
      await expect(
        (await import('../../../picking/index.js')).pickRectAsync(picker, 0, 0, 4, 4, { overlays: true } as never),
      ).rejects.toMatchObject({ api: 'pickRectAsync', code: 'bad-option' });
      // Every refusal left the overlay and the picker as they were.
      expect(picker.overlays).toEqual([overlay]);
      expect((await pickAsync(picker, 43, 30)).pickedOverlay?.handleId).toBe('g');
      disposeGpuPicker(picker);
      refuse(() => createPickOverlay(picker, []), 'createPickOverlay', 'disposed', /picker was disposed/);
    },
    [width, height],
  );
});
