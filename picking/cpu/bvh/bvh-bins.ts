// The per-node steps of the binned SAH build (bvh-build.ts): binning, the split sweep and the partition.

/**
 * Build scratch. Every pending node owns a slot (its index in the depth-first stack) holding its bins: `binBoxes`
 * (6 floats per bin, `bins` bins per slot), `binCounts`, the axis they were binned on (`slotAxis`, -1: none), how many
 * bins are used and the grid (`slotLo`, `slotScale`: bin = ((2 × centroid - lo) × scale) | 0, clamped).
 * @internal
 */
export interface BuildState {
  prims: Float32Array;
  order: Uint32Array;
  /** Each primitive's bin in the grid of the node it belongs to (written when that node is binned). */
  binOf: Uint8Array;
  /** Configured bins: the stride of a slot in binBoxes / binCounts. */
  bins: number;
  traversalCost: number;
  intersectCost: number;
  /** Nodes of at most this many primitives are leaves whatever their bins say (see buildBvhNodes): never binned. */
  sureLeafSize: number;
  binBoxes: Float64Array;
  binCounts: Int32Array;
  slotAxis: Int32Array;
  slotBins: Int32Array;
  slotLo: Float64Array;
  slotScale: Float64Array;
  rightAreas: Float64Array;
  rightCounts: Int32Array;
  /** Suffix boxes of the sweep (6 per bin). */
  rightBoxes: Float64Array;
  /** 0: scratch box, 6: best left box, 12: best right box. */
  boxes: Float64Array;
  /** Centroid bounds (2 × centroid, min + max per axis) of a node to bin from scratch. */
  centroid: Float64Array;
  bestAxis: number;
  bestBin: number;
  /** Primitives left of the best split. */
  bestLeftCount: number;
}

/** @internal */
export function resetBox(b: Float64Array, o: number): void {
  b[o] = Infinity;
  b[o + 1] = -Infinity;
  b[o + 2] = Infinity;
  b[o + 3] = -Infinity;
  b[o + 4] = Infinity;
  b[o + 5] = -Infinity;
}

/**
 * Sets slot `slot`'s grid from centroid bounds `c[o..o+6]` (2 × centroid) for `n` primitives and empties its bins:
 * bins on the longest axis; axis -1 when all centroids coincide on it or the node is a sure leaf (then every primitive
 * lands in bin 0, not emptied: nothing reads it).
 * @internal
 */
export function setGrid(st: BuildState, slot: number, c: Float64Array, o: number, n: number): void {
  const ex = c[o + 1] - c[o];
  const ey = c[o + 3] - c[o + 2];
  const ez = c[o + 5] - c[o + 4];
  const axis = ex >= ey ? (ex >= ez ? 0 : 2) : ey >= ez ? 1 : 2;
  const extent = axis === 0 ? ex : axis === 1 ? ey : ez;
  // A small node's best split is found about as well with a quarter as many bins as primitives, and every bin costs a
  // reset, two sweep steps and, while few primitives share it, unpredictable bound updates: on a 500k-triangle torus,
  // builds ~2 % faster than with half as many for an SAH cost 0.2 % higher, first hits unchanged (an eighth: 4 % faster,
  // SAH cost 2 % higher).
  // (Math.min / max: a branch only small nodes reach would deoptimise the partition that inlines this, again and again.)
  const quarter = (n + 3) >> 2;
  const bins = Math.min(st.bins, Math.max(2, quarter));
  const ok = extent > 0 && n > st.sureLeafSize;
  st.slotAxis[slot] = ok ? axis : -1;
  st.slotBins[slot] = bins;
  st.slotLo[slot] = ok ? c[o + 2 * axis] : 0;
  st.slotScale[slot] = ok ? (bins * (1 - 1e-7)) / extent : 0;
  if (!ok) return; // its primitives all land in bin 0, which nothing reads before the slot's next setGrid
  const B = st.binBoxes;
  const counts = st.binCounts;
  for (let b = 0, k = slot * st.bins; b < bins; b++, k++) {
    counts[k] = 0;
    resetBox(B, k * 6);
  }
}

/**
 * Grows the box `b[o..o+6]` (interleaved min/max per axis) by primitive box `src[s..s+6]`. Float64 boxes, Float32
 * primitives only: a polymorphic typed-array read is several times slower.
 * @internal
 */
export function growByPrim(b: Float64Array, o: number, src: Float32Array, s: number): void {
  if (src[s] < b[o]) b[o] = src[s];
  if (src[s + 1] > b[o + 1]) b[o + 1] = src[s + 1];
  if (src[s + 2] < b[o + 2]) b[o + 2] = src[s + 2];
  if (src[s + 3] > b[o + 3]) b[o + 3] = src[s + 3];
  if (src[s + 4] < b[o + 4]) b[o + 4] = src[s + 4];
  if (src[s + 5] > b[o + 5]) b[o + 5] = src[s + 5];
}

/**
 * Bins [start, end) into slot `slot` on the grid setGrid left there (a node with no binned parent: root, halves).
 * @internal
 */
export function binRange(st: BuildState, slot: number, start: number, end: number): void {
  const { prims, binOf, binBoxes: B, binCounts } = st;
  const ca = 2 * Math.max(st.slotAxis[slot], 0);
  const lo = st.slotLo[slot];
  const scale = st.slotScale[slot];
  const last = st.slotBins[slot] - 1;
  const base = slot * st.bins;
  for (let i = start; i < end; i++) {
    const p = i * 6;
    let b = ((prims[p + ca] + prims[p + ca + 1] - lo) * scale) | 0;
    if (b > last) b = last;
    binOf[i] = b;
    const k = base + b;
    binCounts[k]++;
    growByPrim(B, k * 6, prims, p);
  }
}

/**
 * Sweeps slot `slot`'s bins; leaves the cheapest split in st.bestAxis / bestBin / bestLeftCount and its child boxes in
 * st.boxes[6..18]; returns its SAH cost (Infinity when no bin split separates anything).
 * @internal
 */
export function findBestSplit(st: BuildState, slot: number, parentArea: number): number {
  const { binBoxes: B, binCounts, rightAreas, rightCounts, rightBoxes: R, boxes, traversalCost, intersectCost } = st;
  const bins = st.slotBins[slot];
  const base = slot * st.bins;
  const invArea = parentArea > 0 ? 1 / parentArea : 0;
  let x0 = Infinity,
    x1 = -Infinity,
    y0 = Infinity,
    y1 = -Infinity,
    z0 = Infinity,
    z1 = -Infinity;
  let count = 0;
  for (let b = bins - 1; b > 0; b--) {
    const o = (base + b) * 6;
    if (B[o] < x0) x0 = B[o];
    if (B[o + 1] > x1) x1 = B[o + 1];
    if (B[o + 2] < y0) y0 = B[o + 2];
    if (B[o + 3] > y1) y1 = B[o + 3];
    if (B[o + 4] < z0) z0 = B[o + 4];
    if (B[o + 5] > z1) z1 = B[o + 5];
    count += binCounts[base + b];
    rightCounts[b] = count;
    // Twin of picking/cpu/bvh/bvh-nodes.ts:halfArea32 (kept equal by test/unit/cpu-picking/twins.test.ts: findBestSplit areas are halfArea32)
    rightAreas[b] = count === 0 ? 0 : (x1 - x0) * (y1 - y0) + (y1 - y0) * (z1 - z0) + (z1 - z0) * (x1 - x0);
    const r = b * 6;
    R[r] = x0;
    R[r + 1] = x1;
    R[r + 2] = y0;
    R[r + 3] = y1;
    R[r + 4] = z0;
    R[r + 5] = z1;
  }
  x0 = Infinity;
  x1 = -Infinity;
  y0 = Infinity;
  y1 = -Infinity;
  z0 = Infinity;
  z1 = -Infinity;
  count = 0;
  let bestCost = Infinity;
  let bestBin = -1;
  for (let b = 0; b < bins - 1; b++) {
    const o = (base + b) * 6;
    if (B[o] < x0) x0 = B[o];
    if (B[o + 1] > x1) x1 = B[o + 1];
    if (B[o + 2] < y0) y0 = B[o + 2];
    if (B[o + 3] > y1) y1 = B[o + 3];
    if (B[o + 4] < z0) z0 = B[o + 4];
    if (B[o + 5] > z1) z1 = B[o + 5];
    count += binCounts[base + b];
    const right = rightCounts[b + 1];
    if (count === 0 || right === 0) continue;
    // Twin of picking/cpu/bvh/bvh-nodes.ts:halfArea32 (kept equal by test/unit/cpu-picking/twins.test.ts: findBestSplit areas are halfArea32)
    const leftArea = (x1 - x0) * (y1 - y0) + (y1 - y0) * (z1 - z0) + (z1 - z0) * (x1 - x0);
    const cost = traversalCost + intersectCost * invArea * (leftArea * count + rightAreas[b + 1] * right);
    if (cost < bestCost) {
      bestCost = cost;
      bestBin = b;
      st.bestLeftCount = count;
      boxes[6] = x0;
      boxes[7] = x1;
      boxes[8] = y0;
      boxes[9] = y1;
      boxes[10] = z0;
      boxes[11] = z1;
    }
  }
  st.bestBin = bestBin;
  st.bestAxis = bestBin < 0 ? -1 : st.slotAxis[slot];
  if (bestBin >= 0) for (let k = 0, r = (bestBin + 1) * 6; k < 6; k++) boxes[12 + k] = R[r + k];
  return bestCost;
}

/**
 * Partitions [start, end) of slot `slot`'s node by the chosen bin (Hoare style: only misplaced pairs move; a primitive's
 * side is its stored bin) and bins every primitive into its child's slot as it is placed: the right child's `slot`,
 * the left child's `slot + 1`, on grids set from the child boxes (a centroid lies in its primitive's box, so a child's
 * box bounds its centroids). One pass per level instead of a binning pass plus a partition pass. Returns the first
 * index of the right half.
 * @internal
 */
export function partitionAndBin(st: BuildState, slot: number, start: number, end: number): number {
  const { prims, order, binOf, binBoxes: B, binCounts, boxes, centroid } = st;
  const split = st.bestBin;
  const leftCount = st.bestLeftCount;
  for (let k = 0; k < 6; k++) centroid[k] = 2 * boxes[6 + k];
  setGrid(st, slot + 1, centroid, 0, leftCount);
  for (let k = 0; k < 6; k++) centroid[k] = 2 * boxes[12 + k];
  setGrid(st, slot, centroid, 0, end - start - leftCount);
  const la = 2 * Math.max(st.slotAxis[slot + 1], 0);
  const llo = st.slotLo[slot + 1];
  const lscale = st.slotScale[slot + 1];
  const llast = st.slotBins[slot + 1] - 1;
  const lbase = (slot + 1) * st.bins;
  const ra = 2 * Math.max(st.slotAxis[slot], 0);
  const rlo = st.slotLo[slot];
  const rscale = st.slotScale[slot];
  const rlast = st.slotBins[slot] - 1;
  const rbase = slot * st.bins;
  let i = start;
  let j = end;
  // Every step places one primitive: i's when it belongs left, else the last unplaced one (j - 1), swapped with i's
  // when that one belongs left (i's then belongs right, placed at j - 1; the newcomer at i is placed next step).
  while (i < j) {
    let q = i;
    const p = i * 6;
    const left = binOf[i] <= split;
    let a0: number, a1: number, a2: number, a3: number, a4: number, a5: number;
    if (left) {
      i++;
      a0 = prims[p];
      a1 = prims[p + 1];
      a2 = prims[p + 2];
      a3 = prims[p + 3];
      a4 = prims[p + 4];
      a5 = prims[p + 5];
    } else {
      q = --j;
      const pq = q * 6;
      if (binOf[q] <= split) {
        // i's primitive (right) moves to q, q's (left) to i, where the next step places it
        a0 = prims[p];
        a1 = prims[p + 1];
        a2 = prims[p + 2];
        a3 = prims[p + 3];
        a4 = prims[p + 4];
        a5 = prims[p + 5];
        prims[p] = prims[pq];
        prims[p + 1] = prims[pq + 1];
        prims[p + 2] = prims[pq + 2];
        prims[p + 3] = prims[pq + 3];
        prims[p + 4] = prims[pq + 4];
        prims[p + 5] = prims[pq + 5];
        prims[pq] = a0;
        prims[pq + 1] = a1;
        prims[pq + 2] = a2;
        prims[pq + 3] = a3;
        prims[pq + 4] = a4;
        prims[pq + 5] = a5;
        const oi = order[i];
        order[i] = order[q];
        order[q] = oi;
        binOf[i] = binOf[q];
      } else {
        a0 = prims[pq];
        a1 = prims[pq + 1];
        a2 = prims[pq + 2];
        a3 = prims[pq + 3];
        a4 = prims[pq + 4];
        a5 = prims[pq + 5];
      }
    }
    // Its bin in its child's grid.
    // Twin of picking/cpu/bvh/bvh-bins.ts:binRange (kept equal by test/unit/cpu-picking/twins.test.ts: partitionAndBin bins as setGrid + binRange)
    const ax = left ? la : ra;
    const last = left ? llast : rlast;
    let b = (((ax === 0 ? a0 + a1 : ax === 2 ? a2 + a3 : a4 + a5) - (left ? llo : rlo)) * (left ? lscale : rscale)) | 0;
    if (b > last) b = last;
    binOf[q] = b;
    const k = (left ? lbase : rbase) + b;
    binCounts[k]++;
    const o = k * 6;
    if (a0 < B[o]) B[o] = a0;
    if (a1 > B[o + 1]) B[o + 1] = a1;
    if (a2 < B[o + 2]) B[o + 2] = a2;
    if (a3 > B[o + 3]) B[o + 3] = a3;
    if (a4 < B[o + 4]) B[o + 4] = a4;
    if (a5 > B[o + 5]) B[o + 5] = a5;
  }
  return i;
}
