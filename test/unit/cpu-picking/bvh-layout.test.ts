import { BufferAttribute, BufferGeometry, DoubleSide, Ray } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import { describe, expect, test } from 'vitest';
import { createMeshFromData } from '../../../engine/mesh.js';
import { makeTorusData } from '../../../engine/primitives/index.js';
import {
  buildTriangleBvh,
  CpuPickError,
  deserialiseTriangleBvh,
  getMeshBvh,
  makeTriangleHit,
  raycastTriangleBvhAll,
  makeTriangleHitList,
  raycastTriangleBvhFirst,
  refitMeshBvh,
  refitTriangleBvh,
  serialiseTriangleBvh,
  type TriangleBvh,
} from '../../../picking/cpu/index.js';
import { makeCpuScene, mulberry32 } from './scene-fixtures.js';

type V3 = [number, number, number];

/** three-mesh-bvh over its own copy of the data, indirect so its faceIndex is the original face. */
function threeBvh(positions: Float32Array, indices: Uint16Array | Uint32Array): MeshBVH {
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(positions.slice(), 3));
  g.setIndex(new BufferAttribute(indices.slice(), 1));
  return new MeshBVH(g, { indirect: true });
}

function rays(seed: number, count: number): Array<{ o: V3; d: V3 }> {
  const rand = mulberry32(seed);
  const out: Array<{ o: V3; d: V3 }> = [];
  for (let i = 0; i < count; i++) {
    const o: V3 = [(rand() - 0.5) * 4, (rand() - 0.5) * 4, (rand() - 0.5) * 4];
    const t = [(rand() - 0.5) * 1.6, (rand() - 0.5) * 0.5, (rand() - 0.5) * 1.6];
    const d = [t[0] - o[0], t[1] - o[1], t[2] - o[2]];
    const n = Math.hypot(d[0], d[1], d[2]);
    out.push({ o, d: [d[0] / n, d[1] / n, d[2] / n] });
  }
  return out;
}

/** Every ray's first hit agrees with three-mesh-bvh (hit or miss, distance; face unless the ray grazes an edge). */
function expectAgreesWithThree(bvh: TriangleBvh, three: MeshBVH, seed: number): void {
  const hit = makeTriangleHit();
  const ray = new Ray();
  let faceMismatches = 0;
  const all = rays(seed, 2000);
  for (const { o, d } of all) {
    ray.origin.set(...o);
    ray.direction.set(...d);
    const ref = three.raycastFirst(ray, DoubleSide);
    const got = raycastTriangleBvhFirst(bvh, ...o, ...d, 0, Infinity, hit);
    expect(got, `ray ${o} → ${d}`).toBe(ref !== null);
    if (!ref) continue;
    expect(Math.abs(hit.t - ref.distance)).toBeLessThan(1e-6);
    if (hit.faceId !== ref.faceIndex) faceMismatches++;
  }
  expect(faceMismatches).toBeLessThanOrEqual(all.length * 0.002); // ties on shared edges may pick either face
}

describe('triangle BVH layout', () => {
  const data = makeTorusData({ radius: 0.6, tube: 0.2, radialSegments: 180, tubularSegments: 200 }); // 72 000 faces
  const positions = data.positions!;
  const indices = data.indices!;

  test('copyTriangles: false keeps no triangle copy and adds at most 1.2× three-mesh-bvh’s node memory', () => {
    const lean = buildTriangleBvh(positions, indices, { copyTriangles: false, traversalCost: 8 });
    expect(lean.triangles).toBeNull();
    expect(lean.positions).toBe(positions);
    expect(lean.indices).toBe(indices);
    expect(lean.faceIds).toBeInstanceOf(Uint32Array); // 72 000 faces do not fit 16 bits
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(positions.slice(), 3));
    g.setIndex(new BufferAttribute(indices.slice(), 1));
    const roots = (new MeshBVH(g) as unknown as { _roots: ArrayBuffer[] })._roots;
    const threeBytes = roots.reduce((sum, r) => sum + r.byteLength, 0);
    expect(lean.nodes!.floats.buffer.byteLength + lean.faceIds!.byteLength).toBeLessThanOrEqual(1.2 * threeBytes);
    const copy = buildTriangleBvh(positions, indices, { copyTriangles: true });
    expect(copy.triangles?.length).toBe(copy.triangleCount * 9);
    const small = buildTriangleBvh(
      new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
      new Uint16Array([0, 1, 2, 0, 2, 3]),
    );
    expect(buildTriangleBvh(small.positions, small.indices, { layout: 'face-ids' }).faceIds).toBeInstanceOf(
      Uint16Array,
    );
    // The default ('compact') leaf: header [base vertex 0, base face 0], then per face 3 vertex and 1 face offsets.
    expect(Array.from(small.compact!.leaf16)).toEqual([0, 0, 0, 0, 0, 1, 2, 0, 0, 2, 3, 1]);
  });

  test('the lean layout keeps no copy: nodes and face ids take at most 1.5× three-mesh-bvh’s node memory', () => {
    const bvh = buildTriangleBvh(positions, indices, { copyTriangles: false });
    expect(bvh.triangles).toBeNull();
    expect(Object.values(bvh).filter((v) => ArrayBuffer.isView(v))).toEqual([bvh.faceIds, positions, indices]);
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(positions.slice(), 3));
    g.setIndex(new BufferAttribute(indices.slice(), 1));
    const roots = (new MeshBVH(g) as unknown as { _roots: ArrayBuffer[] })._roots;
    const threeBytes = roots.reduce((sum, r) => sum + r.byteLength, 0);
    expect(bvh.nodes!.floats.buffer.byteLength + bvh.faceIds!.byteLength).toBeLessThanOrEqual(1.5 * threeBytes);
    // Each leaf lists its faces in ascending order (the index and positions are then read in address order).
    const { ints, nodeCount } = bvh.nodes!;
    let leaves = 0;
    for (let n = 0; n < nodeCount; n++) {
      const [first, count] = [ints[n * 8 + 6], ints[n * 8 + 7]];
      if (count === 0) continue;
      leaves++;
      for (let i = first + 1; i < first + count; i++) expect(bvh.faceIds![i]).toBeGreaterThan(bvh.faceIds![i - 1]);
    }
    expect(leaves).toBe((nodeCount + 1) / 2);
  });

  test('every layout gives the same answers as three-mesh-bvh, first hit and all hits', () => {
    const three = threeBvh(positions, indices);
    const copy = buildTriangleBvh(positions, indices, { layout: 'leaf-triangles' });
    const lean = buildTriangleBvh(positions, indices, { copyTriangles: false });
    const byIndex = buildTriangleBvh(positions, indices, { layout: 'leaf-indices' });
    const compact = buildTriangleBvh(positions, indices);
    expect(copy.triangles).not.toBeNull();
    expect(byIndex.leafIndices).not.toBeNull();
    expect(compact.compact).not.toBeNull();
    expectAgreesWithThree(copy, three, 1);
    expectAgreesWithThree(lean, three, 1);
    expectAgreesWithThree(byIndex, three, 1);
    expectAgreesWithThree(compact, three, 1);
    const hit = makeTriangleHit();
    const other = makeTriangleHit();
    const ray = new Ray();
    for (const { o, d } of rays(2, 300)) {
      // Identical trees read identical float32 values: bit-equal answers.
      expect(raycastTriangleBvhFirst(lean, ...o, ...d, 0, Infinity, hit)).toBe(
        raycastTriangleBvhFirst(copy, ...o, ...d, 0, Infinity, other),
      );
      expect([hit.t, hit.u, hit.v, hit.faceId]).toEqual([other.t, other.u, other.v, other.faceId]);
      // The compact tree tests the same triangles with the same arithmetic: the same nearest t.
      expect(raycastTriangleBvhFirst(compact, ...o, ...d, 0, Infinity, hit)).toBe(
        raycastTriangleBvhFirst(copy, ...o, ...d, 0, Infinity, other),
      );
      expect(hit.t).toBe(other.t);
      ray.origin.set(...o);
      ray.direction.set(...d);
      const ref = three.raycast(ray, DoubleSide);
      for (const bvh of [lean, compact]) {
        const list = makeTriangleHitList();
        raycastTriangleBvhAll(bvh, ...o, ...d, 0, Infinity, list);
        expect(list.count).toBe(ref.length);
        expect([...list.faceId].sort((x, y) => x - y)).toEqual(ref.map((r) => r.faceIndex).sort((x, y) => x! - y!));
        const ours = [...list.t].sort((x, y) => x - y);
        const theirs = ref.map((r) => r.distance).sort((x, y) => x - y);
        ours.forEach((t, i) => expect(Math.abs(t - theirs[i])).toBeLessThan(1e-6));
      }
    }
  });

  test('refit: equal to a fresh build and to three-mesh-bvh after its own refit, in every layout', () => {
    for (const layout of ['leaf-triangles', 'face-ids', 'leaf-indices', 'compact'] as const) {
      const moved = positions.slice();
      const bvh = buildTriangleBvh(moved, indices, { layout });
      const three = threeBvh(positions, indices);
      const threeMoved = three.geometry.getAttribute('position').array as Float32Array;
      for (let v = 0; v < moved.length; v += 3) {
        const s = 1 + 0.4 * Math.sin(moved[v] * 9) * Math.cos(moved[v + 2] * 7);
        for (let k = 0; k < 3; k++) {
          moved[v + k] *= s;
          threeMoved[v + k] = moved[v + k];
        }
      }
      refitTriangleBvh(bvh, moved, indices);
      three.refit();
      expectAgreesWithThree(bvh, three, 3);
      const fresh = buildTriangleBvh(moved, indices, { layout });
      const a = makeTriangleHit();
      const b = makeTriangleHit();
      for (const { o, d } of rays(4, 500)) {
        expect(raycastTriangleBvhFirst(bvh, ...o, ...d, 0, Infinity, a)).toBe(
          raycastTriangleBvhFirst(fresh, ...o, ...d, 0, Infinity, b),
        );
        expect(a.t).toBe(b.t);
      }
      // A refit that fails leaves the BVH reading the last good arrays with the last good bounds.
      const boundsOf = () => (bvh.compact ? bvh.compact.bounds.slice() : bvh.nodes!.floats.slice());
      const bounds = boundsOf();
      const broken = moved.slice();
      broken[7] = Number.POSITIVE_INFINITY;
      expect(() => refitTriangleBvh(bvh, broken, indices)).toThrow(CpuPickError);
      expect(bvh.positions).toBe(moved);
      expect(boundsOf()).toEqual(bounds);
    }
  });

  test('serialisation keeps the layout; version-1 and -2 files load; bad flags are a typed error', () => {
    const lean = buildTriangleBvh(positions, indices, { copyTriangles: false });
    const leanBytes = serialiseTriangleBvh(lean);
    expect(new Uint32Array(leanBytes.buffer)[5]).toBe(0);
    const back = deserialiseTriangleBvh(leanBytes, positions, indices);
    expect(back.triangles).toBeNull();
    expect(back.faceIds).toEqual(lean.faceIds);
    const bytes = serialiseTriangleBvh(buildTriangleBvh(positions, indices, { copyTriangles: true }));
    const words = new Uint32Array(bytes.buffer);
    expect(words[1]).toBe(4);
    expect(words[5]).toBe(1);
    words[1] = 2; // version 2: flags 1, a triangle copy
    expect(deserialiseTriangleBvh(bytes, positions, indices).triangles).not.toBeNull();
    expect(deserialiseTriangleBvh(bytes, positions, indices).triangles).not.toBeNull();
    words[1] = 1;
    words[5] = 0;
    expect(deserialiseTriangleBvh(bytes, positions, indices).triangles).not.toBeNull();
    words[1] = 2;
    words[5] = 6;
    expect(() => deserialiseTriangleBvh(bytes, positions, indices)).toThrow(/unknown flags 6/);
    words[1] = 3; // version 3 knew no 'compact' (layout 3)
    words[5] = 3;
    expect(() => deserialiseTriangleBvh(bytes, positions, indices)).toThrow(/unknown layout 3 for version 3/);
    words[1] = 5;
    expect(() => deserialiseTriangleBvh(bytes, positions, indices)).toThrow(
      /version 5 is not supported \(expected 1 to 4\)/,
    );
  });

  test('a serialised leaf of more than 255 triangles is refused; one of 255 loads and answers like a fresh build', () => {
    /** A file of one leaf holding every face of the first `faces` faces, as serialiseTriangleBvh lays it out. */
    const oneLeaf = (faces: number): { bytes: ArrayBuffer; sub: Uint16Array | Uint32Array } => {
      const sub = indices.slice(0, faces * 3);
      const real = new Uint32Array(
        serialiseTriangleBvh(buildTriangleBvh(positions, sub, { copyTriangles: false })).buffer,
      );
      const words = new Uint32Array(6 + 8 + faces);
      words.set(real.subarray(0, 12)); // header, then the root's bounds (those of every face)
      words[3] = 1; // one node
      words[4] = 0; // depth 0
      words[12] = 0; // first face slot
      words[13] = faces; // leaf count
      for (let i = 0; i < faces; i++) words[14 + i] = i;
      return { bytes: words.buffer, sub };
    };
    const big = oneLeaf(256);
    expect(() => deserialiseTriangleBvh(big.bytes, positions, big.sub)).toThrow(
      /holds 256 triangles; a leaf holds at most 255/,
    );
    const full = oneLeaf(255);
    const loaded = deserialiseTriangleBvh(full.bytes, positions, full.sub);
    expect(loaded.nodes!.nodeCount).toBe(1);
    const fresh = buildTriangleBvh(positions, full.sub, { copyTriangles: false });
    const a = makeTriangleHit();
    const b = makeTriangleHit();
    let hits = 0;
    for (const { o, d } of rays(6, 400)) {
      const got = raycastTriangleBvhFirst(loaded, ...o, ...d, 0, Infinity, a);
      expect(got).toBe(raycastTriangleBvhFirst(fresh, ...o, ...d, 0, Infinity, b));
      if (!got) continue;
      hits++;
      expect(a.t).toBe(b.t);
    }
    expect(hits).toBeGreaterThan(0);
  });

  test('a shared BVH switches to another sharer’s positions when the mesh it reads is deformed and refitted', () => {
    const scene = makeCpuScene();
    const small = makeTorusData({ radius: 0.6, tube: 0.25, radialSegments: 11, tubularSegments: 23 });
    const a = createMeshFromData(scene, 'a', small);
    const b = createMeshFromData(scene, 'b', small);
    const shared = getMeshBvh(a);
    expect(getMeshBvh(b)).toBe(shared);
    expect(shared.positions).toBe(a.positions);
    for (let i = 0; i < a.positions.length; i++) a.positions[i] *= 2;
    refitMeshBvh(a);
    expect(getMeshBvh(a).positions).toBe(a.positions);
    expect(shared.positions).toBe(b.positions);
    // A third mesh of the original data still finds the (unchanged) shared BVH, not a's inflated one.
    const c = createMeshFromData(scene, 'c', small);
    expect(getMeshBvh(c)).toBe(shared);
  });
});
