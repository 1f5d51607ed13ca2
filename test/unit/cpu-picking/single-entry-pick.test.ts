// A scene of one mesh takes a lean path (no query state): it must answer exactly like the general scene walk and like
// the independent reference caster (three.js + three-mesh-bvh), with culling, filters, mirrored and singular matrices.
import { mat4 } from 'wgpu-matrix';
import { describe, expect, test } from 'vitest';
import { makePerspectiveCamera } from '../../../engine/camera.js';
import { createMeshFromData, setMeshWorldMatrix } from '../../../engine/mesh.js';
import { makeStandardMaterial } from '../../../engine/material.js';
import { makeTorusData } from '../../../engine/primitives/index.js';
import { getCpuPicker, pickSync, pickWithRaySync, takeCpuPickCensus } from '../../../picking/cpu/index.js';
import { castReferenceRay, createReferenceScene } from '../../support/reference-raycast.js';
import { makeCpuScene, mulberry32, randomTransform, toReferenceMesh } from './scene-fixtures.js';

type V3 = [number, number, number];

describe('pick in a scene of one mesh', () => {
  const data = makeTorusData({ radius: 0.8, tube: 0.3, radialSegments: 24, tubularSegments: 48 });

  test('same answers as the general scene walk and the reference, one-sided and mirrored, with a filter', () => {
    const rand = mulberry32(41);
    for (const [round, mirror] of [false, true, false, true].entries()) {
      const world = randomTransform(rand, 2, mirror);
      const material = makeStandardMaterial({ doubleSided: round >= 2 });
      const alone = makeCpuScene();
      const mesh = createMeshFromData(alone, 'alone', data, { worldMatrix: world, material });
      // The same mesh beside a far-away one: two entries, so the general walk (query state, offer) answers.
      const pair = makeCpuScene();
      const twin = createMeshFromData(pair, 'twin', data, { worldMatrix: world, material });
      createMeshFromData(pair, 'far', data, { worldMatrix: mat4.translation([500, 0, 0]) });
      const reference = createReferenceScene([
        { ...toReferenceMesh(mesh), frontFace: 'determinant', doubleSided: round >= 2 },
      ]);
      let hits = 0;
      for (let i = 0; i < 300; i++) {
        const o: V3 = [(rand() - 0.5) * 8, (rand() - 0.5) * 8, (rand() - 0.5) * 8];
        const target = [world[12] + (rand() - 0.5) * 2, world[13] + (rand() - 0.5) * 2, world[14] + (rand() - 0.5) * 2];
        const d: V3 = [target[0] - o[0], target[1] - o[1], target[2] - o[2]];
        const l = Math.hypot(...d);
        const dir = d.map((c) => c / l) as V3;
        const ours = pickWithRaySync(alone, { origin: o, direction: dir });
        const general = pickWithRaySync(pair, { origin: o, direction: dir });
        expect({ ...ours, pickedMesh: null }).toEqual({ ...general, pickedMesh: null });
        expect(ours.pickedMesh).toBe(ours.hit ? mesh : null);
        expect(general.pickedMesh).toBe(general.hit ? twin : null);
        const ref = castReferenceRay(reference, o, dir);
        expect(ours.hit, `round ${round} ray ${i}`).toBe(ref !== null);
        if (ref) {
          hits++;
          expect(ours.distance).toBeCloseTo(ref.distance, 5);
          expect(ours.faceId === ref.faceId || Math.abs(ours.distance - ref.distance) < 1e-6).toBe(true);
        }
        const none = pickWithRaySync(alone, { origin: o, direction: dir }, { culling: 'none' });
        expect(none.hit).toBe(pickWithRaySync(pair, { origin: o, direction: dir }, { culling: 'none' }).hit);
        expect(pickWithRaySync(alone, { origin: o, direction: dir }, { filter: () => false }).hit).toBe(false);
      }
      expect(hits).toBeGreaterThan(30);
    }
  });

  test('a singular matrix is never hit; the census counts the lean path as the full search would', () => {
    const scene = makeCpuScene();
    const mesh = createMeshFromData(scene, 'flat', data);
    const picker = getCpuPicker(scene);
    const down = { origin: [0.8, 5, 0], direction: [0, -1, 0] };
    const away = { origin: [0.8, 5, 0], direction: [0, 1, 0] };
    takeCpuPickCensus(picker);
    expect(pickWithRaySync(scene, down).hit).toBe(true);
    expect(pickWithRaySync(scene, away).hit).toBe(false);
    const census = takeCpuPickCensus(picker);
    expect([census.rays, census.offersPerRay, census.narrowPhasePerRay]).toEqual([2, 1, 0.5]);
    setMeshWorldMatrix(mesh, mat4.scaling([1, 0, 1]));
    expect(pickWithRaySync(scene, down).hit).toBe(false);
    setMeshWorldMatrix(mesh, mat4.identity());
    expect(pickWithRaySync(scene, down).distance).toBeCloseTo(5 - 0.3, 5);
  });

  test('a filter that picks again (same or another scene, ray or pixel) leaves the outer pick intact', () => {
    for (const count of [1, 2]) {
      const scene = makeCpuScene();
      const mesh = createMeshFromData(scene, 'ring', data);
      if (count === 2) createMeshFromData(scene, 'far', data, { worldMatrix: mat4.translation([500, 0, 0]) });
      const other = makeCpuScene();
      createMeshFromData(other, 'other', data, { worldMatrix: mat4.translation([0, 0, -2]) });
      (other as { camera: unknown }).camera = makePerspectiveCamera({ position: [0, 0, 6], target: [0, 0, 0] });
      const ray = { origin: [0.8, 5, 0.01], direction: [0, -1, 0] };
      const plain = pickWithRaySync(scene, ray);
      expect(plain.hit).toBe(true);
      let nested = 0;
      const filter = (m: unknown) => {
        // Different rays, different answers: each would overwrite a shared scratch.
        nested += pickWithRaySync(other, { origin: [0.8, -7, -2], direction: [0, 1, 0] }).hit ? 1 : 0;
        nested += pickWithRaySync(scene, { origin: [5, 0, 0.01], direction: [-1, 0, 0] }, { filter: () => true }).hit
          ? 1
          : 0;
        nested += pickSync(other, 80, 60).hit ? 1 : 0;
        return m === mesh;
      };
      const outer = pickWithRaySync(scene, ray, { filter });
      expect(nested).toBeGreaterThanOrEqual(3);
      expect({ ...outer, pickedMesh: null }).toEqual({ ...plain, pickedMesh: null });
      expect(outer.pickedMesh).toBe(mesh);
    }
  });
});
