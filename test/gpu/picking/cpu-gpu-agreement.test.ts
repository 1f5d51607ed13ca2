import { describe, expect } from 'vitest';
import {
  createGpuPicker,
  enableDetailedPicking,
  pickAsync,
  pickSync,
  type PickingInfo,
} from '../../../picking/index.js';
import { generateScene } from '../../support/generated-scenes.js';
import { gpuTest } from '../../support/gpu.js';
import { makeFloat64Camera, pixelRay } from '../../support/camera-rays.js';
import { castReferenceRay, type ReferenceHit } from '../../support/reference-raycast.js';

const sameHit = (a: ReferenceHit | null, b: ReferenceHit | null) =>
  !a || !b ? a === b : a.meshId === b.meshId && a.thinInstanceIndex === b.thinInstanceIndex && a.faceId === b.faceId;
const identity = (info: PickingInfo) => (info.hit ? `${info.pickedMesh!.uniqueId}/${info.thinInstanceIndex}` : 'miss');

describe('CPU pickSync agrees with the GPU picker', () => {
  gpuTest(
    'same mesh, instance and face at ≥ 99.9 % of pixels away from edges; point within 1e-4 × distance',
    async ({ engine }) => {
      const figures = { compared: 0, hits: 0, identity: 0, face: 0, point: 0, worstPoint: 0 };
      for (const seed of [11, 12, 13]) {
        const generated = await generateScene(engine, seed);
        const picker = createGpuPicker(generated.scene);
        expect(enableDetailedPicking(picker)).toBe(true);
        const { width, height } = engine;
        // Edges are found with float64 rays from the camera's parameters, not with the picker's own ray.
        const camera = makeFloat64Camera(generated.scene.camera!, width, height);
        for (let start = 0; start < width * height; start += 64) {
          const pixels = Array.from(
            { length: Math.min(64, width * height - start) },
            (_, k) => [(start + k) % width, Math.floor((start + k) / width)] as const,
          );
          const gpu = await Promise.all(pixels.map(([x, y]) => pickAsync(picker, x, y)));
          pixels.forEach(([x, y], k) => {
            const cpu = pickSync(generated.scene, x, y);
            const cast = (dx: number, dy: number) => {
              const ray = pixelRay(camera, x + dx, y + dy);
              return castReferenceRay(generated.reference, ray.origin, ray.direction);
            };
            const centre = cast(0, 0);
            if (
              [
                [-0.05, 0],
                [0.05, 0],
                [0, -0.05],
                [0, 0.05],
              ].some(([dx, dy]) => !sameHit(centre, cast(dx, dy)))
            )
              return;
            figures.compared++;
            if (gpu[k].hit) figures.hits++;
            if (identity(cpu) !== identity(gpu[k])) return;
            figures.identity++;
            if (!cpu.hit) {
              figures.face++;
              figures.point++;
              return;
            }
            if (cpu.faceId !== gpu[k].faceId) return;
            figures.face++;
            const error = Math.hypot(...cpu.pickedPoint!.map((c, i) => c - gpu[k].pickedPoint![i])) / cpu.distance;
            figures.worstPoint = Math.max(figures.worstPoint, error);
            if (error <= 1e-4) figures.point++;
          });
        }
      }
      console.log('[cpu vs gpu]', figures);
      expect(figures.compared).toBeGreaterThan(10_000);
      expect(figures.hits).toBeGreaterThan(3_000);
      for (const key of ['identity', 'face', 'point'] as const)
        expect(figures[key] / figures.compared, key).toBeGreaterThanOrEqual(0.999);
    },
    [80, 60],
  );
});
