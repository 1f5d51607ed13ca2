// A marquee over many separate meshes of equal geometry (10 000 boxes, a forest of one tree) is bound by draw calls,
// not pixels: one draw per mesh costs ~75 µs on lavapipe, ~30× a single pick at 851 meshes. Meshes whose vertex
// and index data are equal byte for byte draw as one instanced draw instead, their world matrices as the instances.
import type { PickCulling, PickSubject } from '../sources/pick-source.js';
import { weftPickSource as source } from '../sources/weft-pick-source.js';
import { geometryClassOf } from './geometry-class.js';
import { getBatchPickPipeline, type PickRaster } from './pick-pipelines.js';
import { ensureBatchInstances, type PickGpu, type PickPipeline } from './pick-resources.js';
import type { PickCandidate, PickSnapshot } from '../pick-snapshot.js';

/** Candidates `first .. first + count` of a snapshot: one geometry, cull mode and front face, consecutive IDs. */
interface PickBatch {
  first: number;
  count: number;
}

/**
 * Whether a candidate can be drawn as one instance of a batch: a plain, undeformed, live mesh as captured, because a
 * batch draws every member from its first member's buffers with only the member's world matrix as the instance.
 * @internal
 */
export function batchable(candidate: PickCandidate): boolean {
  const mesh = candidate.mesh;
  return (
    candidate.runs === null &&
    candidate.pose === null &&
    candidate.overlay === undefined &&
    candidate.drawMesh === undefined &&
    !mesh.disposed &&
    mesh.thinInstances === null &&
    !source.isDeformed(mesh)
  );
}

/**
 * Reorders a marquee snapshot's candidates so meshes of one geometry class, cull mode and front face are adjacent,
 * renumbers their IDs in that order, and records each group of two or more as a batch. At most `maxInstances`
 * meshes join batches (the per-pass instance buffer's bound). Returns each candidate's index before the reordering
 * (null when nothing was batched and nothing moved), so results can still be reported in scene order.
 * @internal
 */
export function batchRectCandidates(
  snapshot: PickSnapshot,
  culling: PickCulling | undefined,
  maxInstances: number,
): Int32Array | null {
  const { candidates } = snapshot;
  // Per geometry class: a list per raster state (cull back, front face ccw / cw; no culling).
  const groups = new Map<object, number[]>();
  const groupOf = new Int32Array(candidates.length).fill(-1);
  const lists: number[][] = [];
  candidates.forEach((candidate, index) => {
    if (!batchable(candidate)) return;
    const geometryClass = geometryClassOf(candidate.mesh.geometry);
    if (!geometryClass) return;
    // Without culling the front face changes nothing the pick shader reads.
    const culled = culling !== 'none' && source.cullMode(candidate.mesh) !== 'none';
    const facing = source.frontFaceSign(candidate.mesh, candidate.worldMatrix);
    const raster = culled ? (facing > 0 ? 0 : 1) : 2;
    let byRaster = groups.get(geometryClass);
    if (!byRaster) groups.set(geometryClass, (byRaster = [-1, -1, -1]));
    if (byRaster[raster] < 0) {
      byRaster[raster] = lists.length;
      lists.push([]);
    }
    groupOf[index] = byRaster[raster];
    lists[byRaster[raster]].push(index);
  });
  let budget = maxInstances;
  const batched = lists.map((list) => {
    const take = list.length >= 2 && list.length <= budget;
    if (take) budget -= list.length;
    return take;
  });
  if (!batched.some(Boolean)) return null;
  const order: number[] = [];
  const batches: PickBatch[] = [];
  const emitted = new Uint8Array(lists.length);
  candidates.forEach((_, index) => {
    const group = groupOf[index];
    if (group < 0 || !batched[group]) {
      order.push(index);
      return;
    }
    if (emitted[group]) return;
    emitted[group] = 1;
    batches.push({ first: order.length, count: lists[group].length });
    order.push(...lists[group]);
  });
  // The candidates were made for this snapshot alone: renumbered in place.
  const reordered = order.map((index) => candidates[index]);
  let nextId = candidates[0].baseId;
  for (const candidate of reordered) {
    candidate.baseId = nextId;
    nextId += candidate.idCount;
  }
  candidates.splice(0, candidates.length, ...reordered);
  snapshot.batches = batches;
  return Int32Array.from(order);
}

/**
 * The mesh a batch draws with: its first member's (every member's buffers hold the same bytes), or the stand-in
 * `bindSnapshotMeshes` made for it when it changed since the call (a redraw after a device loss).
 * @internal
 */
export function batchMesh(snapshot: PickSnapshot, batch: PickBatch): PickSubject {
  const first = snapshot.candidates[batch.first];
  return first.drawMesh ?? first.mesh;
}

/** @internal A batch ready to draw: its pipeline and where its members' matrices start in the batch instance buffer. */
export interface BatchDraw {
  first: number;
  count: number;
  pipeline: PickPipeline;
  firstInstance: number;
}

/**
 * The batches of a request that can draw instanced (a pipeline exists for them; see `getBatchPickPipeline`), with
 * their members' world matrices written to the batch instance buffer now. Null when nothing draws batched.
 * @internal
 */
export function prepareBatchDraws(
  gpu: PickGpu,
  api: string,
  snapshot: PickSnapshot,
  rasterOf: (candidate: number) => PickRaster | undefined,
): BatchDraw[] | null {
  if (!snapshot.batches?.length) return null;
  const draws: BatchDraw[] = [];
  let instances = 0;
  for (const batch of snapshot.batches) {
    const raster = rasterOf(batch.first);
    const pipeline = raster && getBatchPickPipeline(gpu, api, batchMesh(snapshot, batch), raster);
    if (!pipeline) continue;
    draws.push({ ...batch, pipeline, firstInstance: instances });
    instances += batch.count;
  }
  if (!draws.length) return null;
  const buffer = ensureBatchInstances(gpu, instances);
  const data = gpu.batchData;
  for (const draw of draws)
    for (let k = 0; k < draw.count; k++)
      data.set(snapshot.candidates[draw.first + k].worldMatrix, (draw.firstInstance + k) * 16);
  gpu.device.queue.writeBuffer(buffer, 0, data, 0, instances * 16);
  return draws;
}
