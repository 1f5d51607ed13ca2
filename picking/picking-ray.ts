import { describeValue } from '../core/errors.js';
import { type Camera, getCameraViewProjectionMatrix, type PlacedCamera } from '../engine/camera.js';
import { PickError } from './pick-errors.js';
import { makeMatrixCameraRay } from './projected-rays.js';

type Vec3 = [number, number, number];

/** A world-space ray through a point of the framebuffer, shared by the GPU and CPU pickers. */
export interface PickingRay {
  origin: Vec3;
  /** Unit length. */
  direction: Vec3;
  /** The framebuffer pixel the ray goes through (integer indices, origin top-left). */
  pixelX: number;
  pixelY: number;
  /**
   * The framebuffer point the ray goes through (backing pixels, origin top-left): the pixel centre
   * (pixelX + 0.5, pixelY + 0.5), or the exact point of a `subpixel` pick.
   */
  sampleX: number;
  sampleY: number;
  /**
   * The view-projection the renderer draws with for this camera and viewport (float32, as uploaded). Rays of one
   * camera state share it: read it, do not modify it.
   */
  viewProjection: Float32Array;
  width: number;
  height: number;
}

/** The framebuffer a pick refers to, in backing pixels; `devicePixelRatio` converts CSS input. */
export interface PickViewport {
  width: number;
  height: number;
  /** When given, x and y are CSS pixels and are multiplied by it. */
  devicePixelRatio?: number;
}

function checkViewport(api: string, viewport: PickViewport): number {
  const { width, height } = viewport;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new PickError(
      api,
      'bad-option',
      `viewport ${describeValue(width)}×${describeValue(height)} must be positive integers (backing pixels)`,
    );
  }
  const ratio = viewport.devicePixelRatio ?? 1;
  if (!(ratio > 0) || !Number.isFinite(ratio))
    throw new PickError(api, 'bad-option', `devicePixelRatio ${describeValue(ratio)} must be a finite number > 0`);
  return ratio;
}

/**
 * Converts caller coordinates to the framebuffer point a pick samples (backing pixels, origin top-left):
 * - default: the centre of the pixel (x, y) falls in, (floor(x·ratio) + 0.5, floor(y·ratio) + 0.5);
 * - `subpixel`: exactly (x·ratio, y·ratio), so pixel i spans i .. i + 1 and its centre is i + 0.5.
 * Bad input throws a PickError naming `api`, and `points[pointIndex]` when a multi-point call gives the point's index.
 * @internal
 */
export function toFramebufferSample(
  api: string,
  x: number,
  y: number,
  viewport: PickViewport,
  pointIndex?: number,
  subpixel = false,
): [number, number] {
  const { width, height } = viewport;
  const ratio = checkViewport(api, viewport);
  const point = pointIndex === undefined ? '' : `points[${pointIndex}]: `;
  if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y))
    throw new PickError(
      api,
      'bad-coordinates',
      `${point}coordinates (${describeValue(x)}, ${describeValue(y)}) must be finite numbers`,
    );
  const sx = x * ratio;
  const sy = y * ratio;
  if (!(sx >= 0 && sy >= 0 && sx < width && sy < height)) {
    throw new PickError(
      api,
      'out-of-range',
      `${point}${subpixel ? 'point' : 'pixel'} (${describeValue(x)}, ${describeValue(y)})${ratio !== 1 ? ` × ratio ${ratio}` : ''} is outside the ${width}×${height} framebuffer (${subpixel ? `0 ≤ x < ${width}, 0 ≤ y < ${height}` : `0..${width - 1}, 0..${height - 1}`})`,
    );
  }
  return subpixel ? [sx, sy] : [Math.floor(sx) + 0.5, Math.floor(sy) + 0.5];
}

/**
 * Converts caller coordinates to the framebuffer pixel they fall in; bad input throws a PickError naming `api`, and
 * `points[pointIndex]` when a multi-point call gives the point's index.
 * @internal
 */
export function toFramebufferPixel(
  api: string,
  x: number,
  y: number,
  viewport: PickViewport,
  pointIndex?: number,
): [number, number] {
  const [sx, sy] = toFramebufferSample(api, x, y, viewport, pointIndex);
  return [sx - 0.5, sy - 0.5];
}

/**
 * What a ray needs of a camera, in float64: eye, the view basis (right, up, forward), tan(fovY / 2) (perspective), and
 * the float32 view-projection the renderer uploads for the last aspect. Rebuilt when a parameter changes (compared by
 * value; key[9] is fovY or an orthographic camera's height).
 */
interface CameraBasis {
  key: Float64Array;
  eye: Vec3;
  right: Vec3;
  up: Vec3;
  forward: Vec3;
  tanHalfFovY: number;
  width: number;
  height: number;
  viewProjection: Float32Array | null;
}

let bases: WeakMap<PlacedCamera, CameraBasis> | undefined;
/** The last camera asked for and its basis: a burst of rays from one camera skips the WeakMap. */
let lastCamera: PlacedCamera | null = null;
let lastBasis: CameraBasis | null = null;

function normalised(v: Vec3): Vec3 {
  const length = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / length, v[1] / length, v[2] / length];
}

function crossed(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function basisMatches(key: Float64Array, camera: PlacedCamera): boolean {
  const { position: p, target: t, up: u } = camera;
  return (
    key[0] === p[0] &&
    key[1] === p[1] &&
    key[2] === p[2] &&
    key[3] === t[0] &&
    key[4] === t[1] &&
    key[5] === t[2] &&
    key[6] === u[0] &&
    key[7] === u[1] &&
    key[8] === u[2] &&
    key[9] === (camera.kind === 'perspective' ? camera.fovY : camera.height) &&
    key[10] === camera.near &&
    key[11] === camera.far
  );
}

/** The camera's view basis in float64, the same frame `mat4.lookAt` builds (right = up × back, up = back × right). */
function cameraBasis(camera: PlacedCamera): CameraBasis {
  if (camera === lastCamera && basisMatches(lastBasis!.key, camera)) return lastBasis!;
  bases ??= new WeakMap();
  const known = bases.get(camera);
  if (known && basisMatches(known.key, camera)) {
    lastCamera = camera;
    lastBasis = known;
    return known;
  }
  const { position: p, target: t, up: u } = camera;
  const eye: Vec3 = [p[0], p[1], p[2]];
  const forward = normalised([t[0] - p[0], t[1] - p[1], t[2] - p[2]]);
  const right = normalised(crossed(forward, [u[0], u[1], u[2]]));
  const basis: CameraBasis = {
    key: Float64Array.of(
      p[0],
      p[1],
      p[2],
      t[0],
      t[1],
      t[2],
      u[0],
      u[1],
      u[2],
      camera.kind === 'perspective' ? camera.fovY : camera.height,
      camera.near,
      camera.far,
    ),
    eye,
    right,
    up: crossed(right, forward),
    forward,
    tanHalfFovY: camera.kind === 'perspective' ? Math.tan(camera.fovY / 2) : 0,
    width: 0,
    height: 0,
    viewProjection: null,
  };
  bases.set(camera, basis);
  lastCamera = camera;
  lastBasis = basis;
  return basis;
}

/** Cosine between a ray of a perspective `camera` and its view axis: near/far planes lie at near / cos, far / cos along the ray. */
function cameraAxisCosine(camera: PlacedCamera, direction: readonly number[]): number {
  const f = cameraBasis(camera).forward;
  return direction[0] * f[0] + direction[1] * f[1] + direction[2] * f[2];
}

/**
 * Writes the distances along `ray` (a ray of `camera` from `makePickingRay`) where the near and far planes lie: what
 * the pick pass's depth clipping keeps. Perspective: near / cos θ, far / cos θ; orthographic: near, far (its rays are
 * parallel to the view axis and start on the eye plane); matrix camera: from the ray's unprojected near/far points.
 * @internal
 */
export function cameraRayRange(
  camera: Camera,
  ray: PickingRay,
  range: { near: number; far: number },
  api = 'cameraRayRange',
): void {
  if (camera.kind === 'perspective') {
    const cos = cameraAxisCosine(camera, ray.direction);
    range.near = camera.near / cos;
    range.far = Number.isFinite(camera.far) ? camera.far / cos : Infinity;
  } else if (camera.kind === 'orthographic') {
    range.near = camera.near;
    range.far = camera.far;
  } else {
    const { near, far } = makeMatrixCameraRay(
      camera,
      (2 * ray.sampleX) / ray.width - 1,
      1 - (2 * ray.sampleY) / ray.height,
      api,
    );
    range.near = near;
    range.far = far;
  }
}

/**
 * The ray from the camera through a framebuffer point, built in float64 from the camera's own parameters (eye,
 * target, up, fovY and the viewport's aspect) — no matrix inverse: direction = forward + ndcX·aspect·tan(fovY/2)·right
 * + ndcY·tan(fovY/2)·up, normalised, with NDC y up. Orthographic: direction = forward, origin = eye +
 * ndcX·(height·aspect/2)·right + ndcY·(height/2)·up. Matrix camera: the NDC point unprojected at depth 1 and 0 through
 * the float64 inverse of its reverse-Z projection × view (see `makeMatrixCameraRay`). The point is the centre of pixel (x, y) by default, or exactly
 * (x, y) with `subpixel` (see `toFramebufferSample`). Bad input throws a PickError naming the calling `api` (and
 * `points[pointIndex]` for a multi-point call).
 */
export function makePickingRay(
  camera: Camera,
  x: number,
  y: number,
  viewport: PickViewport,
  api = 'makePickingRay',
  pointIndex?: number,
  subpixel = false,
): PickingRay {
  const { width, height } = viewport;
  let sampleX = x;
  let sampleY = y;
  // The common case checked inline (no tuple allocated); anything else goes through the full check and its errors.
  // Twin of picking/picking-ray.ts:toFramebufferSample (kept equal by test/unit/cpu-picking/twins.test.ts: makePickingRay samples where toFramebufferSample says)
  if (
    subpixel &&
    viewport.devicePixelRatio === undefined &&
    typeof x === 'number' &&
    typeof y === 'number' &&
    x >= 0 &&
    y >= 0 &&
    x < width &&
    y < height &&
    Number.isInteger(width) &&
    Number.isInteger(height)
  ) {
    // already exact framebuffer coordinates
  } else if (
    !subpixel &&
    viewport.devicePixelRatio === undefined &&
    Number.isInteger(x) &&
    Number.isInteger(y) &&
    x >= 0 &&
    y >= 0 &&
    x < width &&
    y < height &&
    Number.isInteger(width) &&
    Number.isInteger(height)
  ) {
    sampleX = x + 0.5;
    sampleY = y + 0.5;
  } else [sampleX, sampleY] = toFramebufferSample(api, x, y, viewport, pointIndex, subpixel);
  if (camera.kind === 'matrices') {
    const ray = makeMatrixCameraRay(camera, (2 * sampleX) / width - 1, 1 - (2 * sampleY) / height, api);
    return {
      origin: ray.origin,
      direction: ray.direction,
      pixelX: Math.floor(sampleX),
      pixelY: Math.floor(sampleY),
      sampleX,
      sampleY,
      viewProjection: ray.viewProjection,
      width,
      height,
    };
  }
  const basis = cameraBasis(camera);
  if (!basis.viewProjection || basis.width !== width || basis.height !== height) {
    basis.viewProjection = getCameraViewProjectionMatrix(camera, width / height);
    basis.width = width;
    basis.height = height;
  }
  if (camera.kind === 'orthographic') return orthographicRay(camera, basis, sampleX, sampleY, width, height);
  const vy = (1 - (2 * sampleY) / height) * basis.tanHalfFovY;
  const vx = ((2 * sampleX) / width - 1) * basis.tanHalfFovY * (width / height);
  const { right: r, up: u, forward: f } = basis;
  const dx = f[0] + vx * r[0] + vy * u[0];
  const dy = f[1] + vx * r[1] + vy * u[1];
  const dz = f[2] + vx * r[2] + vy * u[2];
  const length = Math.sqrt(dx * dx + dy * dy + dz * dz);
  return {
    origin: [basis.eye[0], basis.eye[1], basis.eye[2]],
    direction: [dx / length, dy / length, dz / length],
    pixelX: Math.floor(sampleX),
    pixelY: Math.floor(sampleY),
    sampleX,
    sampleY,
    viewProjection: basis.viewProjection,
    width,
    height,
  };
}

/** An orthographic camera's ray: parallel to the view axis, from the eye plane point under the sample. */
function orthographicRay(
  camera: PlacedCamera & { kind: 'orthographic' },
  basis: CameraBasis,
  sampleX: number,
  sampleY: number,
  width: number,
  height: number,
): PickingRay {
  const sy = (1 - (2 * sampleY) / height) * (camera.height / 2);
  const sx = ((2 * sampleX) / width - 1) * (camera.height / 2) * (width / height);
  const { eye: e, right: r, up: u, forward: f } = basis;
  return {
    origin: [e[0] + sx * r[0] + sy * u[0], e[1] + sx * r[1] + sy * u[1], e[2] + sx * r[2] + sy * u[2]],
    direction: [f[0], f[1], f[2]],
    pixelX: Math.floor(sampleX),
    pixelY: Math.floor(sampleY),
    sampleX,
    sampleY,
    viewProjection: basis.viewProjection!,
    width,
    height,
  };
}
