// refitTriangleBvh({ movedVertices }): only the leaves over the moved vertices and their ancestors are refitted.
// References: a float64 Möller–Trumbore brute force over the moved triangles written here, and three-mesh-bvh 0.9.17
// refitted over the same positions.
import { bvhView } from './bvh-view.js';
import { BufferAttribute, BufferGeometry, DoubleSide, Ray } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import { describe, expect, test } from 'vitest';
import { createMeshFromData } from '../../../engine/mesh.js';
import { makeSphereData, makeTorusData } from '../../../engine/primitives/index.js';
import {
  buildTriangleBvh,
  CpuPickError,
  getMeshBvh,
  makeTriangleHit,
  pickWithRaySync,
  raycastTriangleBvhFirst,
  refitMeshBvh,
  refitTriangleBvh,
  type TriangleBvh,
} from '../../../picking/cpu/index.js';
import { makeCpuScene, mulberry32 } from './scene-fixtures.js';

type V3 = [number, number, number];

/** Nearest double-sided hit (t > 0) of o + t·d over every face, in float64 (Möller–Trumbore); null on a miss. */
function bruteFirst(
  positions: Float32Array,
  indices: Uint16Array | Uint32Array | null,
  o: V3,
  d: V3,
): { faceId: number; t: number } | null {
  let best: { faceId: number; t: number } | null = null;
  const count = indices ? indices.length / 3 : positions.length / 9;
  const corner = (f: number, k: number, a: number) => positions[(indices ? indices[f * 3 + k] : f * 3 + k) * 3 + a];
  for (let f = 0; f < count; f++) {
    const e1 = [0, 1, 2].map((a) => corner(f, 1, a) - corner(f, 0, a));
    const e2 = [0, 1, 2].map((a) => corner(f, 2, a) - corner(f, 0, a));
    const p = [d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2], d[0] * e2[1] - d[1] * e2[0]];
    const det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    if (det === 0) continue;
    const s = [0, 1, 2].map((a) => o[a] - corner(f, 0, a));
    const u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) / det;
    if (u < 0 || u > 1) continue;
    const q = [s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0]];
    const v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) / det;
    if (v < 0 || u + v > 1) continue;
    const t = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det;
    if (t > 0 && (!best || t < best.t)) best = { faceId: f, t };
  }
  return best;
}

function weftFirst(bvh: TriangleBvh, o: V3, d: V3): { faceId: number; t: number } | null {
  const hit = makeTriangleHit();
  return raycastTriangleBvhFirst(bvh, ...o, ...d, 0, Infinity, hit) ? { faceId: hit.faceId, t: hit.t } : null;
}

/** Same nearest hit as the reference: equal distance, and the same face unless two faces lie at that distance (an edge). */
function expectSameHit(
  ours: { faceId: number; t: number } | null,
  ref: { faceId: number; t: number } | null,
  what: string,
): void {
  expect(ours === null, `${what}: hit or miss`).toBe(ref === null);
  if (!ours || !ref) return;
  expect(Math.abs(ours.t - ref.t), `${what}: distance`).toBeLessThan(1e-9 * Math.max(1, ref.t));
  if (ours.faceId !== ref.faceId) expect(Math.abs(ours.t - ref.t), `${what}: a tie on an edge`).toBeLessThan(1e-12);
}

/** The vertices within `radius` of vertex `seed` (a sculpt stroke). */
function stroke(positions: Float32Array, seed: number, radius: number): Uint32Array {
  const out: number[] = [];
  for (let v = 0; v < positions.length / 3; v++) {
    const dist = Math.hypot(
      positions[v * 3] - positions[seed * 3],
      positions[v * 3 + 1] - positions[seed * 3 + 1],
      positions[v * 3 + 2] - positions[seed * 3 + 2],
    );
    if (dist <= radius) out.push(v);
  }
  return Uint32Array.from(out);
}

/** A ray from outside through a random point of the bounds [-reach, reach]³. */
function randomRay(rand: () => number, reach: number): { o: V3; d: V3 } {
  const o: V3 = [(rand() - 0.5) * reach * 6, (rand() - 0.5) * reach * 6, (rand() - 0.5) * reach * 6];
  const target: V3 = [(rand() - 0.5) * reach * 2, (rand() - 0.5) * reach * 2, (rand() - 0.5) * reach * 2];
  const d = [target[0] - o[0], target[1] - o[1], target[2] - o[2]];
  const l = Math.hypot(d[0], d[1], d[2]);
  return { o, d: [d[0] / l, d[1] / l, d[2] / l] };
}

/** Every node's box holds every triangle of its subtree (checked from the positions, not from the refit). */
function expectBoundsHoldTriangles(bvh: TriangleBvh): void {
  const { nodes, faceIds } = bvhView(bvh);
  const { floats, ints, nodeCount } = nodes;
  const { positions: P, indices: idx } = bvh;
  const range = (n: number): [number, number] => {
    const o = n * 8;
    if (ints[o + 7] > 0) return [ints[o + 6], ints[o + 6] + ints[o + 7]];
    return [range(ints[o + 6])[0], range(ints[o + 6] + 1)[1]];
  };
  let violations = 0;
  for (let n = 0; n < nodeCount; n++) {
    const [first, end] = range(n);
    for (let i = first; i < end; i++) {
      for (let k = 0; k < 3; k++) {
        const v = idx ? idx[faceIds[i] * 3 + k] : faceIds[i] * 3 + k;
        for (let a = 0; a < 3; a++) {
          const x = P[v * 3 + a];
          if (x < floats[n * 8 + 2 * a] || x > floats[n * 8 + 2 * a + 1]) violations++;
        }
      }
    }
  }
  expect(violations, 'triangle corners outside a node box').toBe(0);
}

function threeBvh(positions: Float32Array, indices: Uint16Array | Uint32Array): MeshBVH {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(positions, 3)); // the same array: it sees every move
  geometry.setIndex(new BufferAttribute(indices.slice(), 1)); // three-mesh-bvh reorders its index in place
  return new MeshBVH(geometry);
}

const sortedCorners = (idx: ArrayLike<number>, f: number) =>
  [idx[f * 3], idx[f * 3 + 1], idx[f * 3 + 2]].sort((a, b) => a - b).join(',');

describe('partial triangle-BVH refit (movedVertices)', () => {
  const cases = [
    {
      name: 'torus, triangle copy',
      data: makeTorusData({ radius: 1, tube: 0.35, radialSegments: 48, tubularSegments: 96 }),
      options: { copyTriangles: true },
    },
    {
      name: 'sphere, no copy',
      data: makeSphereData({ radius: 1, segments: 64, rings: 32 }),
      options: { copyTriangles: false },
    },
  ];
  for (const { name, data, options } of cases) {
    test(`${name}: strokes refitted partially answer like a float64 brute force and three-mesh-bvh`, () => {
      const positions = data.positions!.slice();
      const indices = data.indices!;
      const bvh = buildTriangleBvh(positions, indices, options);
      const three = threeBvh(positions, indices);
      const threeIndex = three.geometry.index!.array;
      const rand = mulberry32(name.length);
      const ray = new Ray();
      const vertexCount = positions.length / 3;
      for (let round = 0; round < 6; round++) {
        const moved = stroke(positions, Math.floor(rand() * vertexCount), 0.15 + rand() * 0.3);
        const push = round % 2 === 0 ? 0.6 : -0.25; // outward bulges past the old bounds, then dents
        for (const v of moved) {
          const n = Math.hypot(positions[v * 3], positions[v * 3 + 1], positions[v * 3 + 2]);
          for (let a = 0; a < 3; a++) positions[v * 3 + a] += (positions[v * 3 + a] / n) * push * (0.5 + rand());
        }
        const refits = bvh.refitCount;
        refitTriangleBvh(bvh, positions, indices, { movedVertices: moved });
        expect(bvh.refitCount).toBe(refits + 1);
        three.refit();
        expectBoundsHoldTriangles(bvh);
        for (let i = 0; i < 150; i++) {
          const { o, d } = randomRay(rand, 1.6);
          const ours = weftFirst(bvh, o, d);
          expectSameHit(ours, bruteFirst(positions, indices, o, d), `${name} round ${round} ray ${i} vs brute force`);
          ray.origin.set(...o);
          ray.direction.set(...d);
          const theirs = three.raycastFirst(ray, DoubleSide);
          expect(ours === null, `ray ${i} vs three-mesh-bvh`).toBe(theirs === null);
          if (!ours || !theirs) continue;
          expect(ours.t).toBeCloseTo(theirs.distance, 5);
          if (sortedCorners(indices, ours.faceId) !== sortedCorners(threeIndex, theirs.faceIndex!))
            expect(Math.abs(ours.t - theirs.distance), 'a tie on an edge').toBeLessThan(1e-6);
        }
      }
    });
  }

  test('a vertex pulled far outside the mesh: every ancestor of its leaves grows, so rays at the spike hit it', () => {
    // Each node on the path from the root to the moved vertex's leaves must grow to hold the spike: a refit that left
    // out any one of them (the root included) culls these rays.
    const data = makeSphereData({ radius: 1, segments: 48, rings: 24 });
    const positions = data.positions!.slice();
    const indices = data.indices!;
    const bvh = buildTriangleBvh(positions, indices);
    const tip = 300; // a vertex away from the poles
    const faces: number[] = [];
    for (let f = 0; f < indices.length / 3; f++) if ([0, 1, 2].some((k) => indices[f * 3 + k] === tip)) faces.push(f);
    expect(faces.length).toBeGreaterThan(3);
    for (let a = 0; a < 3; a++) positions[tip * 3 + a] *= 4;
    refitTriangleBvh(bvh, positions, indices, { movedVertices: [tip] });
    expectBoundsHoldTriangles(bvh);
    const rand = mulberry32(3);
    let checked = 0;
    for (const f of faces) {
      // Points of the spike's faces near the tip (outside the old unit bounds), hit from a side.
      for (let k = 0; k < 8; k++) {
        const w = [0.8 + rand() * 0.15, 0, 0];
        w[1] = (1 - w[0]) * rand();
        w[2] = 1 - w[0] - w[1];
        const corners = [0, 1, 2].map((c) => indices[f * 3 + c]).sort((a, b) => (a === tip ? -1 : b === tip ? 1 : 0));
        const target = [0, 1, 2].map((a) => corners.reduce((s, v, c) => s + w[c] * positions[v * 3 + a], 0)) as V3;
        if (Math.max(...target.map(Math.abs)) <= 1.05) continue;
        const o: V3 = [target[0] * 3 + 0.1, target[1] * 3 - 0.2, target[2] * 3 + 0.3];
        const d = [target[0] - o[0], target[1] - o[1], target[2] - o[2]];
        const l = Math.hypot(d[0], d[1], d[2]);
        const dir: V3 = [d[0] / l, d[1] / l, d[2] / l];
        const ref = bruteFirst(positions, indices, o, dir);
        expect(ref).not.toBeNull();
        expectSameHit(weftFirst(bvh, o, dir), ref, `spike face ${f}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  test('equal to a whole refit, node for node; non-indexed geometry too', () => {
    const sphere = makeSphereData({ radius: 1, segments: 32, rings: 16 });
    const indexed = sphere.positions!.slice();
    const flat = new Float32Array(sphere.indices!.length * 3);
    sphere.indices!.forEach((v, i) => flat.set(sphere.positions!.subarray(v * 3, v * 3 + 3), i * 3));
    for (const [positions, indices, layout] of [
      [indexed, sphere.indices!, 'leaf-triangles'],
      [flat, null, 'leaf-triangles'],
      [indexed.slice(), sphere.indices!, 'face-ids'],
      [flat.slice(), null, 'face-ids'],
      [indexed.slice(), sphere.indices!, 'compact'],
      [flat.slice(), null, 'compact'],
    ] as const) {
      const copyTriangles = layout === 'leaf-triangles';
      const partial = buildTriangleBvh(positions, indices, { layout });
      const twin = positions.slice();
      const whole = buildTriangleBvh(twin, indices, { layout });
      const moved = stroke(positions, 40, 0.5);
      for (const v of moved) {
        positions[v * 3 + 1] += 0.7;
        twin[v * 3 + 1] += 0.7;
      }
      refitTriangleBvh(partial, positions, indices, { movedVertices: moved });
      refitTriangleBvh(whole, twin, indices);
      expect(Array.from(bvhView(partial).nodes.floats)).toEqual(Array.from(bvhView(whole).nodes.floats));
      expect(partial.compact?.grid).toEqual(whole.compact?.grid);
      if (copyTriangles) expect(Array.from(partial.triangles!)).toEqual(Array.from(whole.triangles!));
      else expect([partial.triangles, whole.triangles]).toEqual([null, null]);
    }
  });

  test('bad movedVertices throw a CpuPickError naming the value and leave the BVH untouched', () => {
    const data = makeTorusData({ radius: 1, tube: 0.3, radialSegments: 12, tubularSegments: 24 });
    const positions = data.positions!.slice();
    const indices = data.indices!;
    const bvh = buildTriangleBvh(positions, indices);
    const vertexCount = positions.length / 3;
    positions[4] += 5; // vertex 1 moved, not yet refitted
    const before = bvh.compact!.bounds.slice();
    const refit = (movedVertices: unknown, p: Float32Array = positions) =>
      refitTriangleBvh(bvh, p, indices, { movedVertices } as { movedVertices: number[] });
    expect(() => refit([1, vertexCount])).toThrow(
      new RegExp(`movedVertices\\[1\\] = ${vertexCount} must be a vertex index in 0..${vertexCount - 1}`),
    );
    expect(() => refit([1.5])).toThrow(CpuPickError);
    expect(() => refit(7)).toThrow(/movedVertices 7 must be an array/);
    expect(() => refit([1], positions.slice())).toThrow(/needs the positions and indices the BVH reads/);
    positions[9] = Number.NaN;
    expect(() => refit([1, 3])).toThrow(/vertex 3 is not finite/);
    expect(() => refitTriangleBvh(bvh, positions, indices, { moved: [1] } as never)).toThrow(/unknown option "moved"/);
    expect(bvh.compact!.bounds).toEqual(before);
    expect(bvh.refitCount).toBe(0);
    positions[9] = 0.5;
    refit([1, 3]);
    expectBoundsHoldTriangles(bvh);
  });

  test('refitMeshBvh(mesh, { movedVertices }): the scene pick follows the stroke; a mesh sharing the BVH keeps its shape', () => {
    const scene = makeCpuScene();
    const data = makeSphereData({ radius: 1, segments: 29, rings: 13 });
    const ball = createMeshFromData(scene, 'ball', data);
    const twin = createMeshFromData(scene, 'twin', data);
    expect(getMeshBvh(ball)).toBe(getMeshBvh(twin)); // equal data: one BVH
    const moved = stroke(ball.positions, 100, 0.4);
    for (const v of moved) for (let a = 0; a < 3; a++) ball.positions[v * 3 + a] *= 1.8;
    refitMeshBvh(ball, { movedVertices: moved });
    expect(getMeshBvh(ball)).not.toBe(getMeshBvh(twin));
    expectBoundsHoldTriangles(getMeshBvh(ball));
    expectBoundsHoldTriangles(getMeshBvh(twin));
    const v = moved[0];
    const tipPoint: V3 = [ball.positions[v * 3], ball.positions[v * 3 + 1], ball.positions[v * 3 + 2]];
    const origin: V3 = [tipPoint[0] * 3, tipPoint[1] * 3, tipPoint[2] * 3];
    const direction: V3 = [-tipPoint[0], -tipPoint[1], -tipPoint[2]];
    const l = Math.hypot(...direction);
    const unit = direction.map((c) => c / l) as V3;
    const info = pickWithRaySync(scene, { origin, direction: unit }, { filter: (m) => m === ball });
    const ref = bruteFirst(ball.positions, ball.geometry.indices, origin, unit)!;
    expect(info.pickedMesh).toBe(ball);
    expectSameHit({ faceId: info.faceId, t: info.distance }, ref, 'scene pick after the stroke');
    const twinInfo = pickWithRaySync(scene, { origin, direction: unit }, { filter: (m) => m === twin });
    expectSameHit(
      { faceId: twinInfo.faceId, t: twinInfo.distance },
      bruteFirst(twin.positions, twin.geometry.indices, origin, unit),
      'the twin is unchanged',
    );
  });
});
