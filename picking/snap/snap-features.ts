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
  // Corners 0–2 in clip space, then edge k's midpoint at 12 + 4k (clip space is linear in world space).
  const clip = new Float64Array(24);
  const { vertex, midpoint, edge } = snap.kinds;
  for (const triangle of triangles) {
    const c = triangle.corners;
    const edges = triangle.featureEdges;
    if (edges === 0) continue;
    for (let k = 0; k < 3; k++) toClip(view.viewProjection, c[k * 3], c[k * 3 + 1], c[k * 3 + 2], clip, k * 4);
    for (let k = 0; k < 3; k++) {
      const onFeature = (edges >> k) & 1;
      const previousFeature = (edges >> ((k + 2) % 3)) & 1;
      if (vertex && (onFeature || previousFeature))
        offer(found, view, snap.radius, 'vertex', triangle, k, 0, clip, k * 4);
      if (!onFeature) continue;
      if (midpoint) {
        const a = k * 4;
        const b = ((k + 1) % 3) * 4;
        for (let i = 0; i < 4; i++) clip[12 + a + i] = (clip[a + i] + clip[b + i]) / 2;
        offer(found, view, snap.radius, 'midpoint', triangle, k, 0.5, clip, 12 + a);
      }
      if (edge) offerEdgePoint(found, view, snap.radius, triangle, k, clip);
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

/** The world point at `t` along edge k of the corners (t = 0: corner k itself, exactly). */
function edgePoint(c: Float64Array, k: number, t: number): Vec3 {
  const a = k * 3;
  const b = ((k + 1) % 3) * 3;
  return [c[a] + (c[b] - c[a]) * t, c[a + 1] + (c[b + 1] - c[a + 1]) * t, c[a + 2] + (c[b + 2] - c[a + 2]) * t];
}

/** Whether clip point `o` is inside the depth range (reverse-Z: 0 ≤ z ≤ w) in front of the eye. */
function inDepthRange(clip: ArrayLike<number>, o: number): boolean {
  const z = clip[o + 2];
  const w = clip[o + 3];
  return w > 0 && z >= 0 && z <= w;
}

/** Adds the candidate (at `t` along edge k) when it is in the depth range, inside the framebuffer and within the radius. */
function offer(
  found: SnapFound[],
  view: SnapView,
  radius: number,
  kind: SnapKind,
  triangle: SnapTriangle,
  k: number,
  t: number,
  clip: ArrayLike<number>,
  o: number,
): void {
  if (!inDepthRange(clip, o)) return;
  const w = clip[o + 3];
  const x = ((clip[o] / w + 1) / 2) * view.width;
  const y = ((1 - clip[o + 1] / w) / 2) * view.height;
  pushIfNear(found, view, radius, kind, triangle, k, t, x, y);
}

/** Adds the candidate when its screen position is inside the framebuffer and within the radius (its world point made only then). */
function pushIfNear(
  found: SnapFound[],
  view: SnapView,
  radius: number,
  kind: SnapKind,
  triangle: SnapTriangle,
  k: number,
  t: number,
  x: number,
  y: number,
): void {
  if (!(x >= 0 && y >= 0 && x < view.width && y < view.height)) return;
  const pixelDistance = Math.hypot(x - view.sampleX, y - view.sampleY);
  if (!(pixelDistance <= radius)) return;
  const point = edgePoint(triangle.corners, k, t);
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
  pushIfNear(found, view, radius, 'edge', triangle, k, t, x0 + dx * s, y0 + dy * s);
}

/** Component i of the clip point at `t` between clip points `a` and `b` (no closure per edge: this runs per candidate). */
function lerpClip(clip: Float64Array, a: number, b: number, t: number, i: number): number {
  return clip[a + i] + (clip[b + i] - clip[a + i]) * t;
}

/** Whether a seen triangle crosses the feature's line of sight nearer than the feature (Möller–Trumbore, float64). */
function isOccluded(triangles: readonly SnapTriangle[], feature: SnapFound): boolean {
  // Scalars only: this runs for every seen triangle per candidate tried.
  const [ox, oy, oz] = feature.origin;
  const dx = feature.point[0] - ox;
  const dy = feature.point[1] - oy;
  const dz = feature.point[2] - oz;
  const limit = 1 - snapOcclusionTolerance;
  for (const triangle of triangles) {
    const c = triangle.corners;
    const e1x = c[3] - c[0];
    const e1y = c[4] - c[1];
    const e1z = c[5] - c[2];
    const e2x = c[6] - c[0];
    const e2y = c[7] - c[1];
    const e2z = c[8] - c[2];
    const px = dy * e2z - dz * e2y;
    const py = dz * e2x - dx * e2z;
    const pz = dx * e2y - dy * e2x;
    const det = e1x * px + e1y * py + e1z * pz;
    if (det === 0) continue;
    const inverse = 1 / det;
    const sx = ox - c[0];
    const sy = oy - c[1];
    const sz = oz - c[2];
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
