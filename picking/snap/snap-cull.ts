import type { PickSnapshot } from '../pick-snapshot.js';
import type { PixelRegion } from '../pick-zoom.js';
import { weftPickSource as source } from '../sources/weft-pick-source.js';

/** Box corners k = 0..7: bit 0 picks max x, bit 1 max y, bit 2 max z. */
const boxFaces = [
  [0, 2, 6, 4],
  [1, 3, 7, 5],
  [0, 1, 5, 4],
  [2, 3, 7, 6],
  [0, 1, 3, 2],
  [4, 5, 7, 6],
] as const;
const boxEdges = [
  [0, 1],
  [2, 3],
  [4, 5],
  [6, 7],
  [0, 2],
  [1, 3],
  [4, 6],
  [5, 7],
  [0, 4],
  [1, 5],
  [2, 6],
  [3, 7],
] as const;

/**
 * Drops the candidates whose local bounds, placed by their world matrix (a box the world-aligned bounds of the scene
 * entries enclose), cannot reach the block: wholly outside one of the block's planes (`makeRectPlanes`), or, when the
 * box lies wholly in front of the eye, separated from the block in normalised device coordinates (a projective map
 * keeps the box convex and its faces planar there, so the separating-axis test of a hexahedron and the block's box is
 * exact: the block's axes, the box's face normals, their edges' cross products). The plane test alone keeps a turned
 * box whose corner only passes near the block's thin frustum, which the point pick's ray test would not draw.
 * Thin-instanced and deformed candidates are kept as the rectangle snapshot chose them. `region` is grown by `margin`
 * pixels (as the planes are), so float32 rounding never drops a mesh seen at the border. IDs stay as assigned (in
 * order, so lookups by ID still work).
 * @internal
 */
export function cullSnapCandidates(
  snapshot: PickSnapshot,
  planes: Float64Array,
  viewProjection: ArrayLike<number>,
  region: PixelRegion,
  width: number,
  height: number,
  margin = 1,
): PickSnapshot {
  const m = new Float64Array(16);
  const local = new Float64Array(20);
  const block = {
    min: [((region.x - margin) / width) * 2 - 1, 1 - ((region.y + region.height + margin) / height) * 2, 0],
    max: [((region.x + region.width + margin) / width) * 2 - 1, 1 - ((region.y - margin) / height) * 2, 1],
  };
  const ndc = new Float64Array(24);
  const candidates = snapshot.candidates.filter((c) => {
    if (c.runs || source.isDeformed(c.mesh)) return true;
    m.set(c.worldMatrix);
    // Each plane in the mesh's local space: (a, b, c, d) · M.
    for (let p = 0; p < 20; p += 4)
      for (let k = 0; k < 4; k++)
        local[p + k] =
          planes[p] * m[k * 4] +
          planes[p + 1] * m[k * 4 + 1] +
          planes[p + 2] * m[k * 4 + 2] +
          planes[p + 3] * m[k * 4 + 3];
    const { min, max } = c.mesh.localBounds;
    for (let p = 0; p < 20; p += 4) {
      const far =
        local[p] * (local[p] > 0 ? max[0] : min[0]) +
        local[p + 1] * (local[p + 1] > 0 ? max[1] : min[1]) +
        local[p + 2] * (local[p + 2] > 0 ? max[2] : min[2]) +
        local[p + 3];
      if (!(far >= 0)) return false;
    }
    return !(projectBox(viewProjection, m, min, max, ndc) && isSeparated(ndc, block));
  });
  if (candidates.length === snapshot.candidates.length) return snapshot;
  return { candidates, drawLists: [candidates.map((_, i) => i)] };
}

/** The local box's corners in normalised device coordinates (x, y, z each), or false when one is not in front of the eye. */
function projectBox(
  viewProjection: ArrayLike<number>,
  world: Float64Array,
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  out: Float64Array,
): boolean {
  const v = viewProjection;
  for (let k = 0; k < 8; k++) {
    const x = k & 1 ? max[0] : min[0];
    const y = k & 2 ? max[1] : min[1];
    const z = k & 4 ? max[2] : min[2];
    const wx = world[0] * x + world[4] * y + world[8] * z + world[12];
    const wy = world[1] * x + world[5] * y + world[9] * z + world[13];
    const wz = world[2] * x + world[6] * y + world[10] * z + world[14];
    const clipW = v[3] * wx + v[7] * wy + v[11] * wz + v[15];
    if (!(clipW > 1e-9)) return false;
    out[k * 3] = (v[0] * wx + v[4] * wy + v[8] * wz + v[12]) / clipW;
    out[k * 3 + 1] = (v[1] * wx + v[5] * wy + v[9] * wz + v[13]) / clipW;
    out[k * 3 + 2] = (v[2] * wx + v[6] * wy + v[10] * wz + v[14]) / clipW;
  }
  return true;
}

/** Whether some axis separates the projected box (8 corners) from the block's box, by more than rounding. */
function isSeparated(corners: Float64Array, block: { min: number[]; max: number[] }): boolean {
  const separates = (nx: number, ny: number, nz: number): boolean => {
    let low = Number.POSITIVE_INFINITY;
    let high = Number.NEGATIVE_INFINITY;
    let scale = 0;
    for (let k = 0; k < 24; k += 3) {
      const d = nx * corners[k] + ny * corners[k + 1] + nz * corners[k + 2];
      low = Math.min(low, d);
      high = Math.max(high, d);
      scale = Math.max(scale, Math.abs(d));
    }
    const centre =
      (nx * (block.min[0] + block.max[0]) + ny * (block.min[1] + block.max[1]) + nz * (block.min[2] + block.max[2])) /
      2;
    const reach =
      (Math.abs(nx) * (block.max[0] - block.min[0]) +
        Math.abs(ny) * (block.max[1] - block.min[1]) +
        Math.abs(nz) * (block.max[2] - block.min[2])) /
      2;
    const slack = 1e-9 * (scale + Math.abs(centre) + reach);
    return high < centre - reach - slack || low > centre + reach + slack;
  };
  if (separates(1, 0, 0) || separates(0, 1, 0) || separates(0, 0, 1)) return true;
  const c = corners;
  for (const [a, b, , d] of boxFaces) {
    const ux = c[b * 3] - c[a * 3];
    const uy = c[b * 3 + 1] - c[a * 3 + 1];
    const uz = c[b * 3 + 2] - c[a * 3 + 2];
    const vx = c[d * 3] - c[a * 3];
    const vy = c[d * 3 + 1] - c[a * 3 + 1];
    const vz = c[d * 3 + 2] - c[a * 3 + 2];
    if (separates(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx)) return true;
  }
  for (const [a, b] of boxEdges) {
    const ex = c[b * 3] - c[a * 3];
    const ey = c[b * 3 + 1] - c[a * 3 + 1];
    const ez = c[b * 3 + 2] - c[a * 3 + 2];
    // Edge × each block axis.
    if (separates(0, ez, -ey) || separates(-ez, 0, ex) || separates(ey, -ex, 0)) return true;
  }
  return false;
}
