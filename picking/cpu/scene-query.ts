import type { PickCulling, PickSubject } from '../sources/pick-source.js';
import { weftPickSource as source } from '../sources/weft-pick-source.js';
import { nodeCountWord, nodeFirstWord, nodeWords } from './bvh/bvh-nodes.js';
import { adoptBuiltMeshBvh, type CpuPicker } from './cpu-picker.js';
import { getMeshBvh, meshBvhCacheEpoch, peekMeshBvh } from './bvh/mesh-bvh-cache.js';
import { makeRayBox, type RayBox, rayBoxEntry, rayEntersBox, setRayBox } from './bvh/ray-box.js';
import { makeTriangleHit, type TriangleHit } from './bvh/ray-triangle.js';
import type { TriangleBvh } from './bvh/triangle-bvh.js';
import {
  lastFirstHitLeaf,
  makeTriangleHitList,
  raycastTriangleBvhAll,
  raycastTriangleBvhFirst,
} from './bvh/triangle-bvh-query.js';
import { lastCompactHitCorners } from './bvh/compact-bvh-query.js';

/** @internal Decides whether an entry (mesh, thin instance or -1) may be hit by this query. */
export type EntryAcceptor = (mesh: PickSubject, thinInstance: number) => boolean;

/** @internal One scene hit: entry, world distance t along the unit ray, Babylon barycentrics, face. */
export interface SceneHit {
  entry: number;
  t: number;
  u: number;
  v: number;
  faceId: number;
  /**
   * The hit triangle's leaf-order copy (its 9 coordinates at `leaf · 9`, just read by the query, so still in cache),
   * or null (leaf -1) when the BVH keeps no copy or the query does not say.
   */
  triangles: Float32Array | null;
  /** The hit triangle's leaf-order vertex indices (at `leaf · 3`), or null, as `triangles`. */
  leafIndices: Uint16Array | Uint32Array | null;
  leaf: number;
  /** A 'compact' BVH's hit corners, copied here (then `leafIndices`, with leaf 0); made on the first such hit. */
  corners?: Uint32Array;
}

/** Points `out` at the hit triangle's corners as the query just read them (no index read, no cache miss). */
function setHitCorners(out: SceneHit, bvh: TriangleBvh): void {
  out.triangles = bvh.triangles;
  if (bvh.compact === null) {
    out.leafIndices = bvh.leafIndices;
    out.leaf = lastFirstHitLeaf();
    return;
  }
  out.corners ??= new Uint32Array(3);
  out.corners.set(lastCompactHitCorners());
  out.leafIndices = out.corners;
  out.leaf = 0;
}

/** Per-query state handed to the candidate visitor (reused, so a query allocates nothing). */
interface Query {
  picker: CpuPicker;
  box: RayBox;
  o: readonly number[] | null;
  d: readonly number[] | null;
  tMin: number;
  tMax: number;
  accept: EntryAcceptor;
  /** Back faces: culled as drawn (one-sided materials, front by determinant sign) or all hit. */
  culling: PickCulling;
  local: Float64Array;
  hit: TriangleHit;
  stackNodes: Int32Array;
  stackNear: Float64Array;
  found: boolean;
  out: SceneHit | null;
  all: SceneHit[] | null;
  /** Box-only queries collect the accepted entries here instead of testing triangles. */
  candidates: number[] | null;
  busy: boolean;
}

let shared: Query | null = null;
let singleHit: TriangleHit | null = null;

function makeQuery(): Query {
  return {
    picker: null as unknown as CpuPicker,
    box: makeRayBox(),
    o: null,
    d: null,
    tMin: 0,
    tMax: Infinity,
    accept: acceptAll,
    culling: 'as-drawn',
    local: new Float64Array(6),
    hit: makeTriangleHit(),
    stackNodes: new Int32Array(64),
    stackNear: new Float64Array(64),
    found: false,
    out: null,
    all: null,
    candidates: null,
    busy: false,
  };
}

/** The shared query state (allocated on first use); a fresh one when a filter callback re-enters a pick. */
function acquireQuery(
  picker: CpuPicker,
  o: readonly number[],
  d: readonly number[],
  tMin: number,
  tMax: number,
  accept: EntryAcceptor,
): Query {
  shared ??= makeQuery();
  const q = shared.busy ? makeQuery() : shared;
  const depth = picker.bvh ? picker.bvh.nodes.maxDepth : 0;
  if (q.stackNodes.length < depth + 2) {
    q.stackNodes = new Int32Array(depth + 2);
    q.stackNear = new Float64Array(depth + 2);
  }
  q.busy = true;
  q.picker = picker;
  q.o = o;
  q.d = d;
  q.tMin = tMin;
  q.tMax = tMax;
  q.accept = accept;
  q.culling = 'as-drawn';
  q.found = false;
  q.out = null;
  q.all = null;
  q.candidates = null;
  setRayBox(q.box, o[0], o[1], o[2], d[0], d[1], d[2]);
  picker.census.rays++;
  return q;
}

function acceptAll(): boolean {
  return true;
}

/** Ends a query, dropping its references so the last scene picked is not kept alive. */
function releaseQuery(q: Query): void {
  q.busy = false;
  q.picker = null as unknown as CpuPicker;
  q.accept = acceptAll;
  q.o = null;
  q.d = null;
  q.out = null;
  q.all = null;
  q.candidates = null;
}

/** Transforms the world ray into entry e's local space (t is preserved: the inverse is applied to an unnormalised direction). */
function toLocal(q: Query, e: number): void {
  const m = q.picker.entries.inverse;
  const { local } = q;
  const o = q.o!;
  const d = q.d!;
  const b = e * 16;
  for (let a = 0; a < 3; a++) {
    local[a] = m[b + a] * o[0] + m[b + 4 + a] * o[1] + m[b + 8 + a] * o[2] + m[b + 12 + a];
    local[3 + a] = m[b + a] * d[0] + m[b + 4 + a] * d[1] + m[b + 8 + a] * d[2];
  }
}

function meshBvhFor(picker: CpuPicker, e: number): TriangleBvh {
  const { entries } = picker;
  const m = entries.meshIndex[e];
  const epoch = meshBvhCacheEpoch();
  if (entries.bvhEpoch === epoch) {
    const known = entries.bvhs[m];
    if (known) return known;
  } else {
    entries.bvhs.fill(null);
    entries.bvhEpoch = epoch;
  }
  const mesh = entries.meshes[e];
  let bvh = peekMeshBvh(mesh);
  if (!bvh) {
    bvh = getMeshBvh(mesh);
    adoptBuiltMeshBvh(picker, m);
    entries.bvhEpoch = meshBvhCacheEpoch(); // the build bumped it; the other meshes' BVHs did not change
  }
  entries.bvhs[m] = bvh;
  return bvh;
}

/** Offers entry e to the query: box test, filters, then the narrow phase. Returns the new far limit. */
function offer(q: Query, e: number, far: number): number {
  const { picker } = q;
  const { entries, census } = picker;
  census.offers++;
  if (!entries.valid[e] || !(rayBoxEntry(q.box, entries.bounds, e * 6, q.tMin, far) < Infinity)) return far;
  if (!q.accept(entries.meshes[e], entries.instances[e])) return far;
  if (q.candidates) {
    q.candidates.push(e);
    return far;
  }
  census.narrowPhase++;
  toLocal(q, e);
  const l = q.local;
  const bvh = meshBvhFor(picker, e);
  // The renderers' face rule (engine/winding.ts): a one-sided material shows the CCW side of the local triangle. The
  // ray is tested in local space, where a mirroring world × instance matrix changes nothing: the GPU flips the
  // screen-space front face by the determinant's sign to show exactly this side.
  const facing = q.culling === 'none' ? 0 : source.cullFacing(entries.meshes[e]);
  if (q.all) {
    const list = makeTriangleHitList();
    raycastTriangleBvhAll(bvh, l[0], l[1], l[2], l[3], l[4], l[5], q.tMin, q.tMax, list, facing);
    for (let i = 0; i < list.count; i++)
      q.all.push({
        entry: e,
        t: list.t[i],
        u: list.u[i],
        v: list.v[i],
        faceId: list.faceId[i],
        triangles: null,
        leafIndices: null,
        leaf: -1,
      });
    return far;
  }
  const hit = q.hit;
  if (!raycastTriangleBvhFirst(bvh, l[0], l[1], l[2], l[3], l[4], l[5], q.tMin, far, hit, facing)) return far;
  const out = q.out!;
  q.found = true;
  out.entry = e;
  out.t = hit.t;
  out.u = hit.u;
  out.v = hit.v;
  out.faceId = hit.faceId;
  setHitCorners(out, bvh);
  return hit.t;
}

/** Offers the entries the ray may reach: all of them (flat scan), or by the scene BVH, nearest box first. */
function search(q: Query): void {
  const { entries, bvh, census } = q.picker;
  let far = q.tMax;
  if (!bvh) {
    for (let e = 0; e < entries.count; e++) far = offer(q, e, far);
    return;
  }
  const { floats, ints, nodeCount } = bvh.nodes;
  if (nodeCount === 0) return;
  const { stackNodes, stackNear, box, tMin } = q;
  let sp = 0;
  census.nodeVisits++;
  if (!(rayBoxEntry(box, floats, 0, tMin, far) < Infinity)) return;
  let node = 0;
  for (;;) {
    const o = node * nodeWords;
    const count = ints[o + nodeCountWord];
    if (count > 0) {
      for (let i = ints[o + nodeFirstWord], end = i + count; i < end; i++) far = offer(q, bvh.order[i], far);
    } else {
      const a = ints[o + nodeFirstWord];
      census.nodeVisits += 2;
      const ta = rayBoxEntry(box, floats, a * nodeWords, tMin, far);
      const tb = rayBoxEntry(box, floats, (a + 1) * nodeWords, tMin, far);
      if (ta < Infinity && tb < Infinity) {
        const nearA = ta <= tb;
        stackNodes[sp] = nearA ? a + 1 : a;
        stackNear[sp++] = nearA ? tb : ta;
        node = nearA ? a : a + 1;
        continue;
      }
      if (ta < Infinity || tb < Infinity) {
        node = ta < Infinity ? a : a + 1;
        continue;
      }
    }
    let next = -1;
    while (sp > 0) {
      sp--;
      if (stackNear[sp] <= far) {
        next = stackNodes[sp];
        break;
      }
    }
    if (next < 0) return;
    node = next;
  }
}

/**
 * `raycastSceneFirst` for a scene of one entry (e.g. one mesh), without the query state: the same box test, filter,
 * local ray and narrow phase as `offer`, in locals (so a filter that picks again needs no fresh state), and the census
 * counted as the full search counts it.
 */
function raycastSingleEntryFirst(
  picker: CpuPicker,
  o: readonly number[],
  d: readonly number[],
  tMin: number,
  tMax: number,
  accept: EntryAcceptor,
  out: SceneHit,
  culling: PickCulling,
): boolean {
  // Twin of picking/cpu/scene-query.ts:offer (kept equal by test/unit/cpu-picking/single-entry-pick.test.ts: same answers as the general scene walk and the reference, one-sided and mirrored, with a filter)
  const { entries, census } = picker;
  census.rays++;
  census.offers++;
  const ox = o[0];
  const oy = o[1];
  const oz = o[2];
  const dx = d[0];
  const dy = d[1];
  const dz = d[2];
  if (!entries.valid[0] || !rayEntersBox(ox, oy, oz, dx, dy, dz, entries.bounds, 0, tMin, tMax)) return false;
  const mesh = entries.meshes[0];
  if (!accept(mesh, entries.instances[0])) return false;
  census.narrowPhase++;
  // Twin of picking/cpu/scene-query.ts:toLocal (kept equal by test/unit/cpu-picking/single-entry-pick.test.ts: same answers as the general scene walk and the reference, one-sided and mirrored, with a filter)
  const m = entries.inverse;
  const lox = m[0] * ox + m[4] * oy + m[8] * oz + m[12];
  const loy = m[1] * ox + m[5] * oy + m[9] * oz + m[13];
  const loz = m[2] * ox + m[6] * oy + m[10] * oz + m[14];
  const ldx = m[0] * dx + m[4] * dy + m[8] * dz;
  const ldy = m[1] * dx + m[5] * dy + m[9] * dz;
  const ldz = m[2] * dx + m[6] * dy + m[10] * dz;
  const bvh = meshBvhFor(picker, 0);
  const facing = culling === 'none' ? 0 : source.cullFacing(mesh);
  // Read right after the query: a pick re-entered from `accept` has already returned.
  singleHit ??= makeTriangleHit();
  const hit = singleHit;
  if (!raycastTriangleBvhFirst(bvh, lox, loy, loz, ldx, ldy, ldz, tMin, tMax, hit, facing)) return false;
  out.entry = 0;
  out.t = hit.t;
  out.u = hit.u;
  out.v = hit.v;
  out.faceId = hit.faceId;
  setHitCorners(out, bvh);
  return true;
}

/**
 * Nearest accepted hit of the world ray o + t·d (d unit) with tMin < t < tMax into `out` (faces culled per `culling`); false on a miss.
 * @internal
 */
export function raycastSceneFirst(
  picker: CpuPicker,
  o: readonly number[],
  d: readonly number[],
  tMin: number,
  tMax: number,
  accept: EntryAcceptor,
  out: SceneHit,
  culling: PickCulling = 'as-drawn',
): boolean {
  if (picker.bvh === null && picker.entries.count === 1)
    return raycastSingleEntryFirst(picker, o, d, tMin, tMax, accept, out, culling);
  const q = acquireQuery(picker, o, d, tMin, tMax, accept);
  q.culling = culling;
  q.out = out;
  try {
    search(q);
    return q.found;
  } finally {
    releaseQuery(q);
  }
}

/** @internal Every accepted hit of the world ray with tMin < t < tMax, sorted by t (ties by entry, then face). */
export function raycastSceneAll(
  picker: CpuPicker,
  o: readonly number[],
  d: readonly number[],
  tMin: number,
  tMax: number,
  accept: EntryAcceptor,
  culling: PickCulling = 'as-drawn',
): SceneHit[] {
  const q = acquireQuery(picker, o, d, tMin, tMax, accept);
  q.culling = culling;
  const all: SceneHit[] = [];
  q.all = all;
  try {
    search(q);
  } finally {
    releaseQuery(q);
  }
  return all.sort((a, b) => a.t - b.t || a.entry - b.entry || a.faceId - b.faceId);
}

/** @internal Accepted entries whose world bounds the ray crosses, with no triangle test (the GPU pick's pre-filter). */
export function collectSceneCandidates(
  picker: CpuPicker,
  o: readonly number[],
  d: readonly number[],
  accept: EntryAcceptor,
  out: number[] = [],
): number[] {
  const q = acquireQuery(picker, o, d, 0, Infinity, accept);
  q.candidates = out;
  try {
    search(q);
  } finally {
    releaseQuery(q);
  }
  return out;
}
