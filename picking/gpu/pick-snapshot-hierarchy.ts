// The GPU pick's candidates through the CPU picker's scene BVH, for scenes of many drawables (`usesSceneHierarchy`).
// A module of its own, loaded by the GPU picker on first need: a page whose scenes stay small never loads the BVH code.
import type { PickSubject } from '../sources/pick-source.js';
import type { Scene } from '../../engine/scene.js';
import { getCpuPicker, syncCpuPicker } from '../cpu/cpu-picker.js';
import { collectSceneCandidates } from '../cpu/scene-query.js';
import { maxPickId } from '../pick-id.js';
import { PickError } from '../pick-errors.js';
import { makePickFilterTest, type PickFilter } from '../pick-filter.js';
import { captureCandidate, type InstanceRun, type PickCandidate, type PickSnapshot } from '../pick-snapshot.js';
import type { PickingRay } from '../picking-ray.js';

/**
 * The same snapshot as the scan, with candidates found through the scene BVH, one query per ray: cost grows with
 * what is under the rays. Candidates are the union over the rays (a mesh's instance runs too); each point draws
 * the candidates its own ray crosses.
 * @internal
 */
export function snapshotFromSceneHierarchy(
  api: string,
  scene: Scene,
  pickFilter: PickFilter,
  rays: readonly PickingRay[],
): PickSnapshot {
  const accept = makePickFilterTest(pickFilter);
  const picker = getCpuPicker(scene);
  syncCpuPicker(picker);
  const single = rays.length === 1;
  const perRay = single
    ? [collectSceneCandidates(picker, rays[0].origin, rays[0].direction, accept)]
    : rays.map((ray) => collectSceneCandidates(picker, ray.origin, ray.direction, accept));
  const entries = sortAscending(single ? perRay[0] : [...new Set(perRay.flat())]);
  const candidates: PickCandidate[] = [];
  // Which candidate each mesh became, for the points' own draw lists (one point draws them all).
  const candidateOfMesh = single ? null : new Map<PickSubject, number>();
  let nextId = 1;
  for (let k = 0; k < entries.length; ) {
    const mesh = picker.entries.meshes[entries[k]];
    const runs: InstanceRun[] = [];
    // Entries are in scene order and a mesh's instances are consecutive: gather this mesh's, as runs.
    while (k < entries.length && picker.entries.meshes[entries[k]] === mesh) {
      const first = picker.entries.instances[entries[k]];
      let count = 1;
      while (
        k + count < entries.length &&
        picker.entries.meshes[entries[k + count]] === mesh &&
        picker.entries.instances[entries[k + count]] === first + count
      )
        count++;
      if (first >= 0)
        runs.push({ first, count, matrices: mesh.thinInstances!.slice(first * 16, (first + count) * 16) });
      k += count;
    }
    const idCount = Math.max(1, mesh.thinInstanceCount);
    candidateOfMesh?.set(mesh, candidates.length);
    candidates.push(captureCandidate(mesh, nextId, idCount, mesh.thinInstances ? runs : null));
    nextId += idCount;
    if (nextId - 1 > maxPickId)
      throw new PickError(
        api,
        'limit-exceeded',
        `the pick needs more than ${maxPickId} IDs (24-bit RGB); filter or ignore meshes`,
      );
  }
  if (!candidateOfMesh) {
    const all: number[] = [];
    for (let i = 0; i < candidates.length; i++) all.push(i);
    return { candidates, drawLists: [all] };
  }
  const { meshes, instances } = picker.entries;
  const drawLists = perRay.map((list) =>
    [...new Set(list.map((e) => candidateOfMesh.get(meshes[e])!))].sort((a, b) => a - b),
  );
  if (!candidates.some((c) => c.runs)) return { candidates, drawLists };
  const pointInstances = perRay.map((list) => {
    const byCandidate = new Map<number, { first: number; count: number }[]>();
    for (const e of [...list].sort((a, b) => a - b)) {
      if (instances[e] < 0) continue;
      const candidate = candidateOfMesh.get(meshes[e])!;
      let ranges = byCandidate.get(candidate);
      if (!ranges) byCandidate.set(candidate, (ranges = []));
      const last = ranges[ranges.length - 1];
      if (last && last.first + last.count === instances[e]) last.count++;
      else ranges.push({ first: instances[e], count: 1 });
    }
    return byCandidate;
  });
  return { candidates, drawLists, pointInstances };
}

/** Sorts a list of entry indices in place, ascending: by insertion while short (a ray crosses few), else natively. */
function sortAscending(list: number[]): number[] {
  if (list.length > 32) return list.sort((a, b) => a - b);
  for (let i = 1; i < list.length; i++) {
    const value = list[i];
    let j = i - 1;
    for (; j >= 0 && list[j] > value; j--) list[j + 1] = list[j];
    list[j + 1] = value;
  }
  return list;
}
