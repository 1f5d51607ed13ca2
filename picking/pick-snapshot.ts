import { type Aabb, intersectRayAabb, makeEmptyAabb, transformAabb } from '../engine/bounds.js';
import type { Scene } from '../engine/scene.js';
import { maxPickId } from './pick-id.js';
import { PickError } from './pick-errors.js';
import {
  ignoredInstanceRanges,
  isInstanceInRanges,
  makePickFilter,
  type PickFilter,
  type PickFilterOptions,
  pickFilterKeepsMesh,
} from './pick-filter.js';
import type { PickingRay } from './picking-ray.js';
import type { PickPose, PickSubject } from './sources/pick-source.js';
import { weftPickSource as source } from './sources/weft-pick-source.js';

/** Options every pick call accepts. */
export interface PickOptions extends PickFilterOptions {
  /** Draw only meshes / instances whose world bounds the pick ray crosses (default true). */
  preFilter?: boolean;
}

/** @internal A contiguous run of thin instances drawn for one candidate, with their matrices as encoded. */
export interface InstanceRun {
  first: number;
  count: number;
  /** Copy of the instances' 16 floats each, taken when the pass was encoded. */
  matrices: Float32Array;
}

/** @internal One mesh drawn in a pick pass and the IDs it owns. */
export interface PickCandidate {
  mesh: PickSubject;
  /** ID of instance 0 (or of the mesh itself). */
  baseId: number;
  /** IDs owned: max(1, thin instance count). */
  idCount: number;
  /** Copy of the world matrix at encode time. */
  worldMatrix: Float32Array;
  /** Thin instances drawn (null when the mesh has none). */
  runs: InstanceRun[] | null;
  /** The mesh's thin-instance version at the call. */
  thinInstanceVersion: number;
  /** The source's copy of the mesh's pose at the call (null when it is not deformed). */
  pose: PickPose | null;
  /**
   * What the pass draws for this candidate: the mesh itself while it is as captured, otherwise a stand-in rebuilt from
   * the capture (set by `bindSnapshotMeshes`; undefined means the mesh).
   */
  drawMesh?: PickSubject;
  /** Set for an overlay item (pick-overlays.ts): drawn without the discard rule; `on-top` in the point's neighbourhood. */
  overlay?: 'on-top' | 'scene';
}

/** @internal Copies what a pick reads of a mesh at the call (its world matrix, instance version and pose). */
export function captureCandidate(
  mesh: PickSubject,
  baseId: number,
  idCount: number,
  runs: InstanceRun[] | null,
): PickCandidate {
  return {
    mesh,
    baseId,
    idCount,
    // No copy: setMeshWorldMatrix replaces the array, so the one held here stays as it was at the call.
    worldMatrix: mesh.worldMatrix,
    runs,
    thinInstanceVersion: mesh.thinInstanceVersion,
    pose: source.capturePose(mesh),
    // Present from the start so bindSnapshotMeshes does not change every candidate's shape.
    drawMesh: undefined,
  };
}

/** @internal Everything needed to draw and to decode one pick, captured at encode time. */
export interface PickSnapshot {
  candidates: PickCandidate[];
  /** Candidate indices drawn for each pick point (pickMany/pickRect may differ from pickAsync). */
  drawLists: number[][];
  /**
   * Per point, per thin-instanced candidate of its draw list: the instances its ray crosses (sorted ranges), so a
   * point draws those and not every point's. A candidate without an entry draws all of its runs.
   */
  pointInstances?: Map<number, { first: number; count: number }[]>[];
  /** A marquee's runs of candidates drawn as one instanced draw each (`batchRectCandidates`); none elsewhere. */
  batches?: readonly { first: number; count: number }[];
}

/** Per-call state of the pre-filter, allocated once per pick (never per mesh or instance). */
interface Filter {
  rays: readonly PickingRay[];
  inverseDirections: Float64Array[];
  box: Aabb;
  combined: Float32Array;
  /** hits[p]: the last tested bounds cross point p's ray. */
  hits: Uint8Array;
}

/** Whether the rays cross the local box under `m`; records per-ray hits in `filter.hits`. */
function testBounds(filter: Filter, box: Aabb, m: Float32Array): boolean {
  transformAabb(box, m, filter.box);
  let any = false;
  for (let r = 0; r < filter.rays.length; r++) {
    const hit = intersectRayAabb(filter.rays[r].origin, filter.inverseDirections[r], filter.box) >= 0;
    filter.hits[r] = hit ? 1 : 0;
    any ||= hit;
  }
  return any;
}

function addToLists(drawLists: number[][], candidateIndex: number, filter: Filter | null): void {
  for (let p = 0; p < drawLists.length; p++) {
    if (filter && !filter.hits[p]) continue;
    const list = drawLists[p];
    if (list[list.length - 1] !== candidateIndex) list.push(candidateIndex);
  }
}

/**
 * The snapshot taken through the CPU picker's scene hierarchy (`pick-snapshot-hierarchy.ts`): the same snapshot as the
 * scan, found with one query per ray. Passed in by the caller that loaded it, so the scan needs no BVH code.
 * @internal
 */
export type SceneHierarchySnapshot = (
  api: string,
  scene: Scene,
  pickFilter: PickFilter,
  rays: readonly PickingRay[],
) => PickSnapshot;

/**
 * Chooses what each pick point draws and assigns 1-based IDs in scene order. With rays (pickAsync,
 * pickMany) and preFilter on, a mesh or instance is drawn for a point only when its world bounds
 * cross that point's ray; without rays (pickRect) everything that passes the options is drawn. With
 * `fromHierarchy`, a pick where `usesSceneHierarchy` holds asks the scene hierarchy instead of scanning the meshes.
 * @internal
 */
export function makePickSnapshot(
  api: string,
  meshes: readonly PickSubject[],
  options: PickOptions,
  rays: readonly PickingRay[] | null,
  points = 1,
  scene?: Scene,
  fromHierarchy?: SceneHierarchySnapshot | null,
): PickSnapshot {
  const pickFilter = makePickFilter(api, options, PickError);
  if (fromHierarchy && usesSceneHierarchy(meshes, options, rays, points, scene))
    return fromHierarchy(api, scene!, pickFilter, rays!);
  const filter: Filter | null =
    rays !== null && options.preFilter !== false
      ? {
          rays,
          inverseDirections: rays.map(({ direction: d }) => new Float64Array([1 / d[0], 1 / d[1], 1 / d[2]])),
          box: makeEmptyAabb(),
          combined: new Float32Array(16),
          hits: new Uint8Array(points),
        }
      : null;
  const candidates: PickCandidate[] = [];
  const drawLists: number[][] = [];
  for (let p = 0; p < points; p++) drawLists.push([]);
  let nextId = 1;
  for (const mesh of meshes) {
    if (mesh.disposed || !pickFilterKeepsMesh(pickFilter, mesh)) continue;
    const ignoredRanges = ignoredInstanceRanges(pickFilter, mesh);
    const candidateIndex = candidates.length;
    let runs: InstanceRun[] | null = null;
    let drawn = false;
    // A deformed mesh leaves its rest bounds: test the conservative bounds of its current pose instead.
    const bounds = source.isDeformed(mesh) ? source.deformedLocalBounds(mesh) : mesh.localBounds;
    if (!mesh.thinInstances) {
      drawn = !filter || testBounds(filter, bounds, mesh.worldMatrix);
      if (drawn) addToLists(drawLists, candidateIndex, filter);
    } else {
      // Runs are shared by all points: an instance is drawn if any point's ray crosses it.
      runs = [];
      let runStart = -1;
      for (let i = 0; i <= mesh.thinInstanceCount; i++) {
        let include = i < mesh.thinInstanceCount && !isInstanceInRanges(ignoredRanges, i);
        if (include && filter) {
          source.multiplyByInstance(mesh.worldMatrix, mesh.thinInstances, i, filter.combined);
          include = testBounds(filter, bounds, filter.combined);
        }
        if (include) {
          addToLists(drawLists, candidateIndex, filter);
          if (runStart < 0) runStart = i;
        } else if (runStart >= 0) {
          runs.push({
            first: runStart,
            count: i - runStart,
            matrices: mesh.thinInstances.slice(runStart * 16, i * 16),
          });
          runStart = -1;
        }
      }
      drawn = runs.length > 0;
    }
    if (!drawn) continue;
    const idCount = Math.max(1, mesh.thinInstanceCount);
    candidates.push(captureCandidate(mesh, nextId, idCount, runs));
    nextId += idCount;
    if (nextId - 1 > maxPickId)
      throw new PickError(
        api,
        'limit-exceeded',
        `the pick needs more than ${maxPickId} IDs (24-bit RGB); filter or ignore meshes`,
      );
  }
  return { candidates, drawLists };
}

/** What a pick asks of the whole mesh list, known per scene structure version (thin-instance counts bump it too). */
interface SceneFacts {
  version: number;
  deformed: boolean;
  /** At least `hierarchyThreshold` drawables. */
  manyDrawables: boolean;
}

let sceneFacts: WeakMap<Scene, SceneFacts> | undefined;

/** The scene's facts, computed again when its structure changed (the cache appears on first use). */
function factsOf(scene: Scene): SceneFacts {
  sceneFacts ??= new WeakMap();
  const known = sceneFacts.get(scene);
  if (known && known.version === scene.structureVersion) return known;
  const facts = {
    version: scene.structureVersion,
    deformed: scene.meshes.some(source.isDeformed),
    manyDrawables: countDrawables(scene.meshes) >= hierarchyThreshold,
  };
  sceneFacts.set(scene, facts);
  return facts;
}

/**
 * Whether any mesh of the scene is deformed (cached per scene structure version; the cache appears on first use).
 * @internal
 */
export function sceneHasDeformedMeshes(scene: Scene): boolean {
  return factsOf(scene).deformed;
}

/**
 * From this many drawables (meshes without thin instances, plus thin instances) on, a pick asks the CPU picker's
 * scene hierarchy which bounds each ray crosses: its entries hold every thin instance, so one mesh with many
 * instances is split like as many meshes (refit only when `setThinInstances` bumps the version).
 * @internal
 */
export const hierarchyThreshold = 64;

/**
 * Whether a pick asks the CPU picker's scene hierarchy for its candidates instead of scanning the meshes: where it
 * answers as the scan does (a ray per point, pre-filter on, the scene's own mesh list, no deformed mesh, whose pose
 * only the scan bounds) and from `hierarchyThreshold` drawables on, where one query per ray beats the O(meshes) scan.
 * @internal
 */
export function usesSceneHierarchy(
  meshes: readonly PickSubject[],
  options: PickOptions,
  rays: readonly PickingRay[] | null,
  points: number,
  scene: Scene | undefined,
): boolean {
  if (scene === undefined || rays === null || rays.length !== points || options.preFilter === false) return false;
  if (meshes !== scene.meshes) return false;
  const facts = factsOf(scene);
  return facts.manyDrawables && !facts.deformed;
}

/** Meshes without thin instances plus thin instances, counted until the threshold is reached (O(meshes) at most). */
function countDrawables(meshes: readonly PickSubject[]): number {
  let count = 0;
  for (const mesh of meshes) {
    count += mesh.thinInstances ? mesh.thinInstanceCount : 1;
    if (count >= hierarchyThreshold) break;
  }
  return count;
}

/** @internal The candidate owning `id` and the thin instance it names (-1 when the mesh has none). */
export function findCandidate(
  snapshot: PickSnapshot,
  id: number,
): { candidate: PickCandidate; instance: number } | null {
  const index = findCandidateIndex(snapshot, id);
  if (index < 0) return null;
  const c = snapshot.candidates[index];
  return { candidate: c, instance: c.runs ? id - c.baseId : -1 };
}

/** @internal The index of the candidate owning `id` in the snapshot (candidates are in ID order), or -1. */
export function findCandidateIndex(snapshot: PickSnapshot, id: number): number {
  const list = snapshot.candidates;
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const c = list[mid];
    if (id < c.baseId) high = mid - 1;
    else if (id >= c.baseId + c.idCount) low = mid + 1;
    else return mid;
  }
  return -1;
}

/** @internal The encode-time matrix of a thin instance drawn in this snapshot (payload lanes as stored). */
export function snapshotInstanceMatrix(candidate: PickCandidate, instance: number): Float32Array | null {
  for (const run of candidate.runs ?? []) {
    if (instance >= run.first && instance < run.first + run.count)
      return run.matrices.subarray((instance - run.first) * 16, (instance - run.first + 1) * 16);
  }
  return null;
}

/** Whether the mesh is still as the candidate captured it (so the pass may draw the mesh's own GPU data). */
function isAsCaptured(c: PickCandidate): boolean {
  const mesh = c.mesh;
  if (mesh.disposed || mesh.thinInstanceVersion !== c.thinInstanceVersion) return false;
  if ((mesh.thinInstances !== null) !== (c.runs !== null)) return false;
  return source.isPoseCurrent(mesh, c.pose);
}

/**
 * The mesh with the pose captured at the call (itself when it is not deformed): CPU-side detail reads this.
 * @internal
 */
export function meshAsCaptured(c: PickCandidate): PickSubject {
  return source.withPose(c.mesh, c.pose);
}

/** A stand-in for a mesh changed (or disposed) since the call: the captured instances and pose, own GPU copies. */
function makeStandIn(c: PickCandidate, device: GPUDevice): { subject: PickSubject; release: () => void } {
  let instances: Float32Array<ArrayBuffer> | null = null;
  if (c.runs) {
    instances = new Float32Array(c.idCount * 16);
    for (const run of c.runs) instances.set(run.matrices, run.first * 16);
  }
  return source.makeStandIn(c.mesh, c.pose, instances, c.thinInstanceVersion, device);
}

/**
 * Points each candidate at what the pass draws: the mesh while it is as captured at the call, otherwise a stand-in
 * with the captured instances and pose (a mesh disposed since the call is drawn from its geometry). Returns the
 * function that frees the stand-ins' GPU copies (after the pass is submitted).
 * @internal
 */
export function bindSnapshotMeshes(snapshot: PickSnapshot, device: GPUDevice): () => void {
  let releases: (() => void)[] | null = null;
  const candidates = snapshot.candidates;
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i];
    if (isAsCaptured(c)) {
      c.drawMesh = undefined;
      continue;
    }
    const standIn = makeStandIn(c, device);
    c.drawMesh = standIn.subject;
    (releases ??= []).push(standIn.release);
  }
  // Every mesh as captured (the usual case): nothing to free, every candidate already draws its mesh.
  if (!releases) return releaseNothing;
  const made = releases;
  return () => {
    for (const release of made) release();
    for (const c of candidates) c.drawMesh = undefined;
  };
}

function releaseNothing(): void {}
