// Choosing the snapped feature among the triangles seen around the point: pure float64 geometry, no GPU.
import type { SnapKind } from '../picking-info.js';
import type { CheckedSnap } from './snap-options.js';

type Vec3 = [number, number, number];

/** @internal A triangle seen in the snap block, with its corners in world space (float64, as drawn). */
export interface SnapTriangle {
  /** World corners: x, y, z of corner 0, 1, 2. */
  corners: Float64Array;
  /** The corners' vertex indices. */
  vertices: [number, number, number];
  /** Bit k set: edge k (corners k, (k + 1) % 3) is a feature edge. */
  featureEdges: number;
  /** The pick ID it was drawn with (orders equal candidates deterministically), and its face index. */
  id: number;
  face: number;
}

/** @internal What the snapping looks through: the drawn view-projection, the framebuffer, the point. */
export interface SnapView {
  viewProjection: ArrayLike<number>;
  width: number;
  height: number;
  /** The point snapped from (framebuffer pixels: a pixel centre, or the exact `subpixel` point). */
  sampleX: number;
  sampleY: number;
  /**
   * Where the line of sight to a world point starts (the eye; for an orthographic view, on the eye plane), given the
   * point and its framebuffer position.
   */
  sightOrigin(point: Vec3, x: number, y: number): Vec3;
}

/** @internal The winning feature: which triangle, where in the world and on the screen. */
export interface SnapFound {
  kind: SnapKind;
  point: Vec3;
  pixel: [number, number];
  pixelDistance: number;
  /** Where its line of sight starts, and the distance from there (orders ties). */
  origin: Vec3;
  depth: number;
  triangle: SnapTriangle;
  /** Corner k of the triangle (vertex), or edge k (edge, midpoint: corners k and (k + 1) % 3). */
  k: number;
  /** Along edge k from its first corner: 0..1 (0 for a vertex). */
  t: number;
}

const kindRank: Record<SnapKind, number> = { vertex: 0, midpoint: 1, edge: 2 };

/**
 * An occluder must be nearer than the feature by more than this fraction of the sight line's length: surfaces that
 * meet the feature (its own faces, a neighbour's coplanar face along a shared edge) never hide it.
 * @internal
 */
export const snapOcclusionTolerance = 1e-4;

/**
 * The feature snapped to, or null. Candidates: each triangle's corners on a feature edge, its feature edges' midpoints
 * and their points nearest the point on screen (the edge clipped to the depth range first), kept when inside the
 * framebuffer and the depth range and within `radius` pixels. Order: vertex before midpoint before edge, then the
 * smaller pixel distance, the nearer, the lower pick ID, face and corner. The first one whose line of sight no seen
 * triangle crosses nearer than itself wins.
 * @internal
 */
export function findSnapFeature(
  triangles: readonly SnapTriangle[],
  view: SnapView,
  snap: CheckedSnap,
): SnapFound | null {
  const found: SnapFound[] = [];
  const clip = new Float64Array(12);
  for (const triangle of triangles) {
    const c = triangle.corners;
    for (let k = 0; k < 3; k++) toClip(view.viewProjection, c[k * 3], c[k * 3 + 1], c[k * 3 + 2], clip, k * 4);
    for (let k = 0; k < 3; k++) {
      const next = (k + 1) % 3;
      const onFeature = (triangle.featureEdges >> k) & 1;
      const previousFeature = (triangle.featureEdges >> ((k + 2) % 3)) & 1;
      if (snap.kinds.vertex && (onFeature || previousFeature))
        offer(found, view, snap.radius, 'vertex', triangle, k, 0, corner(c, k), clip, k * 4);
      if (!onFeature) continue;
      if (snap.kinds.midpoint) {
        const mid = lerp(c, k, next, 0.5);
        const at = new Float64Array(4);
        toClip(view.viewProjection, mid[0], mid[1], mid[2], at, 0);
        offer(found, view, snap.radius, 'midpoint', triangle, k, 0.5, mid, at, 0);
      }
      if (snap.kinds.edge) offerEdgePoint(found, view, snap.radius, triangle, k, clip);
    }
  }
  found.sort(
    (a, b) =>
      kindRank[a.kind] - kindRank[b.kind] ||
      a.pixelDistance - b.pixelDistance ||
      a.depth - b.depth ||
      a.triangle.id - b.triangle.id ||
      a.triangle.face - b.triangle.face ||
      a.k - b.k,
  );
  for (const feature of found) if (!isOccluded(triangles, feature)) return feature;
  return null;
}

function toClip(m: ArrayLike<number>, x: number, y: number, z: number, out: Float64Array, o: number): void {
  for (let i = 0; i < 4; i++) out[o + i] = m[i] * x + m[4 + i] * y + m[8 + i] * z + m[12 + i];
}

const corner = (c: Float64Array, k: number): Vec3 => [c[k * 3], c[k * 3 + 1], c[k * 3 + 2]];

function lerp(c: Float64Array, a: number, b: number, t: number): Vec3 {
  return [0, 1, 2].map((i) => c[a * 3 + i] + (c[b * 3 + i] - c[a * 3 + i]) * t) as Vec3;
}

/** Whether clip point `o` is inside the depth range (reverse-Z: 0 ≤ z ≤ w) in front of the eye. */
function inDepthRange(clip: ArrayLike<number>, o: number): boolean {
  const z = clip[o + 2];
  const w = clip[o + 3];
  return w > 0 && z >= 0 && z <= w;
}

/** Adds the candidate when it is in the depth range, inside the framebuffer and within the radius. */
function offer(
  found: SnapFound[],
  view: SnapView,
  radius: number,
  kind: SnapKind,
  triangle: SnapTriangle,
  k: number,
  t: number,
  point: Vec3,
  clip: ArrayLike<number>,
  o: number,
): void {
  if (!inDepthRange(clip, o)) return;
  const w = clip[o + 3];
  const x = ((clip[o] / w + 1) / 2) * view.width;
  const y = ((1 - clip[o + 1] / w) / 2) * view.height;
  pushIfNear(found, view, radius, kind, triangle, k, t, point, x, y);
}

function pushIfNear(
  found: SnapFound[],
  view: SnapView,
  radius: number,
  kind: SnapKind,
  triangle: SnapTriangle,
  k: number,
  t: number,
  point: Vec3,
  x: number,
  y: number,
): void {
  if (!(x >= 0 && y >= 0 && x < view.width && y < view.height)) return;
  const pixelDistance = Math.hypot(x - view.sampleX, y - view.sampleY);
  if (!(pixelDistance <= radius)) return;
  const origin = view.sightOrigin(point, x, y);
  const depth = Math.hypot(point[0] - origin[0], point[1] - origin[1], point[2] - origin[2]);
  found.push({ kind, point, pixel: [x, y], pixelDistance, origin, depth, triangle, k, t });
}

/**
 * Edge k's point nearest the snap point on screen: the edge is clipped to the depth range in clip space (linear in
 * its world parameter), the nearest point of the projected segment found in 2D, then mapped back to the world edge
 * (perspective-correct: screen fraction s between clip ends of w0, w1 is world fraction s·w0 / (s·w0 + (1 − s)·w1)).
 */
function offerEdgePoint(
  found: SnapFound[],
  view: SnapView,
  radius: number,
  triangle: SnapTriangle,
  k: number,
  clip: Float64Array,
): void {
  const a = k * 4;
  const b = ((k + 1) % 3) * 4;
  let t0 = 0;
  let t1 = 1;
  // Keep w − z ≥ 0 (near) and z ≥ 0 (far): each is linear in t along the edge.
  for (const [fa, fb] of [
    [clip[a + 3] - clip[a + 2], clip[b + 3] - clip[b + 2]],
    [clip[a + 2], clip[b + 2]],
  ]) {
    if (fa < 0 && fb < 0) return;
    if (fa < 0) t0 = Math.max(t0, fa / (fa - fb));
    else if (fb < 0) t1 = Math.min(t1, fa / (fa - fb));
  }
  if (!(t0 <= t1)) return;
  const at = (t: number, i: number) => clip[a + i] + (clip[b + i] - clip[a + i]) * t;
  const w0 = at(t0, 3);
  const w1 = at(t1, 3);
  if (!(w0 > 0 && w1 > 0)) return;
  const x0 = ((at(t0, 0) / w0 + 1) / 2) * view.width;
  const y0 = ((1 - at(t0, 1) / w0) / 2) * view.height;
  const x1 = ((at(t1, 0) / w1 + 1) / 2) * view.width;
  const y1 = ((1 - at(t1, 1) / w1) / 2) * view.height;
  const dx = x1 - x0;
  const dy = y1 - y0;
  const length2 = dx * dx + dy * dy;
  const s = length2 > 0 ? Math.min(1, Math.max(0, ((view.sampleX - x0) * dx + (view.sampleY - y0) * dy) / length2)) : 0;
  const fraction = s * w0 + (1 - s) * w1 > 0 ? (s * w0) / (s * w0 + (1 - s) * w1) : 0;
  const t = t0 + (t1 - t0) * fraction;
  const point = lerp(triangle.corners, k, (k + 1) % 3, t);
  pushIfNear(found, view, radius, 'edge', triangle, k, t, point, x0 + dx * s, y0 + dy * s);
}

/** Whether a seen triangle crosses the feature's line of sight nearer than the feature (Möller–Trumbore, float64). */
function isOccluded(triangles: readonly SnapTriangle[], feature: SnapFound): boolean {
  const o = feature.origin;
  const d: Vec3 = [feature.point[0] - o[0], feature.point[1] - o[1], feature.point[2] - o[2]];
  const limit = 1 - snapOcclusionTolerance;
  for (const triangle of triangles) {
    const c = triangle.corners;
    const e1: Vec3 = [c[3] - c[0], c[4] - c[1], c[5] - c[2]];
    const e2: Vec3 = [c[6] - c[0], c[7] - c[1], c[8] - c[2]];
    const p: Vec3 = [d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2], d[0] * e2[1] - d[1] * e2[0]];
    const det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    if (det === 0) continue;
    const inverse = 1 / det;
    const s: Vec3 = [o[0] - c[0], o[1] - c[1], o[2] - c[2]];
    const u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) * inverse;
    if (u < 0 || u > 1) continue;
    const q: Vec3 = [s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0]];
    const v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) * inverse;
    if (v < 0 || u + v > 1) continue;
    const t = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inverse;
    if (t > 0 && t < limit) return true;
  }
  return false;
}
