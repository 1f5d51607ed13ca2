// The pick-source seam's steady hint (syncDrawableSceneHinted): a place a host vouches for costs the sync no read of
// its drawable (counted through a Proxy) and is taken as it is, and a list vouched for whole is not read at all; every
// other place is checked and applied as without a hint; a hint is ignored after a failed call, a whole-list hint where
// the list's length changed, and a place's where the slot holds another drawable object; errors stay errors.
// Picks are checked against a float64 slab test of the boxes' world extents through the test camera's pixel centres.
import { describe, expect } from 'vitest';
import { makePerspectiveCamera } from '../../../engine/index.js';
import { createDrawableScene, disposeDrawableScene, type PickDrawable } from '../../../picking/index.js';
import { syncDrawableSceneHinted } from '../../../picking/sources/drawable-scene.js';
import { gpuTest } from '../../support/gpu.js';
import { boxBuffers, clearPixels, picksOf, referencePicks, size, translation, view } from './drawable-boxes.js';

/** A drawable whose property reads are counted. */
function counted<T extends object>(drawable: T, reads: { count: number }): T {
  return new Proxy(drawable, {
    get(target, key, receiver) {
      reads.count++;
      return Reflect.get(target, key, receiver);
    },
  });
}

describe('pick-source seam: the steady hint', () => {
  gpuTest(
    'steady places cost no read of their drawable; a moved non-steady place is checked and applied; picks follow',
    async ({ engine }) => {
      const box = boxBuffers(engine.device, 1);
      const { vertexBuffers, indexSource: index } = box;
      const boxes = [-2, 0, 2].map((x, i) => ({ object: `box${i}`, x }));
      const reads = boxes.map(() => ({ count: 0 }));
      const plain = boxes.map((b) => ({ object: b.object, vertexBuffers, index, worldMatrix: translation(b.x) }));
      const drawables: PickDrawable<string>[] = plain.map((d, i) => counted(d, reads[i]));
      const target = createDrawableScene<string>(engine, makePerspectiveCamera({ ...view, near: 0.1 }));
      syncDrawableSceneHinted(target, drawables, { steady: new Uint8Array(3), steadyCount: 0 });
      expect(target.sync.steadySkipped).toBe(0);
      const pixels = clearPixels(boxes, [box.edge]);
      expect(await picksOf(target, pixels)).toEqual(referencePicks(boxes, box.edge, pixels));
      for (const r of reads) r.count = 0;
      // The whole list vouched for: not even the list is read (a list whose reads throw).
      const changes = target.changes;
      const unreadable = new Proxy(drawables, {
        get(list, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) throw new Error(`drawables[${key}] was read`);
          return Reflect.get(list, key, receiver);
        },
      });
      syncDrawableSceneHinted(target, unreadable, { steady: Uint8Array.of(1, 1, 1), steadyCount: 3 });
      expect(target.sync.steadySkipped).toBe(3);
      expect(target.changes).toBe(changes);
      expect(reads.map((r) => r.count)).toEqual([0, 0, 0]);
      // Vouched place by place (the count says not all): each steady place costs no read of its drawable.
      syncDrawableSceneHinted(target, drawables, { steady: Uint8Array.of(1, 1, 1), steadyCount: 2 });
      expect(target.sync.steadySkipped).toBe(3);
      expect(reads.map((r) => r.count)).toEqual([0, 0, 0]);
      // Without the hint the same steady sync reads every drawable.
      syncDrawableSceneHinted(target, drawables, undefined);
      expect(reads.every((r) => r.count > 0)).toBe(true);
      // box2 moves left by 1 (its place not steady): checked and applied, the others still skipped.
      for (const r of reads) r.count = 0;
      plain[2].worldMatrix = translation(1);
      syncDrawableSceneHinted(target, drawables, { steady: Uint8Array.of(1, 1, 0), steadyCount: 2 });
      expect(target.sync.steadySkipped).toBe(2);
      expect(reads.map((r) => r.count > 0)).toEqual([false, false, true]);
      expect(target.scene.meshes[2].worldMatrix[12]).toBe(1);
      const moved = [boxes[0], boxes[1], { object: 'box2', x: 1 }];
      const movedPixels = clearPixels(moved, [box.edge]);
      expect(await picksOf(target, movedPixels)).toEqual(referencePicks(moved, box.edge, movedPixels));
      // A shorter list vouched for whole is checked: its length is not the last sync's. box2 is dropped.
      syncDrawableSceneHinted(target, drawables.slice(0, 2), { steady: Uint8Array.of(1, 1), steadyCount: 2 });
      expect(target.scene.meshes.length).toBe(2);
      const kept = boxes.slice(0, 2);
      const keptPixels = clearPixels(kept, [box.edge]);
      expect(await picksOf(target, keptPixels)).toEqual(referencePicks(kept, box.edge, keptPixels));
      disposeDrawableScene(target);
      box.destroy();
    },
    size,
  );

  gpuTest(
    'a hint is not taken where the slot holds another drawable object, nor after a failed call; errors still throw',
    async ({ engine }) => {
      const box = boxBuffers(engine.device, 1);
      const { vertexBuffers, indexSource: index } = box;
      const make = (object: string, x: number): PickDrawable<string> => ({
        object,
        vertexBuffers,
        index,
        worldMatrix: translation(x),
      });
      const drawables = [make('a', -2), make('b', 2)];
      const target = createDrawableScene<string>(engine, makePerspectiveCamera({ ...view, near: 0.1 }));
      const all = { steady: Uint8Array.of(1, 1), steadyCount: 2 };
      syncDrawableSceneHinted(target, drawables, { steady: new Uint8Array(2), steadyCount: 0 });
      // A new drawable object for 'b' (moved) under a wrong "steady" at its place: checked in full, the move applied.
      drawables[1] = make('b', 1);
      syncDrawableSceneHinted(target, drawables, { steady: Uint8Array.of(1, 1), steadyCount: 1 });
      expect(target.sync.steadySkipped).toBe(1);
      expect(target.scene.meshes[1].worldMatrix[12]).toBe(1);
      // A failed call ('a' moved, then a bad drawable): the scene stays as it was...
      drawables[0].worldMatrix = translation(-1);
      const bad = [...drawables, { object: 'c' } as unknown as PickDrawable<string>];
      expect(() => syncDrawableSceneHinted(target, bad, { steady: Uint8Array.of(0, 1, 0), steadyCount: 1 })).toThrow(
        /drawables\[2\]\.vertexBuffers/,
      );
      expect(target.scene.meshes[0].worldMatrix[12]).toBe(-2);
      // ...and the next call's hint speaks of a state the scene never took: ignored, the move applied.
      syncDrawableSceneHinted(target, drawables, all);
      expect(target.sync.steadySkipped).toBe(0);
      expect(target.scene.meshes[0].worldMatrix[12]).toBe(-1);
      // After a successful call it is taken again.
      syncDrawableSceneHinted(target, drawables, all);
      expect(target.sync.steadySkipped).toBe(2);
      // Listing an object twice is refused even where a place is vouched for.
      expect(() =>
        syncDrawableSceneHinted(target, [drawables[0], drawables[1], drawables[0]], {
          steady: Uint8Array.of(1, 1, 1),
          steadyCount: 3,
        }),
      ).toThrow(/listed twice/);
      const boxes = [
        { object: 'a', x: -1 },
        { object: 'b', x: 1 },
      ];
      const pixels = clearPixels(boxes, [box.edge]);
      expect(await picksOf(target, pixels)).toEqual(referencePicks(boxes, box.edge, pixels));
      disposeDrawableScene(target);
      box.destroy();
    },
    size,
  );
});
