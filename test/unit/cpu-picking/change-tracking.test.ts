import { describe, expect, test } from 'vitest';
import { mat4 } from 'wgpu-matrix';
import { createMeshFromData, setMeshWorldMatrix } from '../../../engine/mesh.js';
import { makeBoxData } from '../../../engine/primitives/index.js';
import { createCpuPicker, pickWithRaySync } from '../../../picking/cpu/index.js';
import { makeCpuScene } from './scene-fixtures.js';

describe("refit 'auto' knows what moved", () => {
  test('picks after no change do not refit; a move through the setter is picked at its new place', () => {
    const scene = makeCpuScene();
    const meshes = Array.from({ length: 400 }, (_, i) =>
      createMeshFromData(scene, `box${i}`, makeBoxData(), {
        worldMatrix: mat4.translation([(i % 20) * 3, Math.floor(i / 20) * 3, 0]),
      }),
    );
    const picker = createCpuPicker(scene);
    const down = { direction: [0, 0, -1] };
    expect(pickWithRaySync(scene, { origin: [0, 0, 5], ...down }).pickedMesh).toBe(meshes[0]);
    const refits = picker.stats.refits;
    for (let i = 0; i < 5; i++) pickWithRaySync(scene, { origin: [3, 0, 5], ...down });
    expect(picker.stats.refits).toBe(refits);
    // Box 0 (a unit cube centred on its translation) moves to x = 100, far from every other box.
    setMeshWorldMatrix(meshes[0], mat4.translation([100, 0, 0]));
    expect(meshes[0].worldVersion).toBe(1);
    const moved = pickWithRaySync(scene, { origin: [100.25, 0.25, 5], ...down });
    expect(moved.pickedMesh).toBe(meshes[0]);
    // Analytic: the ray enters the front face z = +0.5 at t = 5 − 0.5.
    expect(moved.distance).toBeCloseTo(4.5, 5);
    expect(pickWithRaySync(scene, { origin: [0, 0, 5], ...down }).hit).toBe(false);
    expect(picker.stats.refits).toBe(refits + 1);
  });

  test('in-place writes are type errors', () => {
    const scene = makeCpuScene();
    const mesh = createMeshFromData(scene, 'box', makeBoxData());
    const attempt = () => {
      // @ts-expect-error the world matrix is read-only: use setMeshWorldMatrix
      mesh.worldMatrix[12] = 1;
      // @ts-expect-error set is not callable on the read-only view
      mesh.worldMatrix.set(mat4.identity());
      // @ts-expect-error the property itself is read-only
      mesh.worldMatrix = mat4.identity();
    };
    expect(typeof attempt).toBe('function');
  });
});
