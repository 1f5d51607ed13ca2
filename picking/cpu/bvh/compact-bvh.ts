// The 'compact' triangle BVH layout: 16-byte nodes with bounds quantised to 16 bits per axis on one grid over the root
// box, and a leaf stream holding, per leaf, a base vertex and face, then each triangle's 3 vertex and 1 face offsets
// in 16 bits (32 for a leaf whose span does not fit). ~10.5 bytes per triangle over a 500k-triangle torus, against
// ~23 for 'leaf-indices'; a leaf's triangles are one contiguous read, then the positions.
import { allocateBvhNodes, type BvhNodes, nodeCountWord, nodeFirstWord, nodeWords } from './bvh-nodes.js';

/** @internal The largest quantised coordinate. */
export const compactQuantMax = 65535;
/** @internal Node words and leaf stream units are addressed with 24 bits (the low 8 hold a leaf's triangle count). */
export const compactMaxAddress = 1 << 24;
/** @internal Flag on a leaf header's face word: the leaf's triangles take two units each, with 32-bit ids. */
export const wideLeafFlag = 0x80000000;

/**
 * @internal Nodes and leaves of a `'compact'` triangle BVH (see `TriangleBvhLayout`).
 * Node n: `bounds[n·8 .. n·8+5]` = quantised minX, maxX, minY, maxY, minZ, maxZ (value = lo + q × step per axis,
 * conservative: never inside the exact float bounds), `links[n·4 + 3]` = (first << 8) | count: count 0 for an inner node
 * whose children are first and first + 1, else a leaf of `count` triangles whose header is leaf stream unit `first`.
 * The leaf stream is 8-byte units: a header [base vertex, base face | wideLeafFlag] (`leaf32[2u]`, `leaf32[2u + 1]`),
 * then one unit per triangle (`leaf16`: corner 0, 1, 2 vertex − base, face − base) or, in a wide leaf, two
 * (`leaf32`: vertices 0, 1, 2, face). Children have larger indices than their parent.
 */
export interface CompactBvh {
  bounds: Uint16Array;
  links: Uint32Array;
  nodeCount: number;
  maxDepth: number;
  /** lo x, y, z, then step x, y, z (float64). */
  grid: Float64Array;
  /**
   * The root's float box (interleaved per axis): exact after a build or whole refit, the quantised root box after a
   * partial refit that moved a leaf (it cannot tell whether the exact box shrank).
   */
  root: Float32Array;
  leaf16: Uint16Array;
  leaf32: Uint32Array;
}

/** @internal Whether a BVH of these nodes and leaves can be addressed by the compact layout. */
export function fitsCompact(nodeCount: number, leafCount: number, triangleCount: number): boolean {
  // Wide leaves take two units per triangle: the worst case.
  return nodeCount < compactMaxAddress && leafCount + 2 * triangleCount < compactMaxAddress;
}

/** @internal Sets `grid` to cover the float box `b[0..6]` (interleaved per axis) with room to spare at the top. */
export function setCompactGrid(grid: Float64Array, b: ArrayLike<number>): void {
  let widest = 0;
  for (let a = 0; a < 3; a++) widest = Math.max(widest, b[2 * a + 1] - b[2 * a]);
  for (let a = 0; a < 3; a++) {
    const extent = b[2 * a + 1] - b[2 * a];
    grid[a] = b[2 * a];
    // A flat axis borrows the widest axis's step, so a later refit that lifts it off the plane stays on the grid.
    grid[3 + a] = (extent > 0 ? extent : widest > 0 ? widest : 1) / (compactQuantMax - 2);
  }
}

/**
 * @internal Quantises the float box `b[s..s+6]` into node `n`; false when it leaves the grid (the node then partly written).
 * A quantised bound lies at least 1/1024 of a step outside the float one, except at the grid's low end.
 */
export function quantiseNode(c: CompactBvh, n: number, b: Float32Array, s: number): boolean {
  const { grid, bounds } = c;
  const o = n * 8;
  for (let a = 0; a < 3; a++) {
    const lo = grid[a];
    const step = grid[3 + a];
    const min = b[s + 2 * a];
    const max = b[s + 2 * a + 1];
    const x = (min - lo) / step;
    const y = (max - lo) / step;
    if (!(x >= 0 && y < compactQuantMax)) return false;
    // floor and ceil (both in 0..65535 here), then one step outwards where that left the plane within 1/1024 step of
    // the bound: a query's rounding (about 1e-16 of the box's distance) never moves a plane inside it. Only the grid's
    // low end (q = 0, the root's exact minimum) has no margin: there the query computes (lo − origin) / d exactly as
    // the float layouts do.
    const margin = step / 1024;
    let q0 = x | 0;
    if (q0 > 0 && lo + q0 * step > min - margin) q0--;
    let q1 = y | 0;
    if (q1 < y) q1++;
    if (lo + q1 * step < max + margin) q1++;
    if (q1 > compactQuantMax) return false;
    bounds[o + 2 * a] = q0;
    bounds[o + 2 * a + 1] = q1;
  }
  return true;
}

/** @internal Inner node `n`'s quantised bounds: the union of its children's (exact: one grid for every node). */
export function unionCompactChildren(c: CompactBvh, n: number): void {
  const B = c.bounds;
  const o = n * 8;
  const a = (c.links[n * 4 + 3] >>> 8) * 8;
  const b = a + 8;
  for (let k = 0; k < 6; k += 2) {
    B[o + k] = B[a + k] < B[b + k] ? B[a + k] : B[b + k];
    B[o + k + 1] = B[a + k + 1] > B[b + k + 1] ? B[a + k + 1] : B[b + k + 1];
  }
}

/** @internal Node `n`'s quantised bounds as floats (conservative), interleaved per axis, into `out[at..at+6]`. */
export function compactNodeBox(c: CompactBvh, n: number, out: Float32Array | Float64Array, at = 0): void {
  const { grid, bounds } = c;
  for (let a = 0; a < 3; a++) {
    out[at + 2 * a] = grid[a] + bounds[n * 8 + 2 * a] * grid[3 + a];
    out[at + 2 * a + 1] = grid[a] + bounds[n * 8 + 2 * a + 1] * grid[3 + a];
  }
  if (out instanceof Float32Array) {
    // Float32 rounding may move a bound inwards: step it outwards past the float64 value.
    for (let k = 0; k < 6; k++) {
      const exact = grid[k >> 1] + bounds[n * 8 + k] * grid[3 + (k >> 1)];
      if (k % 2 === 0 ? out[at + k] > exact : out[at + k] < exact) out[at + k] = nextFloat32(out[at + k], k % 2 === 0);
    }
  }
}

let bits: Float32Array | null = null;
let bitsInt: Int32Array | null = null;
/** The float32 next to `x` downwards (`down`) or upwards. */
function nextFloat32(x: number, down: boolean): number {
  bits ??= new Float32Array(1);
  bitsInt ??= new Int32Array(bits.buffer);
  bits[0] = x;
  if (x === 0) return down ? -1.4e-45 : 1.4e-45;
  bitsInt[0] += x > 0 === down ? -1 : 1;
  return bits[0];
}

/** @internal Vertex of corner `k` of triangle `i` (0-based) of the leaf whose header is unit `u`. */
export function compactLeafVertex(c: CompactBvh, u: number, i: number, k: number): number {
  const face = c.leaf32[2 * u + 1];
  if (face & wideLeafFlag) return c.leaf32[2 * (u + 1 + 2 * i) + k];
  return c.leaf32[2 * u] + c.leaf16[4 * (u + 1 + i) + k];
}

/** @internal Face id of triangle `i` (0-based) of the leaf whose header is unit `u`. */
export function compactLeafFace(c: CompactBvh, u: number, i: number): number {
  const face = c.leaf32[2 * u + 1];
  if (face & wideLeafFlag) return c.leaf32[2 * (u + 1 + 2 * i) + 3];
  return face + c.leaf16[4 * (u + 1 + i) + 3];
}

/**
 * @internal Packs float nodes and their leaf-order face ids (each leaf's ascending) into the compact layout, or null
 * when it cannot address them (see fitsCompact) or a box cannot be quantised. The float nodes are read, never kept.
 */
export function packCompactBvh(
  nodes: BvhNodes,
  faceIds: ArrayLike<number>,
  indices: Uint16Array | Uint32Array | null,
): CompactBvh | null {
  const { floats, ints, nodeCount, maxDepth } = nodes;
  let leafCount = 0;
  for (let n = 0; n < nodeCount; n++) if (ints[n * nodeWords + nodeCountWord] > 0) leafCount++;
  if (!fitsCompact(nodeCount, leafCount, faceIds.length)) return null;
  // Each leaf's lowest vertex and whether it is wide, then the stream's size: a header per leaf, one unit per narrow
  // triangle, two per wide one.
  const base = new Uint32Array(nodeCount);
  const wide = new Uint8Array(nodeCount);
  let units = 0;
  for (let n = 0; n < nodeCount; n++) {
    const o = n * nodeWords;
    const count = ints[o + nodeCountWord];
    if (count === 0) continue;
    const first = ints[o + nodeFirstWord];
    let v0 = 0xffffffff;
    let v1 = 0;
    for (let i = first, end = first + count; i < end; i++) {
      const f = faceIds[i] * 3;
      for (let k = 0; k < 3; k++) {
        const v = indices === null ? f + k : indices[f + k];
        if (v < v0) v0 = v;
        if (v > v1) v1 = v;
      }
    }
    base[n] = v0;
    wide[n] = v1 - v0 > 0xffff || faceIds[first + count - 1] - faceIds[first] > 0xffff ? 1 : 0;
    units += 1 + count * (wide[n] + 1);
  }
  const buffer = new ArrayBuffer(nodeCount * 16);
  const stream = new ArrayBuffer(units * 8);
  const c: CompactBvh = {
    bounds: new Uint16Array(buffer),
    links: new Uint32Array(buffer),
    nodeCount,
    maxDepth,
    grid: new Float64Array(6),
    root: floats.slice(0, 6),
    leaf16: new Uint16Array(stream),
    leaf32: new Uint32Array(stream),
  };
  if (nodeCount > 0) setCompactGrid(c.grid, floats);
  const { links, leaf16, leaf32 } = c;
  let u = 0;
  for (let n = 0; n < nodeCount; n++) {
    const o = n * nodeWords;
    if (!quantiseNode(c, n, floats, o)) return null; // a box too far from the origin for its size to quantise
    const count = ints[o + nodeCountWord];
    const first = ints[o + nodeFirstWord];
    if (count === 0) {
      links[n * 4 + 3] = first << 8;
      continue;
    }
    links[n * 4 + 3] = ((u << 8) | count) >>> 0;
    const b = base[n];
    const baseFace = faceIds[first];
    leaf32[2 * u] = b;
    leaf32[2 * u + 1] = wide[n] ? (baseFace | wideLeafFlag) >>> 0 : baseFace;
    u++;
    for (let i = first, end = first + count; i < end; i++) {
      const face = faceIds[i];
      const f = face * 3;
      const v0 = indices === null ? f : indices[f];
      const v1 = indices === null ? f + 1 : indices[f + 1];
      const v2 = indices === null ? f + 2 : indices[f + 2];
      if (wide[n]) {
        leaf32[2 * u] = v0;
        leaf32[2 * u + 1] = v1;
        leaf32[2 * u + 2] = v2;
        leaf32[2 * u + 3] = face;
        u += 2;
      } else {
        leaf16[4 * u] = v0 - b;
        leaf16[4 * u + 1] = v1 - b;
        leaf16[4 * u + 2] = v2 - b;
        leaf16[4 * u + 3] = face - baseFace;
        u++;
      }
    }
  }
  return c;
}

/**
 * @internal Exact float bounds of every node from the positions (leaves over their triangles, inner nodes the union of
 * their children), 6 floats per node interleaved per axis: what the float build gives for the same topology.
 */
export function compactFloatBounds(c: CompactBvh, positions: Float32Array): Float32Array {
  const { links, nodeCount, leaf16, leaf32 } = c;
  const P = positions;
  const F = new Float32Array(nodeCount * 6);
  for (let n = nodeCount - 1; n >= 0; n--) {
    const word = links[n * 4 + 3];
    const count = word & 255;
    const o = n * 6;
    if (count === 0) {
      const a = (word >>> 8) * 6;
      const b = a + 6;
      for (let k = 0; k < 6; k += 2) {
        F[o + k] = F[a + k] < F[b + k] ? F[a + k] : F[b + k];
        F[o + k + 1] = F[a + k + 1] > F[b + k + 1] ? F[a + k + 1] : F[b + k + 1];
      }
      continue;
    }
    let x0 = Infinity;
    let x1 = -Infinity;
    let y0 = Infinity;
    let y1 = -Infinity;
    let z0 = Infinity;
    let z1 = -Infinity;
    const u = word >>> 8;
    const isWide = (leaf32[2 * u + 1] & wideLeafFlag) !== 0;
    const base = leaf32[2 * u];
    for (let i = 0; i < count; i++) {
      for (let k = 0; k < 3; k++) {
        const v = (isWide ? leaf32[2 * (u + 1 + 2 * i) + k] : base + leaf16[4 * (u + 1 + i) + k]) * 3;
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
    F[o] = x0;
    F[o + 1] = x1;
    F[o + 2] = y0;
    F[o + 3] = y1;
    F[o + 4] = z0;
    F[o + 5] = z1;
  }
  return F;
}

/**
 * @internal The float nodes and leaf-order face ids of a compact BVH: the form the serialised format stores and
 * `packCompactBvh` reads. Bounds: exact from `positions`, or with null the quantised boxes (rounded outwards).
 */
export function expandCompactBvh(
  c: CompactBvh,
  positions: Float32Array | null,
): { nodes: BvhNodes; faceIds: Uint32Array } {
  const { nodeCount, maxDepth, links } = c;
  const { floats, ints } = allocateBvhNodes(nodeCount);
  let F: Float32Array;
  if (positions !== null) F = compactFloatBounds(c, positions);
  else {
    F = new Float32Array(nodeCount * 6);
    for (let n = 0; n < nodeCount; n++) compactNodeBox(c, n, F, n * 6);
  }
  let triangles = 0;
  for (let n = 0; n < nodeCount; n++) triangles += links[n * 4 + 3] & 255;
  const faceIds = new Uint32Array(triangles);
  // Leaves take consecutive leaf positions in node order, as the build lays them out.
  let at = 0;
  for (let n = 0; n < nodeCount; n++) {
    const o = n * nodeWords;
    for (let k = 0; k < 6; k++) floats[o + k] = F[n * 6 + k];
    const word = links[n * 4 + 3];
    const count = word & 255;
    if (count === 0) {
      ints[o + nodeFirstWord] = word >>> 8;
      ints[o + nodeCountWord] = 0;
      continue;
    }
    ints[o + nodeFirstWord] = at;
    ints[o + nodeCountWord] = count;
    for (let i = 0; i < count; i++) faceIds[at++] = compactLeafFace(c, word >>> 8, i);
  }
  return { nodes: { floats, ints, nodeCount, maxDepth }, faceIds };
}
