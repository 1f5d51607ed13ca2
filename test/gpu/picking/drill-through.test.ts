// Drill-through (pickAllAsync / pickAllSync): every layer under a pixel against an independent all-hits ray cast
// (three.js + three-mesh-bvh through rays built in float64 from the camera's parameters in this test).
import { describe, expect, test } from 'vitest';
import { createEngineFromDeviceAsync } from '../../../engine/host-device.js';
import { disposeEngine, type Engine, makeOrthographicCamera } from '../../../engine/index.js';
import {
  createGpuPicker,
  CpuPickError,
  disposeGpuPicker,
  enableDetailedPicking,
  type GpuPicker,
  maxPickLayers,
  type PickAllOptions,
  PickError,
  pickAllAsync,
  pickAllSync,
  pickAsync,
  type PickingInfo,
} from '../../../picking/index.js';
import { ACCEPTANCE_VARIANTS, type AcceptanceScene, buildAcceptanceScene } from '../../support/acceptance-scenes.js';
import { add, cross, normalize, pixelRay, scale, sub } from '../../support/camera-rays.js';
import { buildStackScene } from '../../support/drill-scenes.js';
import { getNodeGpu, gpuTest } from '../../support/gpu.js';
import { isInterior } from '../../support/projected-edges.js';
import { castReferenceRayAll, type ReferenceHit } from '../../support/reference-raycast.js';

const close = (a: readonly number[], b: readonly number[], tolerance: number) =>
  a.every((v, i) => Math.abs(v - b[i]) <= tolerance);

interface Figures {
  pixels: number;
  layers: number;
  agree: number;
  /** Per failing layer: what differed (printed when a check fails). */
  failures: string[];
}

/** How one reported layer must agree with its reference hit. */
interface Checks {
  detail: boolean;
  /** Point tolerance as a fraction of the distance. */
  point: number;
}

/** The reference layers under pixel (x, y): every hit the pick could draw, nearest first, or null when not judged. */
function referenceLayers(
  built: AcceptanceScene,
  x: number,
  y: number,
  keeps: (hit: ReferenceHit) => boolean,
  max: number,
): ReferenceHit[] | null {
  // Judged only away from every projected edge at any depth (0.05 px), so each layer is inside one triangle.
  if (!isInterior(built.edges, x, y, Number.POSITIVE_INFINITY)) return null;
  const ray = pixelRay(built.camera, x, y);
  const hits = castReferenceRayAll(built.reference, ray.origin, ray.direction).filter(keeps);
  // Two surfaces within 1e-4 × distance of each other: depth precision orders them, not the picker.
  for (let k = 1; k < Math.min(hits.length, max + 1); k++)
    if (hits[k].distance - hits[k - 1].distance < 1e-4 * hits[k].distance) return null;
  return hits.slice(0, max);
}

function compareLayers(
  figures: Figures,
  where: string,
  layers: readonly PickingInfo[],
  truth: readonly ReferenceHit[],
  checks: Checks,
): void {
  figures.pixels++;
  if (layers.length !== truth.length) {
    const names = (ids: readonly (number | undefined)[]) => ids.join(' ');
    figures.failures.push(
      `${where}: ${layers.length} layers (${names(layers.map((l) => l.pickedMesh?.uniqueId))}), reference ${truth.length} (${names(truth.map((h) => h.meshId))})`,
    );
    return;
  }
  truth.forEach((hit, k) => {
    figures.layers++;
    const info = layers[k];
    const problems: string[] = [];
    if (info.pickedMesh?.uniqueId !== hit.meshId || info.thinInstanceIndex !== hit.thinInstanceIndex)
      problems.push(
        `identity ${info.pickedMesh?.uniqueId}/${info.thinInstanceIndex} vs ${hit.meshId}/${hit.thinInstanceIndex}`,
      );
    if (!close(info.pickedPoint ?? [Number.NaN], hit.point, checks.point * hit.distance))
      problems.push(`point ${info.pickedPoint} vs ${hit.point}`);
    if (checks.detail) {
      if (info.faceId !== hit.faceId) problems.push(`face ${info.faceId} vs ${hit.faceId}`);
      if (!close([info.bu, info.bv], [hit.bu, hit.bv], 1e-4))
        problems.push(`bary ${info.bu},${info.bv} vs ${hit.bu},${hit.bv}`);
    }
    if (problems.length) figures.failures.push(`${where} layer ${k}: ${problems.join('; ')}`);
    else figures.agree++;
  });
}

/** Drills every `stride`-th pixel of `built` (8 concurrent picks at a time) and compares each layer. */
async function drillScene(
  picker: GpuPicker,
  built: AcceptanceScene,
  figures: Figures,
  options: PickAllOptions & { max: number },
  checks: Checks,
  stride: number,
  keeps: (hit: ReferenceHit) => boolean = () => true,
  label = '',
): Promise<void> {
  const pixels: { x: number; y: number; truth: ReferenceHit[] }[] = [];
  const { width, height } = built.camera;
  for (let y = 0; y < height; y += stride)
    for (let x = (y / stride) % stride; x < width; x += stride) {
      const truth = referenceLayers(built, x, y, keeps, options.max);
      if (truth) pixels.push({ x, y, truth });
    }
  for (let start = 0; start < pixels.length; start += 8) {
    const batch = pixels.slice(start, start + 8);
    const results = await Promise.all(batch.map(({ x, y }) => pickAllAsync(picker, x, y, options)));
    batch.forEach(({ x, y, truth }, i) => compareLayers(figures, `${label} (${x}, ${y})`, results[i], truth, checks));
  }
}

const newFigures = (): Figures => ({ pixels: 0, layers: 0, agree: 0, failures: [] });

function expectAllAgree(figures: Figures, name: string, minimumLayers: number): void {
  console.log(`[drill-through ${name}]`, {
    pixels: figures.pixels,
    layers: figures.layers,
    agree: figures.agree,
    failures: figures.failures.length,
  });
  expect(figures.failures.slice(0, 12)).toEqual([]);
  expect(figures.layers).toBeGreaterThan(minimumLayers);
}

const detailChecks: Checks = { detail: true, point: 1e-5 };

describe('pickAllAsync: every layer under a pixel', () => {
  gpuTest(
    'agrees with an all-hits ray cast on every layer (acceptance scenes: thin instances, one- and double-sided, mirrored)',
    async ({ engine }) => {
      const figures = newFigures();
      for (const variant of ACCEPTANCE_VARIANTS) {
        const built = await buildAcceptanceScene(engine, variant, 11);
        const picker = createGpuPicker(built.scene);
        expect(enableDetailedPicking(picker)).toBe(true);
        const before = figures.layers;
        await drillScene(picker, built, figures, { max: 8 }, detailChecks, 3, () => true, variant.name);
        expect(figures.layers - before, variant.name).toBeGreaterThan(100);
        disposeGpuPicker(picker);
      }
      expectAllAgree(figures, 'acceptance', 1000);
    },
    [64, 64],
  );

  gpuTest(
    'stacks of 8 to 22 surfaces (thin-instanced boxes and spheres, a morphed sphere): every layer, max 8 and 16, both detail methods',
    async ({ engine }) => {
      const figures = newFigures();
      let deepPixels = 0;
      for (const [seed, doubleSided, max] of [
        [41, false, 8],
        [42, true, 8],
        [43, true, 16],
      ] as const) {
        const built = buildStackScene(engine, seed, doubleSided);
        const picker = createGpuPicker(built.scene);
        // The last stack takes the other detail path: non-indexed draws that pull their vertices.
        enableDetailedPicking(picker, { method: max === 16 ? 'vertex-index' : 'auto' });
        const before = figures.pixels;
        await drillScene(picker, built, figures, { max }, detailChecks, 3, () => true, `stack ${seed}`);
        expect(figures.pixels - before).toBeGreaterThan(50);
        for (let y = 0; y < 64; y += 3) {
          const truth = referenceLayers(built, 32, y, () => true, max);
          if (truth?.length === max) deepPixels++;
        }
        disposeGpuPicker(picker);
      }
      expect(deepPixels).toBeGreaterThan(5);
      expectAllAgree(figures, 'stacks', 2000);
    },
    [64, 64],
  );

  gpuTest(
    'an orthographic camera: every layer of a stack against float64 parallel rays',
    async ({ engine }) => {
      const figures = newFigures();
      const built = buildStackScene(engine, 44, true);
      const eye: [number, number, number] = [0.35, 0.3, 11];
      const far = 50;
      const height = 3;
      built.scene.camera = makeOrthographicCamera({ height, position: eye, target: [0, 0, 0], near: 0.1, far });
      // The rays, in float64 from the camera's parameters: from the eye plane, along the view axis.
      const forward = normalize(sub([0, 0, 0], eye));
      const right = normalize(cross(forward, [0, 1, 0]));
      const up = cross(right, forward);
      const castAt = (x: number, y: number) => {
        const u = (((x + 0.5) / 64) * 2 - 1) * (height / 2);
        const v = (1 - ((y + 0.5) / 64) * 2) * (height / 2);
        const origin = add(eye, add(scale(right, u), scale(up, v)));
        return castReferenceRayAll(built.reference, origin, forward);
      };
      const picker = createGpuPicker(built.scene);
      enableDetailedPicking(picker);
      const key = (hits: ReferenceHit[]) => hits.map((h) => `${h.meshId}/${h.thinInstanceIndex}/${h.faceId}`).join();
      let judged = 0;
      for (let y = 1; y < 64; y += 3)
        for (let x = 1; x < 64; x += 3) {
          const truth = castAt(x, y).slice(0, 12);
          // Away from edges: the same triangles 0.05 px around; layers apart by more than depth precision and the
          // peel margin (2^-18 of the linear depth, i.e. of far − near, for an orthographic camera).
          const around = [
            [-0.05, 0],
            [0.05, 0],
            [0, -0.05],
            [0, 0.05],
          ].map(([dx, dy]) => key(castAt(x + dx, y + dy).slice(0, 12)));
          if (around.some((k) => k !== key(truth))) continue;
          if (truth.some((h, k) => k > 0 && h.distance - truth[k - 1].distance < 1e-4 * h.distance + 2 ** -16 * far))
            continue;
          judged++;
          compareLayers(
            figures,
            `ortho (${x}, ${y})`,
            await pickAllAsync(picker, x, y, { max: 12 }),
            truth,
            detailChecks,
          );
        }
      expect(judged).toBeGreaterThan(100);
      expectAllAgree(figures, 'orthographic', 500);
    },
    [64, 64],
  );

  gpuTest(
    "culling 'none', max 3 and a discard rule: the layers the rule keeps, back faces included",
    async ({ engine }) => {
      const figures = newFigures();
      // Clip everything above the tilted plane n·p > 0.1 with n = normalize(0.3, 1, 0.2).
      const n = [0.3, 1, 0.2].map((c) => c / Math.hypot(0.3, 1, 0.2));
      const side = (p: readonly number[]) => n[0] * p[0] + n[1] * p[1] + n[2] * p[2] - 0.1;
      const discard = {
        key: 'drill-clip-plane',
        wgsl: `fn pickDiscard(input: PickDiscardInput) -> bool {\n  return dot(input.worldPos, vec3f(${n.map((c) => c.toFixed(9)).join(', ')})) - 0.1 > 0.0;\n}`,
      };
      const built = await buildAcceptanceScene(engine, ACCEPTANCE_VARIANTS[0], 12);
      const picker = createGpuPicker(built.scene);
      enableDetailedPicking(picker);
      // A pixel with a hit within 1e-4 × distance of the plane is skipped: float rounding decides there, not the rule.
      const nearPlane = (x: number, y: number) => {
        const ray = pixelRay(built.camera, x, y);
        return castReferenceRayAll(built.reference, ray.origin, ray.direction).some(
          (hit) => Math.abs(side(hit.point)) < 1e-4 * hit.distance,
        );
      };
      const keeps = (hit: ReferenceHit) => side(hit.point) <= 0;
      const pixels: { x: number; y: number; truth: ReferenceHit[] }[] = [];
      for (let y = 0; y < 64; y += 2)
        for (let x = 0; x < 64; x += 2) {
          if (nearPlane(x, y)) continue;
          // culling 'none': every face, so the reference is cast double-sided (the scene's own sides do not count).
          const ray = pixelRay(built.camera, x, y);
          if (!isInterior(built.edges, x, y, Number.POSITIVE_INFINITY)) continue;
          const all = castReferenceRayAll(doubleSided(built), ray.origin, ray.direction).filter(keeps);
          let tie = false;
          for (let k = 1; k < Math.min(all.length, 4); k++)
            if (all[k].distance - all[k - 1].distance < 1e-4 * all[k].distance) tie = true;
          if (!tie) pixels.push({ x, y, truth: all.slice(0, 3) });
        }
      for (const { x, y, truth } of pixels)
        compareLayers(
          figures,
          `(${x}, ${y})`,
          await pickAllAsync(picker, x, y, { max: 3, culling: 'none', discard }),
          truth,
          detailChecks,
        );
      expect(pixels.some((p) => p.truth.length === 3)).toBe(true);
      expectAllAgree(figures, 'rule + culling none', 300);
    },
    [64, 64],
  );

  gpuTest(
    'basic mode (no detail): identities in order and points from the peeled depths',
    async ({ engine }) => {
      const figures = newFigures();
      const built = await buildAcceptanceScene(engine, ACCEPTANCE_VARIANTS[1], 13);
      const picker = createGpuPicker(built.scene);
      await drillScene(picker, built, figures, { max: 8 }, { detail: false, point: 1e-5 }, 2);
      expectAllAgree(figures, 'basic', 250);
    },
    [64, 64],
  );

  gpuTest(
    'layer 0 is the single pick; a miss is an empty list; max 1 is the front layer only',
    async ({ engine }) => {
      const built = await buildAcceptanceScene(engine, ACCEPTANCE_VARIANTS[1], 14);
      const picker = createGpuPicker(built.scene);
      enableDetailedPicking(picker);
      let hits = 0;
      let misses = 0;
      for (const pixel of built.pixels.filter((p, i) => i % 37 === 0 && p.verdict === 'judged')) {
        const [single, all, front] = await Promise.all([
          pickAsync(picker, pixel.x, pixel.y),
          pickAllAsync(picker, pixel.x, pixel.y),
          pickAllAsync(picker, pixel.x, pixel.y, { max: 1 }),
        ]);
        if (!single.hit) {
          misses++;
          expect(all).toEqual([]);
          continue;
        }
        hits++;
        expect(front).toHaveLength(1);
        for (const info of [all[0], front[0]]) {
          expect(info.pickedMesh).toBe(single.pickedMesh);
          expect(info.thinInstanceIndex).toBe(single.thinInstanceIndex);
          expect(info.faceId).toBe(single.faceId);
        }
        for (let k = 1; k < all.length; k++) expect(all[k].distance).toBeGreaterThan(all[k - 1].distance);
      }
      expect(hits).toBeGreaterThan(10);
      expect(misses).toBeGreaterThan(2);
    },
    [64, 64],
  );

  gpuTest('bad input: typed errors naming the value, and the next call works', async ({ engine }) => {
    const built = await buildAcceptanceScene(engine, ACCEPTANCE_VARIANTS[0], 15);
    const picker = createGpuPicker(built.scene);
    const pixel = built.pixels.find((p) => p.truth && p.verdict === 'judged')!;
    const refused = async (options: unknown, pattern: RegExp, code = 'bad-option') => {
      const error = await pickAllAsync(picker, pixel.x, pixel.y, options as PickAllOptions).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PickError);
      expect((error as PickError).code).toBe(code);
      expect((error as PickError).message).toMatch(/pickAllAsync/);
      expect((error as PickError).message).toMatch(pattern);
      const [front] = await pickAllAsync(picker, pixel.x, pixel.y, { max: 1 });
      expect(front.pickedMesh?.uniqueId).toBe(pixel.truth!.meshId);
    };
    await refused({ max: 0 }, /max 0 must be an integer 1\.\.64/);
    await refused({ max: 1.5 }, /max 1\.5 must be an integer 1\.\.64/);
    await refused({ max: maxPickLayers + 1 }, /max 65 must be an integer 1\.\.64/);
    await refused({ max: 1e12 }, /must be an integer 1\.\.64/);
    await refused({ max: '4' }, /must be an integer 1\.\.64/);
    await refused({ overlays: true }, /overlays is not an option of pickAllAsync/);
    await refused({ maxx: 3 }, /maxx/);
    await refused({ culling: 'back' }, /culling/);
    const offscreen = await pickAllAsync(picker, 1000, 0).then(
      () => null,
      (e: unknown) => e,
    );
    expect((offscreen as PickError).code).toBe('out-of-range');
    expect(await pickAllAsync(picker, pixel.x, pixel.y, { max: maxPickLayers })).not.toHaveLength(0);
    disposeGpuPicker(picker);
    const disposed = await pickAllAsync(picker, pixel.x, pixel.y).then(
      () => null,
      (e: unknown) => e,
    );
    expect(disposed).toBeInstanceOf(PickError);
    expect((disposed as PickError).code).toBe('disposed');
    const fresh = createGpuPicker(built.scene);
    expect((await pickAllAsync(fresh, pixel.x, pixel.y))[0].pickedMesh?.uniqueId).toBe(pixel.truth!.meshId);
  });
});

/** The scene's reference with every mesh double-sided (what `culling: 'none'` picks). */
function doubleSided(built: AcceptanceScene): AcceptanceScene['reference'] {
  return {
    meshes: built.reference.meshes.map((mesh) => ({
      ...mesh,
      instances: mesh.instances.map((instance) => ({ ...instance, side: 2 as const })),
    })),
  } as AcceptanceScene['reference'];
}

describe('pickAllSync: the CPU drill-through', () => {
  gpuTest('agrees with the same all-hits ray cast on every layer, faces culled as drawn', async ({ engine }) => {
    const figures = newFigures();
    for (const variant of ACCEPTANCE_VARIANTS) {
      const built = await buildAcceptanceScene(engine, variant, 21);
      for (let y = 0; y < 64; y += 2)
        for (let x = (y / 2) % 2; x < 64; x += 2) {
          const truth = referenceLayers(built, x, y, () => true, 8);
          if (truth)
            compareLayers(
              figures,
              `${variant.name} (${x}, ${y})`,
              pickAllSync(built.scene, x, y, { max: 8 }),
              truth,
              detailChecks,
            );
        }
    }
    for (const seed of [51, 52]) {
      const built = buildStackScene(engine, seed, seed === 52, { morph: 'rest' });
      for (let y = 0; y < 64; y += 2)
        for (let x = (y / 2) % 2; x < 64; x += 2) {
          const truth = referenceLayers(built, x, y, () => true, 12);
          if (truth)
            compareLayers(
              figures,
              `stack ${seed} (${x}, ${y})`,
              pickAllSync(built.scene, x, y, { max: 12 }),
              truth,
              detailChecks,
            );
        }
    }
    expectAllAgree(figures, 'cpu', 3000);
  });

  gpuTest('bad max: a typed CpuPickError, and the next call works', async ({ engine }) => {
    const built = await buildAcceptanceScene(engine, ACCEPTANCE_VARIANTS[0], 22);
    const pixel = built.pixels.find((p) => p.truth && p.verdict === 'judged')!;
    for (const max of [0, 1.5, 65, Number.NaN]) {
      let error: unknown = null;
      try {
        pickAllSync(built.scene, pixel.x, pixel.y, { max });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(CpuPickError);
      expect((error as CpuPickError).code).toBe('bad-option');
      expect((error as CpuPickError).message).toMatch(/pickAllSync.*max .* must be an integer 1\.\.64/);
      expect(pickAllSync(built.scene, pixel.x, pixel.y, { max: 2 })[0].pickedMesh?.uniqueId).toBe(pixel.truth!.meshId);
    }
  });
});

describe('pickAllAsync on a compatibility-mode device', () => {
  test('identities and points of every layer agree with the ray cast', async () => {
    const adapter = await getNodeGpu().requestAdapter({ featureLevel: 'compatibility' } as GPURequestAdapterOptions);
    if (!adapter) throw new Error('Dawn gave no compatibility adapter');
    const device = await adapter.requestDevice();
    const errors: string[] = [];
    device.addEventListener('uncapturederror', (event) =>
      errors.push((event as GPUUncapturedErrorEvent).error.message),
    );
    let engine: Engine | null = null;
    try {
      engine = await createEngineFromDeviceAsync(device, { width: 48, height: 48 });
      expect(engine.device.limits.maxStorageBuffersInVertexStage).toBe(0);
      const figures = newFigures();
      const built = buildStackScene(engine, 31, true, { morph: 'absent' });
      const picker = createGpuPicker(built.scene);
      await drillScene(picker, built, figures, { max: 8 }, { detail: false, point: 1e-5 }, 2);
      disposeGpuPicker(picker);
      await device.queue.onSubmittedWorkDone();
      expect(errors).toEqual([]);
      expectAllAgree(figures, 'compatibility', 1000);
    } finally {
      if (engine) disposeEngine(engine);
      device.destroy();
    }
  });
});
