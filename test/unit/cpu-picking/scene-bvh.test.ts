import { describe, expect, test } from 'vitest';
import { mat4 } from 'wgpu-matrix';
import { createMeshFromData, disposeMesh, setMeshWorldMatrix, setThinInstances } from '../../../engine/mesh.js';
import { makeBoxData, makeSphereData } from '../../../engine/primitives/index.js';
import {
  type CpuPickDiagnostic,
  createCpuPicker,
  disposeMeshBvh,
  getCpuPicker,
  loadMeshBvh,
  peekMeshBvh,
  pickWithRaySync,
  refitCpuPicker,
  refitMeshBvh,
  serialiseMeshBvh,
  takeCpuPickCensus,
} from '../../../picking/cpu/index.js';
import { castReferenceRay } from '../../support/reference-raycast.js';
import { addRandomMeshes, makeCpuScene, mulberry32, toReferenceScene } from './scene-fixtures.js';

type V3 = [number, number, number];

function rayTowards(rand: () => number, spread: number): { origin: V3; direction: V3 } {
  const origin: V3 = [(rand() - 0.5) * 40, (rand() - 0.5) * 40, 30];
  const target: V3 = [(rand() - 0.5) * spread, (rand() - 0.5) * spread, (rand() - 0.5) * spread];
  return { origin, direction: [target[0] - origin[0], target[1] - origin[1], target[2] - origin[2]] };
}

describe('scene BVH: SAH gate, structural rebuilds, per-frame refit, census', () => {
  test('the SAH gate declines for a few overlapping meshes and says so (rule, consequence, reason)', () => {
    const scene = makeCpuScene();
    for (let i = 0; i < 6; i++) createMeshFromData(scene, `shell${i}`, makeSphereData({ radius: 1 + i * 0.01 }));
    const seen: CpuPickDiagnostic[] = [];
    const picker = createCpuPicker(scene, { onDiagnostic: (d) => seen.push(d) });
    const info = pickWithRaySync(scene, { origin: [0, 0, 5], direction: [0, 0, -1] });
    expect(info.hit).toBe(true);
    expect(picker.bvh).toBeNull();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual(picker.diagnostics[0]);
    expect(seen[0].rule).toBe('scene-bvh-sah-gate');
    expect(seen[0].consequence).toMatch(/^declined: flat scan of 6 entries per ray$/);
    expect(seen[0].reason).toMatch(/SAH cost [\d.]+ box tests per ray vs 6 for a flat scan \(\d+ nodes/);
    console.log(`[cpu-pick gate] ${seen[0].rule}: ${seen[0].consequence} — ${seen[0].reason}`);

    const single = makeCpuScene();
    createMeshFromData(single, 'one', makeBoxData());
    const lone = createCpuPicker(single);
    pickWithRaySync(single, { origin: [0, 0, 5], direction: [0, 0, -1] });
    expect(lone.bvh).toBeNull();
    expect(lone.diagnostics[0].reason).toMatch(/nothing to split/);
  });

  test('the gate builds for many spread-out objects and the census shows what it saves', () => {
    const scene = makeCpuScene();
    addRandomMeshes(scene, mulberry32(8), 200, 60);
    const hierarchy = createCpuPicker(scene);
    const rand = mulberry32(1);
    const rays = Array.from({ length: 500 }, () => rayTowards(rand, 60));
    const hitsWith = rays.map((r) => pickWithRaySync(scene, r));
    expect(hierarchy.bvh).not.toBeNull();
    expect(hierarchy.diagnostics[0].consequence).toMatch(/^scene BVH over \d+ entries$/);
    const withBvh = takeCpuPickCensus(hierarchy);
    createCpuPicker(scene, { sceneBvh: 'never' });
    const hitsFlat = rays.map((r) => pickWithRaySync(scene, r));
    const flat = takeCpuPickCensus(getCpuPicker(scene));
    expect(hitsFlat.map((h) => [h.pickedMesh?.uniqueId, h.thinInstanceIndex, h.faceId])).toEqual(
      hitsWith.map((h) => [h.pickedMesh?.uniqueId, h.thinInstanceIndex, h.faceId]),
    );
    expect(flat.offersPerRay).toBe(flat.flatOffersPerRay);
    expect(withBvh.offersPerRay).toBeLessThan(flat.offersPerRay / 5);
    expect(withBvh.boxTestsPerRay).toBeLessThan(flat.boxTestsPerRay / 3);
    // Deterministic: the same rays give the same counts.
    createCpuPicker(scene);
    rays.forEach((r) => pickWithRaySync(scene, r));
    expect(takeCpuPickCensus(getCpuPicker(scene))).toEqual(withBvh);
    console.log(
      `[cpu-pick census] ${flat.flatOffersPerRay} entries, 500 rays: offers/ray ${withBvh.offersPerRay.toFixed(2)} with the scene BVH vs ${flat.offersPerRay.toFixed(2)} flat; box tests/ray (offers + nodes) ${withBvh.boxTestsPerRay.toFixed(2)} vs ${flat.boxTestsPerRay.toFixed(2)}; narrow phase/ray ${withBvh.narrowPhasePerRay.toFixed(2)} vs ${flat.narrowPhasePerRay.toFixed(2)}`,
    );
  });

  test('mesh BVHs are built lazily, on the first CPU pick that reaches the mesh', () => {
    const scene = makeCpuScene();
    const near = createMeshFromData(scene, 'near', makeBoxData(), { worldMatrix: mat4.translation([0, 0, 2]) });
    const far = createMeshFromData(scene, 'far', makeBoxData(), { worldMatrix: mat4.translation([50, 0, 0]) });
    expect(peekMeshBvh(near)).toBeNull();
    pickWithRaySync(scene, { origin: [0, 0, 9], direction: [0, 0, -1] });
    expect(peekMeshBvh(near)).not.toBeNull();
    expect(peekMeshBvh(far)).toBeNull();
  });

  test('moving objects are refitted (topology fixed, no rebuild) and hits stay equal to the reference', () => {
    const scene = makeCpuScene();
    const meshes = addRandomMeshes(scene, mulberry32(21), 60, 30);
    const picker = createCpuPicker(scene);
    const rand = mulberry32(4);
    for (let frame = 0; frame < 6; frame++) {
      for (const [k, mesh] of meshes.entries()) {
        if (k % 3 === 0)
          setMeshWorldMatrix(mesh, mat4.translate(mesh.worldMatrix, [Math.sin(frame + k) * 3, frame % 2 ? 1 : -1, 0]));
        else if (k % 3 === 1) {
          const world = mesh.worldMatrix.slice();
          world[13] += frame % 2 ? 2 : -2;
          setMeshWorldMatrix(mesh, world);
        } else if (mesh.thinInstances) {
          const moved = mesh.thinInstances.slice();
          for (let i = 0; i < mesh.thinInstanceCount; i++) moved[i * 16 + 12] += frame % 2 ? 1.5 : -1.5;
          setThinInstances(mesh, moved); // same count: not structural
        }
      }
      const reference = toReferenceScene(scene);
      let hits = 0;
      for (let i = 0; i < 150; i++) {
        const ray = rayTowards(rand, 16);
        const ours = pickWithRaySync(scene, ray, { culling: 'none' }); // the reference casts DoubleSide
        const ref = castReferenceRay(reference, ray.origin, ray.direction);
        expect(ours.hit).toBe(!!ref);
        if (!ref) continue;
        hits++;
        expect([ours.pickedMesh!.uniqueId, ours.thinInstanceIndex, ours.faceId]).toEqual([
          ref.meshId,
          ref.thinInstanceIndex,
          ref.faceId,
        ]);
        expect(ours.distance).toBeCloseTo(ref.distance, 4);
      }
      expect(hits).toBeGreaterThan(20);
    }
    expect(picker.stats.builds).toBe(1);
    expect(picker.stats.refits).toBeGreaterThanOrEqual(5); // frame 0 moved before the first pick built the entries
  });

  test('structural changes (add, remove, instance count) rebuild; manual refit mode waits for refitCpuPicker', () => {
    const scene = makeCpuScene();
    const a = createMeshFromData(scene, 'a', makeBoxData(), { worldMatrix: mat4.translation([0, 0, 0]) });
    const picker = createCpuPicker(scene, { refit: 'manual' });
    const down = { origin: [0, 0, 10], direction: [0, 0, -1] };
    expect(pickWithRaySync(scene, down).pickedMesh).toBe(a);
    const b = createMeshFromData(scene, 'b', makeBoxData(), { worldMatrix: mat4.translation([0, 0, 3]) });
    expect(pickWithRaySync(scene, down).pickedMesh).toBe(b);
    expect(picker.stats.builds).toBe(2);
    disposeMesh(b);
    expect(pickWithRaySync(scene, down).pickedMesh).toBe(a);
    expect(picker.stats.builds).toBe(3);
    setMeshWorldMatrix(a, mat4.translation([5, 0, 0]));
    expect(pickWithRaySync(scene, down).hit).toBe(true); // manual mode: stale bounds until the frame's refit…
    expect(refitCpuPicker(picker)).toBe(true);
    expect(pickWithRaySync(scene, down).hit).toBe(false); // …after it the move is seen
    expect(picker.stats.builds).toBe(3);
    setMeshWorldMatrix(a, mat4.identity());
    setThinInstances(a, new Float32Array([...mat4.identity(), ...mat4.translation([0, 0, -3])]));
    expect(pickWithRaySync(scene, down).thinInstanceIndex).toBe(0);
    expect(picker.stats.builds).toBe(4);
  });

  test('CPU deformation + refitMeshBvh: the scene picker follows the new shape without rebuilding', () => {
    const scene = makeCpuScene();
    const ball = createMeshFromData(scene, 'ball', makeSphereData({ radius: 1 }));
    createMeshFromData(scene, 'other', makeBoxData(), { worldMatrix: mat4.translation([6, 0, 0]) });
    const picker = createCpuPicker(scene);
    const grazing = { origin: [1.5, 0, 10], direction: [0, 0, -1] };
    expect(pickWithRaySync(scene, grazing).hit).toBe(false);
    for (let i = 0; i < ball.positions.length; i++) ball.positions[i] *= 2; // inflate in place
    refitMeshBvh(ball);
    const info = pickWithRaySync(scene, grazing);
    expect(info.pickedMesh).toBe(ball);
    const ref = castReferenceRay(toReferenceScene(scene), [1.5, 0, 10], [0, 0, -1])!;
    expect([info.faceId, info.distance]).toEqual([ref.faceId, expect.closeTo(ref.distance, 5)]);
    expect(picker.stats.builds).toBe(1);
  });

  test('auto refit sees a mesh BVH refitted in place, replaced or dropped between picks', () => {
    const scene = makeCpuScene();
    // Data no other mesh of this file uses: a BVH shared with another mesh would be copied on refit, not refitted in place.
    const ball = createMeshFromData(scene, 'ball', makeSphereData({ radius: 1, segments: 23, rings: 17 }));
    createMeshFromData(scene, 'other', makeBoxData(), { worldMatrix: mat4.translation([6, 0, 0]) });
    createCpuPicker(scene);
    const through = { origin: [0, 0, 10], direction: [0, 0, -1] };
    const grazing = { origin: [1.5, 0, 10], direction: [0, 0, -1] };
    expect(pickWithRaySync(scene, through).pickedMesh).toBe(ball); // builds the ball's BVH
    const built = peekMeshBvh(ball)!;
    for (let i = 0; i < ball.positions.length; i++) ball.positions[i] *= 2;
    refitMeshBvh(ball); // in place: the same BVH object, refitCount bumped
    expect(peekMeshBvh(ball)).toBe(built);
    expect(pickWithRaySync(scene, grazing).pickedMesh).toBe(ball);
    for (let i = 0; i < ball.positions.length; i++) ball.positions[i] /= 2;
    disposeMeshBvh(ball); // dropped: bounds fall back to the (rest) local bounds
    expect(pickWithRaySync(scene, grazing).hit).toBe(false);
    for (let i = 0; i < ball.positions.length; i++) ball.positions[i] *= 2;
    const bytes = serialiseMeshBvh(ball);
    loadMeshBvh(ball, bytes); // replaced by another object
    expect(pickWithRaySync(scene, grazing).pickedMesh).toBe(ball);
  });

  test('a serialised mesh BVH loads in place of a build and picks identically', () => {
    const scene = makeCpuScene();
    const ball = createMeshFromData(scene, 'ball', makeSphereData({ radius: 1, segments: 40, rings: 20 }));
    const bytes = serialiseMeshBvh(ball);
    disposeMeshBvh(ball);
    const loaded = loadMeshBvh(ball, bytes);
    expect(peekMeshBvh(ball)).toBe(loaded);
    const rand = mulberry32(12);
    const reference = toReferenceScene(scene);
    for (let i = 0; i < 200; i++) {
      const ray = rayTowards(rand, 2);
      const ours = pickWithRaySync(scene, ray);
      expect(ours.faceId).toBe(castReferenceRay(reference, ray.origin, ray.direction)?.faceId ?? -1);
    }
    expect(peekMeshBvh(ball)).toBe(loaded);
  });
});
