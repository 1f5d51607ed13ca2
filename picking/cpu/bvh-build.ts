import { allocateBvhNodes, type BvhNodes, halfArea32, nodeWords } from './bvh-nodes.js';

/** Build parameters of the binned SAH builder. */
export interface BvhBuildOptions {
  binCount: number;
  maxLeafSize: number;
  /** SAH cost of visiting an inner node, relative to `intersectCost` per primitive. */
  traversalCost: number;
  intersectCost: number;
}

function resetBox(b: Float64Array, o: number): void {
  b[o] = Infinity;
  b[o + 1] = -Infinity;
  b[o + 2] = Infinity;
  b[o + 3] = -Infinity;
  b[o + 4] = Infinity;
  b[o + 5] = -Infinity;
}

// Two monomorphic copies (Float32 source, Float64 source): a polymorphic typed-array read is several times slower.
function growByPrim(b: Float64Array, o: number, src: Float32Array, s: number): void {
  if (src[s] < b[o]) b[o] = src[s];
  if (src[s + 1] > b[o + 1]) b[o + 1] = src[s + 1];
  if (src[s + 2] < b[o + 2]) b[o + 2] = src[s + 2];
  if (src[s + 3] > b[o + 3]) b[o + 3] = src[s + 3];
  if (src[s + 4] < b[o + 4]) b[o + 4] = src[s + 4];
  if (src[s + 5] > b[o + 5]) b[o + 5] = src[s + 5];
}

function growByBox(b: Float64Array, o: number, src: Float64Array, s: number): void {
  if (src[s] < b[o]) b[o] = src[s];
  if (src[s + 1] > b[o + 1]) b[o + 1] = src[s + 1];
  if (src[s + 2] < b[o + 2]) b[o + 2] = src[s + 2];
  if (src[s + 3] > b[o + 3]) b[o + 3] = src[s + 3];
  if (src[s + 4] < b[o + 4]) b[o + 4] = src[s + 4];
  if (src[s + 5] > b[o + 5]) b[o + 5] = src[s + 5];
}

/** Grows centroid bounds (stored as min + max per axis, i.e. twice the centroid) by primitive p. */
function growCentroid(b: Float64Array, prims: Float32Array, p: number): void {
  let c = prims[p] + prims[p + 1];
  if (c < b[0]) b[0] = c;
  if (c > b[1]) b[1] = c;
  c = prims[p + 2] + prims[p + 3];
  if (c < b[2]) b[2] = c;
  if (c > b[3]) b[3] = c;
  c = prims[p + 4] + prims[p + 5];
  if (c < b[4]) b[4] = c;
  if (c > b[5]) b[5] = c;
}

function swapPrims(prims: Float32Array, order: Uint32Array, i: number, j: number): void {
  const oi = order[i];
  order[i] = order[j];
  order[j] = oi;
  const pi = i * 6;
  const pj = j * 6;
  for (let k = 0; k < 6; k++) {
    const v = prims[pi + k];
    prims[pi + k] = prims[pj + k];
    prims[pj + k] = v;
  }
}

interface BuildState {
  prims: Float32Array;
  order: Uint32Array;
  /** Bins used for the node being split: the configured count, or fewer for a small node. */
  bins: number;
  traversalCost: number;
  intersectCost: number;
  binBoxes: Float64Array;
  binCounts: Int32Array;
  rightAreas: Float64Array;
  rightCounts: Int32Array;
  /** 0: scratch box, 6: best left box, 12: best right box. */
  boxes: Float64Array;
  /** Centroid bounds (2 × centroid) of the node being split, then of its left and right halves. */
  centroid: Float64Array;
  leftCentroid: Float64Array;
  rightCentroid: Float64Array;
  bestAxis: number;
  bestBin: number;
}

/** Bins [start, end) along the longest centroid axis; returns that axis, or -1 when all centroids coincide. */
function binPrims(st: BuildState, start: number, end: number): number {
  const { prims, bins, binBoxes, binCounts, centroid } = st;
  const ex = centroid[1] - centroid[0];
  const ey = centroid[3] - centroid[2];
  const ez = centroid[5] - centroid[4];
  const axis = ex >= ey ? (ex >= ez ? 0 : 2) : ey >= ez ? 1 : 2;
  const extent = axis === 0 ? ex : axis === 1 ? ey : ez;
  if (!(extent > 0)) return -1;
  binCounts.fill(0);
  for (let b = 0; b < bins; b++) resetBox(binBoxes, b * 6);
  const lo = centroid[2 * axis];
  const scale = (bins * (1 - 1e-7)) / extent;
  const last = bins - 1;
  const ca = 2 * axis;
  for (let i = start; i < end; i++) {
    const p = i * 6;
    let b = ((prims[p + ca] + prims[p + ca + 1] - lo) * scale) | 0;
    if (b > last) b = last;
    binCounts[b]++;
    growByPrim(binBoxes, b * 6, prims, p);
  }
  return axis;
}

/** Sweeps the bins; leaves the cheapest split in st.bestAxis/bestBin and its child boxes in st.boxes[6..18]. */
function findBestSplit(st: BuildState, axis: number, parentArea: number): number {
  const { bins, binBoxes: B, binCounts, rightAreas, rightCounts, boxes, traversalCost, intersectCost } = st;
  const invArea = parentArea > 0 ? 1 / parentArea : 0;
  let x0 = Infinity,
    x1 = -Infinity,
    y0 = Infinity,
    y1 = -Infinity,
    z0 = Infinity,
    z1 = -Infinity;
  let count = 0;
  for (let b = bins - 1; b > 0; b--) {
    const o = b * 6;
    if (B[o] < x0) x0 = B[o];
    if (B[o + 1] > x1) x1 = B[o + 1];
    if (B[o + 2] < y0) y0 = B[o + 2];
    if (B[o + 3] > y1) y1 = B[o + 3];
    if (B[o + 4] < z0) z0 = B[o + 4];
    if (B[o + 5] > z1) z1 = B[o + 5];
    count += binCounts[b];
    rightCounts[b] = count;
    rightAreas[b] = count === 0 ? 0 : (x1 - x0) * (y1 - y0) + (y1 - y0) * (z1 - z0) + (z1 - z0) * (x1 - x0);
  }
  x0 = Infinity;
  x1 = -Infinity;
  y0 = Infinity;
  y1 = -Infinity;
  z0 = Infinity;
  z1 = -Infinity;
  count = 0;
  let bestCost = Infinity;
  st.bestAxis = -1;
  st.bestBin = -1;
  for (let b = 0; b < bins - 1; b++) {
    const o = b * 6;
    if (B[o] < x0) x0 = B[o];
    if (B[o + 1] > x1) x1 = B[o + 1];
    if (B[o + 2] < y0) y0 = B[o + 2];
    if (B[o + 3] > y1) y1 = B[o + 3];
    if (B[o + 4] < z0) z0 = B[o + 4];
    if (B[o + 5] > z1) z1 = B[o + 5];
    count += binCounts[b];
    const right = rightCounts[b + 1];
    if (count === 0 || right === 0) continue;
    const leftArea = (x1 - x0) * (y1 - y0) + (y1 - y0) * (z1 - z0) + (z1 - z0) * (x1 - x0);
    const cost = traversalCost + intersectCost * invArea * (leftArea * count + rightAreas[b + 1] * right);
    if (cost < bestCost) {
      bestCost = cost;
      st.bestAxis = axis;
      st.bestBin = b;
    }
  }
  if (st.bestAxis >= 0) {
    resetBox(boxes, 6);
    resetBox(boxes, 12);
    for (let b = 0; b < bins; b++) growByBox(boxes, b <= st.bestBin ? 6 : 12, B, b * 6);
  }
  return bestCost;
}

/**
 * Partitions [start, end) by the chosen bin (Hoare style: only misplaced pairs move); returns the first index of the
 * right half. The children's centroid bounds are taken as their boxes (a centroid lies in its primitive's box): no
 * per-primitive centroid tracking here, which was the larger half of the build's time, for slightly wider bins below.
 */
function partitionPrims(st: BuildState, start: number, end: number): number {
  const { prims, order, bins, centroid, leftCentroid, rightCentroid, boxes } = st;
  const ca = 2 * st.bestAxis;
  const split = st.bestBin;
  const lo = centroid[ca];
  const scale = (bins * (1 - 1e-7)) / (centroid[ca + 1] - lo);
  // Same bin rule as binPrims, as a threshold on 2 × centroid: bin b <= split  <=>  ((c - lo) * scale) | 0 <= split.
  const last = bins - 1;
  let i = start;
  let j = end - 1;
  for (;;) {
    while (i <= j) {
      const p = i * 6;
      let b = ((prims[p + ca] + prims[p + ca + 1] - lo) * scale) | 0;
      if (b > last) b = last;
      if (b > split) break;
      i++;
    }
    while (i < j) {
      const p = j * 6;
      let b = ((prims[p + ca] + prims[p + ca + 1] - lo) * scale) | 0;
      if (b > last) b = last;
      if (b <= split) break;
      j--;
    }
    if (i >= j) break;
    swapPrims(prims, order, i, j); // prims[i] belongs right and prims[j] left
    i++;
    j--;
  }
  if (i === j) {
    const p = i * 6;
    let b = ((prims[p + ca] + prims[p + ca + 1] - lo) * scale) | 0;
    if (b > last) b = last;
    if (b <= split) i++;
  }
  for (let k = 0; k < 6; k++) {
    leftCentroid[k] = 2 * boxes[6 + k];
    rightCentroid[k] = 2 * boxes[12 + k];
  }
  return i;
}

/** No SAH split exists (all centroids coincide) yet the node is too big: halve the range. */
function splitInHalf(st: BuildState, start: number, end: number): number {
  const { prims, boxes, leftCentroid, rightCentroid } = st;
  const mid = start + ((end - start) >> 1);
  resetBox(boxes, 6);
  resetBox(boxes, 12);
  resetBox(leftCentroid, 0);
  resetBox(rightCentroid, 0);
  for (let i = start; i < end; i++) {
    growByPrim(boxes, i < mid ? 6 : 12, prims, i * 6);
    growCentroid(i < mid ? leftCentroid : rightCentroid, prims, i * 6);
  }
  return mid;
}

/**
 * Binned SAH build (Wald 2007 style: bins on the longest centroid axis) over primitive boxes `prims` (6 floats each, interleaved per axis).
 * Reorders `prims` and `order` in place into leaf order; `order` must enter as the identity.
 */
export function buildBvhNodes(prims: Float32Array, order: Uint32Array, options: BvhBuildOptions): BvhNodes {
  const count = order.length;
  if (count === 0) return { ...allocateBvhNodes(0), nodeCount: 0, maxDepth: 0 };
  const bins = options.binCount;
  const capacity = 2 * count - 1;
  const { floats, ints } = allocateBvhNodes(capacity);
  const st: BuildState = {
    prims,
    order,
    bins,
    traversalCost: options.traversalCost,
    intersectCost: options.intersectCost,
    binBoxes: new Float64Array(bins * 6),
    binCounts: new Int32Array(bins),
    rightAreas: new Float64Array(bins),
    rightCounts: new Int32Array(bins),
    boxes: new Float64Array(18),
    centroid: new Float64Array(6),
    leftCentroid: new Float64Array(6),
    rightCentroid: new Float64Array(6),
    bestAxis: -1,
    bestBin: -1,
  };
  resetBox(st.boxes, 0);
  resetBox(st.centroid, 0);
  for (let i = 0; i < count; i++) {
    growByPrim(st.boxes, 0, prims, i * 6);
    growCentroid(st.centroid, prims, i * 6);
  }
  for (let k = 0; k < 6; k++) floats[k] = st.boxes[k];
  // Pending nodes (node, start, end, depth) and their 6 centroid bounds; depth-first, so at most depth + 1 wait.
  let tasks = new Int32Array(4 * 64);
  let centroids = new Float64Array(6 * 64);
  let pending = 1;
  tasks.set([0, 0, count, 0]);
  centroids.set(st.centroid);
  let nodeCount = 1;
  let maxDepth = 0;
  while (pending > 0) {
    pending--;
    const node = tasks[pending * 4];
    const start = tasks[pending * 4 + 1];
    const end = tasks[pending * 4 + 2];
    const depth = tasks[pending * 4 + 3];
    for (let k = 0; k < 6; k++) st.centroid[k] = centroids[pending * 6 + k];
    if (depth > maxDepth) maxDepth = depth;
    const n = end - start;
    const nb = node * nodeWords;
    let bestCost = Infinity;
    st.bestAxis = -1;
    if (n > 1) {
      st.bins = Math.min(bins, n); // a small node gains nothing from more bins than primitives
      const axis = binPrims(st, start, end);
      if (axis >= 0) bestCost = findBestSplit(st, axis, halfArea32(floats, nb));
    }
    if (n <= 1 || (n <= options.maxLeafSize && (st.bestAxis < 0 || bestCost >= options.intersectCost * n))) {
      ints[nb + 6] = start;
      ints[nb + 7] = n;
      continue;
    }
    const mid = st.bestAxis >= 0 ? partitionPrims(st, start, end) : splitInHalf(st, start, end);
    const child = nodeCount;
    nodeCount += 2;
    const cb = child * nodeWords;
    for (let k = 0; k < 6; k++) {
      floats[cb + k] = st.boxes[6 + k];
      floats[cb + nodeWords + k] = st.boxes[12 + k];
    }
    ints[nb + 6] = child;
    ints[nb + 7] = 0;
    if ((pending + 2) * 4 > tasks.length) {
      const grownTasks = new Int32Array(tasks.length * 2);
      grownTasks.set(tasks);
      tasks = grownTasks;
      const grownCentroids = new Float64Array(centroids.length * 2);
      grownCentroids.set(centroids);
      centroids = grownCentroids;
    }
    tasks[pending * 4] = child + 1;
    tasks[pending * 4 + 1] = mid;
    tasks[pending * 4 + 2] = end;
    tasks[pending * 4 + 3] = depth + 1;
    centroids.set(st.rightCentroid, pending * 6);
    pending++;
    tasks[pending * 4] = child;
    tasks[pending * 4 + 1] = start;
    tasks[pending * 4 + 2] = mid;
    tasks[pending * 4 + 3] = depth + 1;
    centroids.set(st.leftCentroid, pending * 6);
    pending++;
  }
  const trimmed = nodeCount === capacity ? { floats, ints } : allocateBvhNodes(nodeCount);
  if (nodeCount !== capacity) trimmed.ints.set(ints.subarray(0, nodeCount * nodeWords));
  return { floats: trimmed.floats, ints: trimmed.ints, nodeCount, maxDepth };
}
