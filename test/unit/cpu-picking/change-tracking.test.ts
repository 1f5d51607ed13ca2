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

  test('moving a few of many meshes refits only those; every pick agrees with an analytic ray-box cast', () => {
    const scene = makeCpuScene();
    const side = 40;
    // Unit cubes on a grid in the z = 0 plane, 3 apart; positions kept here as the reference.
    const centres = Array.from({ length: side * side }, (_, i): [number, number, number] => [
      (i % side) * 3,
      Math.floor(i / side) * 3,
      0,
    ]);
    const meshes = centres.map((c, i) =>
      createMeshFromData(scene, `box${i}`, makeBoxData(), { worldMatrix: mat4.translation(c) }),
    );
    const picker = createCpuPicker(scene);
    const down = { direction: [0, 0, -1] };
    pickWithRaySync(scene, { origin: [0, 0, 5], ...down });
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    // Rounds of 1, 3 and 150 moves (the last exceeds the partial-refit share and takes the full sweep).
    for (const moves of [1, 3, 1, 150, 2]) {
      // Rays through the moved cubes' old and new places (where a stale hierarchy answers wrong) and random ones.
      const probes: [number, number][] = [];
      for (let k = 0; k < moves; k++) {
        const i = Math.floor(random() * meshes.length);
        probes.push([centres[i][0] + 0.25, centres[i][1] - 0.125]);
        // Anywhere in the grid's span, sometimes far below it, sometimes far outside it (grows the root box).
        const far = random() < 0.1 ? 500 : 0;
        centres[i] = [random() * side * 3 + far, random() * side * 3, random() < 0.2 ? -50 : 0];
        setMeshWorldMatrix(meshes[i], mat4.translation(centres[i]));
        probes.push([centres[i][0] - 0.125, centres[i][1] + 0.25]);
      }
      for (let r = 0; r < 100; r++) probes.push([random() * side * 3, random() * side * 3]);
      for (const [x, y] of probes) {
        // Analytic first hit of a ray from z = 5 straight down: the highest cube whose square holds (x, y); cubes
        // at the same height tie (same distance), and either is a right answer.
        let top = -Infinity;
        for (const [cx, cy, cz] of centres)
          if (Math.abs(x - cx) < 0.5 && Math.abs(y - cy) < 0.5) top = Math.max(top, cz);
        const expected = centres.flatMap(([cx, cy, cz], i) =>
          Math.abs(x - cx) < 0.5 && Math.abs(y - cy) < 0.5 && cz === top ? [`box${i}`] : [],
        );
        // Rays within 1e-6 of a face plane could go either way in float32 data: skip them.
        const nearEdge = centres.some(
          ([cx, cy]) => Math.abs(Math.abs(x - cx) - 0.5) < 1e-6 || Math.abs(Math.abs(y - cy) - 0.5) < 1e-6,
        );
        if (nearEdge) continue;
        const hit = pickWithRaySync(scene, { origin: [x, y, 5], ...down });
        if (expected.length === 0) expect(hit.hit).toBe(false);
        else {
          expect(expected).toContain(hit.pickedMesh?.name);
          expect(hit.distance).toBeCloseTo(5 - (top + 0.5), 4);
        }
      }
    }
    expect(picker.stats.builds).toBe(1);
  });

  test('more changes than the change log holds fall back to checking every mesh, still exact', () => {
    const scene = makeCpuScene();
    const meshes = Array.from({ length: 10 }, (_, i) =>
      createMeshFromData(scene, `box${i}`, makeBoxData(), { worldMatrix: mat4.translation([i * 3, 0, 0]) }),
    );
    createCpuPicker(scene);
    const down = { direction: [0, 0, -1] };
    expect(pickWithRaySync(scene, { origin: [9, 0, 5], ...down }).pickedMesh).toBe(meshes[3]);
    // 1 000 setter calls on ten meshes overflow the log; only the last position of each counts.
    for (let k = 0; k < 1000; k++) setMeshWorldMatrix(meshes[k % 10], mat4.translation([(k % 10) * 3, k, 0]));
    expect(scene.changeLog.meshes.length).toBeLessThan(1000);
    expect(pickWithRaySync(scene, { origin: [9, 0, 5], ...down }).hit).toBe(false);
    // Mesh 3 was last set at k = 993: y = 993.
    expect(pickWithRaySync(scene, { origin: [9, 993, 5], ...down }).pickedMesh).toBe(meshes[3]);
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
      // @ts-expect-error thin-instance data is read-only too: use setThinInstances
      mesh.thinInstances![0] = 1;
      // @ts-expect-error and so is its count
      mesh.thinInstanceCount = 2;
    };
    expect(typeof attempt).toBe('function');
  });
});
