import { mat4d } from 'wgpu-matrix';
import type { PickSubject } from '../sources/pick-source.js';
import { weftPickSource as source } from '../sources/weft-pick-source.js';
import { getPickLocalBounds } from './bvh/mesh-bvh-cache.js';
import type { TriangleBvh } from './bvh/triangle-bvh.js';

/**
 * What the scene-level search iterates: one entry per mesh without thin instances, one per thin
 * instance otherwise (a thin-instanced mesh draws only its instances). Transforms are float64.
 * @internal
 */
export interface SceneEntries {
  count: number;
  meshes: PickSubject[];
  /** Thin instance index, -1 for a plain mesh. */
  instances: Int32Array;
  /** Index of the entry's mesh in the source list. */
  meshIndex: Int32Array;
  /** Per mesh of the source list: its first entry and how many it has. */
  meshFirstEntry: Int32Array;
  meshEntryCount: Int32Array;
  /** Local → world (mesh world × instance), 16 per entry, column-major. */
  world: Float64Array;
  /** World → local, 16 per entry. */
  inverse: Float64Array;
  /** World bounds, 6 float32 per entry (interleaved min/max), rounded outward; empty when invalid. */
  bounds: Float32Array;
  /** 0 when the transform is singular or not finite (such an entry draws nothing and is never hit). */
  valid: Uint8Array;
  /**
   * Per source mesh: its triangle BVH as last looked up, valid while `meshBvhCacheEpoch()` equals `bvhEpoch` (every
   * build, swap or drop of a cached BVH bumps it), so the narrow phase skips the cache's WeakMap per ray.
   */
  bvhs: Array<TriangleBvh | null>;
  bvhEpoch: number;
}

/** @internal Allocates entries for `meshes` (in order) and computes every transform and bound. */
export function makeSceneEntries(meshes: readonly PickSubject[]): SceneEntries {
  const meshFirstEntry = new Int32Array(meshes.length);
  const meshEntryCount = new Int32Array(meshes.length);
  let count = 0;
  meshes.forEach((mesh, m) => {
    meshFirstEntry[m] = count;
    meshEntryCount[m] = mesh.thinInstances ? mesh.thinInstanceCount : 1;
    count += meshEntryCount[m];
  });
  const entries: SceneEntries = {
    count,
    meshes: new Array<PickSubject>(count),
    instances: new Int32Array(count),
    meshIndex: new Int32Array(count),
    meshFirstEntry,
    meshEntryCount,
    world: new Float64Array(count * 16),
    inverse: new Float64Array(count * 16),
    bounds: new Float32Array(count * 6),
    valid: new Uint8Array(count),
    bvhs: new Array<TriangleBvh | null>(meshes.length).fill(null),
    bvhEpoch: -1,
  };
  meshes.forEach((mesh, m) => {
    for (let i = 0; i < meshEntryCount[m]; i++) {
      entries.meshes[meshFirstEntry[m] + i] = mesh;
      entries.instances[meshFirstEntry[m] + i] = mesh.thinInstances ? i : -1;
      entries.meshIndex[meshFirstEntry[m] + i] = m;
    }
    updateMeshEntries(entries, m);
  });
  return entries;
}

const outward = (v: number, direction: -1 | 1): number => Math.fround(v + direction * (Math.abs(v) * 1e-6 + 1e-12));

interface EntryScratch {
  local: Float64Array;
  instance: Float32Array;
  world: Float64Array;
  inverse: Float64Array;
}

let scratch: EntryScratch | null = null;

/** @internal Recomputes transforms and bounds of every entry of source mesh `m` (after it moved or deformed). */
export function updateMeshEntries(entries: SceneEntries, m: number): void {
  scratch ??= {
    local: new Float64Array(6),
    instance: new Float32Array(16),
    world: new Float64Array(16),
    inverse: new Float64Array(16),
  };
  const { local, instance, world, inverse } = scratch;
  const first = entries.meshFirstEntry[m];
  const mesh = entries.meshes[first];
  getPickLocalBounds(mesh, local);
  const bounds = entries.bounds;
  for (let e = first; e < first + entries.meshEntryCount[m]; e++) {
    const i = entries.instances[e];
    if (i >= 0) mat4d.multiply(mesh.worldMatrix, source.instanceMatrix(mesh, i, instance), world);
    else mat4d.copy(mesh.worldMatrix, world);
    mat4d.inverse(world, inverse); // a singular matrix divides by a zero determinant: the inverse is not finite
    entries.world.set(world, e * 16);
    entries.inverse.set(inverse, e * 16);
    let valid = local[0] <= local[1];
    for (let k = 0; k < 16; k++) valid &&= Number.isFinite(inverse[k]);
    entries.valid[e] = valid ? 1 : 0;
    const b = e * 6;
    for (let a = 0; a < 3; a++) {
      bounds[b + 2 * a] = Infinity;
      bounds[b + 2 * a + 1] = -Infinity;
    }
    if (!valid) continue;
    for (let c = 0; c < 8; c++) {
      const x = local[c & 1 ? 1 : 0];
      const y = local[c & 2 ? 3 : 2];
      const z = local[c & 4 ? 5 : 4];
      for (let a = 0; a < 3; a++) {
        const v = world[a] * x + world[4 + a] * y + world[8 + a] * z + world[12 + a];
        if (v < bounds[b + 2 * a]) bounds[b + 2 * a] = v;
        if (v > bounds[b + 2 * a + 1]) bounds[b + 2 * a + 1] = v;
      }
    }
    for (let a = 0; a < 3; a++) {
      bounds[b + 2 * a] = outward(bounds[b + 2 * a], -1);
      bounds[b + 2 * a + 1] = outward(bounds[b + 2 * a + 1], 1);
    }
  }
}
