// One mesh of the adapter's walk listed as a drawable: a steady mesh (at its place in the last walk, nothing it
// describes changed) is checked against per-place arrays in walk order; any other finds or makes its record and
// brings the drawable to what the mesh is now.
import { BackSide, DoubleSide, type Mesh, type Side } from 'three';
import { describeValue } from '../../core/errors.js';
import { PickError } from '../../picking/pick-errors.js';
import { clipPlanesOf } from './three-clipping.js';
import type { ThreeDrawables } from './three-drawables.js';
import { type GeometryState, readGeometryState } from './three-geometry.js';
import { checkMaterial, checkMaterialList, type DrawableRecord, makeRecord } from './three-mesh-record.js';
import { copyWorld, worldVersionAt } from './three-world.js';

/**
 * @internal Per place of the last successful walk (an index into its list), the record there and what its mesh was
 * when last written into the drawable. A mesh found at its place with the same geometry (same stamp), side and
 * visibility — the steady case — costs reads of these arrays in walk order, not a visit to its record.
 */
export interface WalkPlaces {
  records: DrawableRecord[];
  /**
   * Per place `at`, side by side (entries 2at and 2at + 1, one stream for the steady check): the mesh, and the
   * geometry's state (its `geometry` tells the geometry) the drawable was made from.
   */
  meshes: (Mesh | GeometryState)[];
  /**
   * Per place `at`, side by side: at 2at `stamp × 8 + side + 4 × visible` as written into the drawable (the geometry's
   * stamp, then its look), -1 where the record is refreshed every pick (deformed, clipped); at 2at + 1 the world-matrix
   * version written into the drawable (`worldVersionAt` of its object).
   */
  marks: number[];
}

/** @internal Keeps the first `length` places (the places of a walk that listed `length` meshes). */
export function resizePlaces(places: WalkPlaces, length: number): void {
  if (places.records.length <= length) return;
  places.records.length = length;
  places.meshes.length = places.marks.length = 2 * length;
}

/**
 * @internal Lists a shown mesh (place `objectAt` of the object walk) at the next place of the walk's list: through
 * the steady check, else (changed, or clipped from above) the full listing.
 */
export function visitMesh(
  api: string,
  state: ThreeDrawables,
  mesh: Mesh,
  cameraMask: number,
  objectAt: number,
  clippedAbove: boolean,
): void {
  const at = state.count++;
  const version = worldVersionAt(state.world, objectAt);
  if (clippedAbove || !steadyMesh(api, state, mesh, cameraMask, at, objectAt, version))
    listMesh(api, state, mesh, cameraMask, at, objectAt, clippedAbove, version);
}

/**
 * The mesh's look as the places mark it: its material's side (FrontSide 0, BackSide 1, DoubleSide 2), + 4 where a
 * material is visible and the camera sees the mesh's layers. Checks the material (or each of a list) first.
 */
function lookOf(api: string, state: ThreeDrawables, mesh: Mesh, cameraMask: number): number {
  const material = mesh.material;
  let side: Side;
  let visible: boolean;
  if (Array.isArray(material)) ({ side, visible } = checkMaterialList(api, mesh, material));
  else {
    // Nothing changes during a walk: meshes that share the previous mesh's material need no second check.
    if (material !== state.checkedMaterial) {
      checkMaterial(api, mesh, material);
      state.checkedMaterial = material;
    }
    side = material.side;
    visible = material.visible;
  }
  return side + (visible && (mesh.layers.mask & cameraMask) !== 0 ? 4 : 0);
}

/**
 * The steady case of `listMesh`, small enough to be inlined into the walk: `mesh` is at its place of the
 * last walk with the same geometry (same stamp), side and visibility, so its drawable is the one listed there and at
 * most its world matrix changed (copied from the walk's). Returns false, having changed nothing, in any other case.
 */
function steadyMesh(
  api: string,
  state: ThreeDrawables,
  mesh: Mesh,
  cameraMask: number,
  at: number,
  objectAt: number,
  worldVersion: number,
): boolean {
  const places = state.places;
  const meshes = places.meshes;
  if (meshes[2 * at] !== mesh) return false;
  const look = lookOf(api, state, mesh, cameraMask);
  const known = meshes[2 * at + 1] as GeometryState;
  const geometry = mesh.geometry;
  if (known.geometry !== geometry) return false;
  if (known.pass !== state.pass) readGeometryState(state, geometry, known, state.pass);
  const marks = places.marks;
  if (marks[2 * at] !== known.stamp * 8 + look) return false;
  if (marks[2 * at + 1] === worldVersion) {
    state.steady[at] = 1;
    state.steadyCount++;
  } else {
    // The list still holds this place's drawable from the last walk: only its world matrix changed.
    const drawable = state.list[at];
    copyWorld(state.world, objectAt, drawable.worldMatrix as Float64Array);
    drawable.worldMatrixVersion = marks[2 * at + 1] = worldVersion;
    state.steady[at] = 0;
  }
  return true;
}

/**
 * Lists `mesh` at place `at` of this walk (place `objectAt` of the object walk), up to date, where
 * `steadyMesh` found it changed (or it is clipped): its record is found (at its place, else by lookup), made again
 * when its geometry changed (read once per geometry per walk), and its matrix, side, visibility, instances, bones,
 * morph weights and clip planes brought to what they are now. The drawable's world matrix is the walk's copy
 * (copyWorld), never three's array, which may hold a matrix three would overwrite.
 */
function listMesh(
  api: string,
  state: ThreeDrawables,
  mesh: Mesh,
  cameraMask: number,
  at: number,
  objectAt: number,
  clippedAbove: boolean,
  worldVersion: number,
): void {
  const look = lookOf(api, state, mesh, cameraMask);
  const side = look & 3;
  const visible = (look & 4) !== 0;
  const geometry = mesh.geometry;
  const places = state.places;
  const pass = state.pass;
  const meshes = places.meshes;
  const marks = places.marks;
  // Checked off the steady path: a walk that finds a BatchedMesh throws and forgets its places, so none is steady.
  if ((mesh as { isBatchedMesh?: boolean }).isBatchedMesh) refuseBatchedMesh(api, mesh);
  if (state.steady.length <= at) {
    const grown = new Uint8Array(Math.max(64, state.steady.length * 2));
    grown.set(state.steady);
    state.steady = grown;
  }
  const previous = places.records[at];
  let record = previous !== undefined && previous.mesh === mesh ? previous : state.records.get(mesh);
  let known = record !== undefined && record.geometry === geometry ? record.geometryState : undefined;
  if (!known) {
    known = state.geometries.get(geometry);
    if (!known)
      state.geometries.set(geometry, (known = { geometry, pass: 0, stamp: 0, values: [], plain: null, skinned: null }));
  }
  if (known.pass !== pass) readGeometryState(state, geometry, known, pass);
  if (record === undefined || record.geometryState !== known || record.stamp !== known.stamp) {
    const made = makeRecord(api, state, mesh, known);
    if (record) made.drawable.geometryVersion = (record.drawable.geometryVersion ?? 0) + 1;
    record = made;
    state.records.set(mesh, record);
  }
  const drawable = record.drawable;
  copyWorld(state.world, objectAt, drawable.worldMatrix as Float64Array);
  drawable.worldMatrixVersion = worldVersion;
  drawable.doubleSided = side === DoubleSide;
  drawable.frontFace = side === BackSide ? 'cw' : 'ccw';
  drawable.visible = visible;
  if (record.deforms) {
    state.deforming.push(record);
    if (visible && state.deformed === null && (drawable.skin || drawable.morph)) state.deformed = drawable;
  }
  record.clip = clippedAbove ? clipPlanesOf(api, mesh, record.clip) : null;
  if (record.clip) state.clipped = true;
  record.place = at;
  state.list[at] = drawable;
  places.records[at] = record;
  meshes[2 * at] = mesh;
  meshes[2 * at + 1] = known;
  marks[2 * at] = record.deforms || record.clip ? -1 : known.stamp * 8 + look;
  marks[2 * at + 1] = worldVersion;
  state.steady[at] = 0;
}

/** A BatchedMesh is a Mesh too. */
function refuseBatchedMesh(api: string, mesh: Mesh): never {
  throw new PickError(
    api,
    'unsupported',
    `${describeValue(mesh.name || mesh.uuid)} is a BatchedMesh; weft-gpu/three does not pick BatchedMesh yet (use InstancedMesh or separate meshes, or hide it from the pick with layers)`,
  );
}
