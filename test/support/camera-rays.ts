// Pixel rays and simple intersections written for the tests, independently of weft's camera and picking maths.
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

/** A look-at perspective camera's basis (world up +Y). */
export interface CameraBasis {
  position: Vec3;
  forward: Vec3;
  right: Vec3;
  up: Vec3;
  tanHalfFov: number;
  aspect: number;
}

export function cameraBasis(position: Vec3, target: Vec3, fovY: number, width: number, height: number): CameraBasis {
  const forward = normalize(sub(target, position));
  const right = normalize(cross(forward, [0, 1, 0]));
  return {
    position,
    forward,
    right,
    up: cross(right, forward),
    tanHalfFov: Math.tan(fovY / 2),
    aspect: width / height,
  };
}

/** The unit ray through the centre of pixel (px, py) of a width × height frame. */
export function pixelRay(
  camera: CameraBasis,
  px: number,
  py: number,
  width: number,
  height: number,
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
