// Screen ↔ world maths of the editor: rays through CSS pixels, projection, closest points, plane hits.
import { mat4, vec3, vec4 } from 'wgpu-matrix';

type Vec3 = Float32Array | number[];

/** A world-space ray; `direction` is unit length. */
export interface Ray {
  origin: Float32Array;
  direction: Float32Array;
}

/** The viewport a CSS pixel refers to: size in CSS pixels and the view-projection drawn with. */
export interface ScreenView {
  cssWidth: number;
  cssHeight: number;
  viewProjection: Float32Array;
  /** Inverse of `viewProjection`. */
  inverse: Float32Array;
  cameraPosition: Float32Array;
  /** Unit viewing direction of the camera. */
  forward: Float32Array;
}

/** Makes a ScreenView from a camera's view-projection, position and target (the inverse is computed once). */
export function makeScreenView(
  viewProjection: Float32Array,
  cameraPosition: Vec3,
  cameraTarget: Vec3,
  cssWidth: number,
  cssHeight: number,
): ScreenView {
  const forward = vec3.normalize(vec3.subtract(cameraTarget, cameraPosition, vec3.create()), vec3.create());
  return {
    cssWidth,
    cssHeight,
    viewProjection,
    inverse: mat4.inverse(viewProjection),
    cameraPosition: Float32Array.from(cameraPosition),
    forward,
  };
}

/** The ray from the camera through CSS pixel (x, y) (sub-pixel positions allowed; reverse-Z near plane at NDC z = 1). */
export function screenRay(view: ScreenView, x: number, y: number, out?: Ray): Ray {
  const ndc = vec4.create((x / view.cssWidth) * 2 - 1, 1 - (y / view.cssHeight) * 2, 1, 1);
  const p = vec4.transformMat4(ndc, view.inverse, ndc);
  const ray = out ?? { origin: vec3.create(), direction: vec3.create() };
  vec3.copy(view.cameraPosition, ray.origin);
  vec3.set(p[0] / p[3] - ray.origin[0], p[1] / p[3] - ray.origin[1], p[2] / p[3] - ray.origin[2], ray.direction);
  vec3.normalize(ray.direction, ray.direction);
  return ray;
}

/** CSS pixel of a world point, and its clip w (negative behind the camera). */
export function projectToScreen(view: ScreenView, point: Vec3): { x: number; y: number; w: number } {
  const p = vec4.transformMat4([point[0], point[1], point[2], 1], view.viewProjection);
  return { x: ((p[0] / p[3] + 1) / 2) * view.cssWidth, y: ((1 - p[1] / p[3]) / 2) * view.cssHeight, w: p[3] };
}

/** Parameter t of the point on the line `origin + t·axis` (axis unit) closest to the ray; null when parallel. */
export function closestAxisParameter(origin: Vec3, axis: Vec3, ray: Ray): number | null {
  const b = vec3.dot(axis, ray.direction);
  const denominator = 1 - b * b;
  if (denominator < 1e-6) return null;
  const w = vec3.subtract(origin, ray.origin);
  const d = vec3.dot(axis, w);
  const e = vec3.dot(ray.direction, w);
  return (b * e - d) / denominator;
}

/** Where the ray meets the plane through `point` with `normal`; null when parallel or behind the origin. */
export function intersectRayPlane(ray: Ray, point: Vec3, normal: Vec3, out = vec3.create()): Float32Array | null {
  const facing = vec3.dot(normal, ray.direction);
  if (Math.abs(facing) < 1e-8) return null;
  const t = vec3.dot(normal, vec3.subtract(point, ray.origin)) / facing;
  if (t < 0) return null;
  return vec3.addScaled(ray.origin, ray.direction, t, out);
}

/** Signed angle from `from` to `to` about `axis` (all world vectors; right-handed). */
export function signedAngleAbout(axis: Vec3, from: Vec3, to: Vec3): number {
  return Math.atan2(vec3.dot(axis, vec3.cross(from, to)), vec3.dot(from, to));
}

/** World length that covers one CSS pixel at `distance` from a camera with vertical fov `fovY`. */
export function worldPerPixel(distance: number, fovY: number, cssHeight: number): number {
  return (2 * distance * Math.tan(fovY / 2)) / cssHeight;
}
