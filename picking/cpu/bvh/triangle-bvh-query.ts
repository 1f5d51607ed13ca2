import { nodeCountWord, nodeFirstWord, nodeWords } from './bvh-nodes.js';
import { exitPad } from './ray-box.js';
import {
  intersectTriangleWatertight,
  makeTriangleHit,
  makeWatertightRay,
  setWatertightRay,
  type TriangleHit,
  type WatertightRay,
} from './ray-triangle.js';
import { makeRayBox, type RayBox, rayBoxEntry, setRayBox } from './ray-box.js';
import type { FloatTriangleBvh, TriangleBvh } from './triangle-bvh.js';
import { raycastCompactAll, raycastCompactFirst } from './compact-bvh-query.js';

/** Every hit of an all-hits query, as parallel arrays (t ascending is not guaranteed). */
export interface TriangleHitList {
  count: number;
  t: number[];
  u: number[];
  v: number[];
  faceId: number[];
}

interface QueryScratch {
  ray: WatertightRay;
  box: RayBox;
  hit: TriangleHit;
  stackNodes: Int32Array;
  stackNear: Float64Array;
  /** One triangle's 9 corner coordinates (float32 values, held exactly). */
  corners: Float64Array;
}

let scratch: QueryScratch | null = null;

/** Traversal scratch, allocated on first use (never at import) and grown to the deepest tree seen. */
function getScratch(depth: number): QueryScratch {
  if (!scratch)
    scratch = {
      ray: makeWatertightRay(),
      box: makeRayBox(),
      hit: makeTriangleHit(),
      stackNodes: new Int32Array(64),
      stackNear: new Float64Array(64),
      corners: new Float64Array(9),
    };
  if (scratch.stackNodes.length < depth + 2) {
    scratch.stackNodes = new Int32Array(depth + 2);
    scratch.stackNear = new Float64Array(depth + 2);
  }
  return scratch;
}

/** Copies leaf position `i`'s corners 0, 1, 2 from the BVH's positions into `out` (through its leaf index copy when kept). */
function gatherCorners(bvh: FloatTriangleBvh, i: number, out: Float64Array): Float64Array {
  const { positions: P, indices: idx, leafIndices: L } = bvh;
  const face = bvh.faceIds[i];
  for (let k = 0; k < 3; k++) {
    const v = (L !== null ? L[i * 3 + k] : idx === null ? face * 3 + k : idx[face * 3 + k]) * 3;
    out[k * 3] = P[v];
    out[k * 3 + 1] = P[v + 1];
    out[k * 3 + 2] = P[v + 2];
  }
  return out;
}

/** Leaf position of the last `raycastTriangleBvhFirst` hit (read right after it, e.g. to find its triangle copy). */
let lastLeaf = -1;

/**
 * The leaf position (index into `faceIds`, and / 9 into `triangles`) of the last successful first-hit query.
 * @internal
 */
export function lastFirstHitLeaf(): number {
  return lastLeaf;
}

/** Makes an empty hit list for `raycastTriangleBvhAll`. */
export function makeTriangleHitList(): TriangleHitList {
  return { count: 0, t: [], u: [], v: [], faceId: [] };
}

/**
 * Nearest hit with tMin < t < tMax of the local ray o + t·d (d need not be unit; t is in units of d).
 * Stack-based, near child first, no allocation. Returns false on a miss or a zero / non-finite ray.
 * `facing`: 0 hits both faces, 1 only CCW fronts, -1 only CCW backs (see `intersectTriangleWatertight`).
 */
export function raycastTriangleBvhFirst(
  bvh: TriangleBvh,
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
  tMin: number,
  tMax: number,
  out: TriangleHit,
  facing = 0,
): boolean {
  if (bvh.compact !== null) {
    lastLeaf = -1; // no leaf copy to read the corners from
    return raycastCompactFirst(bvh.compact, bvh.positions, ox, oy, oz, dx, dy, dz, tMin, tMax, out, facing);
  }
  const { floats: F, ints: I, nodeCount, maxDepth } = bvh.nodes!;
  if (nodeCount === 0) return false;
  // Twin of picking/cpu/bvh/ray-box.ts:setRayBox (kept equal by test/unit/cpu-picking/twins.test.ts: raycastTriangleBvhFirst is a walk of rayBoxEntry and intersectTriangleWatertight)
  const ix = 1 / dx;
  const iy = 1 / dy;
  const iz = 1 / dz;
  const lx = ix < 0 ? 1 : 0;
  const hx = 1 - lx;
  const ly = iy < 0 ? 3 : 2;
  const hy = 5 - ly;
  const lz = iz < 0 ? 5 : 4;
  const hz = 9 - lz;
  let best = tMax;
  let bestIndex = -1;
  let bestU = 0;
  let bestV = 0;
  let sp = 0;
  let node = 0;
  {
    // Twin of picking/cpu/bvh/ray-box.ts:rayEntersBox (kept equal by test/unit/cpu-picking/twins.test.ts: raycastTriangleBvhFirst is a walk of rayBoxEntry and intersectTriangleWatertight)
    let tn = tMin;
    let tf = tMax;
    let t = (F[lx] - ox) * ix;
    if (t > tn) tn = t;
    t = (F[hx] - ox) * ix;
    if (t < tf) tf = t;
    t = (F[ly] - oy) * iy;
    if (t > tn) tn = t;
    t = (F[hy] - oy) * iy;
    if (t < tf) tf = t;
    t = (F[lz] - oz) * iz;
    if (t > tn) tn = t;
    t = (F[hz] - oz) * iz;
    if (t < tf) tf = t;
    // A miss of the root (most rays of a pick that misses the mesh) returns before the watertight set-up; a NaN or
    // zero direction either misses here or is refused by setWatertightRay below.
    if (!(tn <= tf * exitPad)) return false;
  }
  const s = getScratch(maxDepth);
  const r = s.ray;
  if (!setWatertightRay(r, ox, oy, oz, dx, dy, dz)) return false;
  const { kx, ky, kz, sx, sy, sz } = r;
  const rx = r.ox;
  const ry = r.oy;
  const rz = r.oz;
  const P = bvh.positions;
  const T = bvh.triangles;
  const L = bvh.leafIndices;
  const idx = bvh.indices;
  const Q = T !== null ? T : P;
  const faceIds = bvh.faceIds!;
  const stackNodes = s.stackNodes;
  const stackNear = s.stackNear;
  for (;;) {
    const o = node * nodeWords;
    const count = I[o + nodeCountWord];
    if (count > 0) {
      const first = I[o + nodeFirstWord];
      for (let i = first, end = first + count; i < end; i++) {
        let a: number;
        let b: number;
        let c: number;
        if (L !== null) {
          const j = i * 3;
          a = L[j] * 3;
          b = L[j + 1] * 3;
          c = L[j + 2] * 3;
        } else if (T !== null) {
          a = i * 9;
          b = a + 3;
          c = a + 6;
        } else {
          const f = faceIds[i] * 3;
          if (idx === null) {
            a = f * 3;
            b = a + 3;
            c = a + 6;
          } else {
            a = idx[f] * 3;
            b = idx[f + 1] * 3;
            c = idx[f + 2] * 3;
          }
        }
        // Twin of picking/cpu/bvh/ray-triangle.ts:intersectTriangleWatertight (kept equal by test/unit/cpu-picking/twins.test.ts: raycastTriangleBvhFirst is a walk of rayBoxEntry and intersectTriangleWatertight)
        const az = Q[a + kz] - rz;
        const ax = Q[a + kx] - rx - sx * az;
        const ay = Q[a + ky] - ry - sy * az;
        const bz = Q[b + kz] - rz;
        const bx = Q[b + kx] - rx - sx * bz;
        const by = Q[b + ky] - ry - sy * bz;
        const cz = Q[c + kz] - rz;
        const cx = Q[c + kx] - rx - sx * cz;
        const cy = Q[c + ky] - ry - sy * cz;
        const u = cx * by - cy * bx;
        const v = ax * cy - ay * cx;
        if ((u < 0 && v > 0) || (u > 0 && v < 0)) continue; // early out: same test as below, on two edges
        const w = bx * ay - by * ax;
        if ((u < 0 || v < 0 || w < 0) && (u > 0 || v > 0 || w > 0)) continue;
        const det = u + v + w;
        if (det === 0 || det * facing < 0) continue;
        const t = (sz * (u * az + v * bz + w * cz)) / det;
        if (!(t > tMin && t < best)) continue;
        best = t;
        bestIndex = i;
        bestU = u / det;
        bestV = v / det;
      }
    } else {
      const left = I[o + nodeFirstWord];
      const a = left * nodeWords;
      const c = a + nodeWords;
      // Twin of picking/cpu/bvh/ray-box.ts:rayBoxEntry (kept equal by test/unit/cpu-picking/twins.test.ts: raycastTriangleBvhFirst is a walk of rayBoxEntry and intersectTriangleWatertight)
      let an = tMin;
      let af = best;
      let t = (F[a + lx] - ox) * ix;
      if (t > an) an = t;
      t = (F[a + hx] - ox) * ix;
      if (t < af) af = t;
      t = (F[a + ly] - oy) * iy;
      if (t > an) an = t;
      t = (F[a + hy] - oy) * iy;
      if (t < af) af = t;
      t = (F[a + lz] - oz) * iz;
      if (t > an) an = t;
      t = (F[a + hz] - oz) * iz;
      if (t < af) af = t;
      let cn = tMin;
      let cf = best;
      t = (F[c + lx] - ox) * ix;
      if (t > cn) cn = t;
      t = (F[c + hx] - ox) * ix;
      if (t < cf) cf = t;
      t = (F[c + ly] - oy) * iy;
      if (t > cn) cn = t;
      t = (F[c + hy] - oy) * iy;
      if (t < cf) cf = t;
      t = (F[c + lz] - oz) * iz;
      if (t > cn) cn = t;
      t = (F[c + hz] - oz) * iz;
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
  if (bestIndex < 0) return false;
  out.t = best;
  out.u = bestU;
  out.v = bestV;
  out.faceId = faceIds[bestIndex];
  lastLeaf = bestIndex;
  return true;
}

/** Appends every hit with tMin < t < tMax of the local ray o + t·d to `hits` (`facing` as in raycastTriangleBvhFirst); returns how many it added. */
export function raycastTriangleBvhAll(
  bvh: TriangleBvh,
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
  tMin: number,
  tMax: number,
  hits: TriangleHitList,
  facing = 0,
): number {
  const before = hits.count;
  if (bvh.compact !== null) {
    raycastCompactAll(bvh.compact, bvh.positions, ox, oy, oz, dx, dy, dz, tMin, tMax, facing, (hit) => {
      hits.t.push(hit.t);
      hits.u.push(hit.u);
      hits.v.push(hit.v);
      hits.faceId.push(hit.faceId);
      hits.count++;
    });
    return hits.count - before;
  }
  if (bvh.nodes === null || bvh.faceIds === null) return 0;
  const flat = bvh as FloatTriangleBvh;
  const { floats, ints, nodeCount, maxDepth } = flat.nodes;
  if (nodeCount === 0) return 0;
  const s = getScratch(maxDepth);
  if (!setWatertightRay(s.ray, ox, oy, oz, dx, dy, dz)) return 0;
  const box = s.box;
  setRayBox(box, ox, oy, oz, dx, dy, dz);
  const stack = s.stackNodes;
  let sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const o = stack[--sp] * nodeWords;
    if (!(rayBoxEntry(box, floats, o, tMin, tMax) < Infinity)) continue;
    const count = ints[o + nodeCountWord];
    const first = ints[o + nodeFirstWord];
    if (count === 0) {
      stack[sp++] = first;
      stack[sp++] = first + 1;
      continue;
    }
    for (let i = first, end = first + count; i < end; i++) {
      const hit =
        bvh.triangles !== null
          ? intersectTriangleWatertight(s.ray, bvh.triangles, i * 9, tMin, tMax, s.hit, facing)
          : intersectTriangleWatertight(s.ray, gatherCorners(flat, i, s.corners), 0, tMin, tMax, s.hit, facing);
      if (!hit) continue;
      hits.t.push(s.hit.t);
      hits.u.push(s.hit.u);
      hits.v.push(s.hit.v);
      hits.faceId.push(flat.faceIds[i]);
      hits.count++;
    }
  }
  return hits.count - before;
}
