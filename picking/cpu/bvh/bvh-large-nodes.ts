// The binned SAH build's steps for large nodes (bvh-build.ts): there a split is chosen from the bins of a sample of
// the primitives, and the partition grows only the two child boxes instead of binning every primitive into its child's
// bins. A node's best split is found about as well from a few hundred primitives, and a bin update per primitive
// (6 bounds in memory) costs about twice the two boxes held in registers: on a 500k-triangle torus the build is ~7 %
// faster (8192 / 4096 instead of 1024 / 512 below: ~5 %) for first hits as fast.
import { type BuildState, binRange, growByPrim, setGrid } from './bvh-bins.js';

/** @internal Nodes of more primitives than this choose their split from a sample (see binNode, partitionLarge). */
export const largeNodeSize = 1024;

/** About this many primitives of a large node are binned. */
const samplesPerNode = 512;

/** @internal slotAxis of a node whose parent left it unbinned (a child of a large node): bin it when it is taken. */
export const unbinnedAxis = -2;

/**
 * Sets slot `slot`'s grid from centroid bounds `c[o..o+6]` (2 × centroid, see setGrid) and bins node [start, end) into
 * it: every primitive (setting binOf) when the node is small, else every k-th primitive only (the bins then estimate
 * the split: their counts and boxes are the sample's).
 * @internal
 */
export function binNode(st: BuildState, slot: number, c: Float64Array, o: number, start: number, end: number): void {
  const n = end - start;
  setGrid(st, slot, c, o, n);
  if (st.slotAxis[slot] < 0) return;
  if (n <= largeNodeSize) {
    binRange(st, slot, start, end);
    return;
  }
  const { prims, binBoxes: B, binCounts } = st;
  const ca = 2 * st.slotAxis[slot];
  const lo = st.slotLo[slot];
  const scale = st.slotScale[slot];
  const last = st.slotBins[slot] - 1;
  const base = slot * st.bins;
  const stride = Math.floor(n / samplesPerNode);
  for (let i = start; i < end; i += stride) {
    const p = i * 6;
    let b = ((prims[p + ca] + prims[p + ca + 1] - lo) * scale) | 0;
    if (b > last) b = last;
    const k = base + b;
    binCounts[k]++;
    growByPrim(B, k * 6, prims, p);
  }
}

/**
 * Partitions large node [start, end) of slot `slot` by the split findBestSplit chose on its sampled bins: a primitive
 * goes left when its centroid's bin is at most st.bestBin (the bin binNode computed, recomputed the same way, so the
 * sampled primitives on either side of the split keep both halves non-empty). Writes the exact child boxes into
 * st.boxes[6..18] and leaves both children's slots (`slot + 1` left, `slot` right) unbinned. Returns the first index
 * of the right half.
 * @internal
 */
export function partitionLarge(st: BuildState, slot: number, start: number, end: number): number {
  const { prims, order, boxes } = st;
  const ca = 2 * st.slotAxis[slot];
  const lo = st.slotLo[slot];
  const scale = st.slotScale[slot];
  // floor(x) <= bestBin is x < bestBin + 1 for x >= 0 (a centroid is never below the grid's low end)
  const cut = st.bestBin + 1;
  let lx0 = Infinity,
    lx1 = -Infinity,
    ly0 = Infinity,
    ly1 = -Infinity,
    lz0 = Infinity,
    lz1 = -Infinity;
  let rx0 = Infinity,
    rx1 = -Infinity,
    ry0 = Infinity,
    ry1 = -Infinity,
    rz0 = Infinity,
    rz1 = -Infinity;
  let i = start;
  let j = end;
  // As partitionAndBin: every step places one primitive, i's when it belongs left, else the last unplaced one.
  while (i < j) {
    const p = i * 6;
    const a0 = prims[p];
    const a1 = prims[p + 1];
    const a2 = prims[p + 2];
    const a3 = prims[p + 3];
    const a4 = prims[p + 4];
    const a5 = prims[p + 5];
    if ((prims[p + ca] + prims[p + ca + 1] - lo) * scale < cut) {
      if (a0 < lx0) lx0 = a0;
      if (a1 > lx1) lx1 = a1;
      if (a2 < ly0) ly0 = a2;
      if (a3 > ly1) ly1 = a3;
      if (a4 < lz0) lz0 = a4;
      if (a5 > lz1) lz1 = a5;
      i++;
      continue;
    }
    const q = --j;
    const pq = q * 6;
    let b0 = prims[pq];
    let b1 = prims[pq + 1];
    let b2 = prims[pq + 2];
    let b3 = prims[pq + 3];
    let b4 = prims[pq + 4];
    let b5 = prims[pq + 5];
    if ((prims[pq + ca] + prims[pq + ca + 1] - lo) * scale < cut) {
      // q's primitive (left) moves to i, where the next step places it; i's (right) to q
      prims[p] = b0;
      prims[p + 1] = b1;
      prims[p + 2] = b2;
      prims[p + 3] = b3;
      prims[p + 4] = b4;
      prims[p + 5] = b5;
      prims[pq] = a0;
      prims[pq + 1] = a1;
      prims[pq + 2] = a2;
      prims[pq + 3] = a3;
      prims[pq + 4] = a4;
      prims[pq + 5] = a5;
      const oi = order[i];
      order[i] = order[q];
      order[q] = oi;
      b0 = a0;
      b1 = a1;
      b2 = a2;
      b3 = a3;
      b4 = a4;
      b5 = a5;
    }
    if (b0 < rx0) rx0 = b0;
    if (b1 > rx1) rx1 = b1;
    if (b2 < ry0) ry0 = b2;
    if (b3 > ry1) ry1 = b3;
    if (b4 < rz0) rz0 = b4;
    if (b5 > rz1) rz1 = b5;
  }
  boxes[6] = lx0;
  boxes[7] = lx1;
  boxes[8] = ly0;
  boxes[9] = ly1;
  boxes[10] = lz0;
  boxes[11] = lz1;
  boxes[12] = rx0;
  boxes[13] = rx1;
  boxes[14] = ry0;
  boxes[15] = ry1;
  boxes[16] = rz0;
  boxes[17] = rz1;
  st.slotAxis[slot] = unbinnedAxis;
  st.slotAxis[slot + 1] = unbinnedAxis;
  return i;
}
