// The pick-source seam's steady-sync memory: a drawable found at its place of the last sync, one check of a vertex-buffer
// array that many drawables share, the scene's mesh order kept while no place changed, versions kept per slot. Each
// test changes what such a memory could miss — a buffer swapped inside a shared array, a list re-ordered or re-keyed,
// instances appearing with any version — and checks the sync (and the picks) follow. Boxes are checked against a
// float64 slab test of their world extents, through the pixel centres of the test's own camera.
import { describe, expect } from 'vitest';
import { makePerspectiveCamera, type Mesh } from '../../../engine/index.js';
import {
  createDrawableScene,
  type DrawableScene,
  disposeDrawableScene,
  type PickDrawable,
  pickedObjectOf,
  syncDrawableScene,
} from '../../../picking/index.js';
import { gpuTest } from '../../support/gpu.js';
import {
  boxBuffers,
  clearPixels,
  gpuBuffer,
  picksOf,
  referencePicks,
  size,
  translation,
  vertexBufferOf,
  view,
} from './drawable-boxes.js';

/** The objects of the scene's meshes, in pick ID order. */
const meshObjects = <T>(target: DrawableScene<T>) =>
  target.scene.meshes.map((m) => pickedObjectOf(target, { pickedMesh: m, thinInstanceIndex: -1 })?.object);

describe("pick-source seam: a steady sync's memory never hides a change", () => {
  gpuTest(
    'a GPU buffer swapped inside the vertex-buffer array and index that drawables share: each is made again on it',
    async ({ engine }) => {
      const big = boxBuffers(engine.device, 1.6);
      const small = boxBuffers(engine.device, 0.8);
      const shared = [vertexBufferOf(big.vertex, big.positions)];
      const index = { buffer: big.index, data: big.indices };
      const boxes = [-2, 0, 2].map((x, i) => ({ object: `box${i}`, x }));
      const drawables: PickDrawable<string>[] = boxes.map((b) => ({
        object: b.object,
        vertexBuffers: shared,
        index,
        worldMatrix: translation(b.x),
      }));
      const target = createDrawableScene<string>(engine, makePerspectiveCamera({ ...view, near: 0.1 }));
      syncDrawableScene(target, drawables);
      const pixels = clearPixels(boxes, [big.edge, small.edge]);
      expect(await picksOf(target, pixels)).toEqual(referencePicks(boxes, big.edge, pixels));
      // Steady: nothing is made again.
      const made = [...target.scene.meshes];
      syncDrawableScene(target, drawables);
      expect(target.scene.meshes).toEqual(made);
      // The host swaps its vertex buffer inside the array all three share (the array and its entry stay the same
      // objects; the index stays: both boxes list the same corners in the same order).
      shared[0].buffer = small.vertex;
      shared[0].data = small.positions;
      syncDrawableScene(target, drawables);
      for (const mesh of target.scene.meshes) {
        expect(made).not.toContain(mesh);
        expect(mesh.hostBuffers?.vertexBuffers[0]).toBe(small.vertex);
        expect(mesh.hostBuffers?.indexBuffer).toBe(big.index);
      }
      const after = await picksOf(target, pixels);
      expect(after).toEqual(referencePicks(boxes, small.edge, pixels));
      // Some pixels were on the big boxes and are on nothing now.
      expect(after.filter((o) => o === null).length).toBeGreaterThan(
        referencePicks(boxes, big.edge, pixels).filter((o) => o === null).length,
      );
      // Only the index buffer swapped, in the shared index object: made again once more.
      const beforeIndex = [...target.scene.meshes];
      index.buffer = gpuBuffer(engine.device, 'small box:indices again', small.indices, GPUBufferUsage.INDEX);
      syncDrawableScene(target, drawables);
      for (const [i, mesh] of target.scene.meshes.entries()) {
        expect(mesh).not.toBe(beforeIndex[i]);
        expect(mesh.hostBuffers?.indexBuffer).toBe(index.buffer);
      }
      disposeDrawableScene(target);
      for (const buffer of [big.vertex, big.index, small.vertex, small.index, index.buffer]) buffer.destroy();
    },
    size,
  );

  gpuTest(
    'drawables made from different buffers, then all given one array: only those whose buffers differ are made again',
    async ({ engine }) => {
      const big = boxBuffers(engine.device, 1.6);
      const small = boxBuffers(engine.device, 0.8);
      const onBig = [vertexBufferOf(big.vertex, big.positions)];
      const onSmall = [vertexBufferOf(small.vertex, small.positions)];
      const index = { buffer: big.index, data: big.indices };
      const boxes = [-2, 0, 2].map((x, i) => ({ object: `box${i}`, x }));
      // box1 is made from the small box's vertices (with the big box's index: the same 24 corners, 36 indices).
      const drawables: PickDrawable<string>[] = boxes.map((b, i) => ({
        object: b.object,
        vertexBuffers: i === 1 ? onSmall : onBig,
        index,
        worldMatrix: translation(b.x),
      }));
      const target = createDrawableScene<string>(engine, makePerspectiveCamera({ ...view, near: 0.1 }));
      syncDrawableScene(target, drawables);
      const made = [...target.scene.meshes];
      expect(made[1].hostBuffers?.vertexBuffers[0]).toBe(small.vertex);
      // Now every drawable lists the big box's array: box0 and box2 are steady; box1 is not.
      drawables[1].vertexBuffers = onBig;
      syncDrawableScene(target, drawables);
      const meshes = target.scene.meshes;
      expect(meshes[0]).toBe(made[0]);
      expect(meshes[2]).toBe(made[2]);
      expect(meshes[1]).not.toBe(made[1]);
      expect(meshes[1].hostBuffers?.vertexBuffers[0]).toBe(big.vertex);
      const pixels = clearPixels(boxes, [big.edge, small.edge]);
      expect(await picksOf(target, pixels)).toEqual(referencePicks(boxes, big.edge, pixels));
      disposeDrawableScene(target);
      for (const buffer of [big.vertex, big.index, small.vertex, small.index]) buffer.destroy();
    },
    size,
  );

  gpuTest(
    're-ordered, re-keyed, dropped and added drawables: the pick order and the objects follow the list each sync',
    async ({ engine }) => {
      const box = boxBuffers(engine.device, 1.2);
      const { vertexBuffers, indexSource: index } = box;
      const at = { a: -3, b: -1, c: 1, d: 3 } as Record<string, number>;
      const drawableOf = (object: string, x: number): PickDrawable<string> => ({
        object,
        vertexBuffers,
        index,
        worldMatrix: translation(x),
      });
      const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((o) => drawableOf(o, at[o]));
      const target = createDrawableScene<string>(engine, makePerspectiveCamera({ ...view, near: 0.1 }));
      syncDrawableScene(target, [a, b, c, d]);
      const meshOf = new Map<string, Mesh>(target.scene.meshes.map((m, i) => [['a', 'b', 'c', 'd'][i], m]));
      const structure = target.scene.structureVersion;
      syncDrawableScene(target, [a, b, c, d]);
      expect(target.scene.structureVersion).toBe(structure);
      // b and c swap places: the same meshes, in the list's order.
      syncDrawableScene(target, [a, c, b, d]);
      expect(meshObjects(target)).toEqual(['a', 'c', 'b', 'd']);
      expect(target.scene.meshes).toEqual(['a', 'c', 'b', 'd'].map((o) => meshOf.get(o)));
      expect(target.scene.structureVersion).toBeGreaterThan(structure);
      // Back, with d's drawable now naming another object at the same place (the same drawable object, re-keyed).
      d.object = 'e';
      syncDrawableScene(target, [a, b, c, d]);
      expect(meshObjects(target)).toEqual(['a', 'b', 'c', 'e']);
      expect(target.scene.meshes.slice(0, 3)).toEqual(['a', 'b', 'c'].map((o) => meshOf.get(o)));
      expect(target.scene.meshes[3]).not.toBe(meshOf.get('d'));
      expect([...target.slotOf.keys()].sort()).toEqual(['a', 'b', 'c', 'e']);
      // A list as long as the last one, every place but one as it was, naming an object twice: refused, nothing changed.
      const before = [...target.scene.meshes];
      expect(() => syncDrawableScene(target, [a, b, c, b])).toThrowError(/drawables\[3\]\.object is listed twice/);
      expect(() => syncDrawableScene(target, [a, a, c, d])).toThrowError(/drawables\[1\]\.object is listed twice/);
      expect(target.scene.meshes).toEqual(before);
      // a is dropped and f comes first: every place holds another object than before.
      const f = drawableOf('f', 5);
      syncDrawableScene(target, [f, b, c, d]);
      expect(meshObjects(target)).toEqual(['f', 'b', 'c', 'e']);
      // The picks name what is drawn where, in this order.
      const boxes = [
        { object: 'f', x: 5 },
        { object: 'b', x: -1 },
        { object: 'c', x: 1 },
        { object: 'e', x: 3 },
      ];
      const pixels = clearPixels(boxes, [box.edge]);
      const picks = await picksOf(target, pixels);
      expect(picks).toEqual(referencePicks(boxes, box.edge, pixels));
      expect(new Set(picks)).toEqual(new Set(['b', 'c', 'e', 'f', null]));
      // The last one left off, every other at its place: it is dropped.
      syncDrawableScene(target, [f, b, c]);
      expect(meshObjects(target)).toEqual(['f', 'b', 'c']);
      expect([...target.slotOf.keys()].sort()).toEqual(['b', 'c', 'f']);
      disposeDrawableScene(target);
      box.destroy();
    },
    size,
  );

  gpuTest(
    'instances that appear with any version number, then go: the sync follows their presence, not only the number',
    async ({ engine }) => {
      const box = boxBuffers(engine.device, 1);
      const drawable: PickDrawable<string> = {
        object: 'box',
        vertexBuffers: [vertexBufferOf(box.vertex, box.positions)],
        index: { buffer: box.index, data: box.indices },
        worldMatrix: translation(0),
      };
      const target = createDrawableScene<string>(engine, makePerspectiveCamera({ ...view, near: 0.1 }));
      syncDrawableScene(target, [drawable]);
      expect(target.scene.meshes[0].thinInstanceCount).toBe(0);
      for (const version of [-1, 0]) {
        // Two instances, at x = -2 and x = 2, given with a version a drawable without instances could be taken for.
        drawable.instances = { matrices: Float32Array.from([...translation(-2), ...translation(2)]), version };
        syncDrawableScene(target, [drawable]);
        expect(target.scene.meshes[0].thinInstanceCount).toBe(2);
        const boxes = [
          { object: 'box', x: -2 },
          { object: 'box', x: 2 },
        ];
        const pixels = clearPixels([...boxes, { x: 0 }], [box.edge]);
        expect(await picksOf(target, pixels)).toEqual(referencePicks(boxes, box.edge, pixels));
        drawable.instances = null;
        syncDrawableScene(target, [drawable]);
        expect(target.scene.meshes[0].thinInstanceCount).toBe(0);
      }
      disposeDrawableScene(target);
      box.destroy();
    },
    size,
  );

  gpuTest(
    "a steady sync reads none of weft's meshes; a moved drawable's mesh alone is read",
    async ({ engine }) => {
      const box = boxBuffers(engine.device, 1);
      const { vertexBuffers, indexSource: index } = box;
      const drawables: PickDrawable<string>[] = [-2, 0, 2].map((x, i) => ({
        object: `box${i}`,
        vertexBuffers,
        index,
        worldMatrix: translation(x),
      }));
      const target = createDrawableScene<string>(engine, null);
      syncDrawableScene(target, drawables);
      // Count every read of what a sync could look at on a mesh.
      const reads = new Map<Mesh, number>();
      for (const mesh of target.scene.meshes)
        for (const key of ['worldMatrix', 'hostBuffers', 'skeleton', 'geometry', 'name', 'material'] as const) {
          let value = mesh[key];
          Object.defineProperty(mesh, key, {
            get: () => {
              reads.set(mesh, (reads.get(mesh) ?? 0) + 1);
              return value;
            },
            set: (next) => {
              value = next;
            },
            configurable: true,
          });
        }
      syncDrawableScene(target, drawables);
      expect([...reads.values()]).toEqual([]);
      (drawables[1].worldMatrix as number[])[13] += 0.5;
      syncDrawableScene(target, drawables);
      expect([...reads.keys()]).toEqual([target.scene.meshes[1]]);
      expect(target.scene.meshes[1].worldMatrix[13]).toBe(0.5);
      disposeDrawableScene(target);
      box.destroy();
    },
    size,
  );
});
