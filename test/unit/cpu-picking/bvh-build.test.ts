import { describe, expect, test } from 'vitest';
import {
  buildTriangleBvh,
  defaultTriangleBvhOptions,
  type TriangleBvh,
  type TriangleBvhOptions,
} from '../../../picking/cpu/index.js';
import { largeNodeSize } from '../../../picking/cpu/bvh/bvh-large-nodes.js';
import { expectMatchesBruteForce, gridMesh } from './brute-force.js';
import { bvhView } from './bvh-view.js';
import { mulberry32 } from './scene-fixtures.js';

/**
 * Checks the tree against the mesh in float64: every face in exactly one leaf, leaves within maxLeafSize, every node
 * box containing its whole subtree's vertices, the leaf copy equal to the mesh's corners.
 */
function checkTree(bvh: TriangleBvh, positions: Float32Array, maxLeafSize: number): { leaves: number } {
  const { nodes, faceIds } = bvhView(bvh);
  const { floats, ints, nodeCount } = nodes;
  const seen = new Uint8Array(bvh.triangleCount);
  let leaves = 0;
  const visit = (node: number, depth: number, parent: number[]): void => {
    const o = node * 8;
    const box = Array.from(floats.subarray(o, o + 6));
    for (let a = 0; a < 6; a += 2) {
      expect(box[a]).toBeGreaterThanOrEqual(parent[a]);
      expect(box[a + 1]).toBeLessThanOrEqual(parent[a + 1]);
    }
    expect(depth).toBeLessThanOrEqual(nodes.maxDepth);
    if (ints[o + 7] === 0) {
      expect(ints[o + 6]).toBeGreaterThan(node);
      visit(ints[o + 6], depth + 1, box);
      visit(ints[o + 6] + 1, depth + 1, box);
      return;
    }
    leaves++;
    expect(ints[o + 7]).toBeLessThanOrEqual(maxLeafSize);
    for (let i = ints[o + 6]; i < ints[o + 6] + ints[o + 7]; i++) {
      const face = faceIds[i];
      seen[face]++;
      for (let k = 0; k < 3; k++) {
        const v = (bvh.indices ? bvh.indices[face * 3 + k] : face * 3 + k) * 3;
        for (let a = 0; a < 3; a++) {
          const c = positions[v + a];
          expect(c).toBeGreaterThanOrEqual(box[2 * a]);
          expect(c).toBeLessThanOrEqual(box[2 * a + 1]);
          expect(bvh.triangles?.[i * 9 + k * 3 + a] ?? c).toBe(c);
        }
      }
    }
  };
  visit(0, 0, [-Infinity, Infinity, -Infinity, Infinity, -Infinity, Infinity]);
  expect(seen.every((s) => s === 1)).toBe(true);
  expect(nodeCount).toBe(2 * leaves - 1);
  return { leaves };
}

/** Clusters of identical triangles (coincident centroids: no SAH split exists inside one) among scattered ones. */
function clusteredSoup(seed: number): Float32Array {
  const rand = mulberry32(seed);
  const faces = 2000;
  const positions = new Float32Array(faces * 9);
  for (let f = 0; f < faces; f++) {
    const cluster = f % 4 !== 0 ? Math.floor(f / 400) : -1; // 3/4 of the faces in 5 stacks of ~300
    for (let k = 0; k < 9; k++) positions[f * 9 + k] = cluster >= 0 ? cluster + (k % 4) * 0.25 : rand() * 8 - 4;
  }
  return positions;
}

/**
 * Every node's box (float layouts: exactly what the build wrote) against the float64 min / max of its subtree's corners
 * recomputed from the mesh: equal, not merely containing.
 */
function expectExactBoxes(bvh: TriangleBvh, positions: Float32Array): void {
  const { floats, ints, nodeCount } = bvh.nodes!;
  const faceIds = bvh.faceIds!;
  const exact = new Float64Array(nodeCount * 6);
  for (let n = nodeCount - 1; n >= 0; n--) {
    const o = n * 8;
    const box = [Infinity, -Infinity, Infinity, -Infinity, Infinity, -Infinity];
    const grow = (x: number, a: number) => {
      box[2 * a] = Math.min(box[2 * a], x);
      box[2 * a + 1] = Math.max(box[2 * a + 1], x);
    };
    if (ints[o + 7] === 0) {
      for (const child of [ints[o + 6], ints[o + 6] + 1])
        for (let k = 0; k < 6; k++) grow(exact[child * 6 + k], k >> 1);
    } else {
      for (let i = ints[o + 6]; i < ints[o + 6] + ints[o + 7]; i++) {
        for (let k = 0; k < 3; k++) {
          const v = (bvh.indices ? bvh.indices[faceIds[i] * 3 + k] : faceIds[i] * 3 + k) * 3;
          for (let a = 0; a < 3; a++) grow(positions[v + a], a);
        }
      }
    }
    exact.set(box, n * 6);
  }
  expect(Array.from(floats.subarray(0, nodeCount * 8)).filter((_, i) => i % 8 < 6)).toEqual(Array.from(exact));
}

describe('binned SAH build (buildTriangleBvh)', () => {
  const cases: Array<Partial<TriangleBvhOptions>> = [
    {},
    { binCount: 2, maxLeafSize: 1 },
    { binCount: 256, maxLeafSize: 255, traversalCost: 1 },
    { binCount: 5, maxLeafSize: 4, traversalCost: 0.5, intersectCost: 2 },
  ];
  test.each(cases)('stacks of identical triangles split in halves; options %o keep every invariant', (options) => {
    const positions = clusteredSoup(5);
    const bvh = buildTriangleBvh(positions, null, options);
    checkTree(bvh, positions, options.maxLeafSize ?? defaultTriangleBvhOptions.maxLeafSize);
  });

  test('the same input builds the same tree, indexed or not', () => {
    const positions = clusteredSoup(9);
    const indices = Uint16Array.from({ length: positions.length / 3 }, (_, i) => i);
    const a = bvhView(buildTriangleBvh(positions, null));
    const b = bvhView(buildTriangleBvh(positions.slice(), indices));
    expect(b.nodes.nodeCount).toBe(a.nodes.nodeCount);
    expect(Array.from(b.nodes.ints)).toEqual(Array.from(a.nodes.ints));
    expect(Array.from(b.nodes.floats)).toEqual(Array.from(a.nodes.floats));
    expect(Array.from(b.faceIds)).toEqual(Array.from(a.faceIds));
  });

  test('a node small enough that no split can pay (intersectCost × n ≤ traversalCost) is one leaf', () => {
    const rand = mulberry32(3);
    const positions = new Float32Array(6 * 9).map(() => rand() * 10);
    expect(bvhView(buildTriangleBvh(positions, null, { traversalCost: 6 })).nodes.nodeCount).toBe(1);
    // with cheap traversal, six scattered triangles are worth splitting
    expect(bvhView(buildTriangleBvh(positions, null, { traversalCost: 0.1 })).nodes.nodeCount).toBeGreaterThan(1);
  });

  test(`nodes of more than ${largeNodeSize} triangles (split from a sample) keep exact boxes and find every hit`, () => {
    const { positions, indices } = gridMesh(70, 70); // 9 522 triangles
    expect(indices.length / 3).toBeGreaterThan(8 * largeNodeSize);
    const float = buildTriangleBvh(positions, indices, { layout: 'leaf-indices' });
    checkTree(float, positions, defaultTriangleBvhOptions.maxLeafSize);
    expectExactBoxes(float, positions);
    expectMatchesBruteForce(float, positions, indices, 31);
    const compact = buildTriangleBvh(positions, indices);
    checkTree(compact, positions, 24);
    expectMatchesBruteForce(compact, positions, indices, 32);
  });

  test('a large stack of identical triangles (every sampled centroid in one bin) splits in halves', () => {
    const rand = mulberry32(11);
    const faces = 4 * largeNodeSize;
    const positions = new Float32Array(faces * 9);
    for (let f = 0; f < faces; f++) {
      const stacked = f % 8 !== 0; // 7/8 of the faces in one stack
      for (let k = 0; k < 9; k++) positions[f * 9 + k] = stacked ? (k % 4) * 0.25 : rand() * 8 - 4;
    }
    const bvh = buildTriangleBvh(positions, null, { layout: 'leaf-indices' });
    checkTree(bvh, positions, defaultTriangleBvhOptions.maxLeafSize);
    expectExactBoxes(bvh, positions);
  });
});
