import type { PickSnapshot } from '../pick-snapshot.js';
import { weftPickSource as source } from '../sources/weft-pick-source.js';

/**
 * Drops the candidates whose local bounds, placed by their world matrix (a box the world-aligned bounds of the scene
 * entries enclose), lie wholly outside one of the block's planes (`makeRectPlanes`): a turned mesh's world-aligned
 * bounds reach far past it. Thin-instanced and deformed candidates are kept as the rectangle snapshot chose them.
 * IDs stay as assigned (in order, so lookups by ID still work).
 * @internal
 */
export function cullSnapCandidates(snapshot: PickSnapshot, planes: Float64Array): PickSnapshot {
  const candidates = snapshot.candidates.filter(
    (c) => c.runs !== null || source.isDeformed(c.mesh) || reachesPlanes(planes, c.worldMatrix, c.mesh.localBounds),
  );
  if (candidates.length === snapshot.candidates.length) return snapshot;
  return { candidates, drawLists: [candidates.map((_, i) => i)] };
}

/**
 * Whether the local box under affine world matrix `m` reaches the inside of every plane. The box is placed as its centre and
 * three half-axes in world space; a plane's farthest reach is its value at the centre plus the half-axes' absolute
 * projections on its normal (the same as the best corner, in scalars: this runs cold, once per snap and candidate).
 */
function reachesPlanes(
  planes: Float64Array,
  m: ArrayLike<number>,
  bounds: { min: ArrayLike<number>; max: ArrayLike<number> },
): boolean {
  // A world matrix that is not affine (never made by weft) keeps its candidate.
  if (m[3] !== 0 || m[7] !== 0 || m[11] !== 0 || m[15] !== 1) return true;
  const { min, max } = bounds;
  const hx = (max[0] - min[0]) / 2;
  const hy = (max[1] - min[1]) / 2;
  const hz = (max[2] - min[2]) / 2;
  const lx = min[0] + hx;
  const ly = min[1] + hy;
  const lz = min[2] + hz;
  const cx = m[0] * lx + m[4] * ly + m[8] * lz + m[12];
  const cy = m[1] * lx + m[5] * ly + m[9] * lz + m[13];
  const cz = m[2] * lx + m[6] * ly + m[10] * lz + m[14];
  const ax = m[0] * hx;
  const ay = m[1] * hx;
  const az = m[2] * hx;
  const bx = m[4] * hy;
  const by = m[5] * hy;
  const bz = m[6] * hy;
  const ex = m[8] * hz;
  const ey = m[9] * hz;
  const ez = m[10] * hz;
  for (let p = 0; p < 20; p += 4) {
    const nx = planes[p];
    const ny = planes[p + 1];
    const nz = planes[p + 2];
    const far =
      nx * cx +
      ny * cy +
      nz * cz +
      planes[p + 3] +
      Math.abs(nx * ax + ny * ay + nz * az) +
      Math.abs(nx * bx + ny * by + nz * bz) +
      Math.abs(nx * ex + ny * ey + nz * ez);
    if (!(far >= 0)) return false;
  }
  return true;
}
