// What the walk saw at each place of `scene.meshes` last time, kept in flat arrays (a stride of references and one of
// numbers per place) so a steady mesh is checked by reading those arrays in order and the few Babylon.js fields no
// pick can skip, without touching weft's record, drawable or geometry state objects (at 10 000 meshes each of those
// is a cache miss of its own). Only a plain Mesh as simple as most are — one sub-mesh, no skeleton, morph targets,
// thin instances or instanced vertex buffers — gets a snapshot; every other mesh, and any check that fails, takes the
// walk's full path, which makes the snapshot again.
import type { Camera } from '@babylonjs/core/Cameras/camera.js';
import type { Material } from '@babylonjs/core/Materials/material.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { SubMesh } from '@babylonjs/core/Meshes/subMesh.pure.js';
import type { Scene } from '@babylonjs/core/scene.js';
import type { PickDrawable } from '../../picking/sources/drawable-types.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import { checkBuffersKey, type GeometryBuffersKey, type GeometryState } from './babylon-geometry-sync.js';

/** References kept per place (`refStride` of them): their offsets. */
const refMesh = 0;
const refDrawable = 1;
const refWorld = 2;
const refGeometry = 3;
const refSubMeshes = 4;
const refFirst = 5;
const refKey = 6;
const refThin = 7;
const refMaterial = 8;
const refMaterialKey = 9;
const refRecord = 10;
const refStride = 11;
/** Numbers kept per place (`numberStride` of them): their offsets. */
const numWorldFlag = 0;
const numKeyVersion = 1;
const numIndexStart = 2;
const numIndexCount = 3;
const numVerticesStart = 4;
const numVerticesCount = 5;
const numMaterialVersion = 6;
/** The mesh's sideOrientation where its material has none, else −1 (not read). */
const numSide = 7;
const numUnIndexed = 8;
/** Where in the drawable list the place's drawable was in the last walk, −1 when not listed. */
const numListed = 9;
const numberStride = 10;

/**
 * @internal What one material's culling was made from, compared once per pick however many meshes draw with it;
 * `version` bumps when any of it changed.
 */
export interface MaterialKey {
  checked: number;
  version: number;
  fillMode: number;
  backFaceCulling: boolean;
  cullBackFaces: boolean;
  sideOrientation: number | null;
}

/** @internal The walk's memory per place of `scene.meshes` (see the file header). */
export interface WalkPlaces {
  capacity: number;
  /** Places written by the last walk (`scene.meshes.length` then). */
  count: number;
  refs: unknown[];
  numbers: Float64Array;
  /** 1 where the place holds a snapshot the fast check may trust. */
  snapshot: Uint8Array;
  materialKeys: WeakMap<Material, MaterialKey>;
  /** The key of a mesh drawn without a material (Babylon.js culls it as a new material: back faces, mesh's side). */
  noMaterialKey: MaterialKey;
  /** Set by `checkSnapshot`: whether the world matrix it brought up to date had changed. */
  worldChanged: boolean;
  /** This pick's engine, render pass id and default material (`beginPlacesPick`). */
  engine: unknown;
  renderPassId: number;
  defaultMaterial: Material | null;
}

/** @internal */
export function makeWalkPlaces(): WalkPlaces {
  return {
    capacity: 0,
    count: 0,
    refs: [],
    numbers: new Float64Array(0),
    snapshot: new Uint8Array(0),
    materialKeys: new WeakMap(),
    noMaterialKey: {
      checked: 0,
      version: 0,
      fillMode: 0,
      backFaceCulling: true,
      cullBackFaces: true,
      sideOrientation: null,
    },
    worldChanged: false,
    engine: null,
    renderPassId: 0,
    defaultMaterial: null,
  };
}

/** @internal Makes room for `count` places (typed arrays grow by doubling, copied). */
export function reservePlaces(places: WalkPlaces, count: number): void {
  if (count <= places.capacity) return;
  const capacity = Math.max(64, places.capacity * 2, count);
  const numbers = new Float64Array(capacity * numberStride);
  numbers.set(places.numbers);
  const snapshot = new Uint8Array(capacity);
  snapshot.set(places.snapshot);
  places.numbers = numbers;
  places.snapshot = snapshot;
  places.refs.length = capacity * refStride;
  places.refs.fill(undefined, places.capacity * refStride);
  places.capacity = capacity;
}

/** @internal Lets go of what a place holds (a mesh not drawn there now, or past the scene's end). */
export function clearPlace(places: WalkPlaces, at: number): void {
  places.snapshot[at] = 0;
  places.numbers[at * numberStride + numListed] = -1;
  const refs = places.refs;
  const base = at * refStride;
  if (refs[base + refMesh] === undefined && refs[base + refDrawable] === undefined) return;
  for (let k = 0; k < refStride; k++) refs[base + k] = undefined;
}

/** @internal The record (the walk's own type) kept at place `at` by the last walk, if it holds the same mesh. */
export function recordAt<R>(places: WalkPlaces, at: number, mesh: AbstractMesh): R | undefined {
  const base = at * refStride;
  return places.refs[base + refMesh] === mesh ? (places.refs[base + refRecord] as R) : undefined;
}

/** @internal Where the place's drawable was listed by the last walk (−1: not listed). */
export function listedAt(places: WalkPlaces, at: number): number {
  return places.numbers[at * numberStride + numListed];
}

/** @internal Records where the place's drawable is listed by this walk. */
export function setListedAt(places: WalkPlaces, at: number, listed: number): void {
  places.numbers[at * numberStride + numListed] = listed;
}

function refreshMaterialKey(key: MaterialKey, material: Material, pick: number): void {
  key.checked = pick;
  const sideOrientation = material.sideOrientation ?? null;
  if (
    key.fillMode === material.fillMode &&
    key.backFaceCulling === material.backFaceCulling &&
    key.cullBackFaces === material.cullBackFaces &&
    key.sideOrientation === sideOrientation
  )
    return;
  key.fillMode = material.fillMode;
  key.backFaceCulling = material.backFaceCulling;
  key.cullBackFaces = material.cullBackFaces;
  key.sideOrientation = sideOrientation;
  key.version++;
}

function materialKeyOf(places: WalkPlaces, material: Material | null, pick: number): MaterialKey {
  if (!material) return places.noMaterialKey;
  let key = places.materialKeys.get(material);
  if (!key) {
    key = { checked: 0, version: 0, fillMode: -1, backFaceCulling: false, cullBackFaces: false, sideOrientation: null };
    places.materialKeys.set(material, key);
  }
  if (key.checked !== pick) refreshMaterialKey(key, material, pick);
  return key;
}

/** What SubMesh.getMaterial reads of the sub-mesh besides the mesh (its constructor sets both, nothing else does). */
interface SubMeshInternals {
  _renderingMesh: AbstractMesh;
  _engine: unknown;
}

const standardGetMaterial = SubMesh.prototype.getMaterial;

/** @internal Reads what this pick's material lookups share: the engine's render pass, the scene's default material. */
export function beginPlacesPick(places: WalkPlaces, scene: Scene): void {
  const engine = scene.getEngine();
  places.engine = engine;
  places.renderPassId = engine.currentRenderPassId;
  // As SubMesh.getMaterial(true) has it: the default material only once the scene has one.
  places.defaultMaterial = (scene as unknown as { _hasDefaultMaterial: boolean })._hasDefaultMaterial
    ? scene.defaultMaterial
    : null;
}

/** The kept thin-instance storage of a mesh (Babylon.js 9 makes one per Mesh). */
interface ThinCount {
  instancesCount: number;
}

/**
 * @internal Writes the snapshot of place `at` after the full path brought `drawable` (of `mesh`, a plain Mesh drawn
 * from `state` under `key`) up to date; a mesh the fast check cannot follow gets none.
 */
export function writeSnapshot(
  places: WalkPlaces,
  at: number,
  mesh: AbstractMesh,
  record: unknown,
  drawable: PickDrawable<AbstractMesh>,
  state: GeometryState,
  eligible: boolean,
  pick: number,
): void {
  const refs = places.refs;
  const base = at * refStride;
  refs[base + refMesh] = mesh;
  refs[base + refRecord] = record;
  refs[base + refDrawable] = drawable;
  if (!eligible) {
    places.snapshot[at] = 0;
    return;
  }
  const subMeshes = (mesh as Mesh).subMeshes;
  const thin = (mesh as unknown as { _thinInstanceDataStorage?: ThinCount })._thinInstanceDataStorage;
  if (
    drawable.instances ||
    drawable.skin ||
    mesh.skeleton ||
    mesh.morphTargetManager ||
    state.ownBuffers ||
    subMeshes.length !== 1 ||
    (thin !== undefined && thin.instancesCount !== 0) ||
    (mesh as unknown as { _userInstancedBuffersStorage?: unknown })._userInstancedBuffersStorage
  ) {
    places.snapshot[at] = 0;
    return;
  }
  const first = subMeshes[0];
  const material = first.getMaterial(true);
  // The fast check reads the material as getMaterial does for one that is no MultiMaterial.
  const root = mesh.getMaterialForRenderPass(places.renderPassId) ?? mesh.material;
  const internals = first as unknown as SubMeshInternals;
  if (
    first.getMaterial !== standardGetMaterial ||
    internals._renderingMesh !== mesh ||
    internals._engine !== places.engine ||
    (root && (root as unknown as { getSubMaterial?: unknown }).getSubMaterial !== undefined)
  ) {
    places.snapshot[at] = 0;
    return;
  }
  const materialKey = materialKeyOf(places, material, pick);
  const numbers = places.numbers;
  const n = at * numberStride;
  refs[base + refWorld] = drawable.worldMatrix;
  numbers[n + numWorldFlag] = drawable.worldMatrixVersion ?? -1;
  refs[base + refGeometry] = state.geometry;
  refs[base + refSubMeshes] = subMeshes;
  refs[base + refFirst] = first;
  refs[base + refKey] = state.buffers;
  refs[base + refThin] = thin;
  refs[base + refMaterial] = material;
  refs[base + refMaterialKey] = materialKey;
  numbers[n + numKeyVersion] = state.buffersVersion;
  numbers[n + numIndexStart] = first.indexStart;
  numbers[n + numIndexCount] = first.indexCount;
  numbers[n + numVerticesStart] = first.verticesStart;
  numbers[n + numVerticesCount] = first.verticesCount;
  numbers[n + numMaterialVersion] = materialKey.version;
  numbers[n + numSide] = materialKey.sideOrientation === null ? (mesh as Mesh).sideOrientation : -1;
  numbers[n + numUnIndexed] = (mesh as Mesh).isUnIndexed ? 1 : 0;
  places.snapshot[at] = 1;
}

/**
 * @internal The fast check of a drawn mesh at place `at`: when its snapshot holds (the same plain Mesh, geometry,
 * buffers, sub-mesh span, material culling; no thin instances, skin or morphs), brings the drawable's world matrix up
 * to date (`places.worldChanged` says whether it changed) and returns the drawable. Null when the full path must run.
 */
export function checkSnapshot(
  places: WalkPlaces,
  at: number,
  mesh: Mesh,
  camera: Camera,
  pick: number,
): PickDrawable<AbstractMesh> | null {
  if (places.snapshot[at] !== 1) return null;
  const refs = places.refs;
  const base = at * refStride;
  if (refs[base + refMesh] !== mesh) return null;
  const numbers = places.numbers;
  const n = at * numberStride;
  // Kept references first: their loads run beside the mesh's own instead of after them.
  const first = refs[base + refFirst] as SubMesh;
  const subMeshes = refs[base + refSubMeshes] as SubMesh[];
  const thin = refs[base + refThin] as ThinCount | undefined;
  const key = refs[base + refKey] as GeometryBuffersKey;
  const geometry = mesh.geometry;
  if (
    geometry !== refs[base + refGeometry] ||
    mesh.subMeshes !== subMeshes ||
    (thin !== undefined && thin.instancesCount !== 0) ||
    (mesh as unknown as { _thinInstanceDataStorage?: ThinCount })._thinInstanceDataStorage !== thin ||
    subMeshes.length !== 1 ||
    subMeshes[0] !== first ||
    first.indexStart !== numbers[n + numIndexStart] ||
    first.indexCount !== numbers[n + numIndexCount] ||
    first.verticesStart !== numbers[n + numVerticesStart] ||
    first.verticesCount !== numbers[n + numVerticesCount] ||
    (mesh.isUnIndexed ? 1 : 0) !== numbers[n + numUnIndexed] ||
    mesh.skeleton ||
    mesh.morphTargetManager ||
    (mesh as unknown as { _userInstancedBuffersStorage?: unknown })._userInstancedBuffersStorage ||
    // Set at all (null by default): the full path reads it (it draws the mesh other than its material says).
    (mesh.overrideRenderingFillMode !== null && mesh.overrideRenderingFillMode !== undefined)
  )
    return null;
  if (key.checked !== pick) checkBuffersKey(key, geometry!, geometry!, pick);
  if (key.version !== numbers[n + numKeyVersion]) return null;
  // SubMesh.getMaterial(true) for a mesh of one material that is no MultiMaterial, its sub-mesh drawing this mesh on
  // this engine (the snapshot's conditions; a SubMesh sets both once): the render pass's material, else the mesh's,
  // else the scene's default one, read here without the call (at 10 000 meshes the call cost about a fifth of the walk).
  if (first.getMaterial !== standardGetMaterial) return null;
  const material = mesh.getMaterialForRenderPass(places.renderPassId) ?? mesh.material ?? places.defaultMaterial;
  if (material !== refs[base + refMaterial]) return null;
  const materialKey = refs[base + refMaterialKey] as MaterialKey;
  if (materialKey !== places.noMaterialKey && materialKey.checked !== pick)
    refreshMaterialKey(materialKey, material!, pick);
  if (materialKey.version !== numbers[n + numMaterialVersion]) return null;
  if (materialKey.sideOrientation === null && mesh.sideOrientation !== numbers[n + numSide]) return null;
  const drawable = refs[base + refDrawable] as PickDrawable<AbstractMesh>;
  // Within one render id Babylon.js returns its cached world matrix even after the mesh (or a parent) moved; the
  // next frame recomputes it. Picks made before that frame recompute what is out of date, as that frame will.
  const world = mesh.computeWorldMatrix(!mesh.isSynchronized(), camera);
  const m = world.m;
  const flag = world.updateFlag;
  const worldChanged = m !== refs[base + refWorld] || flag !== numbers[n + numWorldFlag];
  places.worldChanged = worldChanged;
  if (worldChanged) {
    drawable.worldMatrix = m;
    drawable.worldMatrixVersion = flag;
    refs[base + refWorld] = m;
    numbers[n + numWorldFlag] = flag;
  }
  return drawable;
}
