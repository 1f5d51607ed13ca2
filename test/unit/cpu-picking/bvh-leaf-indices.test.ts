// The 'leaf-indices' layout (issue #33 item 3) against a float64 brute-force ray cast written here: same first hit and
// face, same all-hits lists, on both sides of the 16-bit index boundary, and after deformation + refit.
import { describe, expect, test } from 'vitest';
import {
  buildTriangleBvh,
  CpuPickError,
  deserialiseTriangleBvh,
  refitTriangleBvh,
  serialiseTriangleBvh,
} from '../../../picking/cpu/index.js';

import { expectMatchesBruteForce, gridMesh } from './brute-force.js';

describe("'leaf-indices' layout", () => {
  for (const [label, cols, rows, extra, bits] of [
    ['65 535 vertices', 255, 257, 0, 16],
    ['65 536 vertices', 256, 256, 0, 16],
    ['65 537 vertices', 256, 256, 1, 32],
  ] as const) {
    test(`${label}: ${bits}-bit leaf indices, the same hits as a float64 brute force, before and after a refit`, () => {
      const { positions, indices } = gridMesh(cols, rows, extra);
      expect(positions.length / 3).toBe(cols * rows + extra);
      const bvh = buildTriangleBvh(positions, indices, { layout: 'leaf-indices' });
      expect(bvh.layout).toBe('leaf-indices');
      expect(bvh.triangles).toBeNull();
      expect(bvh.leafIndices).toBeInstanceOf(bits === 16 ? Uint16Array : Uint32Array);
      let wrong = 0;
      for (let i = 0; i < bvh.triangleCount; i++)
        for (let k = 0; k < 3; k++) if (bvh.leafIndices![i * 3 + k] !== indices[bvh.faceIds![i] * 3 + k]) wrong++;
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
    const bvh = buildTriangleBvh(small.positions, small.indices, { layout: 'leaf-indices' });
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
    for (const layout of ['leaf-indices', 'leaf-triangles', 'face-ids', 'compact'] as const) {
      const bvh = buildTriangleBvh(positions, indices, { layout });
      const back = deserialiseTriangleBvh(serialiseTriangleBvh(bvh), positions, indices);
      expect(back.layout).toBe(layout);
      expect(back.leafIndices).toEqual(bvh.leafIndices);
      expect(back.triangles).toEqual(bvh.triangles);
      expectMatchesBruteForce(back, positions, indices, 14);
    }
    const words = new Uint32Array(serialiseTriangleBvh(buildTriangleBvh(positions, indices)).buffer);
    expect(words[1]).toBe(4);
    words[5] = 4;
    expect(() => deserialiseTriangleBvh(words.buffer, positions, indices)).toThrow(/unknown layout 4/);
    words[1] = 2; // version 2 knew flags 0 and 1 only: its 2 is not 'leaf-indices'
    words[5] = 2;
    expect(() => deserialiseTriangleBvh(words.buffer, positions, indices)).toThrow(/unknown flags 2/);
    words[1] = 5;
    words[5] = 0;
    expect(() => deserialiseTriangleBvh(words.buffer, positions, indices)).toThrow(CpuPickError);
  });
});
