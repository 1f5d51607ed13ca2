// Ray queries over a 'compact' triangle BVH (compact-bvh.ts): the walk of triangle-bvh-query.ts over quantised boxes
// and the leaf stream.
import { type CompactBvh, wideLeafFlag } from './compact-bvh.js';
import { exitPad } from './ray-box.js';
import {
  intersectTriangleWatertight,
  makeTriangleHit,
  makeWatertightRay,
  setWatertightRay,
  type TriangleHit,
  type WatertightRay,
} from './ray-triangle.js';

interface CompactScratch {
  /** The last first hit's 3 vertex indices (see lastCompactHitCorners). */
  corners: Uint32Array;
  ray: WatertightRay;
  hit: TriangleHit;
  stackNodes: Int32Array;
  stackNear: Float64Array;
  cornerCoordinates: Float64Array;
}

let scratch: CompactScratch | null = null;

/** Traversal scratch, allocated on first use (never at import) and grown to the deepest tree seen. */
function getScratch(depth: number): CompactScratch {
  if (!scratch)
    scratch = {
      corners: new Uint32Array(3),
      ray: makeWatertightRay(),
      hit: makeTriangleHit(),
      stackNodes: new Int32Array(64),
      stackNear: new Float64Array(64),
      cornerCoordinates: new Float64Array(9),
    };
  if (scratch.stackNodes.length < depth + 2) {
    scratch.stackNodes = new Int32Array(depth + 2);
    scratch.stackNear = new Float64Array(depth + 2);
  }
  return scratch;
}

/**
 * @internal Nearest hit with tMin < t < tMax over a compact BVH (see `raycastTriangleBvhFirst`). A box plane's t is
 * (q × step + (lo − origin)) × 1 / d: a zero direction component gives NaN exactly where the float walk does (origin on
 * the plane), which counts as inside.
 */
export function raycastCompactFirst(
  c: CompactBvh,
  positions: Float32Array,
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
  tMin: number,
  tMax: number,
  out: TriangleHit,
  facing: number,
): boolean {
  const { bounds: B, links: W, nodeCount, maxDepth, grid: G, leaf16: S16, leaf32: S32 } = c;
  if (nodeCount === 0) return false;
  const ix = 1 / dx;
  const iy = 1 / dy;
  const iz = 1 / dz;
  const lx = ix < 0 ? 1 : 0;
  const hx = 1 - lx;
  const ly = iy < 0 ? 3 : 2;
  const hy = 5 - ly;
  const lz = iz < 0 ? 5 : 4;
  const hz = 9 - lz;
  const qx = G[3];
  const qy = G[4];
  const qz = G[5];
  const ex = G[0] - ox;
  const ey = G[1] - oy;
  const ez = G[2] - oz;
  let best = tMax;
  let bestUnit = -1;
  let bestIndex = -1;
  let bestU = 0;
  let bestV = 0;
  let bestA = 0;
  let bestB = 0;
  let bestC = 0;
  let sp = 0;
  let node = 0;
  {
    let tn = tMin;
    let tf = tMax;
    let t = (B[lx] * qx + ex) * ix;
    if (t > tn) tn = t;
    t = (B[hx] * qx + ex) * ix;
    if (t < tf) tf = t;
    t = (B[ly] * qy + ey) * iy;
    if (t > tn) tn = t;
    t = (B[hy] * qy + ey) * iy;
    if (t < tf) tf = t;
    t = (B[lz] * qz + ez) * iz;
    if (t > tn) tn = t;
    t = (B[hz] * qz + ez) * iz;
    if (t < tf) tf = t;
    if (!(tn <= tf * exitPad)) return false;
  }
  const s = getScratch(maxDepth);
  const r = s.ray;
  if (!setWatertightRay(r, ox, oy, oz, dx, dy, dz)) return false;
  const { kx, ky, kz, sx, sy, sz } = r;
  const rx = r.ox;
  const ry = r.oy;
  const rz = r.oz;
  const P = positions;
  const stackNodes = s.stackNodes;
  const stackNear = s.stackNear;
  for (;;) {
    const word = W[node * 4 + 3];
    const count = word & 255;
    if (count > 0) {
      const unit = word >>> 8;
      const base = S32[unit * 2] * 3;
      const wide = (S32[unit * 2 + 1] & wideLeafFlag) !== 0;
      for (let i = 0; i < count; i++) {
        let a: number;
        let b: number;
        let c: number;
        if (wide) {
          const j = (unit + 1 + 2 * i) * 2;
          a = S32[j] * 3;
          b = S32[j + 1] * 3;
          c = S32[j + 2] * 3;
        } else {
          const j = (unit + 1 + i) * 4;
          a = base + S16[j] * 3;
          b = base + S16[j + 1] * 3;
          c = base + S16[j + 2] * 3;
        }
        // The watertight test of triangle-bvh-query.ts's walk (intersectTriangleWatertight, inlined).
        const az = P[a + kz] - rz;
        const ax = P[a + kx] - rx - sx * az;
        const ay = P[a + ky] - ry - sy * az;
        const bz = P[b + kz] - rz;
        const bx = P[b + kx] - rx - sx * bz;
        const by = P[b + ky] - ry - sy * bz;
        const cz = P[c + kz] - rz;
        const cx = P[c + kx] - rx - sx * cz;
        const cy = P[c + ky] - ry - sy * cz;
        const u = cx * by - cy * bx;
        const v = ax * cy - ay * cx;
        if ((u < 0 && v > 0) || (u > 0 && v < 0)) continue;
        const w = bx * ay - by * ax;
        if ((u < 0 || v < 0 || w < 0) && (u > 0 || v > 0 || w > 0)) continue;
        const det = u + v + w;
        if (det === 0 || det * facing < 0) continue;
        const t = (sz * (u * az + v * bz + w * cz)) / det;
        if (!(t > tMin && t < best)) continue;
        best = t;
        bestUnit = unit;
        bestIndex = i;
        bestA = a;
        bestB = b;
        bestC = c;
        bestU = u / det;
        bestV = v / det;
      }
    } else {
      const left = word >>> 8;
      const a = left * 8;
      const c = a + 8;
      let an = tMin;
      let af = best;
      let t = (B[a + lx] * qx + ex) * ix;
      if (t > an) an = t;
      t = (B[a + hx] * qx + ex) * ix;
      if (t < af) af = t;
      t = (B[a + ly] * qy + ey) * iy;
      if (t > an) an = t;
      t = (B[a + hy] * qy + ey) * iy;
      if (t < af) af = t;
      t = (B[a + lz] * qz + ez) * iz;
      if (t > an) an = t;
      t = (B[a + hz] * qz + ez) * iz;
      if (t < af) af = t;
      let cn = tMin;
      let cf = best;
      t = (B[c + lx] * qx + ex) * ix;
      if (t > cn) cn = t;
      t = (B[c + hx] * qx + ex) * ix;
      if (t < cf) cf = t;
      t = (B[c + ly] * qy + ey) * iy;
      if (t > cn) cn = t;
      t = (B[c + hy] * qy + ey) * iy;
      if (t < cf) cf = t;
      t = (B[c + lz] * qz + ez) * iz;
      if (t > cn) cn = t;
      t = (B[c + hz] * qz + ez) * iz;
      if (t < cf) cf = t;
      const hitA = an <= af * exitPad;
      const hitC = cn <= cf * exitPad;
      if (hitA) {
        if (hitC) {
          if (an <= cn) {
            stackNodes[sp] = left + 1;
            stackNear[sp++] = cn;
            node = left;
          } else {
            stackNodes[sp] = left;
            stackNear[sp++] = an;
            node = left + 1;
          }
        } else {
          node = left;
        }
        continue;
      }
      if (hitC) {
        node = left + 1;
        continue;
      }
    }
    let next = -1;
    while (sp > 0) {
      sp--;
      if (stackNear[sp] <= best) {
        next = stackNodes[sp];
        break;
      }
    }
    if (next < 0) break;
    node = next;
  }
  if (bestUnit < 0) return false;
  const hitCorners = s.corners;
  hitCorners[0] = bestA / 3;
  hitCorners[1] = bestB / 3;
  hitCorners[2] = bestC / 3;
  out.t = best;
  out.u = bestU;
  out.v = bestV;
  const face = S32[bestUnit * 2 + 1];
  out.faceId =
    face & wideLeafFlag ? S32[(bestUnit + 1 + 2 * bestIndex) * 2 + 3] : face + S16[(bestUnit + 1 + bestIndex) * 4 + 3];
  return true;
}

/**
 * @internal The vertex indices (corners 0, 1, 2) of the last successful `raycastCompactFirst` hit, in a reused array:
 * copy them before the next query. Their positions were just read by the query, so they are still in cache.
 */
export function lastCompactHitCorners(): Uint32Array {
  return getScratch(0).corners;
}

/** Whether the ray enters compact node `n`'s box within [tMin, tMax] (the first-hit walk's test, not inlined). */
function entersNode(
  c: CompactBvh,
  n: number,
  ox: number,
  oy: number,
  oz: number,
  ix: number,
  iy: number,
  iz: number,
  tMin: number,
  tMax: number,
): boolean {
  const { bounds: B, grid: G } = c;
  const o = n * 8;
  const lx = ix < 0 ? 1 : 0;
  const ly = iy < 0 ? 3 : 2;
  const lz = iz < 0 ? 5 : 4;
  let tn = tMin;
  let tf = tMax;
  let t = (B[o + lx] * G[3] + (G[0] - ox)) * ix;
  if (t > tn) tn = t;
  t = (B[o + 1 - lx] * G[3] + (G[0] - ox)) * ix;
  if (t < tf) tf = t;
  t = (B[o + ly] * G[4] + (G[1] - oy)) * iy;
  if (t > tn) tn = t;
  t = (B[o + 5 - ly] * G[4] + (G[1] - oy)) * iy;
  if (t < tf) tf = t;
  t = (B[o + lz] * G[5] + (G[2] - oz)) * iz;
  if (t > tn) tn = t;
  t = (B[o + 9 - lz] * G[5] + (G[2] - oz)) * iz;
  if (t < tf) tf = t;
  return tn <= tf * exitPad;
}

/** @internal Calls `onHit(t, u, v, faceId)` for every hit with tMin < t < tMax over a compact BVH. */
export function raycastCompactAll(
  c: CompactBvh,
  positions: Float32Array,
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
  tMin: number,
  tMax: number,
  facing: number,
  onHit: (hit: TriangleHit) => void,
): void {
  if (c.nodeCount === 0) return;
  const s = getScratch(c.maxDepth);
  if (!setWatertightRay(s.ray, ox, oy, oz, dx, dy, dz)) return;
  const { links: W, leaf16: S16, leaf32: S32 } = c;
  const ix = 1 / dx;
  const iy = 1 / dy;
  const iz = 1 / dz;
  const stack = s.stackNodes;
  const corners = s.cornerCoordinates;
  const P = positions;
  let sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const n = stack[--sp];
    if (!entersNode(c, n, ox, oy, oz, ix, iy, iz, tMin, tMax)) continue;
    const word = W[n * 4 + 3];
    const count = word & 255;
    if (count === 0) {
      stack[sp++] = word >>> 8;
      stack[sp++] = (word >>> 8) + 1;
      continue;
    }
    const unit = word >>> 8;
    const face = S32[unit * 2 + 1];
    const wide = (face & wideLeafFlag) !== 0;
    for (let i = 0; i < count; i++) {
      for (let k = 0; k < 3; k++) {
        const v = (wide ? S32[(unit + 1 + 2 * i) * 2 + k] : S32[unit * 2] + S16[(unit + 1 + i) * 4 + k]) * 3;
        corners[k * 3] = P[v];
        corners[k * 3 + 1] = P[v + 1];
        corners[k * 3 + 2] = P[v + 2];
      }
      if (!intersectTriangleWatertight(s.ray, corners, 0, tMin, tMax, s.hit, facing)) continue;
      s.hit.faceId = wide ? S32[(unit + 1 + 2 * i) * 2 + 3] : face + S16[(unit + 1 + i) * 4 + 3];
      onHit(s.hit);
    }
  }
}
