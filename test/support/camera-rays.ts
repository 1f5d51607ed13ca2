// Pixel rays, projections and simple intersections written for the tests in float64, from the camera's parameters
// only (position, target, up, fovY, near, far, viewport): never through weft's camera, ray or matrix code. Pure: no
// weft, no Node API, so a browser test can bundle it too. Conventions (DESIGN §4): right-handed, origin top-left,
// pixel (x, y) sampled at its centre (x + 0.5, y + 0.5), reverse-Z depth (1 at near, 0 at far / infinity).
type Vec3 = [number, number, number];

export const sub = (a: readonly number[], b: readonly number[]): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const add = (a: readonly number[], b: readonly number[]): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const scale = (a: readonly number[], s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: readonly number[], b: readonly number[]): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
export const normalize = (a: readonly number[]): Vec3 => scale(a, 1 / Math.hypot(a[0], a[1], a[2]));

/** What a perspective camera is, as plain numbers (weft's PerspectiveCamera has this shape). */
export interface CameraParameters {
  position: ArrayLike<number>;
  target: ArrayLike<number>;
  up?: ArrayLike<number>;
  fovY: number;
  near?: number;
  far?: number;
}

/**
 * A scene's camera as the tests hold it: perspective parameters, or another kind these helpers refuse at run time
 * (orthographic and matrix cameras have their own references in the tests that use them).
 */
export type SceneCameraParameters = CameraParameters | { kind: 'orthographic' | 'matrices' };

function perspectiveParameters(camera: SceneCameraParameters): CameraParameters {
  const kind = (camera as { kind?: string }).kind;
  if (kind !== undefined && kind !== 'perspective')
    throw new Error(`camera-rays: a ${kind} camera has no perspective parameters`);
  return camera as CameraParameters;
}

/** A look-at perspective camera's orthonormal basis in float64, for one viewport. */
export interface CameraBasis {
  position: Vec3;
  forward: Vec3;
  right: Vec3;
  up: Vec3;
  tanHalfFov: number;
  aspect: number;
  near: number;
  far: number;
  width: number;
  height: number;
}

const vec = (a: ArrayLike<number>): Vec3 => [a[0], a[1], a[2]];

/** The float64 basis of a camera for a width × height framebuffer (look-at: right = forward × up). */
export function makeFloat64Camera(sceneCamera: SceneCameraParameters, width: number, height: number): CameraBasis {
  const camera = perspectiveParameters(sceneCamera);
  if (!(width > 0 && height > 0)) throw new Error(`makeFloat64Camera: viewport ${width}x${height} must be positive`);
  const position = vec(camera.position);
  const forward = normalize(sub(vec(camera.target), position));
  const right = normalize(cross(forward, camera.up ? vec(camera.up) : [0, 1, 0]));
  return {
    position,
    forward,
    right,
    up: cross(right, forward),
    tanHalfFov: Math.tan(camera.fovY / 2),
    aspect: width / height,
    near: camera.near ?? 0.1,
    far: camera.far ?? Infinity,
    width,
    height,
  };
}

/** A camera basis with world up +Y (kept for the entity tests that pass position, target and fov directly). */
export function cameraBasis(position: Vec3, target: Vec3, fovY: number, width: number, height: number): CameraBasis {
  return makeFloat64Camera({ position, target, fovY }, width, height);
}

/**
 * The unit ray from the eye through framebuffer point (px + 0.5, py + 0.5): for integer (px, py) the centre of that
 * pixel. `width`/`height` default to the basis's viewport.
 */
export function pixelRay(
  camera: CameraBasis,
  px: number,
  py: number,
  width = camera.width,
  height = camera.height,
): { origin: Vec3; direction: Vec3 } {
  const ndcX = ((px + 0.5) / width) * 2 - 1;
  const ndcY = 1 - ((py + 0.5) / height) * 2;
  const direction = normalize(
    add(
      camera.forward,
      add(scale(camera.right, ndcX * camera.tanHalfFov * camera.aspect), scale(camera.up, ndcY * camera.tanHalfFov)),
    ),
  );
  return { origin: camera.position, direction };
}

/** The ray through the centre of pixel (x, y) of a camera given by its parameters. */
export function cameraPixelRay(
  camera: SceneCameraParameters,
  x: number,
  y: number,
  width: number,
  height: number,
): { origin: Vec3; direction: Vec3 } {
  return pixelRay(makeFloat64Camera(camera, width, height), x, y);
}

/** A world point in view space: x right, y up, depth = distance along forward (positive in front). */
export function toView(camera: CameraBasis, p: readonly number[]): Vec3 {
  const d = sub(p, camera.position);
  return [dot(d, camera.right), dot(d, camera.up), dot(d, camera.forward)];
}

/** View-space point → framebuffer position (top-left origin, pixel centres at +0.5) and reverse-Z NDC depth. */
export function viewToPixel(camera: CameraBasis, v: readonly number[]): { x: number; y: number; depth: number } {
  const ndcX = v[0] / (v[2] * camera.tanHalfFov * camera.aspect);
  const ndcY = v[1] / (v[2] * camera.tanHalfFov);
  const { near, far } = camera;
  // Reverse-Z: depth = a + b / z with depth(near) = 1, depth(far) = 0 (a = 0, b = near for an infinite far plane).
  const depth = Number.isFinite(far) ? (near * far) / ((far - near) * v[2]) - near / (far - near) : near / v[2];
  return { x: ((ndcX + 1) / 2) * camera.width, y: ((1 - ndcY) / 2) * camera.height, depth };
}

/** A world point → framebuffer position and reverse-Z depth (null behind the eye). */
export function projectToPixel(
  camera: CameraBasis,
  p: readonly number[],
): { x: number; y: number; depth: number } | null {
  const v = toView(camera, p);
  return v[2] > 0 ? viewToPixel(camera, v) : null;
}

/** Ray parameter where the ray enters an axis-aligned box (slab test), and the smallest margin to a face edge; null on a miss. */
export function rayBox(
  ray: { origin: Vec3; direction: Vec3 },
  min: Vec3,
  max: Vec3,
): { t: number; margin: number } | null {
  let near = -Infinity;
  let far = Infinity;
  for (let a = 0; a < 3; a++) {
    const t0 = (min[a] - ray.origin[a]) / ray.direction[a];
    const t1 = (max[a] - ray.origin[a]) / ray.direction[a];
    near = Math.max(near, Math.min(t0, t1));
    far = Math.min(far, Math.max(t0, t1));
  }
  if (near > far || far < 0) return null;
  const p = add(ray.origin, scale(ray.direction, near));
  // Distance of the entry point from the entered face's border, along the face's two axes.
  let margin = Infinity;
  for (let a = 0; a < 3; a++) {
    const onFace = Math.abs(p[a] - min[a]) < 1e-6 || Math.abs(p[a] - max[a]) < 1e-6;
    if (!onFace) margin = Math.min(margin, p[a] - min[a], max[a] - p[a]);
  }
  return { t: near, margin };
}
