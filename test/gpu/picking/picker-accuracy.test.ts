import { describe, expect } from 'vitest';
import type { Engine } from '../../../engine/index.js';
import {
  createGpuPicker,
  enableDetailedPicking,
  getPickedUV,
  type PickDiscardRule,
  pickAsync,
  type PickingInfo,
} from '../../../picking/index.js';
import { gpuTest } from '../../support/gpu.js';
import { type Generated, generateScene } from '../../support/generated-scenes.js';
import { makeFloat64Camera, pixelRay } from '../../support/camera-rays.js';
import { castReferenceRay, castReferenceRayAll, type ReferenceHit } from '../../support/reference-raycast.js';

interface Figures {
  compared: number;
  identity: number;
  face: number;
  point: number;
  barycentric: number;
  normal: number;
  uvCompared: number;
  uv: number;
  misses: number;
  missAgree: number;
}

const sameHit = (a: ReferenceHit | null, b: ReferenceHit | null) =>
  !a || !b ? a === b : a.meshId === b.meshId && a.thinInstanceIndex === b.thinInstanceIndex && a.faceId === b.faceId;
const close = (a: readonly number[], b: readonly number[], tolerance: number) =>
  a.every((v, i) => Math.abs(v - b[i]) <= tolerance);

/** Picks every pixel of the frame and compares with the three-mesh-bvh ray through the same pixel centre. */
/** A pick rule and the same rule on the CPU: which reference hits it keeps. */
interface RuleUnderTest {
  discard: PickDiscardRule;
  keeps: (hit: ReferenceHit) => boolean;
  nearBoundary: (hit: ReferenceHit) => boolean;
}

async function measure(generated: Generated, engine: Engine, figures: Figures, rule?: RuleUnderTest): Promise<void> {
  const picker = createGpuPicker(generated.scene);
  expect(enableDetailedPicking(picker)).toBe(true);
  const { width, height } = engine;
  // The reference ray is built here in float64 from the camera's parameters, not from the picker's matrices.
  const camera = makeFloat64Camera(generated.scene.camera!, width, height);
  const pixels: [number, number][] = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels.push([x, y]);
  for (let start = 0; start < pixels.length; start += 64) {
    const batch = pixels.slice(start, start + 64);
    const infos: PickingInfo[] = await Promise.all(
      batch.map(([x, y]) => pickAsync(picker, x, y, rule ? { discard: rule.discard, culling: 'none' } : {})),
    );
    batch.forEach(([x, y], k) => {
      const info = infos[k];
      const cast = (dx: number, dy: number) => {
        const ray = pixelRay(camera, x + dx, y + dy);
        if (!rule) return castReferenceRay(generated.reference, ray.origin, ray.direction);
        return castReferenceRayAll(generated.reference, ray.origin, ray.direction).find(rule.keeps) ?? null;
      };
      const truth = cast(0, 0);
      if (
        [
          [-0.05, 0],
          [0.05, 0],
          [0, -0.05],
          [0, 0.05],
        ].some(([dx, dy]) => !sameHit(truth, cast(dx, dy)))
      )
        return;
      // A surface crossing the rule's boundary at this pixel: float rounding decides, not the rule.
      if (
        rule &&
        castReferenceRayAll(generated.reference, pixelRay(camera, x, y).origin, pixelRay(camera, x, y).direction).some(
          rule.nearBoundary,
        )
      )
        return;
      if (!truth) {
        figures.misses++;
        if (!info.hit) figures.missAgree++;
        return;
      }
      const ray = pixelRay(camera, x, y);
      const next = castReferenceRayAll(generated.reference, ray.origin, ray.direction)
        .filter((h) => !rule || rule.keeps(h))
        .find((h) => h.meshId !== truth.meshId || h.thinInstanceIndex !== truth.thinInstanceIndex);
      if (next && next.distance - truth.distance < 1e-3 * truth.distance) return; // identities too close in depth to tell apart
      figures.compared++;
      if (info.pickedMesh?.uniqueId !== truth.meshId || info.thinInstanceIndex !== truth.thinInstanceIndex) return;
      figures.identity++;
      if (info.faceId !== truth.faceId) return;
      figures.face++;
      if (close(info.pickedPoint!, truth.point, 1e-3 * truth.distance)) figures.point++;
      if (close([info.bu, info.bv], [truth.bu, truth.bv], 1e-3)) figures.barycentric++;
      // Picked normals are on the side of the triangle the ray came from (this data's normals follow its winding).
      const seen = truth.normalWorld && (truth.frontFacing ? truth.normalWorld : truth.normalWorld.map((c) => -c));
      if (seen && info.pickedNormalWorld && close(info.pickedNormalWorld, seen, 1e-3)) figures.normal++;
      if (truth.uv) {
        figures.uvCompared++;
        const uv = getPickedUV(info);
        if (uv && close(uv, truth.uv, 1e-3)) figures.uv++;
      }
    });
  }
}

describe('GPU picker accuracy against three.js + three-mesh-bvh', () => {
  gpuTest(
    'identity, face, point, barycentrics, world normal and UV agree on generated scenes',
    async ({ engine }) => {
      const figures: Figures = {
        compared: 0,
        identity: 0,
        face: 0,
        point: 0,
        barycentric: 0,
        normal: 0,
        uvCompared: 0,
        uv: 0,
        misses: 0,
        missAgree: 0,
      };
      for (const seed of [1, 2, 3, 4]) await measure(await generateScene(engine, seed), engine, figures);
      const ratio = (n: number, of = figures.compared) => n / of;
      const base: Record<string, number> = { missAgree: figures.misses, uv: figures.uvCompared };
      const report = Object.fromEntries(
        Object.entries(figures).map(([k, v]) => [
          k,
          ['compared', 'misses', 'uvCompared'].includes(k)
            ? v
            : `${v} (${(100 * ratio(v, base[k] ?? figures.compared)).toFixed(3)} %)`,
        ]),
      );
      console.log('[picker accuracy]', report);
      expect(figures.compared).toBeGreaterThan(2000);
      expect(figures.misses).toBeGreaterThan(500);
      expect(figures.missAgree).toBe(figures.misses);
      for (const key of ['identity', 'face', 'point', 'barycentric', 'normal'] as const) {
        expect(ratio(figures[key]), key).toBeGreaterThanOrEqual(0.999);
      }
      expect(figures.uvCompared).toBeGreaterThan(1000);
      expect(ratio(figures.uv, figures.uvCompared), 'uv').toBeGreaterThanOrEqual(0.999);
    },
    [80, 60],
  );

  gpuTest(
    'a clip-plane rule agrees with a CPU ray cast that skips hits on the clipped side',
    async ({ engine }) => {
      const figures: Figures = {
        compared: 0,
        identity: 0,
        face: 0,
        point: 0,
        barycentric: 0,
        normal: 0,
        uvCompared: 0,
        uv: 0,
        misses: 0,
        missAgree: 0,
      };
      // Clip everything above the tilted plane n·p > 0.1 with n = normalize(0.3, 1, 0.2).
      const n = [0.3, 1, 0.2].map((c) => c / Math.hypot(0.3, 1, 0.2));
      const side = (p: readonly number[]) => n[0] * p[0] + n[1] * p[1] + n[2] * p[2] - 0.1;
      const rule: RuleUnderTest = {
        discard: {
          key: 'clip-plane',
          wgsl: `fn pickDiscard(input: PickDiscardInput) -> bool {\n  return dot(input.worldPos, vec3f(${n.map((c) => c.toFixed(9)).join(', ')})) - 0.1 > 0.0;\n}`,
        },
        keeps: (hit) => side(hit.point) <= 0,
        nearBoundary: (hit) => Math.abs(side(hit.point)) < 1e-4 * hit.distance,
      };
      for (const seed of [5, 6, 7]) await measure(await generateScene(engine, seed), engine, figures, rule);
      console.log('[clip-plane accuracy]', figures);
      expect(figures.compared).toBeGreaterThan(1000);
      expect(figures.missAgree).toBe(figures.misses);
      for (const key of ['identity', 'face', 'point', 'barycentric', 'normal'] as const)
        expect(figures[key] / figures.compared, key).toBeGreaterThanOrEqual(0.999);
    },
    [80, 60],
  );
});
