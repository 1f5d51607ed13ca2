/**
 * Slab exits are widened by this factor so a primitive lying in a box face, whose t is rounded differently, is never culled by its own box.
 * @internal
 */
export const exitPad = 1 + 1e-12;

/** @internal Per-ray slab-test constants: origin, inverse direction and, per axis, which bound is entered first. */
export interface RayBox {
  ox: number;
  oy: number;
  oz: number;
  ix: number;
  iy: number;
  iz: number;
  /** Offsets (within a 6-float interleaved box) of the bound entered first / left last per axis. */
  lx: number;
  hx: number;
  ly: number;
  hy: number;
  lz: number;
  hz: number;
}

/** @internal A reusable RayBox. */
export function makeRayBox(): RayBox {
  return { ox: 0, oy: 0, oz: 0, ix: 0, iy: 0, iz: 0, lx: 0, hx: 1, ly: 2, hy: 3, lz: 4, hz: 5 };
}

/** @internal Fills `box` for origin o and direction d (a zero component gives ±Infinity, handled NaN-safely). */
export function setRayBox(box: RayBox, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): void {
  box.ox = ox;
  box.oy = oy;
  box.oz = oz;
  box.ix = 1 / dx;
  box.iy = 1 / dy;
  box.iz = 1 / dz;
  box.lx = box.ix < 0 ? 1 : 0;
  box.hx = 1 - box.lx;
  box.ly = box.iy < 0 ? 3 : 2;
  box.hy = 5 - box.ly;
  box.lz = box.iz < 0 ? 5 : 4;
  box.hz = 9 - box.lz;
}

/**
 * Entry distance of the ray into the box at `b[o..o+6]` clipped to [tMin, tMax], or Infinity on a miss.
 * A NaN slab value (origin on a face plane, direction parallel to it) is ignored, i.e. counts as inside.
 * @internal
 */
export function rayBoxEntry(r: RayBox, b: ArrayLike<number>, o: number, tMin: number, tMax: number): number {
  let tn = tMin;
  let tf = tMax;
  let t = (b[o + r.lx] - r.ox) * r.ix;
  if (t > tn) tn = t;
  t = (b[o + r.hx] - r.ox) * r.ix;
  if (t < tf) tf = t;
  t = (b[o + r.ly] - r.oy) * r.iy;
  if (t > tn) tn = t;
  t = (b[o + r.hy] - r.oy) * r.iy;
  if (t < tf) tf = t;
  t = (b[o + r.lz] - r.oz) * r.iz;
  if (t > tn) tn = t;
  t = (b[o + r.hz] - r.oz) * r.iz;
  if (t < tf) tf = t;
  return tn <= tf * exitPad ? tn : Infinity;
}

/**
 * Whether the ray o + t·d enters the box at `b[o..o+6]` within [tMin, tMax]: the same test as `setRayBox` +
 * `rayBoxEntry`, without a RayBox (a one-off test, e.g. before any per-query state is set up). One difference: an
 * entry at t = +Infinity (no finite exit, e.g. a zero direction) counts as entered here, where rayBoxEntry's Infinity
 * reads as a miss.
 * @internal
 */
export function rayEntersBox(
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
  b: ArrayLike<number>,
  o: number,
  tMin: number,
  tMax: number,
): boolean {
  // Twin of picking/cpu/bvh/ray-box.ts:rayBoxEntry (kept equal by test/unit/cpu-picking/twins.test.ts: rayEntersBox is setRayBox + rayBoxEntry but for an entry at t = Infinity)
  const ix = 1 / dx;
  const iy = 1 / dy;
  const iz = 1 / dz;
  let tn = tMin;
  let tf = tMax;
  let t = (b[o + (ix < 0 ? 1 : 0)] - ox) * ix;
  if (t > tn) tn = t;
  t = (b[o + (ix < 0 ? 0 : 1)] - ox) * ix;
  if (t < tf) tf = t;
  t = (b[o + (iy < 0 ? 3 : 2)] - oy) * iy;
  if (t > tn) tn = t;
  t = (b[o + (iy < 0 ? 2 : 3)] - oy) * iy;
  if (t < tf) tf = t;
  t = (b[o + (iz < 0 ? 5 : 4)] - oz) * iz;
  if (t > tn) tn = t;
  t = (b[o + (iz < 0 ? 4 : 5)] - oz) * iz;
  if (t < tf) tf = t;
  return tn <= tf * exitPad;
}
