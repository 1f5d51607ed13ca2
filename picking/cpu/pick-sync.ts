import { describeValue } from '../../core/errors.js';
import type { Scene } from '../../engine/scene.js';
import type { PickingInfo } from '../picking-info.js';
import { makeMissInfo } from '../picking-info.js';
import { cameraAxisCosine, makePickingRay, type PickingRay } from '../picking-ray.js';
import { CpuPickError } from './cpu-pick-error.js';
import { getCpuPicker, syncCpuPicker } from './cpu-picker.js';
import { makeCpuPickingInfo } from './cpu-picking-info.js';
import { checkCpuPickOptions, type CpuPickOptions, makeEntryAcceptor, pickRange } from './pick-options.js';
import { raycastSceneAll, raycastSceneFirst, type SceneHit } from './scene-query.js';

/** A world-space ray: a PickingRay from `makePickingRay`, or any origin + non-zero direction. */
export type CpuRay = PickingRay | { origin: readonly number[]; direction: readonly number[] };

interface CheckedRay {
  origin: [number, number, number];
  direction: [number, number, number];
  picking: PickingRay | null;
}

function isFinite3(v: unknown): v is readonly number[] {
  const a = v as ArrayLike<number> | null | undefined;
  return a != null && a.length === 3 && Number.isFinite(a[0]) && Number.isFinite(a[1]) && Number.isFinite(a[2]);
}

function describeVector(v: unknown): string {
  const a = v as ArrayLike<number> | null | undefined;
  return a != null && a.length === 3 ? `(${a[0]}, ${a[1]}, ${a[2]})` : describeValue(v);
}

/** Validates a ray and normalises its direction (so distances are world units). */
export function checkRay(api: string, ray: CpuRay): CheckedRay {
  const o = ray?.origin;
  const d = ray?.direction;
  if (!isFinite3(o)) throw new CpuPickError(api, 'bad-ray', `ray origin ${describeVector(o)} must be 3 finite numbers`);
  if (!isFinite3(d))
    throw new CpuPickError(api, 'bad-ray', `ray direction ${describeVector(d)} must be 3 finite numbers`);
  const length = Math.hypot(d[0], d[1], d[2]);
  if (!(length > 0) || !Number.isFinite(length))
    throw new CpuPickError(
      api,
      'bad-ray',
      `ray direction ${describeVector(d)} has length ${length}; it must be non-zero and finite`,
    );
  const picking = 'viewProjection' in ray ? ray : null;
  return { origin: [o[0], o[1], o[2]], direction: [d[0] / length, d[1] / length, d[2] / length], picking };
}

/** A camera ray is unit and finite when its camera is: its own arrays are used, only a non-finite camera is refused. */
function checkCameraRay(api: string, ray: PickingRay): CheckedRay {
  if (isFinite3(ray.origin) && isFinite3(ray.direction))
    return { origin: ray.origin, direction: ray.direction, picking: ray };
  return checkRay(api, ray);
}

/** The ray through pixel (x, y) of the scene's camera and the distance range its near/far planes allow. */
export function cameraRay(
  api: string,
  scene: Scene,
  x: number,
  y: number,
  options: CpuPickOptions,
): { ray: PickingRay; range: [number, number] } {
  const camera = scene.camera;
  if (!camera)
    throw new CpuPickError(api, 'no-camera', 'the scene has no camera; set scene.camera or use pickWithRaySync');
  const viewport = options.viewport ?? {
    width: scene.engine?.width,
    height: scene.engine?.height,
    devicePixelRatio: options.devicePixelRatio,
  };
  const ray = makePickingRay(camera, x, y, viewport, api, undefined, options.subpixel);
  // The pick pass clips at the near and far planes; along this ray they lie at near / cos θ and far / cos θ.
  const cos = cameraAxisCosine(camera, ray.direction);
  return { ray, range: [camera.near / cos, Number.isFinite(camera.far) ? camera.far / cos : Infinity] };
}

function nearest(
  api: string,
  scene: Scene,
  ray: CheckedRay,
  range: [number, number],
  options: CpuPickOptions,
): PickingInfo {
  const accept = makeEntryAcceptor(api, options);
  const picker = getCpuPicker(scene);
  syncCpuPicker(picker);
  const hit: SceneHit = { entry: -1, t: Infinity, u: 0, v: 0, faceId: -1 };
  if (!raycastSceneFirst(picker, ray.origin, ray.direction, range[0], range[1], accept, hit, options.culling))
    return makeMissInfo(ray.picking);
  return makeCpuPickingInfo(picker, hit, ray.origin, ray.direction, ray.picking);
}

function all(
  api: string,
  scene: Scene,
  ray: CheckedRay,
  range: [number, number],
  options: CpuPickOptions,
): PickingInfo[] {
  const accept = makeEntryAcceptor(api, options);
  const picker = getCpuPicker(scene);
  syncCpuPicker(picker);
  return raycastSceneAll(picker, ray.origin, ray.direction, range[0], range[1], accept, options.culling).map((hit) =>
    makeCpuPickingInfo(picker, hit, ray.origin, ray.direction, ray.picking),
  );
}

/**
 * What is under pixel (x, y), synchronously: the nearest hit of the camera ray through the pixel centre
 * (same camera, projection and pixel convention as the renderer, clipped at its near/far planes).
 * Faces are culled as drawn (like the GPU pick pass; `culling: 'none'` hits back faces too); `visible` does not
 * gate, `pickable === false` does.
 * @throws {CpuPickError} when the pixel is not finite or an option is unknown or invalid
 */
export function pickSync(scene: Scene, x: number, y: number, options: CpuPickOptions = {}): PickingInfo {
  const api = 'pickSync';
  checkCpuPickOptions(api, options);
  const { ray, range } = cameraRay(api, scene, x, y, options);
  return nearest(api, scene, checkCameraRay(api, ray), range, options);
}

/**
 * The nearest hit along a world ray (distances from its origin, in world units).
 * @throws {CpuPickError} when the ray is not finite or an option is unknown or invalid
 */
export function pickWithRaySync(scene: Scene, ray: CpuRay, options: CpuPickOptions = {}): PickingInfo {
  const api = 'pickWithRaySync';
  checkCpuPickOptions(api, options);
  return nearest(api, scene, checkRay(api, ray), pickRange(api, options), options);
}

/**
 * Every hit under pixel (x, y) along the camera ray, nearest first.
 * @throws {CpuPickError} when the pixel is not finite or an option is unknown or invalid
 */
export function pickManySync(scene: Scene, x: number, y: number, options: CpuPickOptions = {}): PickingInfo[] {
  const api = 'pickManySync';
  checkCpuPickOptions(api, options);
  const { ray, range } = cameraRay(api, scene, x, y, options);
  return all(api, scene, checkCameraRay(api, ray), range, options);
}

/** Every hit along a world ray, nearest first. */
export function pickManyWithRaysSync(scene: Scene, ray: CpuRay, options: CpuPickOptions = {}): PickingInfo[] {
  const api = 'pickManyWithRaysSync';
  checkCpuPickOptions(api, options);
  return all(api, scene, checkRay(api, ray), pickRange(api, options), options);
}
