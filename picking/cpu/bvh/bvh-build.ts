import {
  type BuildState,
  binRange,
  findBestSplit,
  growByPrim,
  partitionAndBin,
  resetBox,
  setGrid,
} from './bvh-bins.js';
import { binNode, largeNodeSize, partitionLarge, unbinnedAxis } from './bvh-large-nodes.js';
import { allocateBvhNodes, type BvhNodes, halfArea32, nodeWords, setInnerNode, setLeafNode } from './bvh-nodes.js';

/** Build parameters of the binned SAH builder. */
export interface BvhBuildOptions {
  binCount: number;
  maxLeafSize: number;
  /** SAH cost of visiting an inner node, relative to `intersectCost` per primitive. */
  traversalCost: number;
  intersectCost: number;
}

/** Grows centroid bounds (stored as min + max per axis, i.e. twice the centroid) by primitive p. */
function growCentroid(b: Float64Array, o: number, prims: Float32Array, p: number): void {
  let c = prims[p] + prims[p + 1];
  if (c < b[o]) b[o] = c;
  if (c > b[o + 1]) b[o + 1] = c;
  c = prims[p + 2] + prims[p + 3];
  if (c < b[o + 2]) b[o + 2] = c;
  if (c > b[o + 3]) b[o + 3] = c;
  c = prims[p + 4] + prims[p + 5];
  if (c < b[o + 4]) b[o + 4] = c;
  if (c > b[o + 5]) b[o + 5] = c;
}

/** No SAH split exists (all centroids coincide) yet the node is too big: halve the range; the halves bin from scratch. */
function splitInHalf(st: BuildState, slot: number, start: number, end: number): number {
  const { prims, boxes, centroid } = st;
  const mid = start + ((end - start) >> 1);
  resetBox(boxes, 6);
  resetBox(boxes, 12);
  resetBox(centroid, 0);
  resetBox(centroid, 6);
  for (let i = start; i < end; i++) {
    growByPrim(boxes, i < mid ? 6 : 12, prims, i * 6);
    growCentroid(centroid, i < mid ? 0 : 6, prims, i * 6);
  }
  setGrid(st, slot + 1, centroid, 0, mid - start);
  binRange(st, slot + 1, start, mid);
  setGrid(st, slot, centroid, 6, end - mid);
  binRange(st, slot, mid, end);
  return mid;
}

/** Grows the per-slot arrays to `slots` slots. */
function growSlots(st: BuildState, slots: number): void {
  const grow = <T extends Float64Array | Int32Array>(a: T, per: number): T => {
    const b = new (a.constructor as { new (n: number): T })(slots * per);
    b.set(a);
    return b;
  };
  st.binBoxes = grow(st.binBoxes, st.bins * 6);
  st.binCounts = grow(st.binCounts, st.bins);
  st.slotAxis = grow(st.slotAxis, 1);
  st.slotBins = grow(st.slotBins, 1);
  st.slotLo = grow(st.slotLo, 1);
  st.slotScale = grow(st.slotScale, 1);
}

/**
 * Any split costs at least traversalCost, so a node of n <= maxLeafSize primitives with intersectCost × n <= that is a
 * leaf without looking at its bins (same test, same rounding as the leaf rule in buildBvhNodes).
 */
function sureLeafSize(options: BvhBuildOptions): number {
  let n = 1;
  while (n < options.maxLeafSize && options.intersectCost * (n + 1) <= options.traversalCost) n++;
  return n;
}

/**
 * Binned SAH build (Wald 2007 style: bins on the longest centroid axis) over primitive boxes `prims` (6 floats each, interleaved per axis).
 * Reorders `prims` and `order` in place into leaf order; `order` must enter as the identity.
 * @internal
 */
export function buildBvhNodes(prims: Float32Array, order: Uint32Array, options: BvhBuildOptions): BvhNodes {
  const count = order.length;
  if (count === 0) return { ...allocateBvhNodes(0), nodeCount: 0, maxDepth: 0 };
  const bins = options.binCount;
  // At most 2 × count - 1 nodes, but leaves of several primitives make far fewer: start at count / 2, grow by doubling.
  let capacity = Math.min(2 * count - 1, Math.max(64, count >> 1));
  let { floats, ints } = allocateBvhNodes(capacity);
  const slots = 64;
  const st: BuildState = {
    prims,
    order,
    binOf: new Uint8Array(count),
    bins,
    traversalCost: options.traversalCost,
    intersectCost: options.intersectCost,
    sureLeafSize: sureLeafSize(options),
    binBoxes: new Float64Array(slots * bins * 6),
    binCounts: new Int32Array(slots * bins),
    slotAxis: new Int32Array(slots),
    slotBins: new Int32Array(slots),
    slotLo: new Float64Array(slots),
    slotScale: new Float64Array(slots),
    rightAreas: new Float64Array(bins),
    rightCounts: new Int32Array(bins),
    rightBoxes: new Float64Array(bins * 6),
    boxes: new Float64Array(18),
    centroid: new Float64Array(12),
    bestAxis: -1,
    bestBin: -1,
    bestLeftCount: 0,
  };
  resetBox(st.boxes, 0);
  resetBox(st.centroid, 0);
  for (let i = 0; i < count; i++) {
    growByPrim(st.boxes, 0, prims, i * 6);
    growCentroid(st.centroid, 0, prims, i * 6);
  }
  for (let k = 0; k < 6; k++) floats[k] = st.boxes[k];
  binNode(st, 0, st.centroid, 0, 0, count);
  // Pending nodes (node, start, end, depth), depth-first: at most depth + 1 wait; a node's bins are in its slot.
  let tasks = new Int32Array(4 * slots);
  let pending = 1;
  tasks[2] = count;
  let nodeCount = 1;
  let maxDepth = 0;
  while (pending > 0) {
    pending--;
    const slot = pending;
    const node = tasks[slot * 4];
    const start = tasks[slot * 4 + 1];
    const end = tasks[slot * 4 + 2];
    const depth = tasks[slot * 4 + 3];
    if (depth > maxDepth) maxDepth = depth;
    const n = end - start;
    const nb = node * nodeWords;
    if (st.slotAxis[slot] === unbinnedAxis) {
      // A child of a large node: its box bounds its centroids.
      for (let k = 0; k < 6; k++) st.centroid[k] = 2 * floats[nb + k];
      binNode(st, slot, st.centroid, 0, start, end);
    }
    let bestCost = Infinity;
    st.bestAxis = -1;
    if (n > 1 && st.slotAxis[slot] >= 0) bestCost = findBestSplit(st, slot, halfArea32(floats, nb));
    if (n <= 1 || (n <= options.maxLeafSize && (st.bestAxis < 0 || bestCost >= options.intersectCost * n))) {
      setLeafNode(ints, nb, start, n);
      continue;
    }
    if ((slot + 2) * 4 > tasks.length) {
      const grownTasks = new Int32Array(tasks.length * 2);
      grownTasks.set(tasks);
      tasks = grownTasks;
      growSlots(st, tasks.length / 4);
    }
    if (nodeCount + 2 > capacity) {
      capacity = Math.min(2 * count - 1, capacity * 2);
      const grown = allocateBvhNodes(capacity);
      grown.ints.set(ints);
      ({ floats, ints } = grown);
    }
    const mid =
      st.bestAxis < 0
        ? splitInHalf(st, slot, start, end)
        : n > largeNodeSize
          ? partitionLarge(st, slot, start, end)
          : partitionAndBin(st, slot, start, end);
    const child = nodeCount;
    nodeCount += 2;
    const cb = child * nodeWords;
    for (let k = 0; k < 6; k++) {
      floats[cb + k] = st.boxes[6 + k];
      floats[cb + nodeWords + k] = st.boxes[12 + k];
    }
    setInnerNode(ints, nb, child);
    // The right child takes the parent's slot (its bins are already there), the left child the next.
    tasks[slot * 4] = child + 1;
    tasks[slot * 4 + 1] = mid;
    tasks[slot * 4 + 2] = end;
    tasks[slot * 4 + 3] = depth + 1;
    tasks[slot * 4 + 4] = child;
    tasks[slot * 4 + 5] = start;
    tasks[slot * 4 + 6] = mid;
    tasks[slot * 4 + 7] = depth + 1;
    pending += 2;
  }
  const trimmed = nodeCount === capacity ? { floats, ints } : allocateBvhNodes(nodeCount);
  if (nodeCount !== capacity) trimmed.ints.set(ints.subarray(0, nodeCount * nodeWords));
  return { floats: trimmed.floats, ints: trimmed.ints, nodeCount, maxDepth };
}
