// Single, multi-point and box picks of a Babylon.js scene, answered as Babylon.js's own PickingInfo objects.
import type { Camera } from '@babylonjs/core/Cameras/camera.js';
import { PickingInfo } from '@babylonjs/core/Collisions/pickingInfo.js';
import { Ray } from '@babylonjs/core/Culling/ray.core.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.pure.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import { describeValue, WeftError } from '../../core/errors.js';
import { getMatrixCameraFrame, type MatrixCameraFrame } from '../../engine/matrix-camera.js';
import type { PickDiscardRule } from '../../picking/discard-rules.js';
import { type GpuPickOptions, pickManyAsync } from '../../picking/gpu-picker.js';
import type { PickingInfo as WeftPickingInfo } from '../../picking/picking-info.js';
import { pickRectAsync } from '../../picking/rect/pick-rect-async.js';
import { pickedObjectOf, syncDrawableSceneHinted } from '../../picking/sources/drawable-scene.js';
import { writeBabylonCamera } from './babylon-camera.js';
import { makeClipPlaneRule, sceneHasClipPlanes } from './babylon-clip-planes.js';
import { walkBabylonScene } from './babylon-drawables.js';
import { BabylonPickError } from './babylon-errors.js';
import { assertBabylonPickerUsable, type BabylonPicker, deviceLostError } from './babylon-picker.js';
import { pickAheadOf, pickAheadOfSync } from '../pick-ahead.js';

/** Options of every pick. */
export interface BabylonPickOptions {
  /** The camera to pick through (default `scene.activeCamera`); its layer mask selects the meshes, as it draws. */
  camera?: Camera;
  /** Like `scene.pick`'s predicate: only meshes it returns true for are picked (after isPickable, isVisible, …). */
  predicate?: (mesh: AbstractMesh) => boolean;
  /** A weft discard rule (WGSL, see docs/picking.md); not together with clip planes. */
  discard?: PickDiscardRule;
}

/** What a box pick found: each mesh (and thin instance) seen in the box once, as GPUPicker's result lists them. */
export interface BabylonBoxPickResult {
  meshes: AbstractMesh[];
  /** Per entry of `meshes`: its thin instance, −1 for none. */
  thinInstanceIndexes: number[];
}

const optionKeys: readonly string[] = ['camera', 'predicate', 'discard'];
let clipRules: WeakMap<BabylonPicker, PickDiscardRule> | undefined;

/** One call's options checked and camera written, before the walk. */
interface Prepared {
  weft: GpuPickOptions;
  call: CallFrame;
  camera: Camera;
  include: ((mesh: AbstractMesh) => boolean) | null;
}

/** Checks the options and writes the camera: weft's options for this call, less the walk's discard rule. */
function prepareCall(api: string, picker: BabylonPicker, options: BabylonPickOptions | undefined): Prepared {
  assertBabylonPickerUsable(picker, api);
  if (options !== undefined && (options === null || typeof options !== 'object'))
    throw new BabylonPickError(api, 'bad-option', `options ${describeValue(options)} must be an object`);
  for (const key of Object.keys(options ?? {}))
    if (!optionKeys.includes(key))
      throw new BabylonPickError(api, 'bad-option', `unknown option "${key}"; allowed: ${optionKeys.join(', ')}`);
  const predicate = options?.predicate;
  if (predicate !== undefined && typeof predicate !== 'function')
    throw new BabylonPickError(api, 'bad-option', `predicate ${describeValue(predicate)} must be a function`);
  const { engine, scene } = picker;
  const camera = options?.camera ?? scene.activeCamera;
  if (!camera) throw new BabylonPickError(api, 'no-camera', 'the scene has no activeCamera and no camera was given');
  picker.camera = writeBabylonCamera(api, engine, scene, camera, picker.camera);
  const list = picker.pickingList;
  const include =
    list || predicate ? (mesh: AbstractMesh) => (!list || list.has(mesh)) && (!predicate || predicate(mesh)) : null;
  const width = engine.getRenderWidth();
  const height = engine.getRenderHeight();
  const weft: GpuPickOptions = {
    camera: picker.camera,
    viewport: { width, height },
    devicePixelRatio: 1 / engine.getHardwareScalingLevel(),
    ...(options?.discard ? { discard: options.discard } : {}),
  };
  const call = { frame: getMatrixCameraFrame(picker.camera, api), width, height, maxZ: camera.maxZ };
  return { weft, call, camera, include };
}

/**
 * Walks and syncs the scene and sets the clip-plane rule in `prepared.weft`. A walk that changed nothing (and found
 * no clip planes, whose values the pass reads apart) lets the next pick through this camera go ahead of its walk.
 */
function walkAndSync(api: string, picker: BabylonPicker, prepared: Prepared, given: PickDiscardRule | undefined): void {
  const ahead = pickAheadOf(picker);
  ahead.scene = ahead.camera = null;
  const { scene } = picker;
  const drawables = walkBabylonScene(api, picker.walk, scene, prepared.camera, picker.owned, prepared.include);
  const before = picker.drawables.changes;
  try {
    // The walk vouches for its steady places (walk.steady): the seam takes them without reading their drawables.
    syncDrawableSceneHinted(picker.drawables, drawables, picker.walk);
  } catch (error) {
    // What the walk listed was not synced: its steady places say nothing about the next walk.
    picker.walk.complete = false;
    throw error;
  }
  // The walk scanned the listed meshes' materials for clip planes (walk.clips); the scene's own are read here.
  if (!picker.walk.clips.clipped && !sceneHasClipPlanes(scene)) {
    if (picker.drawables.changes === before) {
      ahead.scene = scene;
      ahead.camera = prepared.camera;
    }
    return;
  }
  if (given)
    throw new BabylonPickError(
      api,
      'unsupported',
      `clip planes and a discard rule ("${given.key}") together; fold the clip test into your rule's WGSL, or remove the clip planes`,
    );
  clipRules ??= new WeakMap();
  const discard = clipRules.get(picker) ?? makeClipPlaneRule(scene, picker.drawables);
  clipRules.set(picker, discard);
  prepared.weft.discard = discard;
}

/**
 * The pick of `prepared` against the scene as Babylon.js draws it now: ahead of the walk when the last walk through
 * this camera changed nothing (pick-ahead.ts), else after it.
 */
function pickWalkedAsync<R>(
  api: string,
  picker: BabylonPicker,
  prepared: Prepared,
  options: BabylonPickOptions | undefined,
  pick: (weft: GpuPickOptions) => Promise<R>,
): Promise<R> {
  const ahead = pickAheadOf(picker);
  if (ahead.scene !== picker.scene || ahead.camera !== prepared.camera) {
    walkAndSync(api, picker, prepared, options?.discard);
    return pick(prepared.weft);
  }
  return pickAheadOfSync(
    picker.drawables,
    () => pick(prepared.weft),
    () => {
      walkAndSync(api, picker, prepared, options?.discard);
      return ahead.scene !== null;
    },
    () => pick(prepared.weft),
  );
}

/** weft's device-lost errors become the picker's own, naming what to do. */
function rethrow(picker: BabylonPicker, api: string, error: unknown): never {
  if (error instanceof WeftError && error.code === 'device-lost') throw deviceLostError(picker, api);
  throw error;
}

/** The sub-mesh that holds the mesh's face `faceId` (its span, not just the nearest start) and the face within it. */
function subMeshOf(picker: BabylonPicker, mesh: AbstractMesh, faceId: number): [number, number] {
  const geometry = picker.walk.records.get(mesh)?.geometry;
  if (!geometry) return [0, faceId];
  const starts = geometry.subMeshFaceStarts;
  const counts = geometry.subMeshFaceCounts;
  for (let i = 0; i < starts.length; i++)
    if (faceId >= starts[i] && faceId < starts[i] + counts[i]) return [i, faceId - starts[i]];
  return [0, faceId];
}

/** What maps weft's answers of one call: the camera's float64 frame and the framebuffer size. */
interface CallFrame {
  frame: MatrixCameraFrame;
  width: number;
  height: number;
  maxZ: number;
}

/**
 * A weft answer as Babylon.js's PickingInfo (a miss: `hit` false, `ray` set). As in `scene.pick`, the ray starts on
 * the near plane (the pixel's sample unprojected at near depth) and `distance` is measured from there.
 */
function toBabylonInfo(picker: BabylonPicker, info: WeftPickingInfo, call: CallFrame): PickingInfo {
  const result = new PickingInfo();
  const ray = info.ray;
  let origin: Vector3 | null = null;
  if (ray) {
    const m = call.frame.inverseViewProjection;
    const x = (2 * ray.sampleX) / call.width - 1;
    const y = 1 - (2 * ray.sampleY) / call.height;
    // NDC (x, y, 1) is the near plane in weft's reverse-Z frame.
    const w = m[3] * x + m[7] * y + m[11] + m[15];
    origin = new Vector3(
      (m[0] * x + m[4] * y + m[8] + m[12]) / w,
      (m[1] * x + m[5] * y + m[9] + m[13]) / w,
      (m[2] * x + m[6] * y + m[10] + m[14]) / w,
    );
    const [dx, dy, dz] = ray.direction;
    result.ray = new Ray(origin, new Vector3(dx, dy, dz), call.maxZ);
  }
  const picked = info.hit ? pickedObjectOf(picker.drawables, info) : null;
  if (!picked || !info.pickedPoint) return result;
  const [px, py, pz] = info.pickedPoint;
  result.hit = true;
  result.pickedMesh = picked.object;
  result.distance = origin ? Math.hypot(px - origin.x, py - origin.y, pz - origin.z) : info.distance;
  result.pickedPoint = new Vector3(px, py, pz);
  result.faceId = info.faceId;
  result.bu = info.bu;
  result.bv = info.bv;
  result.thinInstanceIndex = picked.instance;
  if (info.faceId >= 0) [result.subMeshId, result.subMeshFaceId] = subMeshOf(picker, picked.object, info.faceId);
  return result;
}

/**
 * Picks what Babylon.js draws at (x, y), in the coordinates `scene.pick` takes (canvas pixels: render pixels ×
 * `engine.getHardwareScalingLevel()`); the pixel is sampled at its centre. Resolves to Babylon.js's own
 * `PickingInfo` (`hit`, `pickedMesh`, `pickedPoint`, `distance`, `faceId`, `subMeshId`, `bu`, `bv`,
 * `thinInstanceIndex`, `ray`; `getNormal()` and `getTextureCoordinates()` work). What is drawn is captured at the
 * call: moving meshes after it does not change the answer.
 * @throws {BabylonPickError} for a refused scene, option or picker state; weft's `PickError` for bad coordinates
 */
export async function pickBabylonAsync(
  picker: BabylonPicker,
  x: number,
  y: number,
  options?: BabylonPickOptions,
): Promise<PickingInfo> {
  const [info] = await multiPickBabylonAsync(picker, [{ x, y }], options, 'pickBabylonAsync');
  return info;
}

/**
 * Picks several points in one pass (as `pickBabylonAsync` each): one `PickingInfo` per point, in order.
 * @throws {BabylonPickError} for a refused scene, option or picker state; weft's `PickError` for bad coordinates
 */
export async function multiPickBabylonAsync(
  picker: BabylonPicker,
  points: readonly { x: number; y: number }[],
  options?: BabylonPickOptions,
  api = 'multiPickBabylonAsync',
): Promise<PickingInfo[]> {
  const prepared = prepareCall(api, picker, options);
  try {
    const infos = await pickWalkedAsync(api, picker, prepared, options, (weft) =>
      pickManyAsync(picker.gpuPicker, points, weft, api),
    );
    return infos.map((info) => toBabylonInfo(picker, info, prepared.call));
  } catch (error) {
    rethrow(picker, api, error);
  }
}

/**
 * Every mesh (and thin instance) visible in the box between two corners, in canvas pixels as `GPUPicker.boxPickAsync`
 * takes them: the pixels from min(x1, x2) to max(x1, x2) − 1 and from min(y1, y2) to max(y1, y2) − 1. Each appears
 * once (in pick-ID order: the scene's mesh order).
 * @throws {BabylonPickError} for a refused scene, option or picker state; weft's `PickError` for a bad box
 */
export async function boxPickBabylonAsync(
  picker: BabylonPicker,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  options?: BabylonPickOptions,
): Promise<BabylonBoxPickResult> {
  const api = 'boxPickBabylonAsync';
  const prepared = prepareCall(api, picker, options);
  try {
    const found = await pickWalkedAsync(api, picker, prepared, options, (weft) =>
      pickRectAsync(picker.gpuPicker, Math.min(x1, x2), Math.min(y1, y2), Math.abs(x2 - x1), Math.abs(y2 - y1), weft),
    );
    const result: BabylonBoxPickResult = { meshes: [], thinInstanceIndexes: [] };
    for (const identity of found) {
      const picked = pickedObjectOf(picker.drawables, identity);
      if (!picked) continue;
      result.meshes.push(picked.object);
      result.thinInstanceIndexes.push(picked.instance);
    }
    return result;
  } catch (error) {
    rethrow(picker, api, error);
  }
}
