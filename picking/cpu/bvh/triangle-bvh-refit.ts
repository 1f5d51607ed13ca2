import { describeValue } from '../../../core/errors.js';
import { nodeCountWord, nodeFirst, nodeFirstWord, nodeLeafCount, nodeWords } from './bvh-nodes.js';
import { noteTriangleBvhRefit } from './bvh-refit-epoch.js';
import { CpuPickError } from '../cpu-pick-error.js';
import { refitIndexedLeavesWithCopy, refitLeavesWithIndexCopy } from './refit-leaf-copies.js';
import { checkGeometry, type FloatTriangleBvh, makeLeafIndices, type TriangleBvh } from './triangle-bvh.js';
import { expandCompactBvh, packCompactBvh } from './compact-bvh.js';
import { refitCompactBvh, refitCompactMoved } from './compact-bvh-refit.js';

/** Options of `refitTriangleBvh`. */
export interface RefitTriangleBvhOptions {
  /**
   * The only vertices whose positions changed since the BVH was built or last refitted (e.g. a sculpt stroke), edited
   * in place in the arrays the BVH reads: only the leaves over their triangles and those leaves' ancestors are
   * refitted, with the same bounds a whole refit would give (three-mesh-bvh's `refit(nodeIndices)` for local edits).
   * The first such refit of a BVH builds a vertex → leaf index and node parents (about 10 bytes per triangle, kept
   * with the BVH). Omitted: every node is refitted.
   */
  movedVertices?: ArrayLike<number>;
}

/** What a partial refit walks: vertex → the leaves holding its triangles (CSR), node → parent, and marks. */
interface RefitLinks {
  /** The index array the links were made for (a partial refit needs the BVH's own arrays). */
  indices: Uint16Array | Uint32Array | null;
  /** Leaves of vertex v: leaves[start[v] .. start[v + 1]), each once. */
  start: Uint32Array;
  leaves: Int32Array;
  parents: Int32Array;
  /** stamp[node] === epoch: the node is already listed in this refit. */
  stamp: Uint32Array;
  epoch: number;
  /** Nodes listed in this refit (leaves first, then ancestors). */
  list: Int32Array;
}

let links: WeakMap<FloatTriangleBvh, RefitLinks> | null = null;

/** Node → parent (-1 for the root) and leaf position → its leaf node. */
function nodeParentsAndLeaves(bvh: FloatTriangleBvh): { parents: Int32Array; leafOf: Int32Array } {
  const { ints, nodeCount } = bvh.nodes;
  const parents = new Int32Array(nodeCount).fill(-1);
  const leafOf = new Int32Array(bvh.triangleCount);
  for (let n = 0; n < nodeCount; n++) {
    const o = n * nodeWords;
    const count = nodeLeafCount(ints, o);
    const first = nodeFirst(ints, o);
    if (count === 0) {
      parents[first] = n;
      parents[first + 1] = n;
    } else leafOf.fill(n, first, first + count);
  }
  return { parents, leafOf };
}

function makeRefitLinks(bvh: FloatTriangleBvh): RefitLinks {
  const { faceIds, indices: idx, triangleCount } = bvh;
  const vertexCount = bvh.positions.length / 3;
  const { parents, leafOf } = nodeParentsAndLeaves(bvh);
  // Every (vertex, leaf) pair of every corner, bucketed by vertex; then each bucket's repeats are dropped in place.
  const start = new Uint32Array(vertexCount + 1);
  for (let p = 0; p < triangleCount; p++) {
    const f = faceIds[p] * 3;
    for (let k = 0; k < 3; k++) start[(idx === null ? f + k : idx[f + k]) + 1]++;
  }
  for (let v = 0; v < vertexCount; v++) start[v + 1] += start[v];
  const fill = start.slice(0, vertexCount);
  const pairs = new Int32Array(triangleCount * 3);
  for (let p = 0; p < triangleCount; p++) {
    const f = faceIds[p] * 3;
    for (let k = 0; k < 3; k++) pairs[fill[idx === null ? f + k : idx[f + k]]++] = leafOf[p];
  }
  let out = 0;
  for (let v = 0; v < vertexCount; v++) {
    const from = start[v];
    const to = start[v + 1];
    start[v] = out;
    for (let j = from; j < to; j++) {
      const leaf = pairs[j];
      let seen = false;
      for (let q = start[v]; q < out && !seen; q++) seen = pairs[q] === leaf;
      if (!seen) pairs[out++] = leaf;
    }
  }
  start[vertexCount] = out;
  const { nodeCount } = bvh.nodes;
  return {
    indices: idx,
    start,
    leaves: pairs.slice(0, out),
    parents,
    stamp: new Uint32Array(nodeCount),
    epoch: 0,
    list: new Int32Array(nodeCount),
  };
}

/** Bounds of leaf node `n` from the positions (re-copying its triangles into `bvh.triangles` when kept); true when they changed. */
function refitLeaf(bvh: FloatTriangleBvh, n: number): boolean {
  const { floats, ints } = bvh.nodes;
  const { positions: P, indices: idx, faceIds, triangles: T } = bvh;
  const o = n * nodeWords;
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  let z0 = Infinity;
  let z1 = -Infinity;
  for (let i = ints[o + nodeFirstWord], end = i + ints[o + nodeCountWord]; i < end; i++) {
    const f = faceIds[i] * 3;
    for (let k = 0; k < 3; k++) {
      const v = (idx === null ? f + k : idx[f + k]) * 3;
      const x = P[v];
      const y = P[v + 1];
      const z = P[v + 2];
      if (T !== null) {
        const b = (i * 3 + k) * 3;
        T[b] = x;
        T[b + 1] = y;
        T[b + 2] = z;
      }
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      if (z < z0) z0 = z;
      if (z > z1) z1 = z;
    }
  }
  const changed =
    floats[o] !== x0 ||
    floats[o + 1] !== x1 ||
    floats[o + 2] !== y0 ||
    floats[o + 3] !== y1 ||
    floats[o + 4] !== z0 ||
    floats[o + 5] !== z1;
  floats[o] = x0;
  floats[o + 1] = x1;
  floats[o + 2] = y0;
  floats[o + 3] = y1;
  floats[o + 4] = z0;
  floats[o + 5] = z1;
  return changed;
}

/** Sets inner node `n`'s bounds to the union of its two children (its first child and the next). */
function unionChildren(floats: Float32Array, ints: Int32Array, n: number): void {
  // Twin of picking/cpu/bvh/bvh-nodes.ts:unionChildBounds (kept equal by test/unit/cpu-picking/twins.test.ts: refit unionChildren is unionChildBounds up to a zero sign)
  const o = n * nodeWords;
  const a = ints[o + nodeFirstWord] * nodeWords;
  const b = a + nodeWords;
  floats[o] = floats[a] < floats[b] ? floats[a] : floats[b];
  floats[o + 1] = floats[a + 1] > floats[b + 1] ? floats[a + 1] : floats[b + 1];
  floats[o + 2] = floats[a + 2] < floats[b + 2] ? floats[a + 2] : floats[b + 2];
  floats[o + 3] = floats[a + 3] > floats[b + 3] ? floats[a + 3] : floats[b + 3];
  floats[o + 4] = floats[a + 4] < floats[b + 4] ? floats[a + 4] : floats[b + 4];
  floats[o + 5] = floats[a + 5] > floats[b + 5] ? floats[a + 5] : floats[b + 5];
}

/**
 * Recomputes every node's bounds from the positions (re-copying the leaf-order triangles or indices, when kept): the leaves in
 * one forward pass over the triangles, then the inner nodes in reverse, children before parents (topology unchanged).
 */
function refitTriangleBvhBounds(bvh: FloatTriangleBvh): void {
  const { floats, ints, nodeCount } = bvh.nodes;
  const T = bvh.triangles;
  const idx = bvh.indices;
  if (bvh.leafIndices !== null) refitLeavesWithIndexCopy(bvh, bvh.leafIndices);
  else if (T !== null && idx !== null) refitIndexedLeavesWithCopy(bvh, T, idx);
  else for (let n = 0; n < nodeCount; n++) if (ints[n * nodeWords + nodeCountWord] > 0) refitLeaf(bvh, n);
  for (let n = nodeCount - 1; n >= 0; n--)
    if (ints[n * nodeWords + nodeCountWord] === 0) unionChildren(floats, ints, n);
  bvh.refitCount++;
  noteTriangleBvhRefit();
}

/** Checks `movedVertices` (indices into the BVH's own positions, each finite) before anything is modified. */
function checkMovedVertices(api: string, bvh: TriangleBvh, moved: ArrayLike<number>): void {
  if (moved === null || typeof moved !== 'object' || typeof moved.length !== 'number')
    throw new CpuPickError(
      api,
      'bad-option',
      `movedVertices ${describeValue(moved)} must be an array or typed array of vertex indices`,
    );
  const P = bvh.positions;
  const vertexCount = P.length / 3;
  for (let i = 0; i < moved.length; i++) {
    const v = moved[i];
    if (!Number.isInteger(v) || v < 0 || v >= vertexCount)
      throw new CpuPickError(
        api,
        'bad-option',
        `movedVertices[${i}] = ${describeValue(v)} must be a vertex index in 0..${vertexCount - 1}`,
      );
    const x = P[v * 3];
    const y = P[v * 3 + 1];
    const z = P[v * 3 + 2];
    if (!Number.isFinite(x + y + z))
      throw new CpuPickError(api, 'non-finite-vertex', `vertex ${v} is not finite (${x}, ${y}, ${z})`);
  }
}

/** Refits the leaves over `moved`'s triangles and, where a leaf's bounds changed, its ancestors. */
function refitMoved(bvh: FloatTriangleBvh, moved: ArrayLike<number>): void {
  links ??= new WeakMap();
  let l = links.get(bvh);
  if (!l || l.indices !== bvh.indices) {
    l = makeRefitLinks(bvh);
    links.set(bvh, l);
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
  for (let i = 0; i < leafCount; i++) {
    if (!refitLeaf(bvh, list[i])) continue;
    for (let n = parents[list[i]]; n >= 0 && stamp[n] !== epoch; n = parents[n]) {
      stamp[n] = epoch;
      list[count++] = n;
    }
  }
  // Children have larger indices than their parents: descending order refits every child before its parent.
  const inner = list.subarray(leafCount, count).sort();
  const { floats, ints } = bvh.nodes;
  for (let i = inner.length - 1; i >= 0; i--) unionChildren(floats, ints, inner[i]);
}

/**
 * After CPU deformation: refits the bounds to `positions` (same topology; the BVH reads these arrays from now on).
 * With `movedVertices`, only what those vertices touch is refitted (the arrays must be the ones the BVH reads).
 * @throws {CpuPickError} when the geometry's triangle count differs from the BVH's, a position is not finite, or
 * `movedVertices` is malformed or given with other arrays than the BVH's own
 */
export function refitTriangleBvh(
  bvh: TriangleBvh,
  positions: Float32Array,
  indices: Uint16Array | Uint32Array | null,
  options: RefitTriangleBvhOptions = {},
): void {
  const api = 'refitTriangleBvh';
  if (options === null || typeof options !== 'object')
    throw new CpuPickError(api, 'bad-option', `options ${describeValue(options)} must be an object`);
  for (const key of Object.keys(options))
    if (key !== 'movedVertices')
      throw new CpuPickError(api, 'bad-option', `unknown option ${JSON.stringify(key)}; allowed: movedVertices`);
  const moved = options.movedVertices;
  if (moved !== undefined) {
    if (positions !== bvh.positions || indices !== bvh.indices)
      throw new CpuPickError(
        api,
        'bad-option',
        'movedVertices needs the positions and indices the BVH reads, edited in place; refit new arrays without it',
      );
    checkMovedVertices(api, bvh, moved);
    if (bvh.compact !== null) refitCompactMoved(api, bvh.compact, bvh.positions, moved);
    else refitMoved(bvh as FloatTriangleBvh, moved);
    bvh.refitCount++;
    noteTriangleBvhRefit();
    return;
  }
  // The index range check already ran at build for the same index array; a new one is checked in full.
  const triangleCount =
    indices !== null && indices === bvh.indices && positions.length === bvh.positions.length
      ? indices.length / 3
      : checkGeometry(api, positions, indices);
  if (triangleCount !== bvh.triangleCount) {
    throw new CpuPickError(
      api,
      'bvh-mismatch',
      `the geometry has ${triangleCount} triangles but the BVH was built over ${bvh.triangleCount}; rebuild instead of refitting`,
    );
  }
  if (!(positions instanceof Float32Array))
    throw new CpuPickError(api, 'bad-geometry', `positions ${describeValue(positions)} must be a Float32Array`);
  // Checked up front so a bad vertex leaves the BVH untouched rather than half refitted: x · 0 is NaN exactly for a
  // NaN or infinite x, so one sum tells, and only a failing sum looks for the culprit.
  let probe = 0;
  for (let i = 0; i < positions.length; i++) probe += positions[i] * 0;
  if (probe !== 0) {
    for (let i = 0; i < positions.length; i++) {
      if (!Number.isFinite(positions[i]))
        throw new CpuPickError(
          api,
          'non-finite-vertex',
          `vertex ${Math.floor(i / 3)} is not finite (component ${i % 3} = ${positions[i]})`,
        );
    }
  }
  if (bvh.compact !== null) {
    let c = bvh.compact;
    if (indices !== bvh.indices) {
      // The leaf stream holds the old index's vertex ids: re-read them from the new one (same faces, same tree).
      const { nodes, faceIds } = expandCompactBvh(c, bvh.positions);
      const repacked = packCompactBvh(nodes, faceIds, indices);
      if (repacked === null)
        throw new CpuPickError(api, 'bad-geometry', 'the new indices do not fit the compact layout; rebuild the BVH');
      c = repacked;
    }
    refitCompactBvh(api, c, positions);
    bvh.compact = c;
    bvh.positions = positions;
    bvh.indices = indices;
    bvh.refitCount++;
    noteTriangleBvhRefit();
    return;
  }
  bvh.positions = positions;
  bvh.indices = indices;
  // New positions may hold more vertices than 16-bit leaf indices can name.
  if (bvh.leafIndices instanceof Uint16Array && positions.length / 3 > 65536)
    bvh.leafIndices = makeLeafIndices(bvh.triangleCount, positions.length / 3);
  refitTriangleBvhBounds(bvh as FloatTriangleBvh);
}
