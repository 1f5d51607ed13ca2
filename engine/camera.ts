import { mat4, vec3 } from 'wgpu-matrix';
import { describeValue } from '../core/errors.js';
import { checkOptionKeys, type OptionKeys } from '../core/options.js';
import { type Aabb, aabbCenter } from './bounds.js';
import { EngineError, engineOptionError } from './engine-errors.js';
import { getMatrixCameraFrame, type MatrixCamera } from './matrix-camera.js';

export { makeMatrixCamera, type MatrixCamera, type MatrixCameraOptions } from './matrix-camera.js';

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

/**
 * A reverse-Z orthographic camera looking from `position` at `target`: parallel rays along the view axis; the
 * viewport spans `height` world units vertically and `height × aspect` horizontally.
 */
export interface OrthographicCamera {
  kind: 'orthographic';
  /** World units the viewport spans vertically. */
  height: number;
  /** Near and far plane distances along the view axis from `position` (finite; near may be 0 or negative). */
  near: number;
  far: number;
  position: Float32Array;
  target: Float32Array;
  up: Float32Array;
}

/**
 * Cameras the renderer and pickers accept: weft's own (perspective, orthographic) or the host's matrices
 * (`makeMatrixCamera`).
 */
export type Camera = PerspectiveCamera | OrthographicCamera | MatrixCamera;

/** Cameras weft places itself (position, target, up): the ones its camera controls move. */
export type PlacedCamera = PerspectiveCamera | OrthographicCamera;

/** Options of `makeOrthographicCamera`. */
export interface OrthographicCameraOptions {
  height?: number;
  near?: number;
  far?: number;
  position?: readonly number[];
  target?: readonly number[];
  up?: readonly number[];
}

const orthographicOptionKeys: OptionKeys<OrthographicCameraOptions> = {
  height: true,
  near: true,
  far: true,
  position: true,
  target: true,
  up: true,
};

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

/**
 * Makes a reverse-Z orthographic camera (depth cleared to 0, compare "greater"); `height` (default 10) is the world
 * extent the viewport spans vertically.
 * @throws {EngineError} when an option is unknown or out of range
 */
export function makeOrthographicCamera(options: OrthographicCameraOptions = {}): OrthographicCamera {
  const api = 'makeOrthographicCamera';
  checkOptionKeys(api, options, orthographicOptionKeys, engineOptionError);
  const height = options.height ?? 10;
  const near = options.near ?? 0.1;
  const far = options.far ?? 1000;
  if (!(height > 0 && Number.isFinite(height)))
    throw new EngineError(
      api,
      'bad-option',
      `height ${describeValue(height)} must be a finite number > 0 (world units)`,
    );
  if (!Number.isFinite(near))
    throw new EngineError(api, 'bad-option', `near ${describeValue(near)} must be a finite number`);
  if (!(far > near && Number.isFinite(far)))
    throw new EngineError(
      api,
      'bad-option',
      `far ${describeValue(far)} must be a finite number greater than near (${near}); an orthographic camera has no infinite far plane`,
    );
  const camera: OrthographicCamera = {
    kind: 'orthographic',
    height,
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

/** World → view matrix (right-handed, looking down −Z); a matrix camera's own, rounded to float32. */
export function getCameraViewMatrix(camera: Camera, dst?: Float32Array): Float32Array {
  if (camera.kind === 'matrices') return mat4.copy(camera.view, dst) as Float32Array;
  return mat4.lookAt(camera.position, camera.target, camera.up, dst);
}

/** The z-flip z' = w − z: turns a 0 (near) … 1 (far) projection into a reverse-Z one, in place. */
function flipDepthInPlace(m: Float32Array): Float32Array {
  for (let c = 0; c < 4; c++) m[c * 4 + 2] = m[c * 4 + 3] - m[c * 4 + 2];
  return m;
}

/**
 * View → clip matrix, always reverse-Z (NDC depth 1 at the near plane, 0 at the far plane) whatever the camera: a
 * standard-depth matrix camera's projection is z-flipped, so every pass keeps its depth test and decodes. `aspect`
 * (width / height) is ignored by a matrix camera, whose projection carries the host's.
 */
export function getCameraProjectionMatrix(camera: Camera, aspect: number, dst?: Float32Array): Float32Array {
  if (camera.kind === 'perspective') return mat4.perspectiveReverseZ(camera.fovY, aspect, camera.near, camera.far, dst);
  if (camera.kind === 'orthographic') {
    const halfHeight = camera.height / 2;
    const halfWidth = halfHeight * aspect;
    return flipDepthInPlace(
      mat4.ortho(-halfWidth, halfWidth, -halfHeight, halfHeight, camera.near, camera.far, dst) as Float32Array,
    );
  }
  return mat4.copy(getMatrixCameraFrame(camera, 'getCameraProjectionMatrix').reverseProjection, dst) as Float32Array;
}

/** World → clip matrix (reverse-Z) for a viewport aspect ratio (width / height); a matrix camera's is multiplied in float64. */
export function getCameraViewProjectionMatrix(camera: Camera, aspect: number, dst?: Float32Array): Float32Array {
  if (camera.kind === 'matrices')
    return mat4.copy(getMatrixCameraFrame(camera, 'getCameraViewProjectionMatrix').viewProjection, dst) as Float32Array;
  const out = getCameraProjectionMatrix(camera, aspect, dst);
  return mat4.multiply(out, getCameraViewMatrix(camera), out);
}

/** How far behind an orthographic eye `getCameraViewerPosition` puts the viewer, in units of the camera's own scale. */
const orthographicViewerDistance = 1e6;

/**
 * The point shaders turn faces, billboards and splats towards (and sort splats from), written into `dst`: the eye of a
 * perspective camera. An orthographic camera's viewer is at infinity along its view axis; it stands in as a point
 * 10⁶ × (its depth range and distance from the origin) behind the eye, so the direction to it differs from the view
 * axis by about 10⁻⁶ rad anywhere in view: only faces seen that close to edge-on (no pixel wide) could turn the
 * wrong way. The shaders keep one convention (a point) for every camera.
 */
export function getCameraViewerPosition<T extends Float32Array | number[] = Float32Array>(
  camera: Camera,
  dst: T = new Float32Array(3) as T,
): T {
  if (camera.kind === 'perspective') {
    dst[0] = camera.position[0];
    dst[1] = camera.position[1];
    dst[2] = camera.position[2];
    return dst;
  }
  let eye: ArrayLike<number>;
  let forward: ArrayLike<number>;
  let span: number;
  if (camera.kind === 'orthographic') {
    eye = camera.position;
    forward = vec3.normalize(vec3.subtract(camera.target, camera.position));
    span = camera.far - camera.near;
  } else {
    const frame = getMatrixCameraFrame(camera, 'getCameraViewerPosition');
    eye = frame.eye;
    if (frame.projectionType === 'perspective') {
      for (let k = 0; k < 3; k++) dst[k] = eye[k];
      return dst;
    }
    forward = frame.forward;
    span = Number.isFinite(frame.far) ? frame.far - frame.near : 1;
  }
  const scale = Math.max(1, Math.abs(span), Math.abs(eye[0]), Math.abs(eye[1]), Math.abs(eye[2]));
  for (let k = 0; k < 3; k++) dst[k] = eye[k] - forward[k] * orthographicViewerDistance * scale;
  return dst;
}

/**
 * The near and far plane distances along the view axis (far is Infinity for an infinite perspective projection).
 * @internal
 */
export function getCameraDepthRange(camera: Camera): { near: number; far: number } {
  if (camera.kind !== 'matrices') return { near: camera.near, far: camera.far };
  const { near, far } = getMatrixCameraFrame(camera, 'getCameraDepthRange');
  return { near, far };
}

/** Whether `value` is a camera of a kind weft draws (perspective, orthographic or matrices): pickers check options with it. */
export function isCamera(value: unknown): value is Camera {
  const kind = (value as { kind?: unknown } | null)?.kind;
  return (
    typeof value === 'object' &&
    value !== null &&
    (kind === 'perspective' || kind === 'orthographic' || kind === 'matrices')
  );
}

/** Narrows to the cameras weft places itself; a matrix camera belongs to the host, which moves it. */
function placedCamera(api: string, camera: Camera): PlacedCamera {
  if (camera?.kind === 'perspective' || camera?.kind === 'orthographic') return camera;
  if (camera?.kind === 'matrices')
    throw new EngineError(
      api,
      'unsupported',
      'a matrix camera (makeMatrixCamera) is owned by the host: move it by writing new view/projection matrices',
    );
  throw new EngineError(
    api,
    'bad-option',
    `camera ${describeValue(camera)} must be a perspective, orthographic or matrix camera`,
  );
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
  const placed = placedCamera(api, camera);
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
  placed.target.set(target);
  placed.position[0] = target[0] + orbit.radius * Math.cos(pitch) * Math.sin(orbit.yaw);
  placed.position[1] = target[1] + orbit.radius * Math.sin(pitch);
  placed.position[2] = target[2] + orbit.radius * Math.cos(pitch) * Math.cos(orbit.yaw);
  placed.up.set([0, 1, 0]);
}

/**
 * Reads the camera's current orbit parameters around its target.
 * @throws {EngineError} `unsupported` for a matrix camera (the host moves it)
 */
export function getCameraOrbit(camera: Camera): OrbitState {
  return orbitOf(placedCamera('getCameraOrbit', camera));
}

function orbitOf(camera: PlacedCamera): OrbitState {
  const offset = vec3.subtract(camera.position, camera.target);
  const radius = vec3.length(offset);
  return {
    target: Array.from(camera.target),
    radius,
    yaw: Math.atan2(offset[0], offset[2]),
    pitch: Math.asin(Math.max(-1, Math.min(1, offset[1] / radius))),
  };
}

/**
 * Rotates the camera around its target by yaw/pitch deltas (radians).
 * @throws {EngineError} `unsupported` for a matrix camera (the host moves it)
 */
export function orbitCamera(camera: Camera, deltaYaw: number, deltaPitch: number): void {
  const orbit = orbitOf(placedCamera('orbitCamera', camera));
  setCameraOrbit(camera, { ...orbit, yaw: orbit.yaw + deltaYaw, pitch: orbit.pitch + deltaPitch });
}

/**
 * Moves the camera towards (factor < 1) or away from (factor > 1) its target; an orthographic camera, whose image
 * does not change with distance, zooms instead: its `height` is multiplied by the factor.
 * @throws {EngineError} when the factor is not finite and positive; `unsupported` for a matrix camera
 */
export function dollyCamera(camera: Camera, factor: number): void {
  const placed = placedCamera('dollyCamera', camera);
  if (!(factor > 0 && Number.isFinite(factor)))
    throw new EngineError('dollyCamera', 'bad-option', `factor ${describeValue(factor)} must be a finite number > 0`);
  if (placed.kind === 'orthographic') {
    placed.height *= factor;
    return;
  }
  const orbit = orbitOf(placed);
  setCameraOrbit(camera, { ...orbit, radius: orbit.radius * factor });
}

/**
 * Slides camera and target together along the view's right and up axes (world units).
 * @throws {EngineError} `unsupported` for a matrix camera (the host moves it)
 */
export function panCamera(camera: Camera, right: number, up: number): void {
  const placed = placedCamera('panCamera', camera);
  const view = getCameraViewMatrix(placed);
  // Rows of the view rotation are the camera's right and up axes in world space.
  const offset = [view[0] * right + view[1] * up, view[4] * right + view[5] * up, view[8] * right + view[9] * up];
  vec3.add(placed.position, offset, placed.position);
  vec3.add(placed.target, offset, placed.target);
}

/**
 * Aims the camera at a box's centre from its current direction, far enough to see all of it; an orthographic camera
 * sets `height` so the box's bounding sphere fits the viewport and stands `near + 2·radius` from the centre.
 * @throws {EngineError} `unsupported` for a matrix camera (the host moves it)
 */
export function frameCameraOnBounds(camera: Camera, bounds: Aabb, aspect = 1): void {
  const placed = placedCamera('frameCameraOnBounds', camera);
  const center = aabbCenter(bounds);
  const radius = Math.max(1e-6, vec3.distance(bounds.min, bounds.max) / 2);
  const orbit = orbitOf(placed);
  if (placed.kind === 'orthographic') {
    placed.height = 2 * radius * Math.max(1, 1 / aspect);
    const distance = Math.max(placed.near, 0) + 2 * radius;
    setCameraOrbit(placed, { target: center, radius: distance, yaw: orbit.yaw, pitch: orbit.pitch });
    return;
  }
  const halfFov = Math.min(placed.fovY, 2 * Math.atan(Math.tan(placed.fovY / 2) * aspect)) / 2;
  setCameraOrbit(placed, { target: center, radius: radius / Math.sin(halfFov), yaw: orbit.yaw, pitch: orbit.pitch });
}
