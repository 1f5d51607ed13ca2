// Choosing the snapped feature among the triangles seen around the point: pure float64 geometry, no GPU. A snap runs
// once between idle moments (a cursor stops), so its code mostly runs unoptimised: the candidates live in typed arrays
// reused from snap to snap, nothing is allocated per triangle or candidate, the kinds are gathered one at a time (a snap
// near a corner never computes an edge point), and a candidate's world point and depth are computed only when the
// order or the occlusion test needs them.
import type { SnapKind } from '../picking-info.js';
import type { CheckedSnap } from './snap-options.js';
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

/** @internal The winning feature: which triangle, where in the world and on the screen. */
export interface SnapFound {
  kind: SnapKind;
  point: Vec3;
  pixel: [number, number];
  pixelDistance: number;
  /** The distance from where its line of sight starts. */
  depth: number;
  /** Index of the triangle in the `SnapTriangles`. */
  triangle: number;
  /** Corner k of the triangle (vertex), or edge k (edge, midpoint: corners k and (k + 1) % 3). */
  k: number;
  /** Along edge k from its first corner: 0..1 (0 for a vertex). */
  t: number;
}

const kinds: readonly SnapKind[] = ['vertex', 'midpoint', 'edge'];

/**
 * An occluder must be nearer than the feature by more than this fraction of the sight line's length: surfaces that
 * meet the feature (its own faces, a neighbour's coplanar face along a shared edge) never hide it.
 * @internal
 */
export const snapOcclusionTolerance = 1e-4;

/**
 * The candidates of one kind within the radius, as parallel arrays (reused between snaps): triangle, edge (or corner)
 * k, t along it, framebuffer position and pixel distance. `depth` is NaN until computed with the world `point` and
 * the sight `origin` (3 per candidate).
 */
interface SnapCandidates {
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

function makeSnapCandidates(capacity: number): SnapCandidates {
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

/**
 * Per snap (made on the first, so importing the module allocates nothing; grown for more triangles): the candidates,
 * each triangle's corners in clip space (12 per triangle) and on screen (2 per corner, NaN outside the depth range),
 * and one edge midpoint in clip space.
 */
let scratch: { candidates: SnapCandidates; clip: Float64Array; screen: Float64Array; midpoint: Float64Array } | null =
  null;

/** How many best candidates are found by selection before the rest are sorted (most snaps take the first). */
const selectionTries = 8;

/**
 * The feature snapped to among the `allowed` kinds, or null. Candidates: each triangle's corners on a feature edge, its feature edges' midpoints
 * and their points nearest the point on screen (the edge clipped to the depth range first), kept when inside the
 * framebuffer and the depth range and within `radius` pixels. Order: vertex before midpoint before edge, then the
 * smaller pixel distance, the nearer, the lower pick ID, face and corner. The first one whose line of sight no seen
 * triangle crosses nearer than itself wins.
 * @internal
 */
export function findSnapFeature(
  triangles: SnapTriangles,
  view: SnapView,
  allowed: CheckedSnap['kinds'],
): SnapFound | null {
  const count = triangles.count;
  // At most 3 candidates of one kind per triangle.
  if (!scratch || scratch.candidates.x.length < count * 3) {
    const capacity = Math.max(128, count * 3);
    scratch = {
      candidates: makeSnapCandidates(capacity),
      clip: new Float64Array(capacity * 4),
      screen: new Float64Array(capacity * 2),
      midpoint: new Float64Array(4),
    };
  }
  const { candidates, clip, screen, midpoint } = scratch;
  projectCorners(triangles, view, clip, screen);
  const { featureEdges } = triangles;
  const { radius, sampleX, sampleY } = view;
  for (let rank = 0; rank < 3; rank++) {
    if (!(rank === 0 ? allowed.vertex : rank === 1 ? allowed.midpoint : allowed.edge)) continue;
    candidates.count = 0;
    for (let i = 0; i < count; i++) {
      const edges = featureEdges[i];
      if (edges === 0) continue;
      for (let k = 0; k < 3; k++) {
        const a = i * 12 + k * 4;
        if (rank === 0) {
          // A corner counts when one of its two edges is a feature edge; its screen position is known.
          if (((edges >> k) & 1) === 0 && ((edges >> ((k + 2) % 3)) & 1) === 0) continue;
          const x = screen[(i * 3 + k) * 2];
          const y = screen[(i * 3 + k) * 2 + 1];
          const dx = x - sampleX;
          const dy = y - sampleY;
          // NaN (outside the depth range) fails every comparison.
          if (dx * dx + dy * dy <= radius * radius && isOnFramebuffer(view, x, y))
            push(candidates, i, k, 0, x, y, Math.sqrt(dx * dx + dy * dy));
          continue;
        }
        if (((edges >> k) & 1) === 0) continue;
        const b = i * 12 + ((k + 1) % 3) * 4;
        if (rank === 2) {
          offerEdgePoint(candidates, view, i, k, clip, a, b);
          continue;
        }
        for (let r = 0; r < 4; r++) midpoint[r] = (clip[a + r] + clip[b + r]) / 2;
        offerMidpoint(candidates, view, i, k, midpoint);
      }
    }
    const winner = firstVisible(candidates, triangles, view);
    if (winner < 0) continue;
    const p = winner * 3;
    return {
      kind: kinds[rank],
      point: [candidates.point[p], candidates.point[p + 1], candidates.point[p + 2]],
      pixel: [candidates.x[winner], candidates.y[winner]],
      pixelDistance: candidates.distance[winner],
      depth: candidates.depth[winner],
      triangle: candidates.triangle[winner],
      k: candidates.edge[winner],
      t: candidates.t[winner],
    };
  }
  return null;
}

/**
 * Writes each triangle's corners in clip space (12 per triangle) and on screen (2 per corner; NaN when outside the
 * depth range, reverse-Z: 0 ≤ z ≤ w, in front of the eye). The matrix is read once.
 */
function projectCorners(triangles: SnapTriangles, view: SnapView, clip: Float64Array, screen: Float64Array): void {
  const m = view.viewProjection;
  const m0 = m[0];
  const m1 = m[1];
  const m2 = m[2];
  const m3 = m[3];
  const m4 = m[4];
  const m5 = m[5];
  const m6 = m[6];
  const m7 = m[7];
  const m8 = m[8];
  const m9 = m[9];
  const m10 = m[10];
  const m11 = m[11];
  const m12 = m[12];
  const m13 = m[13];
  const m14 = m[14];
  const m15 = m[15];
  const { width, height } = view;
  const c = triangles.corners;
  for (let j = 0, n = triangles.count * 3; j < n; j++) {
    const x = c[j * 3];
    const y = c[j * 3 + 1];
    const z = c[j * 3 + 2];
    const cx = m0 * x + m4 * y + m8 * z + m12;
    const cy = m1 * x + m5 * y + m9 * z + m13;
    const cz = m2 * x + m6 * y + m10 * z + m14;
    const cw = m3 * x + m7 * y + m11 * z + m15;
    clip[j * 4] = cx;
    clip[j * 4 + 1] = cy;
    clip[j * 4 + 2] = cz;
    clip[j * 4 + 3] = cw;
    const inRange = cw > 0 && cz >= 0 && cz <= cw;
    screen[j * 2] = inRange ? ((cx / cw + 1) / 2) * width : Number.NaN;
    screen[j * 2 + 1] = inRange ? ((1 - cy / cw) / 2) * height : Number.NaN;
  }
}

function isOnFramebuffer(view: SnapView, x: number, y: number): boolean {
  return x >= 0 && y >= 0 && x < view.width && y < view.height;
}

/** Appends a candidate; its depth is computed when needed (`depthOf`). */
function push(
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

/** Adds edge k's midpoint (clip point `m`) when it is in the depth range, inside the framebuffer and within the radius. */
function offerMidpoint(candidates: SnapCandidates, view: SnapView, triangle: number, k: number, m: Float64Array): void {
  const w = m[3];
  if (!(w > 0 && m[2] >= 0 && m[2] <= w)) return;
  pushIfNear(candidates, view, triangle, k, 0.5, ((m[0] / w + 1) / 2) * view.width, ((1 - m[1] / w) / 2) * view.height);
}

/** Adds the candidate when its screen position is inside the framebuffer and within the radius. */
function pushIfNear(
  candidates: SnapCandidates,
  view: SnapView,
  triangle: number,
  k: number,
  t: number,
  x: number,
  y: number,
): void {
  if (!isOnFramebuffer(view, x, y)) return;
  const dx = x - view.sampleX;
  const dy = y - view.sampleY;
  const distance = Math.sqrt(dx * dx + dy * dy);
  if (distance <= view.radius) push(candidates, triangle, k, t, x, y, distance);
}

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
 * The first candidate in order whose line of sight is clear, or -1. The best untried one is selected in turn (the
 * first is nearly always visible); after `selectionTries` hidden ones the rest are sorted instead.
 */
function firstVisible(candidates: SnapCandidates, triangles: SnapTriangles, view: SnapView): number {
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

/**
 * Edge k's point nearest the snap point on screen: the edge is clipped to the depth range in clip space (linear in
 * its world parameter), the nearest point of the projected segment found in 2D, then mapped back to the world edge
 * (perspective-correct: screen fraction s between clip ends of w0, w1 is world fraction s·w0 / (s·w0 + (1 − s)·w1)).
 */
function offerEdgePoint(
  candidates: SnapCandidates,
  view: SnapView,
  triangle: number,
  k: number,
  clip: Float64Array,
  a: number,
  b: number,
): void {
  let t0 = 0;
  let t1 = 1;
  // Keep w − z ≥ 0 (near) and z ≥ 0 (far): each is linear in t along the edge.
  for (let bound = 0; bound < 2; bound++) {
    const fa = bound === 0 ? clip[a + 3] - clip[a + 2] : clip[a + 2];
    const fb = bound === 0 ? clip[b + 3] - clip[b + 2] : clip[b + 2];
    if (fa < 0 && fb < 0) return;
    if (fa < 0) t0 = Math.max(t0, fa / (fa - fb));
    else if (fb < 0) t1 = Math.min(t1, fa / (fa - fb));
  }
  if (!(t0 <= t1)) return;
  const w0 = lerpClip(clip, a, b, t0, 3);
  const w1 = lerpClip(clip, a, b, t1, 3);
  if (!(w0 > 0 && w1 > 0)) return;
  const x0 = ((lerpClip(clip, a, b, t0, 0) / w0 + 1) / 2) * view.width;
  const y0 = ((1 - lerpClip(clip, a, b, t0, 1) / w0) / 2) * view.height;
  const x1 = ((lerpClip(clip, a, b, t1, 0) / w1 + 1) / 2) * view.width;
  const y1 = ((1 - lerpClip(clip, a, b, t1, 1) / w1) / 2) * view.height;
  const dx = x1 - x0;
  const dy = y1 - y0;
  const length2 = dx * dx + dy * dy;
  const s = length2 > 0 ? Math.min(1, Math.max(0, ((view.sampleX - x0) * dx + (view.sampleY - y0) * dy) / length2)) : 0;
  const fraction = s * w0 + (1 - s) * w1 > 0 ? (s * w0) / (s * w0 + (1 - s) * w1) : 0;
  const t = t0 + (t1 - t0) * fraction;
  pushIfNear(candidates, view, triangle, k, t, x0 + dx * s, y0 + dy * s);
}

/** Component i of the clip point at `t` between clip points `a` and `b`. */
function lerpClip(clip: Float64Array, a: number, b: number, t: number, i: number): number {
  return clip[a + i] + (clip[b + i] - clip[a + i]) * t;
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
