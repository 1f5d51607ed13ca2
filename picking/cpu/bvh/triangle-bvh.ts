import { describeValue } from '../../../core/errors.js';
import { type BvhBuildOptions, buildBvhNodes } from './bvh-build.js';
import { type BvhNodes, nodeCountWord, nodeFirstWord, nodeWords } from './bvh-nodes.js';
import { CpuPickError } from '../cpu-pick-error.js';
import { type CompactBvh, packCompactBvh } from './compact-bvh.js';

/**
 * How a triangle BVH holds its nodes and its leaves' triangles:
 * - `'compact'` (default): 16-byte nodes (bounds quantised to 16 bits per axis on a grid over the root box, widened
 *   outwards so no hit is lost) and a leaf stream: per leaf a base vertex and face, per triangle its 3 vertex and 1
 *   face offsets in 16 bits (32 bits for a leaf whose vertices or faces span more than 65 535). ~10.5 bytes per
 *   triangle over a 500k-triangle torus, first hits about as fast as `'leaf-indices'` (a leaf is one contiguous read,
 *   then the positions). `nodes` and `faceIds` are null; a mesh too large for its 24-bit addresses (over ~8 million
 *   triangles) gets `'leaf-indices'` instead.
 * - `'leaf-indices'`: 32-byte float nodes and a leaf-order copy of the faces' vertex indices (16 bits per index when
 *   the mesh has at most 65 536 vertices, else 32); ~23 bytes per triangle over a 500k-triangle mesh.
 * - `'leaf-triangles'`: 32-byte nodes and a leaf-order copy of the 9 corner coordinates (36 bytes per triangle; ~47 in
 *   all).
 * - `'face-ids'`: 32-byte nodes, no copy (~11 bytes per triangle); queries read the mesh's own index through `faceIds`
 *   (scattered reads: slower first hits on incoherent rays over large meshes).
 */
export type TriangleBvhLayout = 'compact' | 'leaf-indices' | 'leaf-triangles' | 'face-ids';

/** @internal Every layout, in the order the serialised format numbers them. */
export const triangleBvhLayouts: readonly TriangleBvhLayout[] = [
  'face-ids',
  'leaf-triangles',
  'leaf-indices',
  'compact',
];

/**
 * A triangle BVH over one mesh's local positions; `indirect`: the mesh's index buffer is never reordered.
 * Queries read `positions` through `leafIndices` (the default layout), `triangles`, or `indices` through `faceIds`
 * (the arrays it was built or last refitted from; after deforming them in place call `refitTriangleBvh` before the next
 * query).
 */
export interface TriangleBvh {
  /** 32-byte float nodes; null in the `'compact'` layout (see `compact`). */
  nodes: BvhNodes | null;
  /** The `'compact'` layout's quantised nodes and leaf stream, else null. */
  compact: CompactBvh | null;
  /** Which leaf copy the BVH keeps (see `TriangleBvhLayout`). */
  layout: TriangleBvhLayout;
  /**
   * 9 floats per triangle (corners 0, 1, 2 of the face) in leaf order (`'leaf-triangles'`), else null.
   */
  triangles: Float32Array | null;
  /**
   * 3 vertex indices per triangle (corners 0, 1, 2 of the face) in leaf order, 16 bits when the mesh has at most 65 536
   * vertices (`'leaf-indices'`), else null.
   */
  leafIndices: Uint16Array | Uint32Array | null;
  /**
   * Leaf position → faceId (triangle index into the mesh's index buffer), ascending within each leaf; 16 bits when
   * every face id fits. Null in the `'compact'` layout (its leaf stream holds the face ids).
   */
  faceIds: Uint16Array | Uint32Array | null;
  /** The vertex positions the BVH reads (not a copy). */
  positions: Float32Array;
  /** The mesh's index buffer (not a copy, never reordered), or null for a non-indexed triangle list (face f: vertices 3f..3f+2). */
  indices: Uint16Array | Uint32Array | null;
  triangleCount: number;
  /** Incremented by every refit. */
  refitCount: number;
}

/** @internal A triangle BVH in one of the float-node layouts (every layout but `'compact'`). */
export type FloatTriangleBvh = TriangleBvh & { nodes: BvhNodes; faceIds: Uint16Array | Uint32Array; compact: null };

/** @internal Whether `bvh` has float nodes (is not `'compact'`). */
export function hasFloatNodes(bvh: TriangleBvh): bvh is FloatTriangleBvh {
  return bvh.nodes !== null;
}

/**
 * @internal Writes the BVH's root box (interleaved min/max per axis; see `CompactBvh.root` for the `'compact'`
 * layout) into `out`; false for an empty BVH.
 */
export function triangleBvhRootBounds(bvh: TriangleBvh, out: Float64Array): boolean {
  if (bvh.compact !== null) {
    if (bvh.compact.nodeCount === 0) return false;
    out.set(bvh.compact.root);
    return true;
  }
  if (bvh.nodes === null || bvh.nodes.nodeCount === 0) return false;
  for (let k = 0; k < 6; k++) out[k] = bvh.nodes.floats[k];
  return true;
}

/**
 * Default build: 12 SAH bins on the longest centroid axis, leaves of up to 16 triangles, a node visit costing six
 * triangle tests (~8 triangles per leaf), in the `'compact'` layout: ~12.5 bytes per triangle (~23 with
 * `'leaf-indices'`, ~47 with the triangle copy, ~11 with `'face-ids'`; bench/cpu-pick.ts). Meshes of more than
 * `largeMeshTriangles` get `largeMeshLeafOptions` instead.
 * @internal
 */
export const defaultTriangleBvhOptions: Readonly<TriangleBvhOptions> = {
  binCount: 12,
  maxLeafSize: 16,
  traversalCost: 6,
  intersectCost: 1,
  layout: 'compact',
};

/** @internal Triangle count past which a compact BVH's leaf defaults are `largeMeshLeafOptions`. */
export const largeMeshTriangles = 65_536;

/**
 * @internal Leaf defaults of a compact BVH over a mesh too large for the CPU caches: up to 24 triangles, a node visit
 * costing twelve tests (~12 per leaf). There a node visit is a cache miss while a compact leaf is one contiguous read:
 * on a 500k-triangle torus, first hits as fast as with ~8 per leaf, ~10.5 bytes per triangle instead of ~12.6, builds
 * ~10 % faster. On a small (cache-resident) mesh the extra triangle tests cost 5–10 % (the 3 674-triangle bunny).
 */
export const largeMeshLeafOptions: Readonly<Pick<TriangleBvhOptions, 'maxLeafSize' | 'traversalCost'>> = {
  maxLeafSize: 24,
  traversalCost: 12,
};

/** Options of `buildTriangleBvh`: the SAH build parameters and the leaf layout. */
export interface TriangleBvhOptions extends BvhBuildOptions {
  /** How nodes and leaves are stored (default `'compact'`; see `TriangleBvhLayout`). */
  layout: TriangleBvhLayout;
  /**
   * @deprecated Use `layout`: true is `'leaf-triangles'`, false is `'face-ids'`. Read only when `layout` is not given.
   */
  copyTriangles?: boolean;
}

/** @internal The most triangles a leaf holds (`maxLeafSize` at most; checked again when a serialised BVH loads). */
export const maxLeafTriangles = 255;

/** @internal */
export function checkGeometry(api: string, positions: Float32Array, indices: Uint16Array | Uint32Array | null): number {
  if (!(positions instanceof Float32Array) || positions.length % 3 !== 0) {
    throw new CpuPickError(
      api,
      'bad-geometry',
      `positions ${describeValue(positions)} must be a Float32Array of xyz triples`,
    );
  }
  const vertexCount = positions.length / 3;
  if (indices === null) {
    if (vertexCount % 3 !== 0)
      throw new CpuPickError(api, 'bad-geometry', `${vertexCount} vertices without indices is not a triangle list`);
    return vertexCount / 3;
  }
  if (!(indices instanceof Uint16Array || indices instanceof Uint32Array) || indices.length % 3 !== 0) {
    throw new CpuPickError(
      api,
      'bad-geometry',
      `indices ${describeValue(indices)} must be a Uint16Array or Uint32Array whose length is a multiple of 3`,
    );
  }
  for (let i = 0; i < indices.length; i++) {
    if (indices[i] >= vertexCount)
      throw new CpuPickError(
        api,
        'bad-geometry',
        `indices[${i}] = ${indices[i]} is out of range; there are ${vertexCount} vertices`,
      );
  }
  return indices.length / 3;
}

/** Copies face `face`'s 9 coordinates to `out[at..]`; throws when one is not finite. */
function gatherTriangle(
  api: string,
  positions: Float32Array,
  indices: Uint16Array | Uint32Array | null,
  face: number,
  out: Float32Array,
  at: number,
): void {
  for (let k = 0; k < 3; k++) {
    const v = (indices ? indices[face * 3 + k] : face * 3 + k) * 3;
    const x = positions[v];
    const y = positions[v + 1];
    const z = positions[v + 2];
    if (!Number.isFinite(x + y + z)) {
      throw new CpuPickError(
        api,
        'non-finite-vertex',
        `vertex ${v / 3} of face ${face} is not finite (${x}, ${y}, ${z})`,
      );
    }
    out[at + k * 3] = x;
    out[at + k * 3 + 1] = y;
    out[at + k * 3 + 2] = z;
  }
}

/**
 * Writes every face's box into `prims` (6 floats each, interleaved per axis) in one pass over the index; a face with a
 * non-finite coordinate is found again by gatherTriangle, which throws naming it.
 */
function triangleBoxes(
  api: string,
  positions: Float32Array,
  indices: Uint16Array | Uint32Array | null,
  prims: Float32Array,
): void {
  const P = positions;
  const count = prims.length / 6;
  for (let f = 0, o = 0; f < count; f++, o += 6) {
    const c = f * 3;
    const u = (indices === null ? c : indices[c]) * 3;
    const v = (indices === null ? c + 1 : indices[c + 1]) * 3;
    const w = (indices === null ? c + 2 : indices[c + 2]) * 3;
    let check = 0;
    for (let a = 0; a < 3; a++) {
      const p = P[u + a];
      const q = P[v + a];
      const r = P[w + a];
      check += p + q + r;
      prims[o + 2 * a] = p < q ? (p < r ? p : r) : q < r ? q : r;
      prims[o + 2 * a + 1] = p > q ? (p > r ? p : r) : q > r ? q : r;
    }
    if (!Number.isFinite(check)) gatherTriangle(api, positions, indices, f, new Float32Array(9), 0);
  }
}

/**
 * Sorts each leaf's face ids: a leaf's faces then read the index and positions in address order, so neighbouring faces
 * share cache lines as they are met (first hits over a 500k-triangle torus: 1.03–1.09× faster than in build order).
 * A counting sort over all faces at once (each face's leaf, then the faces in ascending order, each to its leaf's next
 * slot): two passes without a data-dependent branch, ~2× faster than an insertion sort per leaf. `scratch` holds at
 * least 2 × faceIds.length entries.
 */
function sortLeafFaces(nodes: BvhNodes, faceIds: Uint32Array, scratch: Uint32Array): void {
  const { ints, nodeCount } = nodes;
  const count = faceIds.length;
  // leafOf[face]: its leaf's first position; next[first]: that leaf's next free position.
  const leafOf = scratch.subarray(0, count);
  const next = scratch.subarray(count, 2 * count);
  for (let o = 0, end = nodeCount * nodeWords; o < end; o += nodeWords) {
    const n = ints[o + nodeCountWord];
    if (n === 0) continue;
    const first = ints[o + nodeFirstWord];
    next[first] = first;
    for (let i = first, last = first + n; i < last; i++) leafOf[faceIds[i]] = first;
  }
  for (let face = 0; face < count; face++) faceIds[next[leafOf[face]]++] = face;
}

/** @internal Face ids in 16 bits when they all fit (a copy), else the array itself. */
export function compactFaceIds(faceIds: Uint32Array): Uint16Array | Uint32Array {
  return faceIds.length <= 65536 ? new Uint16Array(faceIds) : faceIds;
}

/** @internal Fills the BVH's leaf copy (`triangles` or `leafIndices`, whichever it keeps) from its positions and indices. */
export function copyLeafTriangles(bvh: FloatTriangleBvh): void {
  const { positions: P, indices: idx, faceIds, triangles: T, leafIndices: L } = bvh;
  if (L !== null) {
    for (let i = 0, b = 0; i < faceIds.length; i++, b += 3) {
      const f = faceIds[i] * 3;
      L[b] = idx === null ? f : idx[f];
      L[b + 1] = idx === null ? f + 1 : idx[f + 1];
      L[b + 2] = idx === null ? f + 2 : idx[f + 2];
    }
  }
  if (T === null) return;
  for (let i = 0, b = 0; i < faceIds.length; i++) {
    const f = faceIds[i] * 3;
    for (let k = 0; k < 3; k++, b += 3) {
      const v = (idx === null ? f + k : idx[f + k]) * 3;
      T[b] = P[v];
      T[b + 1] = P[v + 1];
      T[b + 2] = P[v + 2];
    }
  }
}

/** @internal An empty leaf index copy for `vertexCount` vertices: 16 bits per index when they all fit. */
export function makeLeafIndices(triangleCount: number, vertexCount: number): Uint16Array | Uint32Array {
  return vertexCount <= 65536 ? new Uint16Array(triangleCount * 3) : new Uint32Array(triangleCount * 3);
}

/** @internal Allocates the (unfilled) leaf copy `layout` keeps on `bvh`. */
export function allocateLeafCopy(bvh: FloatTriangleBvh): void {
  bvh.triangles = bvh.layout === 'leaf-triangles' ? new Float32Array(bvh.triangleCount * 9) : null;
  bvh.leafIndices = bvh.layout === 'leaf-indices' ? makeLeafIndices(bvh.triangleCount, bvh.positions.length / 3) : null;
}

/** The layout `options` ask for: `layout`, else the deprecated `copyTriangles`, else the default. */
function layoutOf(api: string, options: Partial<TriangleBvhOptions>): TriangleBvhLayout {
  const layout =
    options.layout ??
    (options.copyTriangles === undefined
      ? defaultTriangleBvhOptions.layout
      : options.copyTriangles
        ? 'leaf-triangles'
        : 'face-ids');
  if (!triangleBvhLayouts.includes(layout))
    throw new CpuPickError(
      api,
      'bad-option',
      `layout ${describeValue(layout)} must be one of ${triangleBvhLayouts.map((l) => `'${l}'`).join(', ')}`,
    );
  return layout;
}

/**
 * Builds a binned-SAH triangle BVH; the caller's arrays are read, never modified.
 * @throws {CpuPickError} when the positions or indices are malformed (length, out-of-range index)
 */
export function buildTriangleBvh(
  positions: Float32Array,
  indices: Uint16Array | Uint32Array | null,
  options: Partial<TriangleBvhOptions> = {},
): TriangleBvh {
  const api = 'buildTriangleBvh';
  const triangleCount = checkGeometry(api, positions, indices);
  const layout = layoutOf(api, options);
  const large = layout === 'compact' && triangleCount > largeMeshTriangles;
  const settings = { ...defaultTriangleBvhOptions, ...(large ? largeMeshLeafOptions : {}), ...options };
  if (
    !Number.isInteger(settings.binCount) ||
    settings.binCount < 2 ||
    settings.binCount > 256 ||
    !Number.isInteger(settings.maxLeafSize) ||
    settings.maxLeafSize < 1 ||
    settings.maxLeafSize > maxLeafTriangles
  ) {
    throw new CpuPickError(
      api,
      'bad-option',
      `binCount ${describeValue(settings.binCount)} must be an integer in 2..256 and maxLeafSize ${describeValue(settings.maxLeafSize)} in 1..${maxLeafTriangles}`,
    );
  }
  const prims = new Float32Array(triangleCount * 6);
  triangleBoxes(api, positions, indices, prims);
  const faceIds = new Uint32Array(triangleCount);
  for (let f = 0; f < triangleCount; f++) faceIds[f] = f;
  const nodes = buildBvhNodes(prims, faceIds, settings);
  sortLeafFaces(nodes, faceIds, new Uint32Array(prims.buffer)); // the primitive boxes are spent: their memory serves
  const compact = layout === 'compact' ? packCompactBvh(nodes, faceIds, indices) : null;
  if (compact !== null)
    return {
      nodes: null,
      compact,
      layout,
      triangles: null,
      leafIndices: null,
      faceIds: null,
      positions,
      indices,
      triangleCount,
      refitCount: 0,
    };
  const order = compactFaceIds(faceIds);
  const bvh: FloatTriangleBvh = {
    nodes,
    compact: null,
    layout: layout === 'compact' ? 'leaf-indices' : layout,
    triangles: null,
    leafIndices: null,
    faceIds: order,
    positions,
    indices,
    triangleCount,
    refitCount: 0,
  };
  allocateLeafCopy(bvh);
  copyLeafTriangles(bvh);
  return bvh;
}
