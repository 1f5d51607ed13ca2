// Refits of a 'compact' triangle BVH (compact-bvh.ts). Both kinds keep the quantisation grid while the root stays on it
// and spans at least half of it on its widest axis, and set inner nodes to the union of their children's quantised
// boxes, so a partial refit gives the bounds a whole refit would.
import { CpuPickError } from '../cpu-pick-error.js';
import {
  type CompactBvh,
  compactFloatBounds,
  compactNodeBox,
  compactQuantMax,
  quantiseNode,
  setCompactGrid,
  unionCompactChildren,
  wideLeafFlag,
} from './compact-bvh.js';

/** Whether the root (node 0) still fills at least half the grid on some axis: else a new grid keeps the precision. */
function rootFillsGrid(c: CompactBvh): boolean {
  const B = c.bounds;
  const half = compactQuantMax >> 1;
  return B[1] - B[0] >= half || B[3] - B[2] >= half || B[5] - B[4] >= half;
}

/** Whether 16-bit steps of `grid` still resolve next to its origin in float64 (not so for absurd offsets). */
function gridResolves(grid: Float64Array): boolean {
  for (let a = 0; a < 3; a++) if (!(Math.abs(grid[a]) / grid[3 + a] < 2 ** 40)) return false;
  return true;
}

/**
 * @internal Recomputes every node's quantised bounds from `positions` (same topology): leaves from their triangles,
 * inner nodes from their children, on the old grid when the root still fits and fills it, else on a new one.
 * @throws {CpuPickError} before any change when the new box cannot be quantised (coordinates too far from the origin
 * for their extent): rebuild instead
 */
export function refitCompactBvh(api: string, c: CompactBvh, positions: Float32Array): void {
  const { nodeCount, links } = c;
  if (nodeCount === 0) return;
  const F = compactFloatBounds(c, positions);
  const saved = c.bounds.slice(0, 6);
  const keep = quantiseNode(c, 0, F, 0) && rootFillsGrid(c);
  c.bounds.set(saved, 0);
  if (!keep) {
    const grid = new Float64Array(6);
    setCompactGrid(grid, F);
    if (!gridResolves(grid))
      throw new CpuPickError(
        api,
        'bad-geometry',
        'the deformed mesh lies too far from the origin for its size to quantise its bounds; rebuild the BVH instead',
      );
    c.grid.set(grid);
  }
  // Every leaf lies in the root, which fits the grid: no leaf fails.
  for (let n = 0; n < nodeCount; n++) if ((links[n * 4 + 3] & 255) > 0) quantiseNode(c, n, F, n * 6);
  for (let n = nodeCount - 1; n >= 0; n--) if ((links[n * 4 + 3] & 255) === 0) unionCompactChildren(c, n);
  c.root.set(F.subarray(0, 6));
}

/** What a partial refit walks: vertex → the leaf nodes holding its triangles (CSR), node → parent, and marks. */
interface CompactRefitLinks {
  /** Vertices the links were made for (a whole refit may have switched to longer positions since). */
  vertexCount: number;
  start: Uint32Array;
  leaves: Int32Array;
  parents: Int32Array;
  stamp: Uint32Array;
  epoch: number;
  list: Int32Array;
}

let links: WeakMap<CompactBvh, CompactRefitLinks> | null = null;

/** Vertex → leaf nodes (each once per vertex) and node → parent, from the leaf stream. */
function makeLinks(c: CompactBvh, vertexCount: number): CompactRefitLinks {
  const { nodeCount, links: W, leaf16, leaf32 } = c;
  const parents = new Int32Array(nodeCount).fill(-1);
  const start = new Uint32Array(vertexCount + 1);
  const forEachCorner = (visit: (v: number, n: number) => void) => {
    for (let n = 0; n < nodeCount; n++) {
      const word = W[n * 4 + 3];
      const count = word & 255;
      if (count === 0) continue;
      const u = word >>> 8;
      const wide = (leaf32[2 * u + 1] & wideLeafFlag) !== 0;
      for (let i = 0; i < count; i++)
        for (let k = 0; k < 3; k++)
          visit(wide ? leaf32[2 * (u + 1 + 2 * i) + k] : leaf32[2 * u] + leaf16[4 * (u + 1 + i) + k], n);
    }
  };
  for (let n = 0; n < nodeCount; n++) {
    const word = W[n * 4 + 3];
    if ((word & 255) === 0) parents[word >>> 8] = parents[(word >>> 8) + 1] = n;
  }
  let pairs = 0;
  forEachCorner((v) => {
    start[v + 1]++;
    pairs++;
  });
  for (let v = 0; v < vertexCount; v++) start[v + 1] += start[v];
  const fill = start.slice(0, vertexCount);
  const leaves = new Int32Array(pairs);
  forEachCorner((v, n) => {
    // Corners of one leaf come together: a vertex's latest entry is the only possible repeat within a leaf.
    const at = fill[v];
    if (at > start[v] && leaves[at - 1] === n) return;
    leaves[fill[v]++] = n;
  });
  // Compact the buckets (repeats were skipped, leaving gaps at each bucket's end).
  let out = 0;
  for (let v = 0; v < vertexCount; v++) {
    const from = start[v];
    const to = fill[v];
    start[v] = out;
    for (let j = from; j < to; j++) leaves[out++] = leaves[j];
  }
  start[vertexCount] = out;
  return {
    vertexCount,
    start,
    leaves: leaves.slice(0, out),
    parents,
    stamp: new Uint32Array(nodeCount),
    epoch: 0,
    list: new Int32Array(nodeCount),
  };
}

let leafBox: Float32Array | null = null;

/** Quantises leaf `n`'s box from the positions: 1 changed, 0 unchanged, -1 off the grid (node unchanged). */
function refitCompactLeaf(c: CompactBvh, n: number, P: Float32Array): number {
  const word = c.links[n * 4 + 3];
  const count = word & 255;
  const u = word >>> 8;
  const { leaf16, leaf32, bounds } = c;
  const wide = (leaf32[2 * u + 1] & wideLeafFlag) !== 0;
  const base = leaf32[2 * u];
  leafBox ??= new Float32Array(6);
  const b = leafBox;
  b[0] = b[2] = b[4] = Infinity;
  b[1] = b[3] = b[5] = -Infinity;
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 3; k++) {
      const v = (wide ? leaf32[2 * (u + 1 + 2 * i) + k] : base + leaf16[4 * (u + 1 + i) + k]) * 3;
      for (let a = 0; a < 3; a++) {
        const x = P[v + a];
        if (x < b[2 * a]) b[2 * a] = x;
        if (x > b[2 * a + 1]) b[2 * a + 1] = x;
      }
    }
  }
  const o = n * 8;
  const q0 = bounds[o];
  const q1 = bounds[o + 1];
  const q2 = bounds[o + 2];
  const q3 = bounds[o + 3];
  const q4 = bounds[o + 4];
  const q5 = bounds[o + 5];
  if (!quantiseNode(c, n, b, 0)) return -1;
  return q0 !== bounds[o] ||
    q1 !== bounds[o + 1] ||
    q2 !== bounds[o + 2] ||
    q3 !== bounds[o + 3] ||
    q4 !== bounds[o + 4] ||
    q5 !== bounds[o + 5]
    ? 1
    : 0;
}

/**
 * @internal Refits the leaves over `moved`'s triangles and, where a leaf's bounds changed, its ancestors; falls back to
 * a whole refit when a leaf leaves the grid or the root stops filling it.
 */
export function refitCompactMoved(api: string, c: CompactBvh, positions: Float32Array, moved: ArrayLike<number>): void {
  links ??= new WeakMap();
  let l = links.get(c);
  if (!l || l.vertexCount !== positions.length / 3) {
    l = makeLinks(c, positions.length / 3);
    links.set(c, l);
  }
  const { start, leaves, parents, stamp, list } = l;
  if (++l.epoch === 0xffffffff) {
    stamp.fill(0);
    l.epoch = 1;
  }
  const epoch = l.epoch;
  let count = 0;
  for (let i = 0; i < moved.length; i++) {
    const v = moved[i];
    for (let j = start[v], end = start[v + 1]; j < end; j++) {
      const leaf = leaves[j];
      if (stamp[leaf] === epoch) continue;
      stamp[leaf] = epoch;
      list[count++] = leaf;
    }
  }
  const leafCount = count;
  let changedLeaf = false;
  for (let i = 0; i < leafCount; i++) {
    const changed = refitCompactLeaf(c, list[i], positions);
    if (changed < 0) {
      refitCompactBvh(api, c, positions);
      return;
    }
    if (changed === 0) continue;
    changedLeaf = true;
    for (let n = parents[list[i]]; n >= 0 && stamp[n] !== epoch; n = parents[n]) {
      stamp[n] = epoch;
      list[count++] = n;
    }
  }
  // Children have larger indices than their parents: descending order refits every child before its parent.
  const inner = list.subarray(leafCount, count).sort();
  for (let i = inner.length - 1; i >= 0; i--) unionCompactChildren(c, inner[i]);
  if (!rootFillsGrid(c)) refitCompactBvh(api, c, positions);
  else if (count > leafCount || changedLeaf) compactNodeBox(c, 0, c.root);
}
