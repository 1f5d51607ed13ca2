// The 'leaf-indices' layout (issue #33 item 3) against a float64 brute-force ray cast written here: same first hit and
// face, same all-hits lists, on both sides of the 16-bit index boundary, and after deformation + refit.
import { describe, expect, test } from 'vitest';
import {
  buildTriangleBvh,
  CpuPickError,
  deserialiseTriangleBvh,
  makeTriangleHit,
  makeTriangleHitList,
  raycastTriangleBvhAll,
  raycastTriangleBvhFirst,
  refitTriangleBvh,
  serialiseTriangleBvh,
  type TriangleBvh,
} from '../../../picking/cpu/index.js';
import { mulberry32 } from './scene-fixtures.js';

type V3 = [number, number, number];

/** A bumpy height field of `cols × rows` vertices (plus `extra` vertices, each in one more triangle). */
function gridMesh(cols: number, rows: number, extra = 0): { positions: Float32Array; indices: Uint32Array } {
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
function bruteForce(P: Float32Array, indices: ArrayLike<number>, o: V3, d: V3): Array<{ t: number; face: number }> {
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
function rays(seed: number, count: number): Array<{ o: V3; d: V3 }> {
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
function expectMatchesBruteForce(bvh: TriangleBvh, positions: Float32Array, indices: Uint32Array, seed: number): void {
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

describe("'leaf-indices' layout", () => {
  for (const [label, cols, rows, extra, bits] of [
    ['65 535 vertices', 255, 257, 0, 16],
    ['65 536 vertices', 256, 256, 0, 16],
    ['65 537 vertices', 256, 256, 1, 32],
  ] as const) {
    test(`${label}: ${bits}-bit leaf indices, the same hits as a float64 brute force, before and after a refit`, () => {
      const { positions, indices } = gridMesh(cols, rows, extra);
      expect(positions.length / 3).toBe(cols * rows + extra);
      const bvh = buildTriangleBvh(positions, indices);
      expect(bvh.layout).toBe('leaf-indices');
      expect(bvh.triangles).toBeNull();
      expect(bvh.leafIndices).toBeInstanceOf(bits === 16 ? Uint16Array : Uint32Array);
      let wrong = 0;
      for (let i = 0; i < bvh.triangleCount; i++)
        for (let k = 0; k < 3; k++) if (bvh.leafIndices![i * 3 + k] !== indices[bvh.faceIds[i] * 3 + k]) wrong++;
      expect(wrong).toBe(0);
      expect(indices).toEqual(gridMesh(cols, rows, extra).indices); // the mesh's index is never reordered
      expectMatchesBruteForce(bvh, positions, indices, 11);
      // Deform in place (the extra triangle moves too), refit, and check again.
      for (let v = 0; v < positions.length; v += 3) {
        positions[v + 2] += 0.08 * Math.cos(positions[v] * 13 + positions[v + 1] * 5);
        positions[v] *= 1.1;
      }
      refitTriangleBvh(bvh, positions, indices);
      expectMatchesBruteForce(bvh, positions, indices, 12);
    });
  }

  test('a refit onto more than 65 536 vertices widens 16-bit leaf indices', () => {
    const small = gridMesh(16, 16);
    const bvh = buildTriangleBvh(small.positions, small.indices);
    expect(bvh.leafIndices).toBeInstanceOf(Uint16Array);
    // Same faces, but corner 2 of the last face now names a vertex past 65 535 (a copy of its old position).
    const positions = new Float32Array(70_000 * 3);
    positions.set(small.positions);
    const indices = small.indices.slice();
    const last = indices.length - 1;
    positions.set(small.positions.subarray(indices[last] * 3, indices[last] * 3 + 3), 69_999 * 3);
    indices[last] = 69_999;
    refitTriangleBvh(bvh, positions, indices);
    expect(bvh.leafIndices).toBeInstanceOf(Uint32Array);
    expectMatchesBruteForce(bvh, positions, indices, 13);
  });

  test('layouts: copyTriangles still maps to a layout; a bad layout is a typed error; every layout serialises', () => {
    const { positions, indices } = gridMesh(40, 30);
    expect(buildTriangleBvh(positions, indices, { copyTriangles: true }).layout).toBe('leaf-triangles');
    expect(buildTriangleBvh(positions, indices, { copyTriangles: false }).layout).toBe('face-ids');
    expect(buildTriangleBvh(positions, indices, { copyTriangles: true, layout: 'face-ids' }).layout).toBe('face-ids');
    const bad = () => buildTriangleBvh(positions, indices, { layout: 'triangles' as never });
    expect(bad).toThrow(CpuPickError);
    expect(bad).toThrow(/layout 'triangles'|layout "triangles"/);
    expect(bad).toThrow(/'leaf-indices'/);
    for (const layout of ['leaf-indices', 'leaf-triangles', 'face-ids'] as const) {
      const bvh = buildTriangleBvh(positions, indices, { layout });
      const back = deserialiseTriangleBvh(serialiseTriangleBvh(bvh), positions, indices);
      expect(back.layout).toBe(layout);
      expect(back.leafIndices).toEqual(bvh.leafIndices);
      expect(back.triangles).toEqual(bvh.triangles);
      expectMatchesBruteForce(back, positions, indices, 14);
    }
    const words = new Uint32Array(serialiseTriangleBvh(buildTriangleBvh(positions, indices)).buffer);
    expect(words[1]).toBe(3);
    words[5] = 3;
    expect(() => deserialiseTriangleBvh(words.buffer, positions, indices)).toThrow(/unknown layout 3/);
    words[1] = 2; // version 2 knew flags 0 and 1 only: its 2 is not 'leaf-indices'
    words[5] = 2;
    expect(() => deserialiseTriangleBvh(words.buffer, positions, indices)).toThrow(/unknown flags 2/);
    words[1] = 4;
    words[5] = 0;
    expect(() => deserialiseTriangleBvh(words.buffer, positions, indices)).toThrow(CpuPickError);
  });
});
