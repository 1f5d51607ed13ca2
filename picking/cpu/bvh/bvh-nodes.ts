/** @internal Words (4 bytes each) per node: 6 float32 bounds, then two int32 links. */
export const nodeWords = 8;

/**
 * Word of a node's link: its first child (inner node; the sibling is first + 1) or its first primitive (leaf).
 * @internal
 */
export const nodeFirstWord = 6;

/** @internal Word of a node's primitive count: ≥ 1 for a leaf, 0 for an inner node. */
export const nodeCountWord = 7;

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

// Node `o` below is a word offset (node index × nodeWords). The hot loops (queries, refits, scene walks) read
// `ints[o + nodeFirstWord]` / `ints[o + nodeCountWord]` directly; the rest read through these.

/** @internal Node `o`'s first child (inner node) or first primitive in leaf order (leaf). */
export function nodeFirst(ints: Int32Array, o: number): number {
  return ints[o + nodeFirstWord];
}

/** @internal Node `o`'s primitive count: 0 for an inner node. */
export function nodeLeafCount(ints: Int32Array, o: number): number {
  return ints[o + nodeCountWord];
}

/** @internal Whether node `o` is a leaf (holds primitives rather than two children). */
export function isLeafNode(ints: Int32Array, o: number): boolean {
  return ints[o + nodeCountWord] !== 0;
}

/** @internal Makes node `o` a leaf of primitives first .. first + count - 1 (count ≥ 1) in leaf order. */
export function setLeafNode(ints: Int32Array, o: number, first: number, count: number): void {
  ints[o + nodeFirstWord] = first;
  ints[o + nodeCountWord] = count;
}

/** @internal Makes node `o` an inner node whose children are `firstChild` and `firstChild + 1`. */
export function setInnerNode(ints: Int32Array, o: number, firstChild: number): void {
  ints[o + nodeFirstWord] = firstChild;
  ints[o + nodeCountWord] = 0;
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
  const a = nodeFirst(ints, o) * nodeWords;
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
    const count = nodeLeafCount(ints, o);
    cost += weight * (count === 0 ? 2 : count);
  }
  return cost;
}
