import { bvhView } from './bvh-view.js';
import { describe, expect, test } from 'vitest';
import { makeSphereData, makeTorusData } from '../../../engine/primitives/index.js';
import {
  buildTriangleBvh,
  CpuPickError,
  deserialiseTriangleBvh,
  intersectTriangleWatertight,
  makeTriangleHit,
  makeTriangleHitList,
  makeWatertightRay,
  raycastTriangleBvhAll,
  raycastTriangleBvhFirst,
  refitTriangleBvh,
  serialiseTriangleBvh,
  setWatertightRay,
  type TriangleBvh,
} from '../../../picking/cpu/index.js';
import { mulberry32 } from './scene-fixtures.js';

type V3 = [number, number, number];

/** Brute force over every face with the same watertight test: nearest (face, t) and all hits. */
function brute(
  positions: Float32Array,
  indices: Uint16Array | Uint32Array | null,
  o: V3,
  d: V3,
): { first: { faceId: number; t: number } | null; all: number } {
  const ray = makeWatertightRay();
  setWatertightRay(ray, ...o, ...d);
  const tri = new Float32Array(9);
  const hit = makeTriangleHit();
  let first: { faceId: number; t: number } | null = null;
  let all = 0;
  const count = indices ? indices.length / 3 : positions.length / 9;
  for (let f = 0; f < count; f++) {
    for (let k = 0; k < 3; k++) {
      const v = indices ? indices[f * 3 + k] : f * 3 + k;
      tri.set(positions.subarray(v * 3, v * 3 + 3), k * 3);
    }
    if (!intersectTriangleWatertight(ray, tri, 0, 0, Infinity, hit)) continue;
    all++;
    if (!first || hit.t < first.t) first = { faceId: f, t: hit.t };
  }
  return { first, all };
}

function randomRay(rand: () => number, reach: number): { o: V3; d: V3 } {
  const o: V3 = [(rand() - 0.5) * reach * 2, (rand() - 0.5) * reach * 2, (rand() - 0.5) * reach * 2];
  const target: V3 = [(rand() - 0.5) * 1.5, (rand() - 0.5) * 1.5, (rand() - 0.5) * 1.5];
  const d: V3 = [target[0] - o[0], target[1] - o[1], target[2] - o[2]];
  return { o, d };
}

function first(bvh: TriangleBvh, o: V3, d: V3): { faceId: number; t: number } | null {
  const hit = makeTriangleHit();
  return raycastTriangleBvhFirst(bvh, ...o, ...d, 0, Infinity, hit) ? { faceId: hit.faceId, t: hit.t } : null;
}

describe('watertight ray/triangle test', () => {
  test('Babylon barycentrics, both faces, t along an unnormalised direction', () => {
    const tri = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]); // corners A0, A1, A2
    const ray = makeWatertightRay();
    const hit = makeTriangleHit();
    expect(setWatertightRay(ray, 0.2, 0.3, 3, 0, 0, -2)).toBe(true);
    expect(intersectTriangleWatertight(ray, tri, 0, 0, Infinity, hit)).toBe(true);
    expect(hit.t).toBeCloseTo(1.5, 12);
    // point = bu·A0 + bv·A1 + (1 − bu − bv)·A2 = (bv, 1 − bu − bv) = (0.2, 0.3)
    expect(hit.v).toBeCloseTo(0.2, 12);
    expect(1 - hit.u - hit.v).toBeCloseTo(0.3, 12);
    setWatertightRay(ray, 0.2, 0.3, -3, 0, 0, 1); // from behind: back faces are hit (cull none)
    expect(intersectTriangleWatertight(ray, tri, 0, 0, Infinity, hit)).toBe(true);
    expect(hit.v).toBeCloseTo(0.2, 12);
    expect(intersectTriangleWatertight(ray, tri, 0, 0, 2.9, hit)).toBe(false); // beyond tMax
  });

  test('rays through shared edges and vertices of a fan never fall through', () => {
    // A fan of 12 triangles around (0.3, 0.2, 0); each ray aims exactly at an edge or at the shared centre vertex.
    const centre: V3 = [0.3, 0.2, 0];
    const rim = Array.from(
      { length: 12 },
      (_, k): V3 => [Math.cos(k * 0.5236) * 0.7 + 0.3, Math.sin(k * 0.5236) * 0.7 + 0.2, 0],
    );
    const tris = new Float32Array(12 * 9);
    rim.forEach((p, k) => tris.set([...centre, ...p, ...rim[(k + 1) % 12]], k * 9));
    const ray = makeWatertightRay();
    const hit = makeTriangleHit();
    let rays = 0;
    for (const s of [0, 0.25, 0.5, 0.75, 0.999]) {
      for (const p of rim) {
        const target = [centre[0] + (p[0] - centre[0]) * s, centre[1] + (p[1] - centre[1]) * s, 0];
        for (const origin of [
          [0.1, -0.4, 2],
          [1.3, 0.9, -1.7],
          [-2, 0.3, 0.05],
        ]) {
          setWatertightRay(ray, ...(origin as V3), target[0] - origin[0], target[1] - origin[1], target[2] - origin[2]);
          let hits = 0;
          for (let f = 0; f < 12; f++) if (intersectTriangleWatertight(ray, tris, f * 9, 0, Infinity, hit)) hits++;
          expect(hits).toBeGreaterThanOrEqual(1);
          rays++;
        }
      }
    }
    expect(rays).toBe(180);
  });

  test('rays exactly through shared edges and vertices of a grid hit at least one triangle', () => {
    // A 4 × 4 grid of unit quads in z = 0, each split along its diagonal: dyadic coordinates make the
    // edge functions exactly zero for rays through edges and corners.
    const tris: number[] = [];
    for (let y = 0; y < 4; y++) {
      for (let x = 0; x < 4; x++)
        tris.push(x, y, 0, x + 1, y, 0, x + 1, y + 1, 0, x, y, 0, x + 1, y + 1, 0, x, y + 1, 0);
    }
    const data = new Float32Array(tris);
    const ray = makeWatertightRay();
    const hit = makeTriangleHit();
    let rays = 0;
    for (const [px, py] of [
      [1, 1],
      [2, 3],
      [1.5, 1.5],
      [2.25, 2.25],
      [1, 2.5],
      [3.5, 2],
      [2, 2],
    ]) {
      for (const d of [
        [0, 0, -1],
        [0.5, 0.25, -1],
        [-0.125, 0.75, -0.5],
        [1, 0, -0.25],
        [0, 0, 1],
      ]) {
        const o: V3 = [px - 4 * d[0], py - 4 * d[1], -4 * d[2]];
        setWatertightRay(ray, ...o, d[0], d[1], d[2]);
        let hits = 0;
        for (let f = 0; f < data.length / 9; f++)
          if (intersectTriangleWatertight(ray, data, f * 9, 0, Infinity, hit)) hits++;
        expect(hits, `ray through (${px}, ${py}) along ${d}`).toBeGreaterThanOrEqual(1);
        rays++;
      }
    }
    expect(rays).toBe(35);
  });

  test('degenerate triangles and zero or non-finite rays never hit', () => {
    const ray = makeWatertightRay();
    const hit = makeTriangleHit();
    expect(setWatertightRay(ray, 0, 0, 1, 0, 0, 0)).toBe(false);
    expect(setWatertightRay(ray, Number.NaN, 0, 1, 0, 0, -1)).toBe(false);
    expect(setWatertightRay(ray, 0, 0, 1, 0, Infinity, -1)).toBe(false);
    setWatertightRay(ray, 0.1, 0.1, 1, 0, 0, -1);
    expect(intersectTriangleWatertight(ray, new Float32Array([0, 0, 0, 1, 1, 0, 2, 2, 0]), 0, 0, Infinity, hit)).toBe(
      false,
    ); // collinear
    expect(intersectTriangleWatertight(ray, new Float32Array(9).fill(0.1), 0, 0, Infinity, hit)).toBe(false); // a point
    setWatertightRay(ray, -1, 0.5, 0, 1, 0, 0); // in the triangle's plane
    expect(intersectTriangleWatertight(ray, new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), 0, 0, Infinity, hit)).toBe(
      false,
    );
  });
});

describe('triangle BVH (binned SAH, indirect)', () => {
  const torus = makeTorusData({ radius: 0.6, tube: 0.25, radialSegments: 24, tubularSegments: 48 });
  const sphere = makeSphereData({ radius: 0.7, segments: 30, rings: 20 });

  test.each([
    ['indexed torus', torus.positions!, torus.indices!],
    ['indexed sphere', sphere.positions!, sphere.indices!],
  ])('%s: first and all hits equal brute force; the index buffer is untouched', (_, positions, indices) => {
    const before = indices.slice();
    const bvh = buildTriangleBvh(positions, indices);
    expect(indices).toEqual(before);
    expect(Array.from(bvhView(bvh).faceIds).sort((a, b) => a - b)).toEqual(
      Array.from({ length: indices.length / 3 }, (_, i) => i),
    );
    const rand = mulberry32(5);
    let hits = 0;
    for (let i = 0; i < 600; i++) {
      const { o, d } = randomRay(rand, 3);
      const expected = brute(positions, indices, o, d);
      const got = first(bvh, o, d);
      expect(got?.faceId ?? null).toBe(expected.first?.faceId ?? null);
      if (got) expect(got.t).toBe(expected.first!.t);
      const list = makeTriangleHitList();
      expect(raycastTriangleBvhAll(bvh, ...o, ...d, 0, Infinity, list)).toBe(expected.all);
      if (got) hits++;
    }
    expect(hits).toBeGreaterThan(200);
  });

  test('non-indexed soup with degenerate triangles; axis-aligned rays along box faces', () => {
    const rand = mulberry32(11);
    const positions = new Float32Array(3000 * 9).map(() => rand() * 4 - 2);
    for (let f = 0; f < 3000; f += 7) positions.copyWithin(f * 9 + 3, f * 9, f * 9 + 3); // every 7th face degenerate
    const bvh = buildTriangleBvh(positions, null);
    for (let i = 0; i < 300; i++) {
      const axis = i % 3;
      const o: V3 = [rand() * 4 - 2, rand() * 4 - 2, rand() * 4 - 2];
      o[axis] = -5;
      const d: V3 = [0, 0, 0];
      d[axis] = 1; // zero components: infinite inverse directions in the slab test
      expect(first(bvh, o, d)?.faceId ?? null).toBe(brute(positions, null, o, d).first?.faceId ?? null);
    }
  });

  test('empty geometry builds an empty BVH that misses; bad geometry is a typed error', () => {
    const empty = buildTriangleBvh(new Float32Array(0), null);
    expect(bvhView(empty).nodes.nodeCount).toBe(0);
    expect(first(empty, [0, 0, 5], [0, 0, -1])).toBeNull();
    expect(raycastTriangleBvhAll(empty, 0, 0, 5, 0, 0, -1, 0, Infinity, makeTriangleHitList())).toBe(0);
    const code = (run: () => unknown): string => {
      try {
        run();
      } catch (e) {
        expect(e).toBeInstanceOf(CpuPickError);
        return (e as CpuPickError).code;
      }
      return 'no error';
    };
    expect(code(() => buildTriangleBvh(new Float32Array([0, 0, 0, 1, 0, 0, Number.NaN, 1, 0]), null))).toBe(
      'non-finite-vertex',
    );
    expect(code(() => buildTriangleBvh(new Float32Array(8), null))).toBe('bad-geometry');
    expect(code(() => buildTriangleBvh(new Float32Array(9), new Uint16Array([0, 1, 3])))).toBe('bad-geometry');
    expect(code(() => buildTriangleBvh(new Float32Array(9), null, { binCount: 1 }))).toBe('bad-option');
    const bvh = buildTriangleBvh(torus.positions!, torus.indices!);
    expect(first(bvh, [0, 0, 5], [0, 0, 0])).toBeNull();
    expect(first(bvh, [Number.NaN, 0, 5], [0, 0, -1])).toBeNull();
  });

  test('refit after CPU deformation keeps first hits equal to a fresh build; a bad vertex leaves the BVH untouched', () => {
    const positions = torus.positions!.slice();
    const indices = torus.indices!;
    const bvh = buildTriangleBvh(positions, indices);
    const rand = mulberry32(17);
    for (let v = 0; v < positions.length; v += 3) {
      const wobble = 1 + 0.3 * Math.sin(positions[v] * 7) * Math.cos(positions[v + 2] * 5);
      positions[v] *= wobble;
      positions[v + 1] += 0.4 * Math.sin(positions[v + 2] * 3);
    }
    refitTriangleBvh(bvh, positions, indices);
    expect(bvh.refitCount).toBe(1);
    const fresh = buildTriangleBvh(positions, indices);
    for (let i = 0; i < 400; i++) {
      const { o, d } = randomRay(rand, 3);
      const a = first(bvh, o, d);
      expect(a?.faceId ?? null).toBe(first(fresh, o, d)?.faceId ?? null);
      expect(a?.faceId ?? null).toBe(brute(positions, indices, o, d).first?.faceId ?? null);
    }
    const snapshot = bvhView(bvh).nodes.floats.slice();
    const broken = positions.slice();
    broken[broken.length - 1] = Number.NaN;
    expect(() => refitTriangleBvh(bvh, broken, indices)).toThrow(CpuPickError);
    expect(bvhView(bvh).nodes.floats).toEqual(snapshot);
    expect(bvh.positions).toBe(positions); // still reads the arrays of the last good refit
    expect(() => refitTriangleBvh(bvh, positions, indices.subarray(0, 30))).toThrow(/rebuild instead of refitting/);
  });
});

describe('BVH serialisation', () => {
  const data = makeTorusData({ radius: 0.6, tube: 0.25, radialSegments: 20, tubularSegments: 40 });
  const positions = data.positions!;
  const indices = data.indices!;

  test('round trip: identical nodes, order, triangles and hits', () => {
    const bvh = buildTriangleBvh(positions, indices);
    const bytes = serialiseTriangleBvh(bvh);
    const back = deserialiseTriangleBvh(bytes, positions, indices);
    expect(back.layout).toBe('compact');
    expect(back.compact!.nodeCount).toBe(bvh.compact!.nodeCount);
    expect(back.compact!.maxDepth).toBe(bvh.compact!.maxDepth);
    expect(back.compact!.bounds).toEqual(bvh.compact!.bounds); // the links share the bounds' buffer
    expect(back.compact!.grid).toEqual(bvh.compact!.grid);
    expect(back.compact!.leaf32).toEqual(bvh.compact!.leaf32); // the 16-bit view shares its buffer
    expect(back.positions).toBe(positions); // reads the geometry it was validated against, no copy
    expect(back.indices).toBe(indices);
    const unaligned = new Uint8Array(bytes.length + 1);
    unaligned.set(bytes, 1);
    expect(deserialiseTriangleBvh(unaligned.subarray(1), positions, indices).compact!.bounds).toEqual(
      bvh.compact!.bounds,
    );
    const rand = mulberry32(3);
    for (let i = 0; i < 200; i++) {
      const { o, d } = randomRay(rand, 3);
      expect(first(back, o, d)).toEqual(first(bvh, o, d));
    }
    const empty = deserialiseTriangleBvh(
      serialiseTriangleBvh(buildTriangleBvh(new Float32Array(0), null)),
      new Float32Array(0),
      null,
    );
    expect(bvhView(empty).nodes.nodeCount).toBe(0);
  });

  test('corrupt or mismatched bytes are typed errors, never a hang', () => {
    const bvh = buildTriangleBvh(positions, indices);
    const bytes = serialiseTriangleBvh(bvh);
    const words = (): Uint32Array<ArrayBuffer> => new Uint32Array(bytes.slice().buffer);
    const code = (
      b: Uint8Array | ArrayBuffer,
      p = positions,
      i: Uint16Array | Uint32Array | null = indices,
    ): string => {
      try {
        deserialiseTriangleBvh(b, p, i);
      } catch (e) {
        expect(e).toBeInstanceOf(CpuPickError);
        return (e as CpuPickError).code;
      }
      return 'accepted';
    };
    expect(code(bytes.subarray(0, 10))).toBe('bad-serialised-bvh');
    expect(code(bytes.subarray(0, bytes.length - 4))).toBe('bad-serialised-bvh');
    let w = words();
    w[0] = 0xdeadbeef;
    expect(code(w.buffer)).toBe('bad-serialised-bvh');
    w = words();
    w[1] = 99;
    expect(code(w.buffer)).toBe('bad-serialised-bvh');
    w = words();
    w[6 + 6] = 0;
    expect(code(w.buffer)).toBe('bad-serialised-bvh'); // root links to itself: a cycle
    w = words();
    w[6 + 8 + 6] = 1;
    expect(code(w.buffer)).toBe('bad-serialised-bvh'); // a child links back up
    w = words();
    w[w.length - 1] = w[w.length - 2];
    expect(code(w.buffer)).toBe('bad-serialised-bvh'); // face ids not a permutation
    expect(code(bytes, positions, indices.subarray(0, indices.length - 3))).toBe('bvh-mismatch');
    const moved = positions.map((v) => v * 2);
    expect(code(bytes, moved)).toBe('bvh-mismatch');
  });
});
