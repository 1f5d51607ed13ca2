import { describeValue } from '../../core/errors.js';
import { checkSceneArgument } from '../../engine/argument-checks.js';
import type { Scene } from '../../engine/scene.js';
import type { PickingInfo } from '../picking-info.js';
import { makeMissInfo } from '../picking-info.js';
import { cameraRayRange, makePickingRay, type PickingRay } from '../picking-ray.js';
import { CpuPickError, cpuPickOptionError } from './cpu-pick-error.js';
import { getCpuPicker, syncCpuPicker } from './cpu-picker.js';
import { makeCpuPickingInfo } from './cpu-picking-info.js';
import {
  checkCpuPickOptions,
  checkPickRange,
  type CpuPickOptions,
  makeEntryAcceptor,
  pickRange,
} from './pick-options.js';
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

/** Validates a ray and writes its origin and unit direction (so distances are world units) into `origin`, `direction`. */
function writeCheckedRay(api: string, ray: CpuRay, origin: number[], direction: number[]): void {
  const o = ray?.origin;
  const d = ray?.direction;
  if (!isFinite3(o)) throw new CpuPickError(api, 'bad-ray', `ray origin ${describeVector(o)} must be 3 finite numbers`);
  if (!isFinite3(d))
    throw new CpuPickError(api, 'bad-ray', `ray direction ${describeVector(d)} must be 3 finite numbers`);
  const x = d[0];
  const y = d[1];
  const z = d[2];
  // √(x² + y² + z²) unless the squares could overflow or underflow, where Math.hypot's scaling is needed (it is ~5×
  // slower, a tenth of a small mesh's pick).
  const squares = x * x + y * y + z * z;
  const length = squares > 1e-290 && squares < 1e290 ? Math.sqrt(squares) : Math.hypot(x, y, z);
  if (!(length > 0) || !Number.isFinite(length))
    throw new CpuPickError(
      api,
      'bad-ray',
      `ray direction ${describeVector(d)} has length ${length}; it must be non-zero and finite`,
    );
  origin[0] = o[0];
  origin[1] = o[1];
  origin[2] = o[2];
  direction[0] = x / length;
  direction[1] = y / length;
  direction[2] = z / length;
}

/** @internal Validates a ray and normalises its direction (so distances are world units). */
export function checkRay(api: string, ray: CpuRay): CheckedRay {
  const origin: [number, number, number] = [0, 0, 0];
  const direction: [number, number, number] = [0, 0, 0];
  writeCheckedRay(api, ray, origin, direction);
  return { origin, direction, picking: 'viewProjection' in ray ? ray : null };
}

/** What one pick works in: the checked ray, its distance range and the scene hit (nothing of it is returned). */
interface PickScratch {
  origin: number[];
  direction: number[];
  near: number;
  far: number;
  hit: SceneHit;
}

/** One scratch per nesting level: a filter callback may pick again while a pick is running. */
let scratches: PickScratch[] | null = null;
let depth = 0;

function acquireScratch(): PickScratch {
  scratches ??= [];
  let s = scratches[depth];
  if (!s) {
    s = {
      origin: [0, 0, 0],
      direction: [0, 0, 0],
      near: 0,
      far: 0,
      hit: { entry: -1, t: 0, u: 0, v: 0, faceId: -1, triangles: null, leafIndices: null, leaf: -1 },
    };
    scratches[depth] = s;
  }
  depth++;
  return s;
}

function releaseScratch(): void {
  depth--;
}

let engineViewport: { width: number; height: number; devicePixelRatio: number | undefined } | null = null;

/** The ray through pixel (x, y) of the scene's camera; the distance range its near/far planes allow goes to `range`. */
function cameraPickingRay(
  api: string,
  scene: Scene,
  x: number,
  y: number,
  options: CpuPickOptions,
  range: { near: number; far: number },
): PickingRay {
  checkSceneArgument(api, scene, cpuPickOptionError);
  const camera = options.camera ?? scene.camera;
  if (!camera)
    throw new CpuPickError(
      api,
      'no-camera',
      'the scene has no camera; set scene.camera, pass options.camera or use pickWithRaySync',
    );
  let viewport = options.viewport;
  if (!viewport) {
    // Read at once by makePickingRay and not kept: one object serves every pick.
    engineViewport ??= { width: 0, height: 0, devicePixelRatio: undefined };
    engineViewport.width = scene.engine?.width;
    engineViewport.height = scene.engine?.height;
    engineViewport.devicePixelRatio = options.devicePixelRatio;
    viewport = engineViewport;
  }
  const ray = makePickingRay(camera, x, y, viewport, api, undefined, options.subpixel);
  // The pick pass clips at the near and far planes: the distances along this ray where they lie.
  cameraRayRange(camera, ray, range, api);
  return ray;
}

/** @internal The ray through pixel (x, y) of the scene's camera and the distance range its near/far planes allow. */
export function cameraRay(
  api: string,
  scene: Scene,
  x: number,
  y: number,
  options: CpuPickOptions,
): { ray: PickingRay; range: [number, number] } {
  const range = { near: 0, far: 0 };
  const ray = cameraPickingRay(api, scene, x, y, options, range);
  return { ray, range: [range.near, range.far] };
}

/** A camera ray is unit and finite when its camera is: its own arrays are used, only a non-finite camera is refused. */
function checkCameraRay(api: string, ray: PickingRay): CheckedRay {
  if (isFinite3(ray.origin) && isFinite3(ray.direction))
    return { origin: ray.origin, direction: ray.direction, picking: ray };
  return checkRay(api, ray);
}

/** The nearest hit of the checked ray (origin, unit direction) within (near, far); the PickingInfo is all it allocates. */
function nearest(
  api: string,
  scene: Scene,
  origin: readonly number[],
  direction: readonly number[],
  picking: PickingRay | null,
  s: PickScratch,
  options: CpuPickOptions,
): PickingInfo {
  const accept = makeEntryAcceptor(api, options);
  const picker = getCpuPicker(scene);
  syncCpuPicker(picker);
  const hit = s.hit;
  hit.entry = -1;
  hit.t = Infinity;
  hit.faceId = -1;
  hit.triangles = null;
  hit.leafIndices = null;
  if (!raycastSceneFirst(picker, origin, direction, s.near, s.far, accept, hit, options.culling))
    return makeMissInfo(picking);
  return makeCpuPickingInfo(picker, hit, origin, direction, picking);
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
  const s = acquireScratch();
  try {
    const ray = cameraPickingRay(api, scene, x, y, options, s);
    // Twin of picking/cpu/pick-sync.ts:checkCameraRay (kept equal by test/unit/cpu-picking/twins.test.ts: pickSync checks its camera ray as checkCameraRay does)
    if (!isFinite3(ray.origin) || !isFinite3(ray.direction)) checkRay(api, ray); // throws: the camera is not finite
    return nearest(api, scene, ray.origin, ray.direction, ray, s, options);
  } finally {
    releaseScratch();
  }
}

/**
 * The nearest hit along a world ray (distances from its origin, in world units).
 * @throws {CpuPickError} when the ray is not finite or an option is unknown or invalid
 */
export function pickWithRaySync(scene: Scene, ray: CpuRay, options: CpuPickOptions = {}): PickingInfo {
  const api = 'pickWithRaySync';
  checkCpuPickOptions(api, options);
  const s = acquireScratch();
  try {
    writeCheckedRay(api, ray, s.origin, s.direction);
    s.near = options.minDistance ?? 0;
    s.far = options.maxDistance ?? Infinity;
    checkPickRange(api, options, s.near, s.far);
    return nearest(api, scene, s.origin, s.direction, 'viewProjection' in ray ? ray : null, s, options);
  } finally {
    releaseScratch();
  }
}

/**
 * Every hit under pixel (x, y) along the camera ray, nearest first.
 * @throws {CpuPickError} when the pixel is not finite or an option is unknown or invalid
 */
export function pickManySync(scene: Scene, x: number, y: number, options: CpuPickOptions = {}): PickingInfo[] {
  return pickEveryHitSync('pickManySync', scene, x, y, options);
}

/** @internal pickManySync under the name of the API that calls it (its errors name that API). */
export function pickEveryHitSync(
  api: string,
  scene: Scene,
  x: number,
  y: number,
  options: CpuPickOptions = {},
): PickingInfo[] {
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
