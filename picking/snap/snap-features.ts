// Choosing the snapped feature among the triangles seen around the point: pure float64 geometry, no GPU. A snap runs
// once between idle moments (a cursor stops), so its code mostly runs unoptimised: nothing is allocated per triangle
// or candidate, and the kinds are gathered one at a time (a snap near a corner never computes an edge point).
import type { SnapKind } from '../picking-info.js';
import type { CheckedSnap } from './snap-options.js';
import {
  firstVisible,
  makeSnapCandidates,
  pushSnapCandidate,
  type SnapCandidates,
  type SnapView,
} from './snap-candidates.js';
import type { SnapTriangles } from './snap-seen.js';

type Vec3 = [number, number, number];

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
 * Per snap (made on the first, so importing the module allocates nothing; grown for more triangles): the candidates,
 * each triangle's corners in clip space (12 per triangle) and on screen (2 per corner, NaN outside the depth range),
 * and one edge midpoint in clip space.
 */
let scratch: { candidates: SnapCandidates; clip: Float64Array; screen: Float64Array; midpoint: Float64Array } | null =
  null;

/**
 * The feature snapped to among the `allowed` kinds, or null. Candidates: each triangle's corners on a feature edge,
 * its feature edges' midpoints and their points nearest the point on screen (the edge clipped to the depth range
 * first), kept when inside the framebuffer and the depth range and within `radius` pixels. Order: vertex before
 * midpoint before edge, then the smaller pixel distance, the nearer, the lower pick ID, face and corner. The first one
 * whose line of sight no seen triangle crosses nearer than itself wins (`snapOcclusionTolerance`).
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
            pushSnapCandidate(candidates, i, k, 0, x, y, Math.sqrt(dx * dx + dy * dy));
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
  if (distance <= view.radius) pushSnapCandidate(candidates, triangle, k, t, x, y, distance);
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
