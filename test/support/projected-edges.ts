// Which pixel centres lie near a projected triangle edge, computed in float64 from the camera's parameters and the
// scene's world-space triangles (never from weft's matrices). Pure: no weft, no Node API (bundles in a page too).
import { type CameraBasis, toView, viewToPixel } from './camera-rays.js';

type Vec3 = [number, number, number];

/** One triangle soup in local space and the transforms that place its copies in the world. */
export interface EdgeSource {
  positions: ArrayLike<number>;
  indices: ArrayLike<number> | null;
  /** Column-major 4×4 world matrices, one per drawn copy (mesh world × thin instance). */
  worldMatrices: readonly ArrayLike<number>[];
}

/** Per pixel, the view depths of the edges passing within `margin` px of its centre. */
export interface EdgeMap {
  width: number;
  height: number;
  margin: number;
  /** Edge depths (distance along forward) per pixel; empty arrays where no edge passes. */
  depths: number[][];
}

function transform(m: ArrayLike<number>, x: number, y: number, z: number): Vec3 {
  return [
    m[0] * x + m[4] * y + m[8] * z + m[12],
    m[1] * x + m[5] * y + m[9] * z + m[13],
    m[2] * x + m[6] * y + m[10] * z + m[14],
  ];
}

function addSegment(map: EdgeMap, camera: CameraBasis, a: Vec3, b: Vec3): void {
  const pa = viewToPixel(camera, a);
  const pb = viewToPixel(camera, b);
  const m = map.margin;
  const x0 = Math.max(0, Math.floor(Math.min(pa.x, pb.x) - 0.5 - m));
  const x1 = Math.min(map.width - 1, Math.ceil(Math.max(pa.x, pb.x) - 0.5 + m));
  const y0 = Math.max(0, Math.floor(Math.min(pa.y, pb.y) - 0.5 - m));
  const y1 = Math.min(map.height - 1, Math.ceil(Math.max(pa.y, pb.y) - 0.5 + m));
  const dx = pb.x - pa.x;
  const dy = pb.y - pa.y;
  const length2 = dx * dx + dy * dy;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const cx = x + 0.5 - pa.x;
      const cy = y + 0.5 - pa.y;
      const s = length2 > 0 ? Math.min(1, Math.max(0, (cx * dx + cy * dy) / length2)) : 0;
      if (Math.hypot(cx - s * dx, cy - s * dy) >= m) continue;
      // 1 / depth is affine in screen space along a projected segment.
      map.depths[y * map.width + x].push(1 / ((1 - s) / a[2] + s / b[2]));
    }
  }
}

/** Clips the view-space segment to depth ≥ near; null when it lies wholly in front of the near plane. */
function clipSegment(a: Vec3, b: Vec3, near: number): [Vec3, Vec3] | null {
  if (a[2] < near && b[2] < near) return null;
  if (a[2] >= near && b[2] >= near) return [a, b];
  const t = (near - a[2]) / (b[2] - a[2]);
  const c: Vec3 = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), near];
  return a[2] < near ? [c, b] : [a, c];
}

/** Marks every pixel centre within `margin` px of a projected triangle edge (and of a near-plane clip line). */
export function makeEdgeMap(camera: CameraBasis, sources: readonly EdgeSource[], margin = 0.05): EdgeMap {
  const { width, height, near } = camera;
  const map: EdgeMap = { width, height, margin, depths: Array.from({ length: width * height }, () => []) };
  for (const source of sources) {
    const corners = source.indices ? source.indices.length : source.positions.length / 3;
    for (const world of source.worldMatrices) {
      const vertexCount = source.positions.length / 3;
      const view: Vec3[] = new Array(vertexCount);
      for (let v = 0; v < vertexCount; v++) {
        const p = source.positions;
        view[v] = toView(camera, transform(world, p[v * 3], p[v * 3 + 1], p[v * 3 + 2]));
      }
      for (let c = 0; c < corners; c += 3) {
        const tri = [0, 1, 2].map((k) => view[source.indices ? source.indices[c + k] : c + k]);
        const crossings: Vec3[] = [];
        for (let k = 0; k < 3; k++) {
          const a = tri[k];
          const b = tri[(k + 1) % 3];
          const clipped = clipSegment(a, b, near);
          if (clipped) addSegment(map, camera, clipped[0], clipped[1]);
          if (a[2] < near !== b[2] < near) crossings.push(clipped![a[2] < near ? 0 : 1]);
        }
        if (crossings.length === 2) addSegment(map, camera, crossings[0], crossings[1]);
      }
    }
  }
  return map;
}

/**
 * True when no edge in front of (or at) view depth `depth` passes within the margin of pixel (x, y)'s centre;
 * `depth` Infinity for a miss (every edge counts: a silhouette). `slack` widens "at" to a relative band.
 */
export function isInterior(map: EdgeMap, x: number, y: number, depth: number, slack = 1e-3): boolean {
  return map.depths[y * map.width + x].every((d) => d > depth * (1 + slack));
}
