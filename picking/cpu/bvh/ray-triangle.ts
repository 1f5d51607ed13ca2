/** @internal Per-ray constants of the watertight test (Woop, Benthin, Wald 2013): axis permutation, shear, origin. */
export interface WatertightRay {
  /** Axes permuted so that kz is the dominant direction axis (kx, ky swapped when d[kz] < 0 to keep winding). */
  kx: number;
  ky: number;
  kz: number;
  /** Shear: sx = d[kx] / d[kz], sy = d[ky] / d[kz], sz = 1 / d[kz]. */
  sx: number;
  sy: number;
  sz: number;
  /** Origin components along kx, ky, kz. */
  ox: number;
  oy: number;
  oz: number;
}

/** One ray/triangle hit: parametric distance, Babylon barycentrics (u weights corner 0, v corner 1), face. */
export interface TriangleHit {
  t: number;
  u: number;
  v: number;
  faceId: number;
}

/** @internal A reusable, zeroed watertight ray (fill it with `setWatertightRay`). */
export function makeWatertightRay(): WatertightRay {
  return { kx: 0, ky: 1, kz: 2, sx: 0, sy: 0, sz: 1, ox: 0, oy: 0, oz: 0 };
}

/** A reusable hit record. */
export function makeTriangleHit(): TriangleHit {
  return { t: Infinity, u: 0, v: 0, faceId: -1 };
}

function component(axis: number, x: number, y: number, z: number): number {
  return axis === 0 ? x : axis === 1 ? y : z;
}

/** @internal Fills `ray` for origin o and direction d; false when d is zero or anything is not finite. */
export function setWatertightRay(
  ray: WatertightRay,
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
): boolean {
  if (!Number.isFinite(ox + oy + oz + dx + dy + dz)) return false;
  const ax = Math.abs(dx);
  const ay = Math.abs(dy);
  const az = Math.abs(dz);
  const kz = ax >= ay ? (ax >= az ? 0 : 2) : ay >= az ? 1 : 2;
  const dk = kz === 0 ? dx : kz === 1 ? dy : dz;
  if (dk === 0) return false;
  let kx = kz === 2 ? 0 : kz + 1;
  let ky = kx === 2 ? 0 : kx + 1;
  if (dk < 0) {
    const swap = kx;
    kx = ky;
    ky = swap;
  }
  ray.kx = kx;
  ray.ky = ky;
  ray.kz = kz;
  ray.sx = component(kx, dx, dy, dz) / dk;
  ray.sy = component(ky, dx, dy, dz) / dk;
  ray.sz = 1 / dk;
  ray.ox = component(kx, ox, oy, oz);
  ray.oy = component(ky, ox, oy, oz);
  ray.oz = component(kz, ox, oy, oz);
  return true;
}

/**
 * Watertight test of the triangle whose 9 coordinates start at `data[base]` (corners 0, 1, 2).
 * `facing` 0 (default) hits both faces; 1 hits only the CCW front (the ray meets the side its CCW normal faces),
 * -1 only the back (the front of a mirrored placement). An edge shared by two triangles is never missed
 * by both, and degenerate triangles never hit. Writes t, u, v into `out` when tMin < t < tMax.
 * @internal
 */
export function intersectTriangleWatertight(
  r: WatertightRay,
  data: ArrayLike<number>,
  base: number,
  tMin: number,
  tMax: number,
  out: TriangleHit,
  facing = 0,
): boolean {
  const { kx, ky, kz, sx, sy, ox, oy, oz } = r;
  const az = data[base + kz] - oz;
  const ax = data[base + kx] - ox - sx * az;
  const ay = data[base + ky] - oy - sy * az;
  const bz = data[base + 3 + kz] - oz;
  const bx = data[base + 3 + kx] - ox - sx * bz;
  const by = data[base + 3 + ky] - oy - sy * bz;
  const cz = data[base + 6 + kz] - oz;
  const cx = data[base + 6 + kx] - ox - sx * cz;
  const cy = data[base + 6 + ky] - oy - sy * cz;
  const u = cx * by - cy * bx;
  const v = ax * cy - ay * cx;
  const w = bx * ay - by * ax;
  if ((u < 0 || v < 0 || w < 0) && (u > 0 || v > 0 || w > 0)) return false;
  const det = u + v + w;
  // det > 0: the ray meets the triangle's CCW side (its sheared winding is kept, see setWatertightRay).
  if (det === 0 || det * facing < 0) return false;
  const t = (r.sz * (u * az + v * bz + w * cz)) / det;
  if (!(t > tMin && t < tMax)) return false;
  out.t = t;
  out.u = u / det;
  out.v = v / det;
  return true;
}
