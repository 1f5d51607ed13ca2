// Cameras as host matrices and orthographic pixel rays, written for the tests in float64 from the camera's parameters
// only (never through weft's camera, ray or matrix code). Column-major 4×4, right-handed, looking down −Z.
import { cross, dot, normalize, sub } from './camera-rays.js';

type Vec3 = [number, number, number];

/** What an orthographic camera is, as plain numbers (weft's OrthographicCamera has this shape). */
export interface OrthographicParameters {
  position: ArrayLike<number>;
  target: ArrayLike<number>;
  up?: ArrayLike<number>;
  height: number;
  near: number;
  far: number;
}

const vec = (a: ArrayLike<number>): Vec3 => [a[0], a[1], a[2]];

/** The look-at basis: forward = target − position, right = forward × up, up' = right × forward. */
export function lookAtBasis(position: ArrayLike<number>, target: ArrayLike<number>, up: ArrayLike<number> = [0, 1, 0]) {
  const eye = vec(position);
  const forward = normalize(sub(vec(target), eye));
  const right = normalize(cross(forward, vec(up)));
  return { eye, forward, right, up: cross(right, forward) };
}

/** World → view (look-at) in float64. */
export function lookAt64(position: ArrayLike<number>, target: ArrayLike<number>, up?: ArrayLike<number>): number[] {
  const b = lookAtBasis(position, target, up);
  const back = b.forward.map((c) => -c);
  return [
    b.right[0],
    b.up[0],
    back[0],
    0,
    b.right[1],
    b.up[1],
    back[1],
    0,
    b.right[2],
    b.up[2],
    back[2],
    0,
    -dot(b.right, b.eye),
    -dot(b.up, b.eye),
    -dot(back, b.eye),
    1,
  ];
}

/** A perspective projection: `reverse` maps near → 1 and far → 0, `standard` near → 0 and far → 1 (finite far). */
export function perspective64(fovY: number, aspect: number, near: number, far: number, depth: 'reverse' | 'standard') {
  const f = 1 / Math.tan(fovY / 2);
  const [zz, zw] =
    depth === 'reverse'
      ? [near / (far - near), (near * far) / (far - near)]
      : [far / (near - far), (near * far) / (near - far)];
  return [f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, zz, -1, 0, 0, zw, 0];
}

/** An orthographic projection spanning `height` × height·aspect around the view axis. */
export function orthographic64(
  height: number,
  aspect: number,
  near: number,
  far: number,
  depth: 'reverse' | 'standard',
) {
  const sy = 2 / height;
  const sx = sy / aspect;
  const [zz, zw] =
    depth === 'reverse' ? [1 / (far - near), far / (far - near)] : [-1 / (far - near), -near / (far - near)];
  return [sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, zz, 0, 0, 0, zw, 1];
}

/**
 * The ray of an orthographic camera through framebuffer point (sx, sy): parallel to the view axis, from the eye plane
 * (`fromNear`: from the near plane instead).
 */
export function orthographicPixelRay(
  camera: OrthographicParameters,
  sx: number,
  sy: number,
  width: number,
  height: number,
  fromNear = false,
): { origin: Vec3; direction: Vec3 } {
  const b = lookAtBasis(camera.position, camera.target, camera.up);
  const ndcX = (2 * sx) / width - 1;
  const ndcY = 1 - (2 * sy) / height;
  const across = ndcX * ((camera.height * (width / height)) / 2);
  const along = ndcY * (camera.height / 2);
  const depth = fromNear ? camera.near : 0;
  const origin = [0, 1, 2].map((k) => b.eye[k] + across * b.right[k] + along * b.up[k] + depth * b.forward[k]) as Vec3;
  return { origin, direction: b.forward };
}
