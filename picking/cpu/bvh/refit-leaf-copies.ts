// The leaf passes of a whole refit for the BVH layouts that keep a leaf copy (triangle-bvh-refit.ts): each re-copies
// its leaves' triangles or indices and bounds the leaves in the same pass.
import { nodeCountWord, nodeFirstWord, nodeWords } from './bvh-nodes.js';
import type { FloatTriangleBvh } from './triangle-bvh.js';

/**
 * @internal Leaves of the indexed BVH with a triangle copy: re-copies each leaf's triangles from the positions and bounds
 * them in the same pass (one read of the positions, one write of the copy, in leaf order).
 */
export function refitIndexedLeavesWithCopy(
  bvh: FloatTriangleBvh,
  T: Float32Array,
  idx: Uint16Array | Uint32Array,
): void {
  const { floats, ints, nodeCount } = bvh.nodes;
  const { positions: P, faceIds } = bvh;
  // Twin of picking/cpu/bvh/triangle-bvh-refit.ts:refitLeaf (kept equal by test/unit/cpu-picking/partial-refit.test.ts: equal to a whole refit, node for node; non-indexed geometry too)
  for (let n = 0; n < nodeCount; n++) {
    const o = n * nodeWords;
    const count = ints[o + nodeCountWord];
    if (count === 0) continue;
    let x0 = Infinity;
    let x1 = -Infinity;
    let y0 = Infinity;
    let y1 = -Infinity;
    let z0 = Infinity;
    let z1 = -Infinity;
    for (let i = ints[o + nodeFirstWord], end = i + count, b = i * 9; i < end; i++) {
      const f = faceIds[i] * 3;
      for (let k = 0; k < 3; k++, b += 3) {
        const v = idx[f + k] * 3;
        const x = P[v];
        const y = P[v + 1];
        const z = P[v + 2];
        T[b] = x;
        T[b + 1] = y;
        T[b + 2] = z;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
        if (z < z0) z0 = z;
        if (z > z1) z1 = z;
      }
    }
    floats[o] = x0;
    floats[o + 1] = x1;
    floats[o + 2] = y0;
    floats[o + 3] = y1;
    floats[o + 4] = z0;
    floats[o + 5] = z1;
  }
}

/**
 * @internal Leaves of the BVH with a leaf index copy: re-copies each leaf's vertex indices from the mesh's index (it may be a new
 * array) and bounds the leaf from the positions in the same pass.
 */
export function refitLeavesWithIndexCopy(bvh: FloatTriangleBvh, L: Uint16Array | Uint32Array): void {
  const { floats, ints, nodeCount } = bvh.nodes;
  const { positions: P, faceIds, indices: idx } = bvh;
  // Twin of picking/cpu/bvh/triangle-bvh-refit.ts:refitLeaf (kept equal by test/unit/cpu-picking/partial-refit.test.ts: equal to a whole refit, node for node; non-indexed geometry too)
  for (let n = 0; n < nodeCount; n++) {
    const o = n * nodeWords;
    const count = ints[o + nodeCountWord];
    if (count === 0) continue;
    let x0 = Infinity;
    let x1 = -Infinity;
    let y0 = Infinity;
    let y1 = -Infinity;
    let z0 = Infinity;
    let z1 = -Infinity;
    for (let i = ints[o + nodeFirstWord], end = i + count, b = i * 3; i < end; i++) {
      const f = faceIds[i] * 3;
      for (let k = 0; k < 3; k++, b++) {
        const vertex = idx === null ? f + k : idx[f + k];
        L[b] = vertex;
        const v = vertex * 3;
        const x = P[v];
        const y = P[v + 1];
        const z = P[v + 2];
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
        if (z < z0) z0 = z;
        if (z > z1) z1 = z;
      }
    }
    floats[o] = x0;
    floats[o + 1] = x1;
    floats[o + 2] = y0;
    floats[o + 3] = y1;
    floats[o + 4] = z0;
    floats[o + 5] = z1;
  }
}
