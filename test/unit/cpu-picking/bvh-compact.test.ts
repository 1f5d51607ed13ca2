// The 'compact' layout (issue #33 item 3): quantised 16-byte nodes and a 16-bit leaf stream, against a float64
// brute-force ray cast written in the test and against the exact float boxes of 'leaf-triangles': same first hits and
// faces, same all-hits lists, on both sides of the 16-bit vertex and face spans, grazing box planes, after whole and
// partial refits, and through serialisation.
import { describe, expect, test } from 'vitest';
import { wideLeafFlag } from '../../../picking/cpu/bvh/compact-bvh.js';
import {
  buildTriangleBvh,
  deserialiseTriangleBvh,
  makeTriangleHit,
  makeTriangleHitList,
  raycastTriangleBvhAll,
  raycastTriangleBvhFirst,
  refitTriangleBvh,
  serialiseTriangleBvh,
  type TriangleBvh,
} from '../../../picking/cpu/index.js';
import { expectMatchesBruteForce, gridMesh, type V3 } from './brute-force.js';
import { bvhView } from './bvh-view.js';
import { mulberry32 } from './scene-fixtures.js';

/** How many of the BVH's leaves keep 32-bit ids (their vertices or faces span more than 16 bits). */
function wideLeaves(bvh: TriangleBvh): number {
  const c = bvh.compact!;
  let wide = 0;
  for (let n = 0; n < c.nodeCount; n++) {
    const word = c.links[n * 4 + 3];
    if ((word & 255) > 0 && c.leaf32[2 * (word >>> 8) + 1] & wideLeafFlag) wide++;
  }
  return wide;
}

/** A 16 × 16 grid plus one triangle from its corners 0 and 15 to the mesh's last vertex, `lastVertex`. */
function gridWithFarVertex(lastVertex: number): { positions: Float32Array; indices: Uint32Array } {
  const grid = gridMesh(16, 16);
  const positions = new Float32Array((lastVertex + 1) * 3);
  positions.set(grid.positions);
  positions.set([0.1, 0.1, 0.2], lastVertex * 3);
  const indices = new Uint32Array(grid.indices.length + 3);
  indices.set(grid.indices);
  indices.set([0, 15, lastVertex], grid.indices.length);
  return { positions, indices };
}

/** Moves every vertex a little (z and x), in place. */
function deform(positions: Float32Array): void {
  for (let v = 0; v < positions.length; v += 3) {
    positions[v + 2] += 0.08 * Math.cos(positions[v] * 13 + positions[v + 1] * 5);
    positions[v] *= 1.1;
  }
}

/** First hits of the compact BVH equal those of the exact float boxes ('leaf-triangles'), bit for bit in t. */
function expectSameFirstHits(
  compact: TriangleBvh,
  exact: TriangleBvh,
  rays: Array<{ o: V3; d: V3 }>,
  tMin = 0,
): number {
  const a = makeTriangleHit();
  const b = makeTriangleHit();
  let hits = 0;
  for (const { o, d } of rays) {
    const got = raycastTriangleBvhFirst(compact, ...o, ...d, tMin, Infinity, a);
    expect(got, `ray ${o} → ${d}`).toBe(raycastTriangleBvhFirst(exact, ...o, ...d, tMin, Infinity, b));
    if (!got) continue;
    hits++;
    expect(a.t, `ray ${o} → ${d}`).toBe(b.t);
  }
  return hits;
}

describe("'compact' layout", () => {
  for (const [lastVertex, wide] of [
    [65_535, false],
    [65_536, true],
  ] as const) {
    test(`a leaf spanning vertices 0..${lastVertex}: ${wide ? '32-bit' : '16-bit'} ids, brute-force hits before and after refits`, () => {
      const { positions, indices } = gridWithFarVertex(lastVertex);
      const bvh = buildTriangleBvh(positions, indices);
      expect(bvh.layout).toBe('compact');
      expect([bvh.nodes, bvh.faceIds, bvh.triangles, bvh.leafIndices]).toEqual([null, null, null, null]);
      expect(wideLeaves(bvh) > 0).toBe(wide);
      expectMatchesBruteForce(bvh, positions, indices, 21);
      deform(positions);
      refitTriangleBvh(bvh, positions, indices);
      expectMatchesBruteForce(bvh, positions, indices, 22);
      // A partial refit that moves the far vertex (in the wide case, through a 32-bit leaf).
      positions[lastVertex * 3 + 2] += 0.3;
      refitTriangleBvh(bvh, positions, indices, { movedVertices: [lastVertex, 0] });
      expectMatchesBruteForce(bvh, positions, indices, 23);
      const back = deserialiseTriangleBvh(serialiseTriangleBvh(bvh), positions, indices);
      expect(back.layout).toBe('compact');
      expect(wideLeaves(back)).toBe(wideLeaves(bvh));
      expectMatchesBruteForce(back, positions, indices, 24);
    });
  }

  test('a leaf whose faces span more than 65 535 keeps 32-bit face ids and reports the right faces', () => {
    // Faces 0 and 69 999 overlap at the origin (vertices 0..5: a leaf of them spans 6 vertices but 69 999 faces); the
    // faces between run in a row far away along x.
    const faceCount = 70_000;
    const positions = new Float32Array((6 + (faceCount - 2) * 3) * 3);
    positions.set([-1, -1, 0, 1, -1, 0, 0, 1, 0, -1, -1, 0.1, 1, -1, 0.1, 0, 1, 0.1]);
    const indices = new Uint32Array(faceCount * 3);
    indices.set([0, 1, 2], 0);
    indices.set([3, 4, 5], (faceCount - 1) * 3);
    for (let f = 1; f < faceCount - 1; f++) {
      const v = 6 + (f - 1) * 3;
      const x = 10 + f * 0.01;
      positions.set([x, 0, 0, x + 0.005, 0, 0, x, 0.005, 0], v * 3);
      indices.set([v, v + 1, v + 2], f * 3);
    }
    const bvh = buildTriangleBvh(positions, indices);
    expect(wideLeaves(bvh)).toBeGreaterThan(0);
    const hit = makeTriangleHit();
    expect(raycastTriangleBvhFirst(bvh, 0, 0, 1, 0, 0, -1, 0, Infinity, hit)).toBe(true);
    expect(hit.faceId).toBe(faceCount - 1);
    expect(hit.t).toBeCloseTo(0.9, 6);
    expect(raycastTriangleBvhFirst(bvh, 0, 0, -1, 0, 0, 1, 0, Infinity, hit)).toBe(true);
    expect([hit.faceId, hit.t]).toEqual([0, 1]);
    expect(raycastTriangleBvhFirst(bvh, 10 + 777 * 0.01 + 0.001, 0.001, 1, 0, 0, -1, 0, Infinity, hit)).toBe(true);
    expect(hit.faceId).toBe(777);
    const list = makeTriangleHitList();
    raycastTriangleBvhAll(bvh, 0, 0, 1, 0, 0, -1, 0, Infinity, list);
    expect([...list.faceId].sort((x, y) => x - y)).toEqual([0, faceCount - 1]);
  });

  test('quantised boxes never lose a hit: rays through vertices, along box planes, far from the origin', () => {
    const rand = mulberry32(41);
    for (const offset of [0, 1000]) {
      const { positions, indices } = gridMesh(60, 40);
      for (let i = 0; i < positions.length; i += 3) positions[i] += offset;
      const compact = buildTriangleBvh(positions, indices);
      const exact = buildTriangleBvh(positions, indices, { layout: 'leaf-triangles' });
      const rays: Array<{ o: V3; d: V3 }> = [];
      const vertexCount = positions.length / 3;
      let zMax = -Infinity;
      for (let i = 2; i < positions.length; i += 3) zMax = Math.max(zMax, positions[i]);
      for (let r = 0; r < 600; r++) {
        // Boundary vertices lie on the root box's planes (its quantised low end and high end), others on leaf planes.
        const v = r < 200 ? (r % 2 ? r % 60 : vertexCount - 1 - (r % 60)) : Math.floor(rand() * vertexCount);
        const [x, y, z] = positions.subarray(v * 3, v * 3 + 3);
        rays.push({ o: [x, y, 1], d: [0, 0, -1] }); // straight down through the vertex
        rays.push({ o: [x, y, -1], d: [0, 0, 1] }); // up through it
        rays.push({ o: [offset - 2, y, z], d: [1, 0, 0] }); // along x in the plane through it (grazing)
      }
      // Along the top of the root box: through the highest vertices, parallel to the xy plane.
      for (let v = 0; v < vertexCount; v++) {
        if (positions[v * 3 + 2] !== zMax) continue;
        rays.push({ o: [offset - 2, positions[v * 3 + 1], zMax], d: [1, 0, 0] });
        rays.push({ o: [positions[v * 3], -2, zMax], d: [0, 1, 0] });
      }
      expect(expectSameFirstHits(compact, exact, rays)).toBeGreaterThan(1000);
      if (offset === 0) expectMatchesBruteForce(compact, positions, indices, 42); // its rays aim at the origin
    }
  });

  test('axis-parallel rays (±0 and subnormal components) on the root box planes and through vertices, any tMin', () => {
    const { positions, indices } = gridMesh(40, 30);
    const compact = buildTriangleBvh(positions, indices);
    const exact = buildTriangleBvh(positions, indices, { layout: 'leaf-triangles' });
    const min = [Infinity, Infinity, Infinity];
    const max = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < positions.length; i++) {
      min[i % 3] = Math.min(min[i % 3], positions[i]);
      max[i % 3] = Math.max(max[i % 3], positions[i]);
    }
    const rays: Array<{ o: V3; d: V3 }> = [];
    const lerp = (a: number, b: number, f: number) => a + (b - a) * f;
    for (const zero of [0, -0, 5e-324, -1e-300]) {
      for (let v = 0; v < positions.length / 3; v += 7) {
        const [x, y, z] = positions.subarray(v * 3, v * 3 + 3);
        rays.push({ o: [min[0] - 1, y, z], d: [1, zero, zero] }); // grazing, along x through the vertex
        rays.push({ o: [x, max[1] + 1, z], d: [zero, -1, zero] });
        rays.push({ o: [x, y, 1], d: [zero, zero, -1] }); // down through it
        rays.push({ o: [x, y, -1], d: [zero, -zero, -1] }); // away from it: a hit only at negative t
      }
      for (let i = 0; i <= 40; i++) {
        // In the root box's low and high planes (x = min, x = max, y = min, y = max), down and away.
        const f = i / 40;
        for (const dz of [-1, 1]) {
          rays.push({ o: [min[0], lerp(min[1], max[1], f), dz < 0 ? 1 : -1], d: [zero, zero, dz] });
          rays.push({ o: [max[0], lerp(min[1], max[1], f), dz < 0 ? 1 : -1], d: [zero, zero, dz] });
          rays.push({ o: [lerp(min[0], max[0], f), min[1], dz < 0 ? 1 : -1], d: [zero, zero, dz] });
          rays.push({ o: [lerp(min[0], max[0], f), max[1], dz < 0 ? 1 : -1], d: [zero, zero, dz] });
        }
      }
    }
    expect(expectSameFirstHits(compact, exact, rays)).toBeGreaterThan(1000);
    expect(expectSameFirstHits(compact, exact, rays, -5)).toBeGreaterThan(expectSameFirstHits(compact, exact, rays));
  });

  test('a partial refit that leaves the grid falls back to a whole one: equal bounds, brute-force hits', () => {
    const a = gridMesh(40, 30);
    const b = { positions: a.positions.slice(), indices: a.indices };
    const partial = buildTriangleBvh(a.positions, a.indices);
    const whole = buildTriangleBvh(b.positions, b.indices);
    const grid = partial.compact!.grid.slice();
    for (const [v, dz] of [
      [5, 0.01], // inside the grid
      [77, 0.5], // above the root box: off the grid
    ]) {
      a.positions[v * 3 + 2] += dz;
      b.positions[v * 3 + 2] += dz;
      refitTriangleBvh(partial, a.positions, a.indices, { movedVertices: [v] });
      refitTriangleBvh(whole, b.positions, b.indices);
      expect(Array.from(bvhView(partial).nodes.floats)).toEqual(Array.from(bvhView(whole).nodes.floats));
      expect(partial.compact!.grid).toEqual(whole.compact!.grid);
      expectMatchesBruteForce(partial, a.positions, a.indices, 50 + v);
    }
    expect(partial.compact!.grid).not.toEqual(grid); // the second stroke needed a new grid
    expect(partial.refitCount).toBe(2);
  });

  test('a non-indexed triangle list, and a refit onto a new index array', () => {
    const { positions, indices } = gridMesh(30, 20);
    const soup = new Float32Array(indices.length * 3);
    indices.forEach((v, i) => soup.set(positions.subarray(v * 3, v * 3 + 3), i * 3));
    const identity = Uint32Array.from({ length: indices.length }, (_, i) => i);
    const bvh = buildTriangleBvh(soup, null);
    expect(bvh.layout).toBe('compact');
    expectMatchesBruteForce(bvh, soup, identity, 61);
    // The same faces through a new index: the leaf stream re-reads it.
    const indexed = buildTriangleBvh(positions, indices);
    const reversed = new Float32Array(positions.length);
    const vertexCount = positions.length / 3;
    for (let v = 0; v < vertexCount; v++) reversed.set(positions.subarray(v * 3, v * 3 + 3), (vertexCount - 1 - v) * 3);
    const remapped = indices.map((v) => vertexCount - 1 - v);
    refitTriangleBvh(indexed, reversed, remapped);
    expectMatchesBruteForce(indexed, reversed, remapped, 62);
  });

  test('a mesh past the compact addresses (2²⁴ leaf units) gets leaf-indices, and answers like the flat field it is', () => {
    // A flat 2049 × 2049-vertex field at z = 0: 2048² quads, 8 388 608 triangles, two leaf units each at worst, over
    // the compact layout's 24-bit addresses. Expected hits come from the grid's own arithmetic, in float64.
    const side = 2049;
    const cells = side - 1;
    const positions = new Float32Array(side * side * 3);
    for (let r = 0; r < side; r++)
      for (let c = 0; c < side; c++) {
        positions[(r * side + c) * 3] = c;
        positions[(r * side + c) * 3 + 1] = r;
      }
    const indices = new Uint32Array(cells * cells * 6);
    for (let r = 0, i = 0; r < cells; r++)
      for (let c = 0; c < cells; c++, i += 6) {
        const a = r * side + c;
        indices.set([a, a + 1, a + side, a + 1, a + side + 1, a + side], i);
      }
    const bvh = buildTriangleBvh(positions, indices);
    expect(bvh.compact).toBeNull();
    expect(bvh.layout).toBe('leaf-indices');
    const random = mulberry32(77);
    const hit = makeTriangleHit();
    for (let k = 0; k < 40; k++) {
      const c = Math.floor(random() * cells);
      const r = Math.floor(random() * cells);
      // A point inside the cell, away from its diagonal (u + v = 1) and its edges: the first or the second triangle.
      const upper = random() < 0.5;
      const u = (upper ? 0.6 : 0.1) + 0.3 * random();
      const v = (upper ? 0.6 : 0.1) + 0.3 * random();
      const x = c + u;
      const y = r + v;
      const expectedFace = 2 * (r * cells + c) + (upper ? 1 : 0);
      expect(raycastTriangleBvhFirst(bvh, x, y, 2, 0, 0, -1, 0, Infinity, hit), `ray at (${x}, ${y})`).toBe(true);
      expect(hit.faceId).toBe(expectedFace);
      expect(hit.t).toBeCloseTo(2, 12);
    }
    // Beside the field: no hit.
    expect(raycastTriangleBvhFirst(bvh, -0.5, 10.5, 2, 0, 0, -1, 0, Infinity, hit)).toBe(false);
  }, 120_000);
});
