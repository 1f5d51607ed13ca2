import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import { createMeshFromData, disposeMesh, type FrameIdHit, makeBoxData, runTasks } from '../../../engine/index.js';
import { createGeometryRendererTask, GeometryTextureType, readGeometryFrameIdAsync } from '../../../geometry/index.js';
import { gpuTest } from '../../support/gpu.js';
import { cameraPixelRay } from '../../support/camera-rays.js';
import { castReferenceRay, castReferenceRayAll, type ReferenceHit } from '../../support/reference-raycast.js';
import { generateGeometryScene } from './geometry-test-helpers.js';

const sameHit = (a: ReferenceHit | null, b: ReferenceHit | null) =>
  !a || !b ? a === b : a.meshId === b.meshId && a.thinInstanceIndex === b.thinInstanceIndex && a.faceId === b.faceId;

describe('frame IDs: hover from the last rendered frame', () => {
  gpuTest(
    'readGeometryFrameIdAsync gives mesh, thin instance and primitive of every pixel centre, as the CPU ray cast does, without a render pass',
    async ({ engine }) => {
      const generated = await generateGeometryScene(engine, 21);
      const { scene, reference } = generated;
      const task = createGeometryRendererTask(scene, {
        textureDescriptions: [{ type: GeometryTextureType.ALBEDO }],
        objectId: true,
      });
      runTasks(engine, [task]);
      const { width, height } = engine;
      expect(task.state.setup.objectPrimitive, 'lavapipe has primitive-index').toBe(true);
      const cast = (x: number, y: number) => {
        const ray = cameraPixelRay(scene.camera!, x, y, width, height);
        return castReferenceRay(reference, ray.origin, ray.direction);
      };
      // Count render passes begun while reading: hover needs none.
      const probe = engine.device.createCommandEncoder();
      const proto = Object.getPrototypeOf(probe) as { beginRenderPass: (...args: unknown[]) => unknown };
      probe.finish();
      const begin = proto.beginRenderPass;
      let passes = 0;
      proto.beginRenderPass = function (this: unknown, ...args: unknown[]) {
        passes++;
        return begin.apply(this, args);
      };
      const figures = { compared: 0, identity: 0, primitive: 0, misses: 0, missAgree: 0 };
      try {
        const pixels: [number, number][] = [];
        for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels.push([x, y]);
        for (let start = 0; start < pixels.length; start += 64) {
          const batch = pixels.slice(start, start + 64);
          const hits: FrameIdHit[] = await Promise.all(batch.map(([x, y]) => readGeometryFrameIdAsync(task, x, y)));
          batch.forEach(([x, y], k) => {
            const truth = cast(x, y);
            if (
              [
                [-0.05, 0],
                [0.05, 0],
                [0, -0.05],
                [0, 0.05],
              ].some(([dx, dy]) => !sameHit(truth, cast(x + dx, y + dy)))
            )
              return;
            const hit = hits[k];
            if (!truth) {
              figures.misses++;
              if (!hit.hit) figures.missAgree++;
              return;
            }
            const ray = cameraPixelRay(scene.camera!, x, y, width, height);
            const next = castReferenceRayAll(reference, ray.origin, ray.direction).find(
              (h) => h.meshId !== truth.meshId || h.thinInstanceIndex !== truth.thinInstanceIndex,
            );
            if (next && next.distance - truth.distance < 1e-3 * truth.distance) return;
            figures.compared++;
            if (hit.hit && hit.mesh.uniqueId === truth.meshId && hit.thinInstanceIndex === truth.thinInstanceIndex) {
              figures.identity++;
              if (hit.primitiveIndex === truth.faceId) figures.primitive++;
            }
          });
        }
      } finally {
        proto.beginRenderPass = begin;
      }
      console.log('[frame IDs vs ray cast]', figures, 'render passes begun by the reads:', passes);
      expect(passes).toBe(0);
      expect(figures.compared).toBeGreaterThan(1200);
      expect(figures.identity).toBe(figures.compared);
      expect(figures.primitive).toBe(figures.compared);
      expect(figures.missAgree).toBe(figures.misses);
      expect(task.state.ids.reader.pool!.created, 'staging buffers are pooled').toBeLessThanOrEqual(64);
      task.dispose();
    },
    [80, 60],
  );

  gpuTest(
    'a read resolves with the ID snapshot of the frame it reads, even after the scene changed',
    async ({ engine }) => {
      const generated = await generateGeometryScene(engine, 22);
      const { scene } = generated;
      const task = createGeometryRendererTask(scene, {
        textureDescriptions: [{ type: GeometryTextureType.ALBEDO }],
        objectId: { format: 'rg32uint' },
      });
      await expect(readGeometryFrameIdAsync(task, 0, 0)).rejects.toThrow(
        'has not rendered a frame on the current device yet',
      );
      runTasks(engine, [task]);
      const centre: [number, number] = [32, 24];
      let probe: [number, number] | null = null;
      let before: FrameIdHit | null = null;
      for (let y = 0; y < 48 && !probe; y += 3) {
        for (let x = 0; x < 64 && !probe; x += 3) {
          const hit = await readGeometryFrameIdAsync(task, x, y);
          if (hit.hit) [probe, before] = [[x, y], hit];
        }
      }
      expect(before?.hit).toBe(true);
      const removed = (before as Extract<FrameIdHit, { hit: true }>).mesh;
      disposeMesh(removed);
      createMeshFromData(scene, 'newcomer', makeBoxData(), { worldMatrix: mat4.translation([0, 0, 2]) });
      // No frame since: the read still names the mesh that was drawn there, from that frame's snapshot.
      const stale = await readGeometryFrameIdAsync(task, ...probe!);
      expect(stale).toEqual(before);
      runTasks(engine, [task]);
      const fresh = await readGeometryFrameIdAsync(task, ...probe!);
      expect(fresh.hit && fresh.mesh === removed).toBe(false);
      await expect(readGeometryFrameIdAsync(task, 64, 0)).rejects.toThrow(
        'readGeometryFrameIdAsync: pixel (64, 0) is outside the 64×48 frame',
      );
      const noIds = createGeometryRendererTask(scene, { textureDescriptions: [{ type: GeometryTextureType.ALBEDO }] });
      await expect(readGeometryFrameIdAsync(noIds, ...centre)).rejects.toThrow(
        'has no object-ID output; create it with objectId: true',
      );
      task.dispose();
      noIds.dispose();
    },
    [64, 48],
  );
});
