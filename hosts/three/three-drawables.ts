// What a three.js scene draws, as the pick-source seam's drawables: three's own GPU buffers where weft can bind them,
// the matrices, instances, bone matrices and morph weights as they are now, and what three culls and hides.
import type { BufferGeometry, Camera, Material, Mesh, Object3D } from 'three';
import type { WebGPURenderer } from 'three/webgpu';
import type { PickDrawable } from '../../picking/sources/drawable-types.js';
import { makeOwnedBuffers, releaseAllOwned } from '../owned-buffers.js';
import type { GeometrySource, GeometryState } from './three-geometry.js';
import { type DrawableRecord, refreshDeformation } from './three-mesh-record.js';
import { resizePlaces, visitMesh, type WalkPlaces } from './three-mesh-visit.js';
import {
  forceBelow,
  forgetWorldPlaces,
  makeWorldPlaces,
  settleWorld,
  steadyOwnedWorld,
  updateObjectWorld,
  updatesItsOwnWorld,
  type WorldPlaces,
  worldChanged,
} from './three-world.js';

/** @internal The adapter's memory of a three.js scene: one record per mesh, the drawables list it hands the seam. */
export interface ThreeDrawables extends GeometrySource {
  readonly records: Map<Object3D, DrawableRecord>;
  /** The last walk's drawables, and per place in it what a steady mesh is checked against (see WalkPlaces). */
  readonly list: PickDrawable<Object3D>[];
  readonly places: WalkPlaces;
  /** Per object of the walk (hidden ones too), what three's matrix update last left there (three-world.ts). */
  readonly world: WorldPlaces;
  /**
   * Per place of `list`, 1 where the drawable is the one listed there by the last walk and nothing it describes changed
   * since (the seam's steady hint; valid only while the last sync succeeded, see `forgetSteady`).
   */
  steady: Uint8Array;
  /** How many places of the last walk's list are 1 in `steady`. */
  steadyCount: number;
  /**
   * The walk's stack, reused every pick: per depth, the children array being walked, the next child's place in it and
   * what holds for those children (`frameFlags`: clipped, forced, parent moved, updated by three, shown).
   */
  readonly frames: (Object3D[] | null)[];
  readonly frameNext: number[];
  readonly frameFlags: number[];
  /** Per depth, the walk place of the children's parent. */
  readonly frameParent: number[];
  /** Records whose instances, bones and morph weights are read after the walk (bones may come later in it). */
  readonly deforming: DrawableRecord[];
  /** What the walks know of each geometry (read once per walk: meshes that share a geometry share the read). */
  readonly geometries: WeakMap<BufferGeometry, GeometryState>;
  /** Whether the last walk found a clipped object (the picks then apply the clipping rule). */
  clipped: boolean;
  /** The first drawn skinned or morphed drawable of the last walk (clipping and deformation do not mix yet). */
  deformed: PickDrawable<Object3D> | null;
  /** The last material this walk checked (null at its start). */
  checkedMaterial: Material | null;
  pass: number;
  /** Drawables listed so far by the running walk. */
  count: number;
}

/** @internal */
export function makeThreeDrawables(
  renderer: WebGPURenderer,
  device: GPUDevice,
  bindHostBuffers: boolean,
): ThreeDrawables {
  return {
    renderer,
    bindHostBuffers,
    records: new Map(),
    owned: makeOwnedBuffers(device, 'weft-three'),
    list: [],
    places: { records: [], meshes: [], marks: [] },
    world: makeWorldPlaces(),
    steady: new Uint8Array(64),
    steadyCount: 0,
    frames: [],
    frameNext: [],
    frameFlags: [],
    frameParent: [],
    deforming: [],
    geometries: new WeakMap(),
    clipped: false,
    deformed: null,
    checkedMaterial: null,
    pass: 0,
    count: 0,
  };
}

/** @internal Releases weft's copies (three's own buffers are never touched). */
export function disposeThreeDrawables(state: ThreeDrawables): void {
  releaseAllOwned(state.owned);
  state.records.clear();
  resizePlaces(state.places, 0);
  forgetWorldPlaces(state.world);
  state.deforming.length = 0;
}

/**
 * @internal Makes the next walk vouch for nothing: call it when the seam's sync of this walk's list failed (the steady
 * hint promises no change since the last successful sync).
 */
export function forgetSteady(state: ThreeDrawables): void {
  resizePlaces(state.places, 0);
}

/** Whether `object` is a ClippingGroup that clips what is below it. */
function clipsBelow(object: Object3D): boolean {
  const group = object as Object3D & { isClippingGroup?: boolean; enabled?: boolean; clippingPlanes?: unknown[] };
  return group.isClippingGroup === true && group.enabled === true && (group.clippingPlanes?.length ?? 0) > 0;
}

/** Per depth of the walk, what holds for the children walked there. */
const clippedFlag = 1;
/** three's `force` for them (their parent's world was derived). */
const forceFlag = 2;
/** Their parent's world matrix changed in this walk. */
const movedFlag = 4;
/** three's own method already updated them (an ancestor overrides updateMatrixWorld, or no update at all). */
const updatedFlag = 8;
/** Every ancestor is visible. */
const shownFlag = 16;

/**
 * Walks the scene as three draws it for `camera` and returns the drawables in scene order (one per Mesh,
 * InstancedMesh or SkinnedMesh), reusing each mesh's record: only what changed is rebuilt. The same walk does what
 * `scene.updateMatrixWorld()` would (three-world.ts: only where something moved), so hidden subtrees are walked too,
 * for their matrices; the drawables are three's `traverseVisible` order (an object, then its visible children in
 * order, depth first). An explicit stack of children arrays: no callback, and no allocation per object in a steady
 * scene. Fills `state.steady` for the seam.
 * @throws {PickError} `unsupported` naming the object for what weft-gpu/three does not pick yet (BatchedMesh, draw
 * ranges, mixed sides)
 * @internal
 */
export function collectThreeDrawables(
  api: string,
  state: ThreeDrawables,
  scene: Object3D,
  camera: Camera,
): PickDrawable<Object3D>[] {
  ++state.pass;
  state.clipped = false;
  state.deformed = null;
  state.checkedMaterial = null;
  state.deforming.length = 0;
  state.world.computed = 0;
  state.steadyCount = 0;
  const list = state.list;
  const frames = state.frames;
  const next = state.frameNext;
  const flags = state.frameFlags;
  const parents = state.frameParent;
  const cameraMask = camera.layers.mask;
  // Written by index, lengths set once at the end: emptying and refilling them would reallocate them every pick.
  state.count = 0;
  let objects = 0;
  let depth = 0;
  try {
    // three's `scene.updateMatrixWorld()`: no update at all when the scene is not auto-updated; a root with a parent
    // multiplies by a world this walk does not see change.
    let below = scene.matrixWorldAutoUpdate ? 0 : updatedFlag;
    below |= scene.parent !== null ? movedFlag : 0;
    below = visitObject(api, state, scene, cameraMask, objects++, -1, below | shownFlag);
    if (scene.children.length > 0) {
      frames[0] = scene.children;
      next[0] = 0;
      parents[0] = 0;
      flags[0] = below & shownFlag && clipsBelow(scene) ? below | clippedFlag : below;
      depth = 1;
    }
    while (depth > 0) {
      const frame = depth - 1;
      const children = frames[frame]!;
      const at = next[frame];
      if (at >= children.length) {
        frames[frame] = null;
        depth--;
        continue;
      }
      next[frame] = at + 1;
      const child = children[at];
      const childAt = objects++;
      const above = flags[frame];
      let childBelow: number;
      if ((above & (updatedFlag | movedFlag)) === 0 && steadyOwnedWorld(state.world, child, childAt)) {
        // The steady case, checked without the general update (nothing to derive, nothing changed).
        const shown = (above & shownFlag) !== 0 && child.visible;
        if (shown && (child as Mesh).isMesh)
          visitMesh(api, state, child as Mesh, cameraMask, childAt, (above & clippedFlag) !== 0);
        childBelow = (above & clippedFlag) | forceFlag | (shown ? shownFlag : 0);
      } else childBelow = visitObject(api, state, child, cameraMask, childAt, parents[frame], above);
      if (child.children.length > 0) {
        frames[depth] = child.children;
        next[depth] = 0;
        parents[depth] = childAt;
        flags[depth] =
          childBelow & shownFlag && !(childBelow & clippedFlag) && clipsBelow(child)
            ? childBelow | clippedFlag
            : childBelow;
        depth++;
      }
    }
    // After the walk: bones anywhere in the scene have their world matrices now.
    const deforming = state.deforming;
    for (let i = 0; i < deforming.length; i++) refreshDeformation(deforming[i], deforming[i].mesh);
  } catch (error) {
    // Let go of the children arrays still on the stack, and trust the places only as a successful walk leaves them.
    for (let i = 0; i < depth; i++) frames[i] = null;
    resizePlaces(state.places, 0);
    state.deforming.length = 0;
    throw error;
  }
  state.deforming.length = 0;
  state.world.objects.length = 2 * objects;
  const count = state.count;
  list.length = count;
  resizePlaces(state.places, count);
  // Each mesh of this walk has its record at its place: as many records as places means none is stale.
  const placed = state.places.records;
  if (state.records.size > count)
    for (const [object, record] of state.records)
      if (record.place >= count || placed[record.place] !== record) state.records.delete(object);
  return list;
}

/**
 * Visits one object of the walk (place `objectAt` of every object, its parent at `parentAt`): its world matrix as
 * three's update leaves it, then,
 * when it is shown, a mesh is listed at `state.count` (a BatchedMesh throws). Returns the flags for its children, but
 * for a clipping of its own (the caller adds that where it has children).
 */
function visitObject(
  api: string,
  state: ThreeDrawables,
  object: Object3D,
  cameraMask: number,
  objectAt: number,
  parentAt: number,
  above: number,
): number {
  const force = (above & forceFlag) !== 0;
  let updated = (above & updatedFlag) !== 0;
  if (!updated && updatesItsOwnWorld(state.world, object)) {
    // three calls the override for the object and everything below it; this walk then only compares.
    if (object.parent !== null) settleWorld(state.world, parentAt, object.parent);
    object.updateMatrixWorld(force);
    updated = true;
  }
  const bits = updateObjectWorld(state.world, object, objectAt, parentAt, force, (above & movedFlag) !== 0, updated);
  const shown = (above & shownFlag) !== 0 && object.visible;
  const clipped = (above & clippedFlag) !== 0;
  if (shown && (object as Mesh).isMesh) visitMesh(api, state, object as Mesh, cameraMask, objectAt, clipped);
  return (
    (clipped ? clippedFlag : 0) |
    (bits & forceBelow ? forceFlag : 0) |
    (bits & worldChanged ? movedFlag : 0) |
    (updated ? updatedFlag : 0) |
    (shown ? shownFlag : 0)
  );
}

/** @internal The clip planes the last walk found for `object` (null when nothing clips it). */
export function threeClipPlanesOf(state: ThreeDrawables, object: Object3D): Float32Array | null {
  return state.records.get(object)?.clip ?? null;
}
