import type { Mesh } from '../engine/mesh.js';
import type { PickSubject } from './sources/pick-source.js';
import { weftPickSource as source } from './sources/weft-pick-source.js';
import type { PickOverlayHit } from './sources/pick-overlays.js';
import type { PickingRay } from './picking-ray.js';

type Vec3 = [number, number, number];

/** What is under a pixel; the same shape from the GPU and the CPU pickers. */
export interface PickingInfo {
  hit: boolean;
  /** World distance from the ray origin (the camera) to `pickedPoint`; 0 on a miss. */
  distance: number;
  pickedPoint: Vec3 | null;
  /**
   * Interpolated vertex normal in mesh-local space (null without normals or detail). Every normal of a hit is on the
   * side of the triangle the ray came from (as the G-buffer's WORLD_NORMAL): see `orientNormalsToRay`.
   */
  pickedNormal: Vec3 | null;
  /** Interpolated vertex normal in world space (inverse-transpose, normalised). */
  pickedNormalWorld: Vec3 | null;
  /** Geometric normal of the picked triangle (its CCW normal, negated when the ray meets its back), local and world. */
  pickedFaceNormal: Vec3 | null;
  pickedFaceNormalWorld: Vec3 | null;
  pickedMesh: Mesh | null;
  /** The non-mesh entity hit (a billboard system, a splat mesh, …; see registerPickSource), else null. */
  pickedEntity: object | null;
  /** What that entity's contributor says about the hit (e.g. `{ spriteIndex }`), else null. */
  entityDetail: Record<string, unknown> | null;
  /** Triangle index into the mesh's index buffer (index / 3), -1 without detail. */
  faceId: number;
  /** Barycentrics: A = bu·A0 + bv·A1 + (1 − bu − bv)·A2 for the corners of triangle faceId. */
  bu: number;
  bv: number;
  subMeshId: number;
  /** Thin instance index, -1 when the mesh has none. */
  thinInstanceIndex: number;
  ray: PickingRay | null;
  /**
   * Set when an overlay item (`createPickOverlay`) won the pick: which overlay, item and `handleId`, and at which pixel
   * offset it was found. `pickedMesh` is then null and `pickedPoint` / `distance` are on the item's surface at that
   * pixel; overlay hits carry no triangle detail. Null otherwise (always null from the CPU picker).
   */
  pickedOverlay: PickOverlayHit | null;
  /**
   * Only on `pickSnappedAsync`'s answer: the vertex, edge midpoint or edge point snapped to within the snap radius,
   * or null when none is. Absent from every other pick.
   */
  snapped?: SnappedFeature | null;
}

/** What a snapping pick snaps to; when several are within the radius, a vertex beats a midpoint beats an edge point. */
export type SnapKind = 'vertex' | 'midpoint' | 'edge';

/** The feature a snapping pick (`pickSnappedAsync`) found near the point: what it is, where, and on which triangle. */
export interface SnappedFeature {
  kind: SnapKind;
  /**
   * The exact world position: the mesh vertex through its world × thin-instance matrix (and the skin / morph pose
   * captured at the call), the midpoint of the world edge, or the point of the world edge nearest the cursor on screen.
   */
  point: Vec3;
  /** Where `point` lies on the framebuffer (backing pixels, origin top-left, unrounded). */
  pixel: [number, number];
  /** Screen distance, in backing pixels, from the picked point (pixel centre, or the exact `subpixel` point). */
  pixelDistance: number;
  /** World distance from the camera (the start of the line of sight: the eye, or the eye plane) to `point`. */
  distance: number;
  mesh: Mesh;
  /** Thin instance index, -1 when the mesh has none. */
  thinInstanceIndex: number;
  /** The triangle the feature was taken from (a shared vertex or edge names one of its triangles). */
  faceId: number;
  /** For a vertex: its vertex index (a corner of `faceId`); -1 otherwise. */
  vertexIndex: number;
  /** For an edge point or midpoint: the vertex indices of the edge's two corners; null for a vertex. */
  edge: [number, number] | null;
  /** Where `point` lies along the edge, from `edge[0]` (0) to `edge[1]` (1): 0.5 for a midpoint; 0 for a vertex. */
  edgeParameter: number;
}

/** @internal A PickingInfo that hit nothing. */
export function makeMissInfo(ray: PickingRay | null = null): PickingInfo {
  return {
    hit: false,
    distance: 0,
    pickedPoint: null,
    pickedNormal: null,
    pickedNormalWorld: null,
    pickedFaceNormal: null,
    pickedFaceNormalWorld: null,
    pickedMesh: null,
    pickedEntity: null,
    entityDetail: null,
    faceId: -1,
    bu: 0,
    bv: 0,
    subMeshId: 0,
    thinInstanceIndex: -1,
    ray,
    pickedOverlay: null,
  };
}

/** @internal The three vertex indices of triangle `faceId` (indexed or not). */
export function getTriangleVertices(mesh: PickSubject, faceId: number): [number, number, number] {
  const indices = mesh.geometry.indices;
  const base = faceId * 3;
  return indices ? [indices[base], indices[base + 1], indices[base + 2]] : [base, base + 1, base + 2];
}

/** The picked normal (interpolated vertex normal, or the face normal when the mesh has none). */
export function getPickedNormal(info: PickingInfo, useWorldCoordinates = false): Vec3 | null {
  if (!info.hit) return null;
  if (useWorldCoordinates) return info.pickedNormalWorld ?? info.pickedFaceNormalWorld;
  return info.pickedNormal ?? info.pickedFaceNormal;
}

/** The UV at the picked point, interpolated with bu/bv; null without detail or without UVs. */
export function getPickedUV(info: PickingInfo): [number, number] | null {
  const mesh = info.pickedMesh;
  if (!info.hit || !mesh || info.faceId < 0 || !source.findAttribute(mesh.geometry, 'uv')) return null;
  const [i0, i1, i2] = getTriangleVertices(mesh, info.faceId);
  const a = [0, 0];
  const b = [0, 0];
  const c = [0, 0];
  source.readAttribute(mesh.geometry, 'uv', i0, a);
  source.readAttribute(mesh.geometry, 'uv', i1, b);
  source.readAttribute(mesh.geometry, 'uv', i2, c);
  const w = 1 - info.bu - info.bv;
  return [info.bu * a[0] + info.bv * b[0] + w * c[0], info.bu * a[1] + info.bv * b[1] + w * c[1]];
}

const negated = (v: Vec3): Vec3 => [-v[0], -v[1], -v[2]];
const dot3 = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/**
 * Turns a hit's normals to the side of the triangle the ray came from — the rule the G-buffer's WORLD_NORMAL
 * follows too: the face normals (local and world) are negated when the ray meets the triangle's back, then the
 * interpolated vertex normals are negated when they point to the other side of the triangle than the face normal
 * now does. A front-face hit on data whose normals agree with its winding changes nothing.
 * @internal
 */
export function orientNormalsToRay(info: PickingInfo, direction: readonly number[]): void {
  const face = info.pickedFaceNormalWorld;
  if (!face) return;
  if (dot3(face, direction) > 0) {
    info.pickedFaceNormalWorld = negated(face);
    if (info.pickedFaceNormal) info.pickedFaceNormal = negated(info.pickedFaceNormal);
  }
  const vertex = info.pickedNormalWorld;
  if (vertex && dot3(vertex, info.pickedFaceNormalWorld!) < 0) {
    info.pickedNormalWorld = negated(vertex);
    if (info.pickedNormal) info.pickedNormal = negated(info.pickedNormal);
  }
}
