/** Axis-aligned box; an empty box has min > max. */
export interface Aabb {
  min: [number, number, number];
  max: [number, number, number];
}

/** @internal A box that contains nothing (the identity of `unionAabb`). */
export function makeEmptyAabb(): Aabb {
  return { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
}

/** @internal Bounds of xyz triples in a tight Float32Array. */
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

/** @internal Grows `target` to contain `other`; returns `target`. */
export function unionAabb(target: Aabb, other: Aabb): Aabb {
  for (let c = 0; c < 3; c++) {
    target.min[c] = Math.min(target.min[c], other.min[c]);
    target.max[c] = Math.max(target.max[c], other.max[c]);
  }
  return target;
}

/**
 * Bounds of `box` after an affine transform: centre transformed, extents through |M| (same as all eight corners).
 * @internal
 */
export function transformAabb(box: Aabb, matrix: ArrayLike<number>, out: Aabb = makeEmptyAabb()): Aabb {
  if (box.min[0] > box.max[0]) {
    out.min.fill(Infinity);
    out.max.fill(-Infinity);
    return out;
  }
  const cx = (box.min[0] + box.max[0]) / 2;
  const cy = (box.min[1] + box.max[1]) / 2;
  const cz = (box.min[2] + box.max[2]) / 2;
  const ex = (box.max[0] - box.min[0]) / 2;
  const ey = (box.max[1] - box.min[1]) / 2;
  const ez = (box.max[2] - box.min[2]) / 2;
  for (let r = 0; r < 3; r++) {
    const centre = matrix[r] * cx + matrix[4 + r] * cy + matrix[8 + r] * cz + matrix[12 + r];
    const extent = Math.abs(matrix[r]) * ex + Math.abs(matrix[4 + r]) * ey + Math.abs(matrix[8 + r]) * ez;
    out.min[r] = centre - extent;
    out.max[r] = centre + extent;
  }
  return out;
}

/** @internal Distance along a ray (unit or not) to where it enters the box, or -1 when it misses (slab test). */
export function intersectRayAabb(origin: ArrayLike<number>, inverseDirection: ArrayLike<number>, box: Aabb): number {
  let near = 0;
  let far = Infinity;
  for (let c = 0; c < 3; c++) {
    const a = (box.min[c] - origin[c]) * inverseDirection[c];
    const b = (box.max[c] - origin[c]) * inverseDirection[c];
    // NaN (0 × Infinity when the origin lies on a slab plane) fails both tests and rejects nothing.
    if (a < b) {
      if (a > near) near = a;
      if (b < far) far = b;
    } else {
      if (b > near) near = b;
      if (a < far) far = a;
    }
    if (near > far) return -1;
  }
  return near;
}

/** @internal Centre point of a box. */
export function aabbCenter(box: Aabb): [number, number, number] {
  return [(box.min[0] + box.max[0]) / 2, (box.min[1] + box.max[1]) / 2, (box.min[2] + box.max[2]) / 2];
}
