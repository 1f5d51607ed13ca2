import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import type { Engine } from '../../../engine/index.js';
import { createGpuPicker, enableDetailedPicking, getPickedUV, pickAsync, type PickingInfo } from '../../../picking/index.js';
import { gpuTest } from '../../support/gpu.js';
import { type Generated, generateScene } from '../../support/generated-scenes.js';
import { castReferenceRay, castReferenceRayAll, makePixelRay, type ReferenceHit } from '../../support/reference-raycast.js';

interface Figures { compared: number; identity: number; face: number; point: number; barycentric: number; normal: number; uvCompared: number; uv: number; misses: number; missAgree: number }

const sameHit = (a: ReferenceHit | null, b: ReferenceHit | null) => (!a || !b ? a === b : a.meshId === b.meshId && a.thinInstanceIndex === b.thinInstanceIndex && a.faceId === b.faceId);
const close = (a: readonly number[], b: readonly number[], tolerance: number) => a.every((v, i) => Math.abs(v - b[i]) <= tolerance);

/** Picks every pixel of the frame and compares with the three-mesh-bvh ray through the same pixel centre. */
async function measure(generated: Generated, engine: Engine, figures: Figures): Promise<void> {
  const picker = createGpuPicker(generated.scene);
  expect(enableDetailedPicking(picker)).toBe(true);
  const { width, height } = engine;
  const camera = generated.scene.camera!;
  const cameraPosition = Array.from(camera.position) as [number, number, number];
  const pixels: [number, number][] = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels.push([x, y]);
  for (let start = 0; start < pixels.length; start += 64) {
    const batch = pixels.slice(start, start + 64);
    const infos: PickingInfo[] = await Promise.all(batch.map(([x, y]) => pickAsync(picker, x, y)));
    batch.forEach(([x, y], k) => {
      const info = infos[k];
      const inverse = mat4.inverse(info.ray?.viewProjection ?? new Float32Array(16));
      const cast = (dx: number, dy: number) => {
        const ray = makePixelRay(inverse, cameraPosition, x + dx, y + dy, width, height);
        return castReferenceRay(generated.reference, ray.origin, ray.direction);
      };
      const truth = cast(0, 0);
      if ([[-0.05, 0], [0.05, 0], [0, -0.05], [0, 0.05]].some(([dx, dy]) => !sameHit(truth, cast(dx, dy)))) return;
      if (!truth) {
        figures.misses++;
        if (!info.hit) figures.missAgree++;
        return;
      }
      const ray = makePixelRay(inverse, cameraPosition, x, y, width, height);
      const next = castReferenceRayAll(generated.reference, ray.origin, ray.direction).find((h) => h.meshId !== truth.meshId || h.thinInstanceIndex !== truth.thinInstanceIndex);
      if (next && next.distance - truth.distance < 1e-3 * truth.distance) return; // identities too close in depth to tell apart
      figures.compared++;
      if (info.pickedMesh?.uniqueId !== truth.meshId || info.thinInstanceIndex !== truth.thinInstanceIndex) return;
      figures.identity++;
      if (info.faceId !== truth.faceId) return;
      figures.face++;
      if (close(info.pickedPoint!, truth.point, 1e-3 * truth.distance)) figures.point++;
      if (close([info.bu, info.bv], [truth.bu, truth.bv], 1e-3)) figures.barycentric++;
      if (truth.normalWorld && info.pickedNormalWorld && close(info.pickedNormalWorld, truth.normalWorld, 1e-3)) figures.normal++;
      if (truth.uv) {
        figures.uvCompared++;
        const uv = getPickedUV(info);
        if (uv && close(uv, truth.uv, 1e-3)) figures.uv++;
      }
    });
  }
}

describe('GPU picker accuracy against three.js + three-mesh-bvh', () => {
  gpuTest('identity, face, point, barycentrics, world normal and UV agree on generated scenes', async ({ engine }) => {
    const figures: Figures = { compared: 0, identity: 0, face: 0, point: 0, barycentric: 0, normal: 0, uvCompared: 0, uv: 0, misses: 0, missAgree: 0 };
    for (const seed of [1, 2, 3, 4]) await measure(await generateScene(engine, seed), engine, figures);
    const ratio = (n: number, of = figures.compared) => n / of;
    const base: Record<string, number> = { missAgree: figures.misses, uv: figures.uvCompared };
    const report = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, ['compared', 'misses', 'uvCompared'].includes(k) ? v : `${v} (${(100 * ratio(v, base[k] ?? figures.compared)).toFixed(3)} %)`]));
    console.log('[picker accuracy]', report);
    expect(figures.compared).toBeGreaterThan(2000);
    expect(figures.misses).toBeGreaterThan(500);
    expect(figures.missAgree).toBe(figures.misses);
    for (const key of ['identity', 'face', 'point', 'barycentric', 'normal'] as const) {
      expect(ratio(figures[key]), key).toBeGreaterThanOrEqual(0.999);
    }
    expect(figures.uvCompared).toBeGreaterThan(1000);
    expect(ratio(figures.uv, figures.uvCompared), 'uv').toBeGreaterThanOrEqual(0.999);
  }, [80, 60]);
});
