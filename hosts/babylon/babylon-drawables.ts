// Each pick walks the Babylon.js scene's meshes into weft pick drawables: what Babylon.js draws for the camera
// (enabled, visible, pickable, on the camera's layers), with its world matrix, culling, thin instances and skin. One
// drawable object per Babylon.js mesh is kept and updated in place; versions bump only when something changed.
import type { Camera } from '@babylonjs/core/Cameras/camera.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import type { InstancedMesh } from '@babylonjs/core/Meshes/instancedMesh.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import type { Scene } from '@babylonjs/core/scene.js';
import type { PickDrawable } from '../../picking/sources/drawable-types.js';
import { type ClipScan, makeClipScan, resetClipScan, scanClipPlanes } from './babylon-clip-planes.js';
import { BabylonPickError } from './babylon-errors.js';
import { type GeometryKeys, type GeometryState, makeGeometryState, syncGeometry } from './babylon-geometry-sync.js';
import type { OwnedBuffers } from '../owned-buffers.js';
import {
  beginPlacesPick,
  checkSnapshot,
  clearPlace,
  listedAt,
  makeWalkPlaces,
  recordAt,
  reservePlaces,
  setListedAt,
  type WalkPlaces,
  writeSnapshot,
} from './babylon-places.js';
import { type MeshRecord, thinStorageOf, updateInstances, updateSkin, writeCulling } from './babylon-mesh-state.js';

/**
 * The picker's view of the scene: records per mesh, geometry per source mesh and per Babylon.js Geometry, and the
 * drawable list it reuses. WeakMaps: a disposed mesh or geometry takes its entry with it, without a sweep per pick.
 * @internal
 */
export interface SceneWalk {
  records: WeakMap<AbstractMesh, MeshRecord>;
  geometries: WeakMap<Mesh, GeometryState>;
  geometryKeys: GeometryKeys;
  list: PickDrawable<AbstractMesh>[];
  /** What the last walk saw at each place of `scene.meshes` (a steady scene keeps its order). */
  places: WalkPlaces;
  /**
   * Per place of `list` (its first `list.length` entries): 1 when the drawable there is the one the last complete walk
   * listed there and nothing it describes changed since (geometry and buffers, world matrix, thin instances, skin,
   * culling; a listed drawable is drawn and pickable), else 0. Reused; longer than the list.
   */
  steady: Uint8Array;
  /** How many places of the last walk's list are 1 in `steady`. */
  steadyCount: number;
  /** Whether a listed mesh's material sets a clip plane (the scene's own planes are read apart). */
  clips: ClipScan;
  /** Whether the last walk ran to its end (set false when what it listed was not synced). */
  complete: boolean;
  /** Set by the full path of one mesh: whether its drawable is the last walk's there and unchanged. */
  unchanged: boolean;
  pick: number;
}

/** @internal */
export function makeSceneWalk(): SceneWalk {
  return {
    records: new WeakMap(),
    geometries: new WeakMap(),
    geometryKeys: new WeakMap(),
    list: [],
    places: makeWalkPlaces(),
    steady: new Uint8Array(0),
    steadyCount: 0,
    clips: makeClipScan(),
    complete: false,
    unchanged: false,
    pick: 0,
  };
}

/** Mesh classes that do not draw triangles from their vertex buffers. */
const refusedClasses: readonly string[] = [
  'LinesMesh',
  'GreasedLineMesh',
  'GreasedLineRibbonMesh',
  'GaussianSplattingMesh',
];

/**
 * Whether Babylon.js draws `mesh` for a camera of `layerMask` and picks may see it (the scene.pick predicate, plus
 * layers). Cheapest tests first: most meshes of a large scene pass them all.
 */
function isDrawn(mesh: AbstractMesh, layerMask: number): boolean {
  return (
    mesh.isPickable &&
    mesh.isVisible &&
    (mesh.layerMask & layerMask) !== 0 &&
    mesh.visibility > 0 &&
    mesh.isEnabled() &&
    mesh.getTotalVertices() > 0
  );
}

/** The record of a mesh the walk has not met at this place before. */
function recordOf(walk: SceneWalk, mesh: AbstractMesh): MeshRecord {
  const known = walk.records.get(mesh);
  if (known) return known;
  const className = mesh.getClassName();
  const source = className === 'InstancedMesh' ? (mesh as InstancedMesh).sourceMesh : (mesh as Mesh);
  let geometry = walk.geometries.get(source);
  if (!geometry) {
    geometry = makeGeometryState();
    walk.geometries.set(source, geometry);
  }
  const record: MeshRecord = {
    // Every key the walk writes is there from the start (one object shape; a key added later would change it).
    drawable: {
      object: mesh,
      name: mesh.name,
      vertexBuffers: geometry.vertexBuffers,
      index: null,
      geometryVersion: -1,
      worldMatrix: [],
      worldMatrixVersion: -1,
      instances: null,
      skin: null,
      doubleSided: false,
      frontFace: 'ccw',
    },
    source,
    geometry,
    refusedClass: refusedClasses.includes(className) ? className : null,
    instanceCopy: null,
    skinCopy: null,
    thin: thinStorageOf(mesh),
  };
  walk.records.set(mesh, record);
  return record;
}

/**
 * The full path of one drawn mesh at place `at`: everything checked and brought up to date, and the place's snapshot
 * made again. Null when the mesh draws nothing (no geometry or sub-meshes). `walk.unchanged` says whether the drawable
 * is the one listed from this place last time and describes what it did then.
 */
function walkMesh(
  api: string,
  walk: SceneWalk,
  at: number,
  mesh: AbstractMesh,
  camera: Camera,
  owned: OwnedBuffers,
  pick: number,
): PickDrawable<AbstractMesh> | null {
  const places = walk.places;
  const kept = recordAt<MeshRecord>(places, at, mesh);
  const record = kept ?? recordOf(walk, mesh);
  if (record.refusedClass)
    throw new BabylonPickError(
      api,
      'unsupported',
      `mesh "${mesh.name}" is a ${record.refusedClass}; only triangle meshes (Mesh, InstancedMesh) can be picked: make it isPickable false or leave it out with the predicate`,
    );
  const source = record.source;
  const geometry = record.geometry;
  if (!syncGeometry(api, source, geometry, walk.geometryKeys, owned, pick)) return null;
  const drawable = record.drawable;
  // What the drawable described before this walk: compared after it, for the steady places the seam may skip.
  const geometryVersion = drawable.geometryVersion;
  const worldMatrix = drawable.worldMatrix;
  const worldMatrixVersion = drawable.worldMatrixVersion;
  const instances = drawable.instances;
  const instancesVersion = instances?.version;
  const instancesBuffer = instances?.buffer;
  const skin = drawable.skin;
  const skinVersion = skin?.version;
  const doubleSided = drawable.doubleSided;
  const frontFace = drawable.frontFace;
  if (drawable.geometryVersion !== geometry.version) {
    drawable.vertexBuffers = geometry.vertexBuffers;
    drawable.index = geometry.index;
    drawable.geometryVersion = geometry.version;
  }
  // Within one render id Babylon.js returns its cached world matrix even after the mesh (or a parent) moved; the
  // next frame recomputes it. Picks made before that frame recompute what is out of date, as that frame will.
  const world = mesh.computeWorldMatrix(!mesh.isSynchronized(), camera);
  const m = world.m;
  if (drawable.worldMatrix !== m) drawable.worldMatrix = m;
  // Babylon.js gives a matrix a new updateFlag on every write: the sync skips the compare while it holds.
  if (drawable.worldMatrixVersion !== world.updateFlag) drawable.worldMatrixVersion = world.updateFlag;
  writeCulling(api, mesh, source, drawable);
  if (mesh === source) updateInstances(api, record, source);
  updateSkin(record, mesh, source);
  const now = drawable.instances;
  walk.unchanged =
    kept !== undefined &&
    geometryVersion === drawable.geometryVersion &&
    worldMatrix === drawable.worldMatrix &&
    worldMatrixVersion === drawable.worldMatrixVersion &&
    instances === now &&
    instancesVersion === now?.version &&
    instancesBuffer === now?.buffer &&
    skin === drawable.skin &&
    skinVersion === drawable.skin?.version &&
    doubleSided === drawable.doubleSided &&
    frontFace === drawable.frontFace;
  writeSnapshot(places, at, mesh, record, drawable, geometry, mesh === source, pick);
  return drawable;
}

/**
 * The drawables of what Babylon.js draws for `camera` now (the list is the walk's own array, reused by the next walk),
 * and `walk.steady` for them.
 * @internal
 */
export function walkBabylonScene(
  api: string,
  walk: SceneWalk,
  scene: Scene,
  camera: Camera,
  owned: OwnedBuffers,
  include: ((mesh: AbstractMesh) => boolean) | null,
): PickDrawable<AbstractMesh>[] {
  const pick = ++walk.pick;
  // Steady places are relative to the last walk that was handed on whole: after a failed one, none is.
  const trusted = walk.complete;
  walk.complete = false;
  if (scene.forcePointsCloud || scene.forceWireframe)
    throw new BabylonPickError(
      api,
      'unsupported',
      `scene.${scene.forcePointsCloud ? 'forcePointsCloud' : 'forceWireframe'} is on: Babylon.js draws every mesh as points or lines; only triangles can be picked`,
    );
  const list = walk.list;
  const places = walk.places;
  const layerMask = camera.layerMask;
  const meshes = scene.meshes;
  const total = meshes.length;
  reservePlaces(places, total);
  beginPlacesPick(places, scene);
  if (walk.steady.length < places.capacity) walk.steady = new Uint8Array(places.capacity);
  const steady = walk.steady;
  // Written by index, its length set once at the end: emptying and refilling it would reallocate it every pick.
  let count = 0;
  let steadyCount = 0;
  const clips = walk.clips;
  resetClipScan(clips);
  for (let i = 0; i < total; i++) {
    const mesh = meshes[i];
    if (!isDrawn(mesh, layerMask) || (include && !include(mesh))) {
      // What was met here may be a disposed mesh's: let it go.
      clearPlace(places, i);
      continue;
    }
    // A steady scene lists its meshes in the same order each pick: a plain mesh whose snapshot at this place holds
    // is checked through the places' arrays alone.
    let drawable = checkSnapshot(places, i, mesh as Mesh, camera, pick);
    let unchanged: boolean;
    if (drawable) unchanged = !places.worldChanged;
    else {
      drawable = walkMesh(api, walk, i, mesh, camera, owned, pick);
      if (!drawable) {
        clearPlace(places, i);
        continue;
      }
      unchanged = walk.unchanged;
    }
    const holds = trusted && unchanged && listedAt(places, i) === count;
    steady[count] = holds ? 1 : 0;
    if (holds) steadyCount++;
    scanClipPlanes(clips, mesh);
    setListedAt(places, i, count);
    list[count++] = drawable;
  }
  list.length = count;
  walk.steadyCount = steadyCount;
  // The scan's answer stays; the material it compared with is not kept past the walk.
  clips.material = undefined;
  // Let go of places past the scene's end (a shorter scene) so disposed meshes are not kept alive.
  for (let i = total; i < places.count; i++) clearPlace(places, i);
  places.count = total;
  walk.complete = true;
  return list;
}
