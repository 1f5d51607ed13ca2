import { vec3 } from 'wgpu-matrix';

/** Axis-aligned box; an empty box has min > max. */
export interface Aabb {
  min: [number, number, number];
  max: [number, number, number];
}

/** A box that contains nothing (the identity of `unionAabb`). */
export function makeEmptyAabb(): Aabb {
  return { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
}

/** Bounds of xyz triples in a tight Float32Array. */
export function computePositionsAabb(positions: Float32Array): Aabb {
  const box = makeEmptyAabb();
  for (let i = 0; i < positions.length; i += 3) {
    for (let c = 0; c < 3; c++) {
      const value = positions[i + c];
      if (value < box.min[c]) box.min[c] = value;
      if (value > box.max[c]) box.max[c] = value;
    }
  }
  return box;
}

/** Grows `target` to contain `other`; returns `target`. */
export function unionAabb(target: Aabb, other: Aabb): Aabb {
  for (let c = 0; c < 3; c++) {
    target.min[c] = Math.min(target.min[c], other.min[c]);
    target.max[c] = Math.max(target.max[c], other.max[c]);
  }
  return target;
}

/** Bounds of `box` after an affine transform (all eight corners, so rotations stay conservative). */
export function transformAabb(box: Aabb, matrix: Float32Array): Aabb {
  const out = makeEmptyAabb();
  if (box.min[0] > box.max[0]) return out;
  const corner = vec3.create();
  for (let i = 0; i < 8; i++) {
    corner[0] = i & 1 ? box.max[0] : box.min[0];
    corner[1] = i & 2 ? box.max[1] : box.min[1];
    corner[2] = i & 4 ? box.max[2] : box.min[2];
    vec3.transformMat4(corner, matrix, corner);
    for (let c = 0; c < 3; c++) {
      out.min[c] = Math.min(out.min[c], corner[c]);
      out.max[c] = Math.max(out.max[c], corner[c]);
    }
  }
  return out;
}

/** Centre point of a box. */
export function aabbCenter(box: Aabb): [number, number, number] {
  return [(box.min[0] + box.max[0]) / 2, (box.min[1] + box.max[1]) / 2, (box.min[2] + box.max[2]) / 2];
}
