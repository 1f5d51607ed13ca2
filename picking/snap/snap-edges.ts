import type { PickSubject } from '../sources/pick-source.js';
import { getTriangleVertices } from '../picking-info.js';

/**
 * The largest angle between two faces' normals for their shared edge to count as flat (not a feature edge): 1°. The
 * diagonal of a planar quad, the seams of a flat region's triangulation, are not edges a measuring tool snaps to.
 */
export const snapCreaseAngle = Math.PI / 180;

/** Per mesh geometry (keyed by its positions array): one flag per triangle edge, 1 for a feature edge. */
interface FeatureEdgeTable {
  indices: ArrayLike<number> | null;
  flags: Uint8Array;
}

// Made on the first snap, so importing the module allocates nothing.
let tables: WeakMap<object, FeatureEdgeTable> | null = null;

/**
 * One flag per triangle edge (edge k of face f at 3f + k, k = 0: corners 0–1, 1: 1–2, 2: 2–0), 1 where the edge is a
 * feature edge: a boundary edge (one face), an edge of three faces or more, or one whose two faces' normals differ by
 * more than `snapCreaseAngle`. Faces meet where their corners' local rest positions are equal (vertices split for
 * normals or UVs still join). Built once per positions array and index list, kept while the array lives.
 * @internal
 */
export function getFeatureEdges(mesh: PickSubject): Uint8Array {
  const indices = mesh.geometry.indices ?? null;
  tables ??= new WeakMap();
  const known = tables.get(mesh.positions);
  if (known && known.indices === indices) return known.flags;
  const flags = buildFeatureEdges(mesh);
  tables.set(mesh.positions, { indices, flags });
  return flags;
}

function buildFeatureEdges(mesh: PickSubject): Uint8Array {
  const p = mesh.positions;
  const faceCount = Math.floor((mesh.geometry.indices ? mesh.geometry.indices.length : p.length / 3) / 3);
  const welded = new Map<string, number>();
  const weldOf = (v: number) => {
    const key = `${p[v * 3]},${p[v * 3 + 1]},${p[v * 3 + 2]}`;
    let id = welded.get(key);
    if (id === undefined) welded.set(key, (id = welded.size));
    return id;
  };
  const corners = new Int32Array(faceCount * 3);
  const normals = new Float64Array(faceCount * 3);
  for (let f = 0; f < faceCount; f++) {
    const [i0, i1, i2] = getTriangleVertices(mesh, f);
    corners[f * 3] = weldOf(i0);
    corners[f * 3 + 1] = weldOf(i1);
    corners[f * 3 + 2] = weldOf(i2);
    const ax = p[i1 * 3] - p[i0 * 3];
    const ay = p[i1 * 3 + 1] - p[i0 * 3 + 1];
    const az = p[i1 * 3 + 2] - p[i0 * 3 + 2];
    const bx = p[i2 * 3] - p[i0 * 3];
    const by = p[i2 * 3 + 1] - p[i0 * 3 + 1];
    const bz = p[i2 * 3 + 2] - p[i0 * 3 + 2];
    const nx = ay * bz - az * by;
    const ny = az * bx - ax * bz;
    const nz = ax * by - ay * bx;
    const length = Math.hypot(nx, ny, nz) || 1;
    normals[f * 3] = nx / length;
    normals[f * 3 + 1] = ny / length;
    normals[f * 3 + 2] = nz / length;
  }
  const weldCount = welded.size;
  // Each undirected welded edge: the triangle edges (3f + k) along it.
  const edges = new Map<number, number[]>();
  for (let e = 0; e < faceCount * 3; e++) {
    const a = corners[e];
    const b = corners[e - (e % 3) + (((e % 3) + 1) % 3)];
    const key = Math.min(a, b) * weldCount + Math.max(a, b);
    const list = edges.get(key);
    if (list) list.push(e);
    else edges.set(key, [e]);
  }
  const flags = new Uint8Array(faceCount * 3);
  const creaseCosine = Math.cos(snapCreaseAngle);
  for (const list of edges.values()) {
    let feature = list.length !== 2;
    if (!feature) {
      const f = Math.floor(list[0] / 3) * 3;
      const g = Math.floor(list[1] / 3) * 3;
      const cosine = normals[f] * normals[g] + normals[f + 1] * normals[g + 1] + normals[f + 2] * normals[g + 2];
      feature = cosine < creaseCosine;
    }
    if (feature) for (const e of list) flags[e] = 1;
  }
  return flags;
}
