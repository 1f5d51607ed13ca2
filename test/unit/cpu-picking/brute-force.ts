// Float64 references for triangle BVH tests: a bumpy grid mesh, a brute-force ray cast over it, and the check that a
// BVH's first hits and all-hits lists agree with it.
import { expect } from 'vitest';
import {
  makeTriangleHit,
  makeTriangleHitList,
  raycastTriangleBvhAll,
  raycastTriangleBvhFirst,
  type TriangleBvh,
} from '../../../picking/cpu/index.js';
import { mulberry32 } from './scene-fixtures.js';

export type V3 = [number, number, number];

/** A bumpy height field of `cols × rows` vertices (plus `extra` vertices, each in one more triangle). */
export function gridMesh(cols: number, rows: number, extra = 0): { positions: Float32Array; indices: Uint32Array } {
  const vertexCount = cols * rows + extra;
  const positions = new Float32Array(vertexCount * 3);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const v = (r * cols + c) * 3;
      const x = c / (cols - 1) - 0.5;
      const y = r / (rows - 1) - 0.5;
      positions.set([x, y, 0.05 * Math.sin(x * 23) * Math.cos(y * 17)], v);
    }
  }
  const faces: number[] = [];
  for (let r = 0; r + 1 < rows; r++) {
    for (let c = 0; c + 1 < cols; c++) {
      const a = r * cols + c;
      faces.push(a, a + 1, a + cols, a + 1, a + cols + 1, a + cols);
    }
  }
  for (let e = 0; e < extra; e++) {
    // A small triangle above the field whose third corner is the extra vertex (index ≥ cols · rows).
    const v = cols * rows + e;
    positions.set([0.1 + e * 0.01, 0.1, 0.2], v * 3);
    faces.push(0, cols - 1, v);
  }
  return { positions, indices: Uint32Array.from(faces) };
}

/** Every hit of o + t·d with t > 0, in float64 (Möller–Trumbore on the float32 corners, both faces). */
export function bruteForce(
  P: Float32Array,
  indices: ArrayLike<number>,
  o: V3,
  d: V3,
): Array<{ t: number; face: number }> {
  const hits: Array<{ t: number; face: number }> = [];
  const [dx, dy, dz] = d;
  for (let f = 0; f < indices.length / 3; f++) {
    const a = indices[f * 3] * 3;
    const b = indices[f * 3 + 1] * 3;
    const c = indices[f * 3 + 2] * 3;
    const e1x = P[b] - P[a];
    const e1y = P[b + 1] - P[a + 1];
    const e1z = P[b + 2] - P[a + 2];
    const e2x = P[c] - P[a];
    const e2y = P[c + 1] - P[a + 1];
    const e2z = P[c + 2] - P[a + 2];
    const qx = dy * e2z - dz * e2y;
    const qy = dz * e2x - dx * e2z;
    const qz = dx * e2y - dy * e2x;
    const det = e1x * qx + e1y * qy + e1z * qz;
    if (det === 0) continue;
    const sx = o[0] - P[a];
    const sy = o[1] - P[a + 1];
    const sz = o[2] - P[a + 2];
    const u = (sx * qx + sy * qy + sz * qz) / det;
    if (u < 0 || u > 1) continue;
    const rx = sy * e1z - sz * e1y;
    const ry = sz * e1x - sx * e1z;
    const rz = sx * e1y - sy * e1x;
    const v = (dx * rx + dy * ry + dz * rz) / det;
    const t = (e2x * rx + e2y * ry + e2z * rz) / det;
    if (v >= 0 && u + v <= 1 && t > 0) hits.push({ t, face: f });
  }
  return hits;
}

/** Rays from above and below the field towards random points on it, some missing it. */
export function rays(seed: number, count: number): Array<{ o: V3; d: V3 }> {
  const rand = mulberry32(seed);
  return Array.from({ length: count }, () => {
    const o: V3 = [(rand() - 0.5) * 2, (rand() - 0.5) * 2, rand() < 0.5 ? 1 + rand() : -1 - rand()];
    const to = [(rand() - 0.5) * 1.2, (rand() - 0.5) * 1.2, 0];
    const d = [to[0] - o[0], to[1] - o[1], to[2] - o[2]];
    const n = Math.hypot(d[0], d[1], d[2]);
    return { o, d: [d[0] / n, d[1] / n, d[2] / n] };
  });
}

/** First hit, face and all-hits list of every ray agree with the brute force. */
export function expectMatchesBruteForce(
  bvh: TriangleBvh,
  positions: Float32Array,
  indices: Uint32Array,
  seed: number,
): void {
  const hit = makeTriangleHit();
  let hits = 0;
  for (const { o, d } of rays(seed, 150)) {
    const all = bruteForce(positions, indices, o, d);
    const got = raycastTriangleBvhFirst(bvh, ...o, ...d, 0, Infinity, hit);
    expect(got, `ray ${o} → ${d}`).toBe(all.length > 0);
    const list = makeTriangleHitList();
    raycastTriangleBvhAll(bvh, ...o, ...d, 0, Infinity, list);
    expect([...list.faceId].sort((x, y) => x - y)).toEqual(all.map((h) => h.face).sort((x, y) => x - y));
    if (!got) continue;
    hits++;
    const nearest = all.reduce((m, h) => (h.t < m.t ? h : m));
    expect(Math.abs(hit.t - nearest.t)).toBeLessThan(1e-6);
    // A different face only where the ray crosses a shared edge at the same distance.
    const same = all.find((h) => h.face === hit.faceId);
    expect(same && Math.abs(same.t - nearest.t) < 1e-9, `face ${hit.faceId} vs ${nearest.face}`).toBe(true);
  }
  expect(hits).toBeGreaterThan(50);
}
