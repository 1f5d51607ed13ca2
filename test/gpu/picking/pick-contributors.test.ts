import { mat4, quat } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import {
  type BillboardSystem,
  createBillboardSystem,
  getPickedSpriteIndex,
} from '../../../entities/billboards/index.js';
import type { Scene } from '../../../engine/index.js';
import {
  createGpuPicker,
  disposeGpuPicker,
  enableDetailedPicking,
  type GpuPicker,
  pickAsync,
  pickManyAsync,
  type PickingInfo,
} from '../../../picking/index.js';
import { createSplatMesh, getPickedSplatIndex } from '../../../entities/splats/index.js';
import { add, type CameraBasis, pixelRay, scale, sub } from '../../support/camera-rays.js';
import {
  boxCandidates,
  nearest,
  type Ray,
  setUpReferenceScene,
  splatCandidate,
  spriteCandidate,
} from '../../support/entity-reference.js';
import { gpuTest } from '../../support/gpu.js';

function describeHit(info: PickingInfo): string {
  if (!info.hit) return 'miss';
  if (info.pickedMesh) return info.pickedMesh.name;
  const sprite = getPickedSpriteIndex(info);
  return sprite >= 0 ? `sprite#${sprite}` : `splat#${getPickedSplatIndex(info)}`;
}

/**
 * Every pixel of the frame in one pickManyAsync; compares names, and points within 1e-3 × distance. `kinds` holds
 * what was expected (`front`, `sprite`, …) and `X>Y` for pixels where X is expected in front of a Y further along the ray.
 */
async function compareFrame(
  picker: GpuPicker,
  camera: CameraBasis,
  candidatesAt: (ray: Ray) => ({ name: string; t: number; unsure: boolean } | null)[],
): Promise<{ compared: number; mismatches: string[]; kinds: Set<string> }> {
  const { width, height } = picker.scene.engine;
  const points = Array.from({ length: width * height }, (_, i) => ({ x: i % width, y: Math.floor(i / width) }));
  const infos = await pickManyAsync(picker, points);
  const mismatches: string[] = [];
  const kinds = new Set<string>();
  let compared = 0;
  infos.forEach((info, i) => {
    const ray = pixelRay(camera, points[i].x, points[i].y, width, height);
    const candidates = candidatesAt(ray);
    const truth = nearest(candidates);
    if (truth === 'unsure') return;
    if (truth !== 'miss') {
      for (const c of candidates)
        if (c && c.t > truth.t) kinds.add(`${truth.name.replace(/#\d+/, '')}>${c.name.replace(/#\d+/, '')}`);
    }
    compared++;
    const expected = truth === 'miss' ? 'miss' : truth.name;
    kinds.add(expected.replace(/#\d+/, ''));
    if (describeHit(info) !== expected)
      mismatches.push(`(${points[i].x}, ${points[i].y}) ${describeHit(info)} ≠ ${expected}`);
    else if (truth !== 'miss') {
      const point = add(ray.origin, scale(ray.direction, truth.t));
      const error = Math.hypot(...sub(info.pickedPoint!, point));
      if (error > 1e-3 * truth.t) mismatches.push(`(${points[i].x}, ${points[i].y}) point off by ${error}`);
    }
  });
  return { compared, mismatches, kinds };
}

function spriteGrid(scene: Scene, orientation: 'camera' | 'axis'): BillboardSystem {
  const positions: number[] = [];
  for (let row = 0; row < 3; row++) for (let col = 0; col < 4; col++) positions.push(col * 1.3 - 2, row * 1.1 - 1, 0);
  const sizes = new Float32Array(24).map((_, i) => (i % 2 === 0 ? 0.9 : 0.7));
  return createBillboardSystem(scene, `sprites-${orientation}`, {
    positions: new Float32Array(positions),
    sizes,
    orientation,
    axis: [0, 1, 0],
  });
}

describe('pick contributors', () => {
  for (const orientation of ['camera', 'axis'] as const) {
    gpuTest(
      `${orientation === 'camera' ? 'camera-facing' : 'axis-locked'} billboards pick with the exact sprite index and depth-sort with meshes both ways`,
      async ({ engine }) => {
        const { scene, camera } = setUpReferenceScene(engine);
        const system = spriteGrid(scene, orientation);
        const picker = createGpuPicker(scene);
        const result = await compareFrame(picker, camera, (ray) => [
          ...boxCandidates(ray),
          ...Array.from({ length: system.count }, (_, i) => spriteCandidate(system, camera, ray, i)),
        ]);
        console.log(
          `billboards (${orientation}): ${result.compared} pixels compared, ${result.mismatches.length} mismatches`,
        );
        expect(result.mismatches.slice(0, 5)).toEqual([]);
        // Both depth orders were compared: the front box over sprites, sprites over the back box.
        for (const kind of ['back', 'front', 'miss', 'sprite', 'front>sprite', 'sprite>back'])
          expect(result.kinds, kind).toContain(kind);
        // A single pick equals the many-point pass.
        const [x, y] = [Math.floor(engine.width * 0.55), Math.floor(engine.height * 0.5)];
        const single = await pickAsync(picker, x, y);
        expect(describeHit(single)).toBe(describeHit((await pickManyAsync(picker, [{ x, y }]))[0]));
        disposeGpuPicker(picker);
      },
      [96, 72],
    );
  }

  gpuTest(
    'Gaussian splats pick where their opacity reaches the threshold, transparent regions fall through, depth sorts with meshes',
    async ({ engine }) => {
      const { scene, camera } = setUpReferenceScene(engine);
      const rotations = new Float32Array(16);
      [
        quat.identity(),
        quat.fromEuler(0.3, 0.8, 0.2, 'xyz'),
        quat.fromEuler(-0.5, 0.1, 1.1, 'xyz'),
        quat.identity(),
      ].forEach((q, i) => rotations.set(q, i * 4));
      const splats = createSplatMesh(scene, 'splats', {
        centers: new Float32Array([-1.5, -0.3, 0.5, 0.4, 0.4, 0, 1.8, -0.2, -0.5, -0.6, 1.2, -0.4]),
        scales: new Float32Array([0.5, 0.3, 0.3, 0.7, 0.25, 0.4, 0.3, 0.6, 0.3, 0.5, 0.5, 0.5]),
        rotations,
        // Splat 3 peaks below the threshold: it must never pick.
        opacities: new Float32Array([0.9, 0.8, 0.6, 0.08]),
        worldMatrix: mat4.multiply(mat4.translation([0.2, 0, 0]), mat4.scaling([1.2, 1, 1])),
        pickOpacityThreshold: 0.1,
      });
      const picker = createGpuPicker(scene);
      const candidates = (ray: Ray) => [
        ...boxCandidates(ray),
        ...Array.from({ length: splats.count }, (_, i) => splatCandidate(splats, ray, i)),
      ];
      const truth = (ray: Ray) => nearest(candidates(ray));
      const result = await compareFrame(picker, camera, candidates);
      console.log(`splats: ${result.compared} pixels compared, ${result.mismatches.length} mismatches`);
      expect(result.mismatches.slice(0, 5)).toEqual([]);
      for (const kind of ['back', 'front', 'miss', 'splat', 'front>splat', 'splat>back'])
        expect(result.kinds, kind).toContain(kind);
      // A pixel through splat 3's centre: its opacity never reaches 0.1, so the pick falls through to what is behind.
      enableDetailedPicking(picker);
      const { width, height } = engine;
      let fellThrough = 0;
      for (let py = 0; py < height; py++) {
        for (let px = 0; px < width; px++) {
          const ray = pixelRay(camera, px, py, width, height);
          const faint = splatCandidate({ ...splats, pickOpacityThreshold: 0.02 }, ray, 3);
          if (!faint || faint.alpha < 0.05) continue;
          const t = truth(ray);
          if (t === 'unsure') continue;
          const info = await pickAsync(picker, px, py);
          expect(describeHit(info)).toBe(t === 'miss' ? 'miss' : t.name);
          fellThrough++;
          if (fellThrough >= 6) break;
        }
        if (fellThrough >= 6) break;
      }
      expect(fellThrough).toBe(6);
      // Detailed mode: no triangle, the splat's opacity along the ray.
      const infos = await pickManyAsync(
        picker,
        Array.from({ length: width * height }, (_, i) => ({ x: i % width, y: Math.floor(i / width) })),
      );
      const splatHits = infos.map((info, i) => ({ info, i })).filter(({ info }) => info.pickedEntity === splats);
      expect(splatHits.length).toBeGreaterThan(50);
      for (const { info, i } of splatHits.slice(0, 40)) {
        expect(info.faceId).toBe(-1);
        expect(info.pickedMesh).toBeNull();
        const reference = splatCandidate(
          splats,
          pixelRay(camera, i % width, Math.floor(i / width), width, height),
          getPickedSplatIndex(info),
        )!;
        expect(Math.abs((info.entityDetail!.opacity as number) - reference.alpha)).toBeLessThan(1e-3);
      }
    },
    [96, 72],
  );
});
