import { expect, test } from 'vitest';
import { mat4 } from 'wgpu-matrix';
import { createMeshFromData } from '../../../engine/mesh.js';
import { makeTorusData } from '../../../engine/primitives/index.js';
import { createCpuPicker, getMeshBvh, pickWithRaySync, refitMeshBvh } from '../../../picking/cpu/index.js';
import { castReferenceRay } from '../../support/reference-raycast.js';
import { makeCpuScene, toReferenceScene } from './scene-fixtures.js';

test('meshes of the same data share one BVH; different data does not; a refitted mesh gets its own', () => {
  const scene = makeCpuScene();
  const data = makeTorusData({ radius: 0.6, tube: 0.25, radialSegments: 13, tubularSegments: 29 });
  const a = createMeshFromData(scene, 'a', data);
  const b = createMeshFromData(scene, 'b', data, { worldMatrix: mat4.translation([3, 0, 0]) });
  const c = createMeshFromData(
    scene,
    'c',
    makeTorusData({ radius: 0.6, tube: 0.25, radialSegments: 13, tubularSegments: 30 }),
    {
      worldMatrix: mat4.translation([-3, 0, 0]),
    },
  );
  expect(getMeshBvh(b)).toBe(getMeshBvh(a));
  expect(getMeshBvh(c)).not.toBe(getMeshBvh(a));
  const shared = getMeshBvh(a);
  for (let i = 0; i < a.positions.length; i++) a.positions[i] *= 1.5; // deform a only
  refitMeshBvh(a);
  expect(getMeshBvh(a)).not.toBe(shared);
  expect(getMeshBvh(b)).toBe(shared);
  createCpuPicker(scene);
  // The reference (three.js + three-mesh-bvh over the current positions) sees a inflated and b unchanged.
  const ref = toReferenceScene(scene);
  for (const x of [-3.7, -3, -2.3, -0.9, 0, 0.8, 2.3, 3, 3.7]) {
    for (const y of [-0.8, -0.3, 0, 0.5]) {
      const origin: [number, number, number] = [x, y, 10];
      const expected = castReferenceRay(ref, origin, [0, 0, -1]);
      const got = pickWithRaySync(scene, { origin, direction: [0, 0, -1] });
      expect(got.hit, `ray at (${x}, ${y})`).toBe(expected !== null);
      if (expected) {
        expect(got.pickedMesh?.uniqueId).toBe(expected.meshId);
        expect(got.faceId).toBe(expected.faceId);
      }
    }
  }
});
