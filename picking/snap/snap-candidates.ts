// The order of the snap candidates of one kind and the first of them whose line of sight is clear: the candidates in
// typed arrays reused from snap to snap (a snap's code mostly runs unoptimised), each one's world point, sight origin
// and depth computed only when the order or the occlusion test needs them.
import type { SnapTriangles } from './snap-seen.js';

type Vec3 = [number, number, number];

/**
 * @internal Where the line of sight to a world point starts: `eye`, the camera position for every point (perspective);
 * `plane`, the point's foot on the eye plane through `origin` across the unit view direction (orthographic); `ray`,
 * from `at` given the point's framebuffer position (any other camera: its picking ray's origin).
 */
export type SnapSight =
  | { kind: 'eye'; origin: Vec3 }
  | { kind: 'plane'; origin: Vec3; direction: Vec3 }
  | { kind: 'ray'; at(x: number, y: number): Vec3 };

/** @internal What the snapping looks through: the drawn view-projection, the framebuffer, the point. */
export interface SnapView {
  viewProjection: ArrayLike<number>;
  width: number;
  height: number;
  /** The point snapped from (framebuffer pixels: a pixel centre, or the exact `subpixel` point). */
  sampleX: number;
  sampleY: number;
  /** The snap radius in framebuffer pixels. */
  radius: number;
  sight: SnapSight;
}

/**
 * An occluder must be nearer than the feature by more than this fraction of the sight line's length: surfaces that
 * meet the feature (its own faces, a neighbour's coplanar face along a shared edge) never hide it.
 * @internal
 */
export const snapOcclusionTolerance = 1e-4;

/**
 * @internal The candidates of one kind within the radius, as parallel arrays (reused between snaps): triangle, edge
 * (or corner) k, t along it, framebuffer position and pixel distance. `depth` is NaN until computed with the world
 * `point` and the sight `origin` (3 per candidate).
 */
export interface SnapCandidates {
  count: number;
  triangle: Int32Array;
  edge: Uint8Array;
  tried: Uint8Array;
  t: Float64Array;
  x: Float64Array;
  y: Float64Array;
  distance: Float64Array;
  depth: Float64Array;
  point: Float64Array;
  origin: Float64Array;
}

/** @internal Room for `capacity` candidates. */
export function makeSnapCandidates(capacity: number): SnapCandidates {
  return {
    count: 0,
    triangle: new Int32Array(capacity),
    edge: new Uint8Array(capacity),
    tried: new Uint8Array(capacity),
    t: new Float64Array(capacity),
    x: new Float64Array(capacity),
    y: new Float64Array(capacity),
    distance: new Float64Array(capacity),
    depth: new Float64Array(capacity),
    point: new Float64Array(capacity * 3),
    origin: new Float64Array(capacity * 3),
  };
}

/** @internal Appends a candidate; its depth is computed when needed (`depthOf`). */
export function pushSnapCandidate(
  candidates: SnapCandidates,
  triangle: number,
  k: number,
  t: number,
  x: number,
  y: number,
  distance: number,
): void {
  const n = candidates.count++;
  candidates.triangle[n] = triangle;
  candidates.edge[n] = k;
  candidates.t[n] = t;
  candidates.x[n] = x;
  candidates.y[n] = y;
  candidates.distance[n] = distance;
  candidates.depth[n] = Number.NaN;
}

/** How many best candidates are found by selection before the rest are sorted (most snaps take the first). */
const selectionTries = 8;

/**
 * Candidate n's distance from where its line of sight starts, computed on first need with its world point (corner k
 * exactly at t = 0) and that origin.
 */
function depthOf(candidates: SnapCandidates, triangles: SnapTriangles, view: SnapView, n: number): number {
  const known = candidates.depth[n];
  if (!Number.isNaN(known)) return known;
  const c = triangles.corners;
  const triangle = candidates.triangle[n];
  const k = candidates.edge[n];
  const t = candidates.t[n];
  const a = triangle * 9 + k * 3;
  const b = triangle * 9 + ((k + 1) % 3) * 3;
  const px = c[a] + (c[b] - c[a]) * t;
  const py = c[a + 1] + (c[b + 1] - c[a + 1]) * t;
  const pz = c[a + 2] + (c[b + 2] - c[a + 2]) * t;
  const { point, origin } = candidates;
  point[n * 3] = px;
  point[n * 3 + 1] = py;
  point[n * 3 + 2] = pz;
  const sight = view.sight;
  let ox: number;
  let oy: number;
  let oz: number;
  if (sight.kind === 'plane') {
    const e = sight.origin;
    const f = sight.direction;
    const along = (px - e[0]) * f[0] + (py - e[1]) * f[1] + (pz - e[2]) * f[2];
    ox = px - along * f[0];
    oy = py - along * f[1];
    oz = pz - along * f[2];
  } else {
    const o = sight.kind === 'eye' ? sight.origin : sight.at(candidates.x[n], candidates.y[n]);
    ox = o[0];
    oy = o[1];
    oz = o[2];
  }
  origin[n * 3] = ox;
  origin[n * 3 + 1] = oy;
  origin[n * 3 + 2] = oz;
  const dx = px - ox;
  const dy = py - oy;
  const dz = pz - oz;
  return (candidates.depth[n] = Math.sqrt(dx * dx + dy * dy + dz * dz));
}

/** Whether candidate a comes before candidate b of the same kind (pixel distance, depth, pick ID, face, corner). */
function isBefore(candidates: SnapCandidates, triangles: SnapTriangles, view: SnapView, a: number, b: number): boolean {
  const { distance, triangle, edge } = candidates;
  if (distance[a] !== distance[b]) return distance[a] < distance[b];
  const da = depthOf(candidates, triangles, view, a);
  const db = depthOf(candidates, triangles, view, b);
  if (da !== db) return da < db;
  const ta = triangle[a];
  const tb = triangle[b];
  if (triangles.ids[ta] !== triangles.ids[tb]) return triangles.ids[ta] < triangles.ids[tb];
  if (triangles.faces[ta] !== triangles.faces[tb]) return triangles.faces[ta] < triangles.faces[tb];
  return edge[a] < edge[b];
}

/**
 * @internal The first candidate in order whose line of sight is clear, or -1. The best untried one is selected in turn (the
 * first is nearly always visible); after `selectionTries` hidden ones the rest are sorted instead.
 */
export function firstVisible(candidates: SnapCandidates, triangles: SnapTriangles, view: SnapView): number {
  const { count, tried, distance } = candidates;
  tried.fill(0, 0, count);
  for (let attempt = 0; attempt < selectionTries; attempt++) {
    let best = -1;
    for (let j = 0; j < count; j++) {
      if (tried[j] !== 0) continue;
      // The pixel distance decides nearly always: the full order only for ties.
      if (best < 0 || distance[j] < distance[best]) best = j;
      else if (distance[j] === distance[best] && isBefore(candidates, triangles, view, j, best)) best = j;
    }
    if (best < 0) return -1;
    if (!isOccluded(triangles, candidates, view, best)) return best;
    tried[best] = 1;
  }
  const rest: number[] = [];
  for (let j = 0; j < count; j++) if (tried[j] === 0) rest.push(j);
  const order = (a: number, b: number) =>
    isBefore(candidates, triangles, view, a, b) ? -1 : isBefore(candidates, triangles, view, b, a) ? 1 : 0;
  rest.sort(order);
  for (const j of rest) if (!isOccluded(triangles, candidates, view, j)) return j;
  return -1;
}

/** Whether a seen triangle crosses candidate n's line of sight nearer than it (Möller–Trumbore, float64). */
function isOccluded(triangles: SnapTriangles, candidates: SnapCandidates, view: SnapView, n: number): boolean {
  depthOf(candidates, triangles, view, n);
  const { origin, point } = candidates;
  const ox = origin[n * 3];
  const oy = origin[n * 3 + 1];
  const oz = origin[n * 3 + 2];
  const dx = point[n * 3] - ox;
  const dy = point[n * 3 + 1] - oy;
  const dz = point[n * 3 + 2] - oz;
  const limit = 1 - snapOcclusionTolerance;
  const c = triangles.corners;
  for (let i = 0, o = 0; i < triangles.count; i++, o += 9) {
    const e1x = c[o + 3] - c[o];
    const e1y = c[o + 4] - c[o + 1];
    const e1z = c[o + 5] - c[o + 2];
    const e2x = c[o + 6] - c[o];
    const e2y = c[o + 7] - c[o + 1];
    const e2z = c[o + 8] - c[o + 2];
    const px = dy * e2z - dz * e2y;
    const py = dz * e2x - dx * e2z;
    const pz = dx * e2y - dy * e2x;
    const det = e1x * px + e1y * py + e1z * pz;
    if (det === 0) continue;
    const inverse = 1 / det;
    const sx = ox - c[o];
    const sy = oy - c[o + 1];
    const sz = oz - c[o + 2];
    const u = (sx * px + sy * py + sz * pz) * inverse;
    if (u < 0 || u > 1) continue;
    const qx = sy * e1z - sz * e1y;
    const qy = sz * e1x - sx * e1z;
    const qz = sx * e1y - sy * e1x;
    const v = (dx * qx + dy * qy + dz * qz) * inverse;
    if (v < 0 || u + v > 1) continue;
    const t = (e2x * qx + e2y * qy + e2z * qz) * inverse;
    if (t > 0 && t < limit) return true;
  }
  return false;
}
