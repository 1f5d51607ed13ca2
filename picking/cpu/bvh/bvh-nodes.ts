/** @internal Words (4 bytes each) per node: 6 float32 bounds, then two int32 links. */
export const nodeWords = 8;

/**
 * Flat BVH nodes, 32 bytes each. Words 0..5: float32 bounds interleaved per axis
 * (minX, maxX, minY, maxY, minZ, maxZ). Word 6: first child (inner node; its sibling is first + 1)
 * or first primitive in leaf order (leaf). Word 7: primitive count (leaf, ≥ 1) or 0 (inner node).
 * Children always have larger indices than their parent, so a reverse sweep refits bottom-up.
 * @internal
 */
export interface BvhNodes {
  floats: Float32Array;
  ints: Int32Array;
  nodeCount: number;
  /** Edges on the longest root-to-leaf path (sizes traversal stacks). */
  maxDepth: number;
}

/** @internal Allocates `count` zeroed nodes. */
export function allocateBvhNodes(count: number): Pick<BvhNodes, 'floats' | 'ints'> {
  const buffer = new ArrayBuffer(count * nodeWords * 4);
  return { floats: new Float32Array(buffer), ints: new Int32Array(buffer) };
}

/** @internal Half the surface area of the box at `b[o..o+6]`. */
export function halfArea32(b: Float32Array, o: number): number {
  const x = b[o + 1] - b[o];
  const y = b[o + 3] - b[o + 2];
  const z = b[o + 5] - b[o + 4];
  return x * y + y * z + z * x;
}

/** @internal Sets inner node `node`'s bounds to the union of its two children. */
export function unionChildBounds(floats: Float32Array, ints: Int32Array, node: number): void {
  const o = node * nodeWords;
  const a = ints[o + 6] * nodeWords;
  const b = a + nodeWords;
  for (let k = 0; k < 6; k += 2) {
    floats[o + k] = Math.min(floats[a + k], floats[b + k]);
    floats[o + k + 1] = Math.max(floats[a + k + 1], floats[b + k + 1]);
  }
}

/**
 * Expected cost of a ray that hits the root box: every inner node visited costs two child box tests,
 * every leaf visited costs one test per primitive, each weighted by its area relative to the root.
 * @internal
 */
export function bvhSahCost(nodes: BvhNodes): number {
  const { floats, ints, nodeCount } = nodes;
  if (nodeCount === 0) return 0;
  const rootArea = halfArea32(floats, 0);
  if (!(rootArea > 0)) return Infinity;
  let cost = 0;
  for (let n = 0; n < nodeCount; n++) {
    const o = n * nodeWords;
    const area = halfArea32(floats, o);
    const weight = area > 0 ? area / rootArea : 0; // an empty box (all entries invalid) is never entered
    cost += weight * (ints[o + 7] === 0 ? 2 : ints[o + 7]);
  }
  return cost;
}
