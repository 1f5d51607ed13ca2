import type { Mesh } from '../../engine/mesh.js';
import { CpuPickError } from './cpu-pick-error.js';
import { buildTriangleBvh, refitTriangleBvh, type TriangleBvh } from './triangle-bvh.js';

let meshBvhs: WeakMap<Mesh, TriangleBvh> | null = null;
/** Bumped whenever a mesh gains, swaps or loses its cached BVH (refits show in the BVH's own refitCount). */
let cacheEpoch = 0;

// Created on first use: a module-level `new WeakMap()` would be a side effect at import.
function cache(): WeakMap<Mesh, TriangleBvh> {
  meshBvhs ??= new WeakMap();
  return meshBvhs;
}

/** Changes when any mesh's cached BVH was built, replaced or dropped: pickers skip per-mesh cache lookups while it holds. */
export function meshBvhCacheEpoch(): number {
  return cacheEpoch;
}

/** The mesh's triangle BVH, built from `mesh.positions` on first use and cached per mesh. */
export function getMeshBvh(mesh: Mesh): TriangleBvh {
  let bvh = cache().get(mesh);
  if (!bvh) {
    bvh = buildTriangleBvh(mesh.positions, mesh.geometry.indices);
    cache().set(mesh, bvh);
    cacheEpoch++;
  }
  return bvh;
}

/** The cached BVH, or null when no CPU pick has reached the mesh yet. */
export function peekMeshBvh(mesh: Mesh): TriangleBvh | null {
  return meshBvhs?.get(mesh) ?? null;
}

/** Installs a BVH (e.g. a deserialised one) for the mesh; it must cover the mesh's triangle count. */
export function setMeshBvh(mesh: Mesh, bvh: TriangleBvh): void {
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

/** Forgets the mesh's BVH (the next pick rebuilds it). */
export function disposeMeshBvh(mesh: Mesh): void {
  if (meshBvhs?.delete(mesh)) cacheEpoch++;
}

/**
 * After deforming `mesh.positions` in place (same topology): refits the cached BVH, or builds one when
 * none exists (CPU pickers take the mesh's bounds from its BVH, `mesh.localBounds` being stale by then).
 */
export function refitMeshBvh(mesh: Mesh): void {
  const bvh = peekMeshBvh(mesh);
  if (bvh) refitTriangleBvh(bvh, mesh.positions, mesh.geometry.indices);
  else getMeshBvh(mesh);
}

/** Local bounds the CPU picker uses (interleaved min/max per axis): the BVH root when built, else `mesh.localBounds`. */
export function getPickLocalBounds(mesh: Mesh, out: Float64Array): Float64Array {
  const bvh = peekMeshBvh(mesh);
  if (bvh && bvh.nodes.nodeCount > 0) {
    for (let k = 0; k < 6; k++) out[k] = bvh.nodes.floats[k];
    return out;
  }
  const { min, max } = mesh.localBounds;
  out[0] = min[0];
  out[1] = max[0];
  out[2] = min[1];
  out[3] = max[1];
  out[4] = min[2];
  out[5] = max[2];
  return out;
}
