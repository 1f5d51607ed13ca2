import { describe, expect, test } from 'vitest';
import { makePerspectiveCamera, setCameraOrbit } from '../../../engine/camera.js';
import { createMeshFromData } from '../../../engine/mesh.js';
import { makeBunnyDataAsync } from '../../../engine/primitives/index.js';
import type { Scene } from '../../../engine/scene.js';
import { getPickedUV } from '../../../picking/picking-info.js';
import { createCpuPicker, pickSync, pickWithRaySync, takeCpuPickCensus } from '../../../picking/cpu/index.js';
import { makeFloat64Camera, pixelRay } from '../../support/camera-rays.js';
import { castReferenceRay } from '../../support/reference-raycast.js';
import { addRandomMeshes, makeCpuScene, mulberry32, randomTransform, toReferenceScene } from './scene-fixtures.js';

interface Agreement {
  pixels: number;
  nearEdge: number;
  compared: number;
  agreed: number;
  hits: number;
  worstPointError: number;
  worstNormalError: number;
  worstBaryError: number;
  /** pickSync(x, y) through weft's own pixel ray: same mesh, instance and face as the reference. */
  pixelAgreed: number;
  worstPixelPointError: number;
}

/** Compares pickSync with the three-mesh-bvh reference at every pixel centre of the scene's viewport. */
function measureAgreement(scene: Scene): Agreement {
  const reference = toReferenceScene(scene);
  const { width, height } = scene.engine;
  const result: Agreement = {
    pixels: 0,
    nearEdge: 0,
    compared: 0,
    agreed: 0,
    hits: 0,
    worstPointError: 0,
    worstNormalError: 0,
    worstBaryError: 0,
    pixelAgreed: 0,
    worstPixelPointError: 0,
  };
  const edge = 1e-4;
  // The reference ray: float64 from the camera's parameters, not weft's makePickingRay.
  const camera = makeFloat64Camera(scene.camera!, width, height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      result.pixels++;
      const ray = pixelRay(camera, x, y);
      // Precision is judged on the BVH fed the exact ray and on pickSync's own pixel ray; the reference casts DoubleSide.
      const ours = pickWithRaySync(scene, ray, { culling: 'none' });
      const own = pickSync(scene, x, y, { culling: 'none' });
      const ref = castReferenceRay(reference, ray.origin, ray.direction);
      const nearEdge = (b: { bu: number; bv: number } | null): boolean =>
        !!b && Math.min(b.bu, b.bv, 1 - b.bu - b.bv) < edge;
      if (nearEdge(ref) || (ours.hit && nearEdge(ours))) {
        result.nearEdge++;
        continue;
      }
      result.compared++;
      if (!ref) {
        if (!ours.hit) result.agreed++;
        if (!own.hit) result.pixelAgreed++;
        continue;
      }
      if (
        own.hit &&
        own.pickedMesh!.uniqueId === ref.meshId &&
        own.thinInstanceIndex === ref.thinInstanceIndex &&
        own.faceId === ref.faceId
      ) {
        result.pixelAgreed++;
        const error = Math.hypot(...own.pickedPoint!.map((v, i) => v - ref.point[i])) / ref.distance;
        result.worstPixelPointError = Math.max(result.worstPixelPointError, error);
      }
      if (
        !ours.hit ||
        ours.pickedMesh!.uniqueId !== ref.meshId ||
        ours.thinInstanceIndex !== ref.thinInstanceIndex ||
        ours.faceId !== ref.faceId
      )
        continue;
      const pointError = Math.hypot(...ours.pickedPoint!.map((v, i) => v - ref.point[i])) / ref.distance;
      result.worstPointError = Math.max(result.worstPointError, pointError);
      result.worstBaryError = Math.max(result.worstBaryError, Math.abs(ours.bu - ref.bu), Math.abs(ours.bv - ref.bv));
      if (ref.normalWorld)
        result.worstNormalError = Math.max(
          result.worstNormalError,
          Math.hypot(...ours.pickedNormalWorld!.map((v, i) => v - ref.normalWorld![i])),
        );
      // The reference orients face normals by world winding; weft (like the GPU picker) by the inverse-transpose,
      // which is the opposite orientation under a mirroring transform: compare the line, not the sign.
      const aligned = Math.sign(ours.pickedFaceNormalWorld!.reduce((d, v, i) => d + v * ref.faceNormalWorld[i], 0));
      result.worstNormalError = Math.max(
        result.worstNormalError,
        Math.hypot(...ours.pickedFaceNormalWorld!.map((v, i) => aligned * v - ref.faceNormalWorld[i])),
      );
      if (Math.abs(ours.distance - ref.distance) <= 1e-4 * ref.distance && pointError <= 1e-4) {
        result.agreed++;
        result.hits++;
      }
    }
  }
  return result;
}

function report(label: string, a: Agreement, census: ReturnType<typeof takeCpuPickCensus>): void {
  const rate = (100 * a.agreed) / a.compared;
  console.log(
    `[cpu-pick agreement] ${label}: ${a.agreed}/${a.compared} pixels agree (${rate.toFixed(3)} %), ${a.hits} hits, ` +
      `pickSync's own pixel ray: ${a.pixelAgreed}/${a.compared} identities, worst point error ${a.worstPixelPointError.toExponential(2)} × distance; ` +
      `${a.nearEdge} of ${a.pixels} pixels skipped as within 1e-4 barycentric of an edge; worst point error ${a.worstPointError.toExponential(2)} × distance, ` +
      `worst bary error ${a.worstBaryError.toExponential(2)}, worst normal error ${a.worstNormalError.toExponential(2)}; ` +
      `census: ${census.offersPerRay.toFixed(2)} offers/ray (flat scan: ${census.flatOffersPerRay}), ${census.narrowPhasePerRay.toFixed(2)} narrow-phase/ray`,
  );
}

describe('pickSync agrees with three.js + three-mesh-bvh on generated scenes', () => {
  test.each([1, 2, 3])(
    'random scene %i: mesh, instance and face for ≥ 99.9 % of pixels; fed the exact ray, point within 1e-5 × distance',
    (seed) => {
      const rand = mulberry32(seed * 7919);
      const scene = makeCpuScene(160, 120);
      addRandomMeshes(scene, rand, 24, 6);
      scene.camera = makePerspectiveCamera({ fovY: 0.9 });
      setCameraOrbit(scene.camera, { target: [0, 0, 0], radius: 9, yaw: rand() * 6, pitch: rand() - 0.5 });
      const picker = createCpuPicker(scene);
      const a = measureAgreement(scene);
      report(`seed ${seed}`, a, takeCpuPickCensus(picker));
      expect(a.hits).toBeGreaterThan(a.compared * 0.2);
      expect(a.agreed / a.compared).toBeGreaterThanOrEqual(0.999);
      expect(a.pixelAgreed / a.compared).toBeGreaterThanOrEqual(0.999);
      expect(a.worstPointError).toBeLessThanOrEqual(1e-5);
      expect(a.worstPixelPointError).toBeLessThanOrEqual(1e-6); // pickSync's own ray is exact (float64, issue 15)
      expect(a.worstBaryError).toBeLessThan(1e-4);
      expect(a.worstNormalError).toBeLessThan(1e-3);
    },
  );

  test('bunny, thin-instanced and mirrored, seen close up', async () => {
    const scene = makeCpuScene(128, 128);
    const rand = mulberry32(99);
    const thin = new Float32Array(3 * 16);
    for (let k = 0; k < 3; k++) thin.set(randomTransform(rand, 1.5, k === 1), k * 16);
    const bunny = createMeshFromData(scene, 'bunny', await makeBunnyDataAsync(), { thinInstances: thin });
    scene.camera = makePerspectiveCamera({ fovY: 0.8 });
    setCameraOrbit(scene.camera, { target: [0, 0, 0], radius: 4, yaw: 0.7, pitch: 0.3 });
    const picker = createCpuPicker(scene);
    const a = measureAgreement(scene);
    report('bunny ×3 instances', a, takeCpuPickCensus(picker));
    expect(a.hits).toBeGreaterThan(500);
    expect(a.agreed / a.compared).toBeGreaterThanOrEqual(0.999);
    expect(a.pixelAgreed / a.compared).toBeGreaterThanOrEqual(0.999);
    expect(a.worstPointError).toBeLessThanOrEqual(1e-5);
    expect(a.worstPixelPointError).toBeLessThanOrEqual(1e-6);
    const centre = pickSync(scene, 64, 64, { culling: 'none' });
    if (centre.hit) expect(getPickedUV(centre)).toBeNull(); // the bunny has no uvs
    expect(bunny.thinInstanceCount).toBe(3);
  });
});
