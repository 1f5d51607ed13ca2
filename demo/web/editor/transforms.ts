// World transforms of selection items: read, write (thin instances through their mesh's world), pivot, snapshots.
import { mat4, vec3 } from 'wgpu-matrix';
import {
  type Aabb,
  getMeshWorldBounds,
  getThinInstanceWorldBounds,
  type Mesh,
  setMeshWorldMatrix,
  setThinInstances,
} from '../../../engine/index.js';
import type { Selection, SelectionItem } from './selection-items.js';

const payloadLanes = [3, 7, 11, 15];

/** The item's local → world matrix (mesh world × instance matrix for a thin instance, payload lanes read as 0, 0, 0, 1). */
export function readItemWorld(item: SelectionItem, out: Float32Array = mat4.create()): Float32Array {
  const { mesh, instance } = item;
  if (instance < 0 || !mesh.thinInstances) return mat4.copy(mesh.worldMatrix, out);
  const local = out === mesh.worldMatrix ? mat4.create() : out;
  local.set(mesh.thinInstances.subarray(instance * 16, instance * 16 + 16));
  for (const lane of payloadLanes) local[lane] = lane === 15 ? 1 : 0;
  return mat4.multiply(mesh.worldMatrix, local, out);
}

/** Sets the item's world matrix: a mesh's own, or the instance matrix that gives it (its payload lanes kept). */
export function writeItemWorld(item: SelectionItem, world: Float32Array, scratch: Float32Array = mat4.create()): void {
  const { mesh, instance } = item;
  if (instance < 0 || !mesh.thinInstances) {
    setMeshWorldMatrix(mesh, world);
    return;
  }
  mat4.multiply(mat4.inverse(mesh.worldMatrix, scratch), world, scratch);
  const base = instance * 16;
  const next = mesh.thinInstances.slice();
  for (let i = 0; i < 16; i++) if (!payloadLanes.includes(i)) next[base + i] = scratch[i];
  // Through the setter, so the pickers see the instance moved (same count: the renderer re-uploads, no reallocation).
  setThinInstances(mesh, next);
}

/** World position of the item's local origin (`matrix` is scratch space). */
export function itemOrigin(
  item: SelectionItem,
  out: Float32Array = vec3.create(),
  matrix: Float32Array = mat4.create(),
): Float32Array {
  const world = readItemWorld(item, matrix);
  return vec3.set(world[12], world[13], world[14], out);
}

/** World bounds of the item. */
export function itemWorldBounds(item: SelectionItem): Aabb {
  return item.instance >= 0 ? getThinInstanceWorldBounds(item.mesh, item.instance) : getMeshWorldBounds(item.mesh);
}

/** Scratch space for per-frame callers (no allocation per call). */
export interface TransformScratch {
  matrix: Float32Array;
  origin: Float32Array;
}

/** Mean of the selected items' origins (the gizmo's pivot), or null when nothing is selected. */
export function selectionPivot(
  selection: Selection,
  out: Float32Array = vec3.create(),
  scratch: TransformScratch = { matrix: mat4.create(), origin: vec3.create() },
): Float32Array | null {
  if (selection.items.size === 0) return null;
  vec3.zero(out);
  for (const item of selection.items.values()) vec3.add(out, itemOrigin(item, scratch.origin, scratch.matrix), out);
  return vec3.scale(out, 1 / selection.items.size, out);
}

/** Copies of every mesh's world matrix and thin instances. */
export interface TransformSnapshot {
  worlds: Map<Mesh, Float32Array>;
  instances: Map<Mesh, Float32Array>;
}

/** Remembers the transforms of `meshes`. */
export function snapshotTransforms(meshes: readonly Mesh[]): TransformSnapshot {
  const snapshot: TransformSnapshot = { worlds: new Map(), instances: new Map() };
  for (const mesh of meshes) {
    snapshot.worlds.set(mesh, mat4.clone(mesh.worldMatrix));
    if (mesh.thinInstances) snapshot.instances.set(mesh, new Float32Array(mesh.thinInstances));
  }
  return snapshot;
}

/** Puts the remembered transforms back. */
export function restoreTransforms(snapshot: TransformSnapshot): void {
  for (const [mesh, world] of snapshot.worlds) setMeshWorldMatrix(mesh, world);
  for (const [mesh, instances] of snapshot.instances) setThinInstances(mesh, instances);
}
