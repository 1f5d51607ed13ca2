import { mat4, vec3 } from 'wgpu-matrix';
import { describeValue } from '../core/errors.js';
import { checkOptionKeys, type OptionKeys } from '../core/options.js';
import { type Aabb, aabbCenter } from './bounds.js';
import { EngineError, engineOptionError } from './engine-errors.js';

/** A reverse-Z perspective camera looking from `position` at `target`. */
export interface PerspectiveCamera {
  kind: 'perspective';
  /** Vertical field of view in radians. */
  fovY: number;
  near: number;
  /** Far plane distance; Infinity gives an infinite reverse-Z projection. */
  far: number;
  position: Float32Array;
  target: Float32Array;
  up: Float32Array;
}

/** Cameras the renderer accepts. */
export type Camera = PerspectiveCamera;

/** Options of `makePerspectiveCamera`. */
export interface PerspectiveCameraOptions {
  fovY?: number;
  near?: number;
  far?: number;
  position?: readonly number[];
  target?: readonly number[];
  up?: readonly number[];
}

const cameraOptionKeys: OptionKeys<PerspectiveCameraOptions> = {
  fovY: true,
  near: true,
  far: true,
  position: true,
  target: true,
  up: true,
};

function checkVector(
  api: string,
  name: string,
  value: readonly number[] | undefined,
  fallback: number[],
): Float32Array {
  const v = value ?? fallback;
  if (v?.length !== 3 || !Array.from(v).every(Number.isFinite))
    throw new EngineError(api, 'bad-option', `${name} ${describeValue(v)} must be 3 finite numbers`);
  return Float32Array.from(v);
}

/**
 * Makes a reverse-Z perspective camera (depth cleared to 0, compare "greater").
 * @throws {EngineError} when an option is unknown or out of range
 */
export function makePerspectiveCamera(options: PerspectiveCameraOptions = {}): PerspectiveCamera {
  const api = 'makePerspectiveCamera';
  checkOptionKeys(api, options, cameraOptionKeys, engineOptionError);
  const fovY = options.fovY ?? Math.PI / 4;
  const near = options.near ?? 0.1;
  const far = options.far ?? Infinity;
  if (!(fovY > 0 && fovY < Math.PI))
    throw new EngineError(api, 'bad-option', `fovY ${describeValue(fovY)} must be in (0, π) radians`);
  if (!(near > 0 && Number.isFinite(near)))
    throw new EngineError(api, 'bad-option', `near ${describeValue(near)} must be a finite number > 0`);
  if (!(far > near))
    throw new EngineError(
      api,
      'bad-option',
      `far ${describeValue(far)} must be greater than near (${near}) or Infinity`,
    );
  const camera: PerspectiveCamera = {
    kind: 'perspective',
    fovY,
    near,
    far,
    position: checkVector(api, 'position', options.position, [0, 0, 5]),
    target: checkVector(api, 'target', options.target, [0, 0, 0]),
    up: checkVector(api, 'up', options.up, [0, 1, 0]),
  };
  if (vec3.distance(camera.position, camera.target) === 0)
    throw new EngineError(api, 'bad-option', 'position and target must differ');
  return camera;
}

/** World → view matrix (right-handed, looking down −Z). */
export function getCameraViewMatrix(camera: Camera, dst?: Float32Array): Float32Array {
  return mat4.lookAt(camera.position, camera.target, camera.up, dst);
}

/** View → clip matrix: reverse-Z, NDC depth 1 at the near plane and 0 at the far plane. */
export function getCameraProjectionMatrix(camera: Camera, aspect: number, dst?: Float32Array): Float32Array {
  return mat4.perspectiveReverseZ(camera.fovY, aspect, camera.near, camera.far, dst);
}

/** World → clip matrix for a viewport aspect ratio (width / height). */
export function getCameraViewProjectionMatrix(camera: Camera, aspect: number, dst?: Float32Array): Float32Array {
  const out = getCameraProjectionMatrix(camera, aspect, dst);
  return mat4.multiply(out, getCameraViewMatrix(camera), out);
}

/** Orbit parameters: yaw around +Y, pitch above the horizon, both in radians. */
export interface OrbitState {
  target: readonly number[];
  radius: number;
  yaw: number;
  pitch: number;
}

const maxPitch = Math.PI / 2 - 1e-3;

/**
 * Places the camera on a sphere around `target` (yaw 0 looks along −Z from +Z).
 * @throws {EngineError} when the radius is not a finite number > 0 or an angle is not finite
 */
export function setCameraOrbit(camera: Camera, orbit: OrbitState): void {
  const api = 'setCameraOrbit';
  if (!(orbit.radius > 0 && Number.isFinite(orbit.radius)))
    throw new EngineError(api, 'bad-option', `radius ${describeValue(orbit.radius)} must be a finite number > 0`);
  if (!Number.isFinite(orbit.yaw) || !Number.isFinite(orbit.pitch))
    throw new EngineError(
      api,
      'bad-option',
      `yaw ${describeValue(orbit.yaw)} and pitch ${describeValue(orbit.pitch)} must be finite`,
    );
  const target = checkVector(api, 'target', orbit.target, [0, 0, 0]);
  const pitch = Math.max(-maxPitch, Math.min(maxPitch, orbit.pitch));
  camera.target.set(target);
  camera.position[0] = target[0] + orbit.radius * Math.cos(pitch) * Math.sin(orbit.yaw);
  camera.position[1] = target[1] + orbit.radius * Math.sin(pitch);
  camera.position[2] = target[2] + orbit.radius * Math.cos(pitch) * Math.cos(orbit.yaw);
  camera.up.set([0, 1, 0]);
}

/** Reads the camera's current orbit parameters around its target. */
export function getCameraOrbit(camera: Camera): OrbitState {
  const offset = vec3.subtract(camera.position, camera.target);
  const radius = vec3.length(offset);
  return {
    target: Array.from(camera.target),
    radius,
    yaw: Math.atan2(offset[0], offset[2]),
    pitch: Math.asin(Math.max(-1, Math.min(1, offset[1] / radius))),
  };
}

/** Rotates the camera around its target by yaw/pitch deltas (radians). */
export function orbitCamera(camera: Camera, deltaYaw: number, deltaPitch: number): void {
  const orbit = getCameraOrbit(camera);
  setCameraOrbit(camera, { ...orbit, yaw: orbit.yaw + deltaYaw, pitch: orbit.pitch + deltaPitch });
}

/**
 * Moves the camera towards (factor < 1) or away from (factor > 1) its target.
 * @throws {EngineError} when the factor is not finite and positive
 */
export function dollyCamera(camera: Camera, factor: number): void {
  if (!(factor > 0 && Number.isFinite(factor)))
    throw new EngineError('dollyCamera', 'bad-option', `factor ${describeValue(factor)} must be a finite number > 0`);
  const orbit = getCameraOrbit(camera);
  setCameraOrbit(camera, { ...orbit, radius: orbit.radius * factor });
}

/** Slides camera and target together along the view's right and up axes (world units). */
export function panCamera(camera: Camera, right: number, up: number): void {
  const view = getCameraViewMatrix(camera);
  // Rows of the view rotation are the camera's right and up axes in world space.
  const offset = [view[0] * right + view[1] * up, view[4] * right + view[5] * up, view[8] * right + view[9] * up];
  vec3.add(camera.position, offset, camera.position);
  vec3.add(camera.target, offset, camera.target);
}

/** Aims the camera at a box's centre from its current direction, far enough to see all of it. */
export function frameCameraOnBounds(camera: Camera, bounds: Aabb, aspect = 1): void {
  const center = aabbCenter(bounds);
  const radius = Math.max(1e-6, vec3.distance(bounds.min, bounds.max) / 2);
  const halfFov = Math.min(camera.fovY, 2 * Math.atan(Math.tan(camera.fovY / 2) * aspect)) / 2;
  const orbit = getCameraOrbit(camera);
  setCameraOrbit(camera, { target: center, radius: radius / Math.sin(halfFov), yaw: orbit.yaw, pitch: orbit.pitch });
}
