import type { Mesh } from '../../../engine/mesh.js';
import { CpuPickError } from '../cpu-pick-error.js';
import { nodeWords } from './bvh-nodes.js';
import { buildTriangleBvh, type TriangleBvh, triangleBvhRootBounds } from './triangle-bvh.js';
import { type RefitTriangleBvhOptions, refitTriangleBvh } from './triangle-bvh-refit.js';

/**
 * What the cache reads of a mesh (any pick source's subject): its name, local positions and bounds, triangles.
 * @internal
 */
export interface BvhSubject {
  readonly name: string;
  readonly positions: Float32Array;
  readonly localBounds: { readonly min: ArrayLike<number>; readonly max: ArrayLike<number> };
  readonly geometry: { readonly indices: Uint16Array | Uint32Array | null; readonly triangleCount: number };
}

let meshBvhs: WeakMap<BvhSubject, TriangleBvh> | null = null;
/** BVHs built by getMeshBvh, bucketed by a hash of the geometry they were built from, for meshes of equal data to share. */
let sharedBvhs: Map<number, Array<WeakRef<TriangleBvh>>> | null = null;
/** How many meshes took each BVH from getMeshBvh (never decremented by a disposed mesh): above 1, a refit copies. */
let users: WeakMap<TriangleBvh, number> | null = null;
/** The meshes that took a shared BVH from getMeshBvh after its builder: a reader for it when the mesh it reads leaves. */
let sharers: WeakMap<TriangleBvh, Array<WeakRef<BvhSubject>>> | null = null;
/** Bumped whenever a mesh gains, swaps or loses its cached BVH (refits show in the BVH's own refitCount). */
let cacheEpoch = 0;

// Created on first use: a module-level `new WeakMap()` would be a side effect at import.
function cache(): WeakMap<BvhSubject, TriangleBvh> {
  meshBvhs ??= new WeakMap();
  return meshBvhs;
}

/**
 * Changes when any mesh's cached BVH was built, replaced or dropped: pickers skip per-mesh cache lookups while it holds.
 * @internal
 */
export function meshBvhCacheEpoch(): number {
  return cacheEpoch;
}

/** A hash of the vertex and index data (bit patterns), to bucket candidate BVHs; equality is checked exactly after. */
function geometryHash(positions: Float32Array, indices: Uint16Array | Uint32Array | null): number {
  const bits = new Uint32Array(positions.buffer, positions.byteOffset, positions.length);
  let h = 0x811c9dc5 ^ positions.length;
  for (let i = 0; i < bits.length; i++) h = Math.imul(h ^ bits[i], 0x01000193);
  if (indices) {
    h = Math.imul(h ^ (indices.length + 1), 0x01000193);
    for (let i = 0; i < indices.length; i++) h = Math.imul(h ^ indices[i], 0x01000193);
  }
  return h >>> 0;
}

/** True when `bvh` reads exactly this geometry's data (so its bounds are exact for it too). */
function holdsGeometry(bvh: TriangleBvh, positions: Float32Array, indices: Uint16Array | Uint32Array | null): boolean {
  const P = bvh.positions;
  const idx = bvh.indices;
  if (P.length !== positions.length || (idx === null) !== (indices === null)) return false;
  if (idx !== null && indices !== null && idx !== indices) {
    if (idx.length !== indices.length) return false;
    for (let i = 0; i < idx.length; i++) if (idx[i] !== indices[i]) return false;
  }
  if (P === positions) return true;
  // Compared as float32 values: -0 and 0 bound the same; a NaN never reaches a built BVH.
  for (let i = 0; i < P.length; i++) if (P[i] !== positions[i]) return false;
  return true;
}

/** A live BVH built for geometry equal to the mesh's, or null; drops collected entries of the bucket. */
function findShared(
  hash: number,
  positions: Float32Array,
  indices: Uint16Array | Uint32Array | null,
): TriangleBvh | null {
  const bucket = sharedBvhs?.get(hash);
  if (!bucket) return null;
  let found: TriangleBvh | null = null;
  for (let i = bucket.length - 1; i >= 0; i--) {
    const bvh = bucket[i].deref();
    if (!bvh) bucket.splice(i, 1);
    else if (!found && holdsGeometry(bvh, positions, indices)) found = bvh;
  }
  if (bucket.length === 0) sharedBvhs!.delete(hash);
  return found;
}

/**
 * The mesh's triangle BVH, built from `mesh.positions` on first use and cached per mesh. Meshes whose positions and
 * indices are equal (e.g. made from the same MeshData) share one BVH; a mesh that is refitted gets its own copy.
 * @internal
 */
export function getMeshBvh(mesh: BvhSubject): TriangleBvh {
  let bvh = cache().get(mesh);
  if (!bvh) {
    const { positions } = mesh;
    const { indices } = mesh.geometry;
    const hash = geometryHash(positions, indices);
    users ??= new WeakMap();
    const found = findShared(hash, positions, indices);
    if (found) {
      bvh = found;
      users.set(bvh, (users.get(bvh) ?? 0) + 1);
      sharers ??= new WeakMap();
      const list = sharers.get(bvh);
      if (list) list.push(new WeakRef(mesh));
      else sharers.set(bvh, [new WeakRef(mesh)]);
    } else {
      bvh = buildTriangleBvh(positions, indices);
      sharedBvhs ??= new Map();
      const bucket = sharedBvhs.get(hash);
      if (bucket) bucket.push(new WeakRef(bvh));
      else sharedBvhs.set(hash, [new WeakRef(bvh)]);
      users.set(bvh, 1);
    }
    cache().set(mesh, bvh);
    cacheEpoch++;
  }
  return bvh;
}

/** A private copy of a possibly shared BVH: own nodes, the (never rewritten) face order shared, reading `mesh`'s arrays. */
function cloneTriangleBvh(bvh: TriangleBvh, mesh: BvhSubject): TriangleBvh {
  const { nodes, compact } = bvh;
  const compactBuffer = compact === null ? null : compact.bounds.buffer.slice(0);
  const buffer = nodes === null ? null : nodes.floats.buffer.slice(0, nodes.nodeCount * nodeWords * 4);
  return {
    nodes:
      nodes === null || buffer === null
        ? null
        : {
            floats: new Float32Array(buffer),
            ints: new Int32Array(buffer),
            nodeCount: nodes.nodeCount,
            maxDepth: nodes.maxDepth,
          },
    // Own nodes and grid (refits rewrite them), the (never rewritten) leaf stream shared.
    compact:
      compact === null || compactBuffer === null
        ? null
        : {
            ...compact,
            bounds: new Uint16Array(compactBuffer),
            links: new Uint32Array(compactBuffer),
            grid: compact.grid.slice(),
            root: compact.root.slice(),
          },
    layout: bvh.layout,
    triangles: bvh.triangles === null ? null : bvh.triangles.slice(),
    leafIndices: bvh.leafIndices === null ? null : bvh.leafIndices.slice(),
    faceIds: bvh.faceIds,
    positions: mesh.positions,
    indices: mesh.geometry.indices,
    triangleCount: bvh.triangleCount,
    refitCount: bvh.refitCount,
  };
}

/**
 * `mesh` stops using the shared `bvh`. The BVH holds no copy of the triangles, so when it reads `mesh`'s positions
 * (which are about to change, or may once the mesh is gone) it switches to another sharer's equal, untouched arrays.
 */
function leaveSharedBvh(bvh: TriangleBvh, mesh: BvhSubject): void {
  if (bvh.positions !== mesh.positions) return;
  const list = sharers?.get(bvh);
  if (!list) return;
  for (let i = list.length - 1; i >= 0; i--) {
    const other = list[i].deref();
    if (!other || cache().get(other) !== bvh) {
      list.splice(i, 1);
      continue;
    }
    if (other === mesh) continue;
    bvh.positions = other.positions;
    bvh.indices = other.geometry.indices;
    return;
  }
}

/** @internal The cached BVH, or null when no CPU pick has reached the mesh yet. */
export function peekMeshBvh(mesh: BvhSubject): TriangleBvh | null {
  return meshBvhs?.get(mesh) ?? null;
}

/** @internal Installs a BVH (e.g. a deserialised one) for the mesh; it must cover the mesh's triangle count. */
export function setMeshBvh(mesh: BvhSubject, bvh: TriangleBvh): void {
  if (bvh.triangleCount !== mesh.geometry.triangleCount) {
    throw new CpuPickError(
      'setMeshBvh',
      'bvh-mismatch',
      `mesh ${JSON.stringify(mesh.name)} has ${mesh.geometry.triangleCount} triangles but the BVH covers ${bvh.triangleCount}`,
    );
  }
  cache().set(mesh, bvh);
  cacheEpoch++;
}

/** @internal Forgets the mesh's BVH (the next pick rebuilds it). */
export function disposeMeshBvh(mesh: BvhSubject): void {
  const bvh = meshBvhs?.get(mesh);
  if (!bvh) return;
  const sharedBy = users?.get(bvh);
  if (sharedBy) users!.set(bvh, sharedBy - 1);
  if (sharedBy && sharedBy > 1) leaveSharedBvh(bvh, mesh);
  meshBvhs!.delete(mesh);
  cacheEpoch++;
}

/**
 * After deforming `mesh.positions` in place (same topology): refits the cached BVH (a shared one is copied first,
 * so meshes of the same data keep theirs), or builds one when none exists (CPU pickers take the mesh's bounds from its BVH, `mesh.localBounds` being stale by then).
 * `movedVertices` (see `refitTriangleBvh`) refits only the leaves over those vertices and their ancestors.
 * @throws {CpuPickError} when a position is not finite or `options` is malformed
 */
export function refitMeshBvh(mesh: Mesh, options: RefitTriangleBvhOptions = {}): void {
  const bvh = peekMeshBvh(mesh);
  if (!bvh) {
    getMeshBvh(mesh);
    return;
  }
  const sharedBy = users?.get(bvh) ?? 0;
  if (sharedBy <= 1) {
    refitTriangleBvh(bvh, mesh.positions, mesh.geometry.indices, options);
    return;
  }
  const own = cloneTriangleBvh(bvh, mesh);
  refitTriangleBvh(own, mesh.positions, mesh.geometry.indices, options); // throws before the cache changes on bad data
  users!.set(bvh, sharedBy - 1);
  leaveSharedBvh(bvh, mesh);
  cache().set(mesh, own);
  cacheEpoch++;
}

/**
 * Local bounds the CPU picker uses (interleaved min/max per axis): the BVH root when built, else `mesh.localBounds`.
 * @internal
 */
export function getPickLocalBounds(mesh: BvhSubject, out: Float64Array): Float64Array {
  const bvh = peekMeshBvh(mesh);
  if (bvh && triangleBvhRootBounds(bvh, out)) return out;
  const { min, max } = mesh.localBounds;
  out[0] = min[0];
  out[1] = max[0];
  out[2] = min[1];
  out[3] = max[1];
  out[4] = min[2];
  out[5] = max[2];
  return out;
}
