// Twins: hand-inlined copies of a function in the hot paths, each marked in the source with
// `// Twin of <file>:<function> (kept equal by <test file>: <test name>)`. Each test here runs the copy and the function
// it copies on seeded random and edge-case inputs and expects bit-identical answers (Object.is). The last tests keep
// the markers honest and the BVH node words named.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { makePerspectiveCamera } from '../../../engine/camera.js';
import { createMeshFromData } from '../../../engine/mesh.js';
import { makeSphereData, makeTorusData } from '../../../engine/primitives/index.js';
import {
  binRange,
  type BuildState,
  findBestSplit,
  partitionAndBin,
  setGrid,
} from '../../../picking/cpu/bvh/bvh-bins.js';
import {
  halfArea32,
  isLeafNode,
  nodeFirst,
  nodeLeafCount,
  nodeWords,
  unionChildBounds,
} from '../../../picking/cpu/bvh/bvh-nodes.js';
import { makeRayBox, rayBoxEntry, rayEntersBox, setRayBox } from '../../../picking/cpu/bvh/ray-box.js';
import {
  intersectTriangleWatertight,
  makeTriangleHit,
  makeWatertightRay,
  setWatertightRay,
} from '../../../picking/cpu/bvh/ray-triangle.js';
import { buildTriangleBvh, type TriangleBvh } from '../../../picking/cpu/bvh/triangle-bvh.js';
import { raycastTriangleBvhFirst } from '../../../picking/cpu/bvh/triangle-bvh-query.js';
import { refitTriangleBvh } from '../../../picking/cpu/bvh/triangle-bvh-refit.js';
import { pickManySync, pickSync } from '../../../picking/cpu/index.js';
import { buildSceneBvh, refitSceneBvh, refitSceneBvhEntries } from '../../../picking/cpu/scene-bvh.js';
import type { SceneEntries } from '../../../picking/cpu/scene-entries.js';
import { makePickingRay, type PickViewport, toFramebufferSample } from '../../../picking/picking-ray.js';
import { makeCpuScene, mulberry32 } from './scene-fixtures.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Values that break naive slab and edge tests: zeros of both signs, infinities, NaN. */
const special = [0, -0, Infinity, -Infinity, NaN];

function pickOf<T>(rand: () => number, values: readonly T[]): T {
  return values[Math.floor(rand() * values.length)];
}

/** A random coordinate, now and then exactly one of a few shared values (so faces, edges and slabs coincide). */
function coordinate(rand: () => number): number {
  const r = rand();
  if (r < 0.15) return pickOf(rand, [0, -0, 1, -1, 0.5]);
  return (rand() - 0.5) * 4;
}

function sameBits(a: number, b: number): boolean {
  return Object.is(a, b);
}

describe('twins: a hand-inlined copy answers bit for bit like the function it copies', () => {
  test('rayEntersBox is setRayBox + rayBoxEntry but for an entry at t = Infinity', () => {
    const rand = mulberry32(901);
    const box = makeRayBox();
    const b = new Float32Array(6);
    let entered = 0;
    let atInfinity = 0;
    for (let i = 0; i < 20000; i++) {
      for (let a = 0; a < 3; a++) {
        const lo = coordinate(rand);
        const hi = rand() < 0.1 ? lo : lo + rand() * 2; // flat boxes too
        b[2 * a] = lo;
        b[2 * a + 1] = hi;
      }
      const o = [0, 1, 2].map((a) => (rand() < 0.2 ? b[2 * a + (rand() < 0.5 ? 0 : 1)] : coordinate(rand)));
      const d = [0, 1, 2].map(() => (rand() < 0.1 ? pickOf(rand, special) : rand() < 0.2 ? 0 : rand() - 0.5));
      if (rand() < 0.05) o[Math.floor(rand() * 3)] = pickOf(rand, special);
      const tMin = rand() < 0.7 ? 0 : pickOf(rand, [-Infinity, rand(), -rand()]);
      const tMax = rand() < 0.7 ? Infinity : pickOf(rand, [rand() * 3, tMin, NaN]);
      setRayBox(box, o[0], o[1], o[2], d[0], d[1], d[2]);
      const expected = rayBoxEntry(box, b, 0, tMin, tMax) < Infinity;
      const got = rayEntersBox(o[0], o[1], o[2], d[0], d[1], d[2], b, 0, tMin, tMax);
      const where = `box ${Array.from(b)} o ${o} d ${d} t ${tMin}..${tMax}`;
      if (got !== expected) {
        // Only an entry at t = +Infinity (a zero direction component from outside its slab and no finite exit, e.g. a
        // zero direction): rayEntersBox says entered; rayBoxEntry returns that Infinity, which reads as a miss.
        expect(got && !expected, where).toBe(true);
        expect(rayEntersBox(o[0], o[1], o[2], d[0], d[1], d[2], b, 0, tMin, Math.min(tMax, 1e300)), where).toBe(false);
        atInfinity++;
      }
      if (got) entered++;
    }
    expect(entered).toBeGreaterThan(1000);
    expect(atInfinity).toBeLessThan(entered / 10);
  });

  test('raycastTriangleBvhFirst is a walk of rayBoxEntry and intersectTriangleWatertight', () => {
    const rand = mulberry32(902);
    const meshes: Array<{ name: string; positions: Float32Array; indices: Uint16Array | Uint32Array | null }> = [];
    // A grid in the plane z = 0: shared edges and vertices, faces that rays can run along.
    const n = 8;
    const grid = new Float32Array((n + 1) * (n + 1) * 3);
    for (let y = 0; y <= n; y++)
      for (let x = 0; x <= n; x++) grid.set([x / 4 - 1, y / 4 - 1, 0], (y * (n + 1) + x) * 3);
    const gridIndices: number[] = [];
    for (let y = 0; y < n; y++)
      for (let x = 0; x < n; x++) {
        const v = y * (n + 1) + x;
        gridIndices.push(v, v + 1, v + n + 2, v, v + n + 2, v + n + 1);
      }
    meshes.push({ name: 'grid', positions: grid, indices: new Uint16Array(gridIndices) });
    // A soup with degenerate triangles (a repeated corner, collinear corners, a point) among random ones.
    const soup: number[] = [];
    for (let t = 0; t < 240; t++) {
      const c: number[] = [];
      for (let k = 0; k < 9; k++) c.push(coordinate(rand));
      if (t % 10 === 0) c.splice(3, 3, c[0], c[1], c[2]);
      if (t % 10 === 1) c.splice(6, 3, (c[0] + c[3]) / 2, (c[1] + c[4]) / 2, (c[2] + c[5]) / 2);
      if (t % 10 === 2) c.splice(3, 6, c[0], c[1], c[2], c[0], c[1], c[2]);
      soup.push(...c);
    }
    meshes.push({ name: 'soup', positions: new Float32Array(soup), indices: null });
    const torus = makeTorusData({ radius: 0.8, tube: 0.3, radialSegments: 12, tubularSegments: 24 });
    meshes.push({ name: 'torus', positions: torus.positions!, indices: torus.indices! });

    const box = makeRayBox();
    const wray = makeWatertightRay();
    const hit = makeTriangleHit();
    const walkHit = makeTriangleHit();
    const corners = new Float64Array(9);
    const corner = (bvh: TriangleBvh, i: number, k: number) => {
      const c = bvh.faceIds![i] * 3 + Math.floor(k / 3);
      return bvh.positions[(bvh.indices ? bvh.indices[c] : c) * 3 + (k % 3)];
    };
    /**
     * raycastTriangleBvhFirst's walk (near child first, boxes clipped to the best t so far, a stacked box skipped once
     * its entry is past it) made of the functions its inlined code copies; null on a miss.
     */
    const walkFirst = (bvh: TriangleBvh, o: number[], d: number[], tMin: number, tMax: number, facing: number) => {
      const { floats, ints, nodeCount } = bvh.nodes!;
      if (nodeCount === 0 || !rayEntersBox(o[0], o[1], o[2], d[0], d[1], d[2], floats, 0, tMin, tMax)) return null;
      if (!setWatertightRay(wray, o[0], o[1], o[2], d[0], d[1], d[2])) return null;
      setRayBox(box, o[0], o[1], o[2], d[0], d[1], d[2]);
      let best = tMax;
      let found: { t: number; u: number; v: number; faceId: number } | null = null;
      const stack: Array<[node: number, near: number]> = [];
      let node = 0;
      for (;;) {
        const w = node * nodeWords;
        const first = nodeFirst(ints, w);
        if (isLeafNode(ints, w)) {
          for (let i = first; i < first + nodeLeafCount(ints, w); i++) {
            for (let k = 0; k < 9; k++) corners[k] = corner(bvh, i, k);
            if (!intersectTriangleWatertight(wray, corners, 0, tMin, best, walkHit, facing)) continue;
            best = walkHit.t;
            found = { t: walkHit.t, u: walkHit.u, v: walkHit.v, faceId: bvh.faceIds![i] };
          }
        } else {
          const ta = rayBoxEntry(box, floats, first * nodeWords, tMin, best);
          const tc = rayBoxEntry(box, floats, (first + 1) * nodeWords, tMin, best);
          if (ta < Infinity && tc < Infinity) {
            stack.push(ta <= tc ? [first + 1, tc] : [first, ta]);
            node = ta <= tc ? first : first + 1;
            continue;
          }
          if (ta < Infinity || tc < Infinity) {
            node = ta < Infinity ? first : first + 1;
            continue;
          }
        }
        let next = -1;
        while (stack.length > 0) {
          const [n, near] = stack.pop()!;
          if (near <= best) {
            next = n;
            break;
          }
        }
        if (next < 0) return found;
        node = next;
      }
    };

    let compared = 0;
    let hits = 0;
    for (const mesh of meshes) {
      // The float-node layouts (the compact one's boxes differ: compact-bvh tests check it against a brute force).
      for (const options of [
        { layout: 'leaf-indices' as const },
        { copyTriangles: true },
        { maxLeafSize: 1, layout: 'face-ids' as const },
      ]) {
        const bvh = buildTriangleBvh(mesh.positions, mesh.indices, options);
        const vertexCount = mesh.positions.length / 3;
        const vertex = (v: number) => Array.from(mesh.positions.subarray(v * 3, v * 3 + 3));
        for (let r = 0; r < 1500; r++) {
          let o = [coordinate(rand) * 1.5, coordinate(rand) * 1.5, coordinate(rand) * 1.5];
          let target = [coordinate(rand) * 0.5, coordinate(rand) * 0.5, coordinate(rand) * 0.5];
          const kind = r % 8;
          if (kind === 1) target = vertex(Math.floor(rand() * vertexCount)); // through a vertex
          if (kind === 2) {
            const [a, b] = [vertex(Math.floor(rand() * vertexCount)), vertex(Math.floor(rand() * vertexCount))];
            target = a.map((c, k) => (c + b[k]) / 2); // through an edge (of the grid, of the soup's degenerates)
          }
          if (kind === 3) {
            o = [o[0], o[1], 0]; // in the grid's plane, running along its faces
            target = [target[0], target[1], 0];
          }
          let d = o.map((c, k) => target[k] - c);
          if (kind === 4) d = d.map((c, k) => (k === r % 3 ? c : 0)); // axis-aligned: infinite inverse components
          if (kind === 5 && rand() < 0.5) (rand() < 0.5 ? o : d)[Math.floor(rand() * 3)] = pickOf(rand, special);
          if (kind === 6) d = d.map((c) => c * pickOf(rand, [1e-30, 1e30, -1, 3]));
          const facing = pickOf(rand, [0, 1, -1]);
          const tMin = rand() < 0.8 ? 0 : pickOf(rand, [-Infinity, rand() * 0.5, -rand()]);
          const tMax = rand() < 0.8 ? Infinity : rand() * 2;
          const check = (lo: number, hi: number) => {
            const got = raycastTriangleBvhFirst(bvh, o[0], o[1], o[2], d[0], d[1], d[2], lo, hi, hit, facing);
            const expected = walkFirst(bvh, o, d, lo, hi, facing);
            const where = `${mesh.name} ${JSON.stringify(options)} ray ${r}: o ${o} d ${d} t ${lo}..${hi} facing ${facing}`;
            compared++;
            expect(got, where).toBe(expected !== null);
            if (!got || !expected) return null;
            hits++;
            // The same face (ties on an edge resolved alike), and its t, u, v bit for bit.
            expect(
              hit.faceId === expected.faceId &&
                sameBits(hit.t, expected.t) &&
                sameBits(hit.u, expected.u) &&
                sameBits(hit.v, expected.v),
              `${where}: ${JSON.stringify(hit)} vs ${JSON.stringify(expected)}`,
            ).toBe(true);
            return hit.t;
          };
          const t = check(tMin, tMax);
          // The hit's own distance as a limit: excluded as tMax (strict), excluded as tMin.
          if (t !== null) {
            check(tMin, t);
            check(t, tMax);
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(13000);
    expect(hits).toBeGreaterThan(2000);
  });

  test('makePickingRay samples where toFramebufferSample says', () => {
    const rand = mulberry32(903);
    const camera = makePerspectiveCamera({ position: [2, 3, 6], target: [0, 0.5, 0] });
    const viewports: PickViewport[] = [
      { width: 101, height: 61 },
      { width: 1, height: 1 },
      { width: 64, height: 48, devicePixelRatio: 1 },
      { width: 64, height: 48, devicePixelRatio: 2 },
      { width: 64, height: 48, devicePixelRatio: 0.75 },
      { width: 100.5, height: 48 },
      { width: 0, height: 48 },
      { width: 64, height: -3 },
    ];
    const outcome = (run: () => readonly [number, number]) => {
      try {
        return run();
      } catch (error) {
        return String(error);
      }
    };
    let fast = 0;
    for (const viewport of viewports) {
      const { width, height } = viewport;
      const xs = [0, -0, 1, width - 1, width - 0.5, width, width + 1, -1, -0.25, 0.5, 2.75, NaN, Infinity, -Infinity];
      for (let i = 0; i < 600; i++) {
        const x = i < xs.length ** 2 ? xs[i % xs.length] : rand() < 0.5 ? Math.floor(rand() * width) : rand() * width;
        const y = i < xs.length ** 2 ? xs[Math.floor(i / xs.length)] * (height / width) : rand() * height * 1.2;
        for (const subpixel of [false, true]) {
          const expected = outcome(() => toFramebufferSample('pick', x, y, viewport, 3, subpixel));
          const got = outcome(() => {
            const ray = makePickingRay(camera, x, y, viewport, 'pick', 3, subpixel);
            return [ray.sampleX, ray.sampleY] as const;
          });
          const where = `viewport ${JSON.stringify(viewport)} (${x}, ${y}) subpixel ${subpixel}`;
          if (typeof expected === 'string') expect(got, where).toBe(expected);
          else {
            expect(typeof got, where).not.toBe('string');
            const [sx, sy] = got as readonly [number, number];
            expect(sameBits(sx, expected[0]) && sameBits(sy, expected[1]), `${where}: ${got} vs ${expected}`).toBe(
              true,
            );
            if (viewport.devicePixelRatio === undefined) fast++;
          }
        }
      }
      // Not numbers at all: both refuse them alike.
      for (const bad of ['3', null, undefined, {}]) {
        for (const subpixel of [false, true]) {
          const x = bad as unknown as number;
          expect(outcome(() => makePickingRay(camera, x, 1, viewport, 'pick', undefined, subpixel) && [0, 0])).toBe(
            outcome(() => toFramebufferSample('pick', x, 1, viewport, undefined, subpixel)),
          );
        }
      }
    }
    expect(fast).toBeGreaterThan(1000);
  });
});

/** A build state over `prims` as buildBvhNodes makes one (two slots are all one split needs). */
function makeBuildState(prims: Float32Array, bins: number, sureLeafSize: number): BuildState {
  const count = prims.length / 6;
  const slots = 2;
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  return {
    prims,
    order,
    binOf: new Uint8Array(count),
    bins,
    traversalCost: 6,
    intersectCost: 1,
    sureLeafSize,
    binBoxes: new Float64Array(slots * bins * 6),
    binCounts: new Int32Array(slots * bins),
    slotAxis: new Int32Array(slots),
    slotBins: new Int32Array(slots),
    slotLo: new Float64Array(slots),
    slotScale: new Float64Array(slots),
    rightAreas: new Float64Array(bins),
    rightCounts: new Int32Array(bins),
    rightBoxes: new Float64Array(bins * 6),
    boxes: new Float64Array(18),
    centroid: new Float64Array(12),
    bestAxis: -1,
    bestBin: -1,
    bestLeftCount: 0,
  };
}

/** Random primitive boxes: spread, clustered, flat, or with coinciding centroids. */
function randomPrims(rand: () => number, count: number): Float32Array {
  const prims = new Float32Array(count * 6);
  const style = Math.floor(rand() * 4);
  for (let i = 0; i < count; i++) {
    for (let a = 0; a < 3; a++) {
      let lo = style === 1 ? Math.round(rand() * 4) / 4 : (rand() - 0.5) * 10;
      let size = style === 2 && a === 1 ? 0 : rand() * (style === 3 ? 0.01 : 2);
      if (style === 3 && a === 0) [lo, size] = [-1, 2]; // every centroid on x coincides
      prims[i * 6 + 2 * a] = lo;
      prims[i * 6 + 2 * a + 1] = Math.fround(lo + size);
    }
  }
  return prims;
}

/** Bins every primitive of a fresh state into slot 0, as buildBvhNodes bins the root. */
function binRoot(st: BuildState): number {
  const { prims, centroid } = st;
  const count = prims.length / 6;
  const box = [Infinity, -Infinity, Infinity, -Infinity, Infinity, -Infinity];
  centroid.set(box);
  for (let i = 0; i < count; i++) {
    for (let a = 0; a < 3; a++) {
      const lo = prims[i * 6 + 2 * a];
      const hi = prims[i * 6 + 2 * a + 1];
      box[2 * a] = Math.min(box[2 * a], lo);
      box[2 * a + 1] = Math.max(box[2 * a + 1], hi);
      centroid[2 * a] = Math.min(centroid[2 * a], lo + hi);
      centroid[2 * a + 1] = Math.max(centroid[2 * a + 1], lo + hi);
    }
  }
  setGrid(st, 0, centroid, 0, count);
  binRange(st, 0, 0, count);
  return halfArea32(Float32Array.from(box), 0);
}

describe('twins of the SAH build', () => {
  test('findBestSplit areas are halfArea32', () => {
    const rand = mulberry32(904);
    let splits = 0;
    for (let round = 0; round < 400; round++) {
      const count = 2 + Math.floor(rand() * (round % 4 === 0 ? 8 : 300));
      const st = makeBuildState(randomPrims(rand, count), pickOf(rand, [2, 4, 12, 32]), 1);
      const parentArea = binRoot(st);
      if (st.slotAxis[0] < 0) continue;
      const cost = findBestSplit(st, 0, parentArea);
      const bins = st.slotBins[0];
      for (let b = 1; b < bins; b++) {
        if (st.rightCounts[b] === 0) continue;
        const area = halfArea32(Float32Array.from(st.rightBoxes.subarray(b * 6, b * 6 + 6)), 0);
        expect(sameBits(st.rightAreas[b], area), `round ${round} bin ${b}: ${st.rightAreas[b]} vs ${area}`).toBe(true);
      }
      if (st.bestBin < 0) continue;
      splits++;
      const leftArea = halfArea32(Float32Array.from(st.boxes.subarray(6, 12)), 0);
      const right = st.rightCounts[st.bestBin + 1];
      const invArea = parentArea > 0 ? 1 / parentArea : 0;
      const expected =
        st.traversalCost +
        st.intersectCost * invArea * (leftArea * st.bestLeftCount + st.rightAreas[st.bestBin + 1] * right);
      expect(sameBits(cost, expected), `round ${round}: cost ${cost} vs ${expected}`).toBe(true);
    }
    expect(splits).toBeGreaterThan(200);
  });

  test('partitionAndBin bins as setGrid + binRange', () => {
    const rand = mulberry32(905);
    let partitions = 0;
    for (let round = 0; round < 400; round++) {
      const count = 2 + Math.floor(rand() * (round % 4 === 0 ? 10 : 300));
      const bins = pickOf(rand, [2, 4, 12, 32]);
      const sureLeafSize = pickOf(rand, [1, 2, 6]);
      const st = makeBuildState(randomPrims(rand, count), bins, sureLeafSize);
      const parentArea = binRoot(st);
      if (st.slotAxis[0] < 0) continue;
      findBestSplit(st, 0, parentArea);
      if (st.bestAxis < 0) continue;
      const leftCount = st.bestLeftCount;
      const mid = partitionAndBin(st, 0, 0, count);
      expect(mid).toBe(leftCount);
      partitions++;
      // The reference: the partitioned primitives binned from scratch on the grids of the child boxes.
      const ref = makeBuildState(st.prims.slice(), bins, sureLeafSize);
      ref.centroid.set(st.boxes.subarray(6, 12).map((c) => 2 * c));
      setGrid(ref, 1, ref.centroid, 0, leftCount);
      binRange(ref, 1, 0, mid);
      ref.centroid.set(st.boxes.subarray(12, 18).map((c) => 2 * c));
      setGrid(ref, 0, ref.centroid, 0, count - leftCount);
      binRange(ref, 0, mid, count);
      for (const slot of [0, 1]) {
        expect(st.slotAxis[slot]).toBe(ref.slotAxis[slot]);
        if (ref.slotAxis[slot] < 0) continue; // a sure leaf or one point: never binned, its bin 0 is never read
        const [from, to] = slot === 1 ? [0, mid] : [mid, count];
        expect(Array.from(st.binOf.subarray(from, to)), `round ${round} slot ${slot}`).toEqual(
          Array.from(ref.binOf.subarray(from, to)),
        );
        const used = ref.slotBins[slot];
        const k = slot * bins;
        expect(Array.from(st.binCounts.subarray(k, k + used))).toEqual(Array.from(ref.binCounts.subarray(k, k + used)));
        expect(Array.from(st.binBoxes.subarray(k * 6, (k + used) * 6))).toEqual(
          Array.from(ref.binBoxes.subarray(k * 6, (k + used) * 6)),
        );
      }
    }
    expect(partitions).toBeGreaterThan(200);
  });
});

describe('twins of the refits', () => {
  test('refit unionChildren is unionChildBounds up to a zero sign', () => {
    const rand = mulberry32(906);
    const sphere = makeSphereData({ radius: 1, segments: 24, rings: 12 });
    let zeroTies = 0;
    let compared = 0;
    for (let round = 0; round < 12; round++) {
      const positions = sphere.positions!.slice();
      for (let i = 0; i < positions.length; i++) {
        // Snap some coordinates to zeros of either sign, so sibling boxes meet at 0 and -0.
        positions[i] = rand() < 0.2 ? pickOf(rand, [0, -0]) : positions[i] + (rand() - 0.5) * 0.2;
      }
      const bvh = buildTriangleBvh(sphere.positions!.slice(), sphere.indices!, {
        maxLeafSize: 1 + (round % 4),
        layout: 'leaf-indices',
      });
      refitTriangleBvh(bvh, positions, sphere.indices!);
      const { floats, ints, nodeCount } = bvh.nodes!;
      const expected = floats.slice();
      for (let node = nodeCount - 1; node >= 0; node--)
        if (!isLeafNode(ints, node * nodeWords)) unionChildBounds(expected, ints, node);
      for (let i = 0; i < floats.length; i++) {
        if (i % nodeWords >= 6) continue;
        compared++;
        if (sameBits(floats[i], expected[i])) continue;
        // Math.min(-0, 0) is -0 where `a < b ? a : b` keeps b; no comparison tells the two apart.
        expect(floats[i] === 0 && expected[i] === 0, `node ${Math.floor(i / nodeWords)} word ${i % nodeWords}`).toBe(
          true,
        );
        zeroTies++;
      }
    }
    expect(compared).toBeGreaterThan(10000);
    expect(zeroTies).toBeGreaterThan(0); // the difference is real, and only that
  });

  test('partial scene refit equals a full one', () => {
    const rand = mulberry32(907);
    for (let round = 0; round < 10; round++) {
      const count = 64 + Math.floor(rand() * 400);
      const bounds = new Float32Array(count * 6);
      const place = (e: number) => {
        for (let a = 0; a < 3; a++) {
          const lo = rand() < 0.05 ? pickOf(rand, [0, -0]) : (rand() - 0.5) * 40;
          bounds[e * 6 + 2 * a] = lo;
          bounds[e * 6 + 2 * a + 1] = lo + rand() * 3;
        }
      };
      for (let e = 0; e < count; e++) place(e);
      const entries = { count, bounds, valid: new Uint8Array(count).fill(1) } as unknown as SceneEntries;
      const { bvh } = buildSceneBvh(entries, 'always');
      const full = { ...bvh!, nodes: { ...bvh!.nodes, floats: bvh!.nodes.floats.slice() }, links: null };
      for (let step = 0; step < 5; step++) {
        const changed = Array.from({ length: 1 + Math.floor(rand() * (count / 20)) }, () => Math.floor(rand() * count));
        for (const e of changed) place(e);
        refitSceneBvhEntries(bvh!, entries, changed);
        refitSceneBvh(full, entries);
        const a = bvh!.nodes.floats;
        const b = full.nodes.floats;
        for (let i = 0; i < a.length; i++)
          expect(sameBits(a[i], b[i]), `round ${round} step ${step} word ${i}: ${a[i]} vs ${b[i]}`).toBe(true);
      }
    }
  });
});

describe('twins of the pick entry points', () => {
  test('pickSync checks its camera ray as checkCameraRay does', () => {
    const scene = makeCpuScene(96, 64);
    createMeshFromData(scene, 'torus', makeTorusData({ radius: 0.8, tube: 0.3 }));
    scene.camera = makePerspectiveCamera({ position: [0.3, 2, 3], target: [0, 0, 0] });
    let hits = 0;
    for (let y = 0; y < 64; y += 3) {
      for (let x = 0; x < 96; x += 3) {
        const one = pickSync(scene, x, y);
        const many = pickManySync(scene, x, y);
        expect(one.hit).toBe(many.length > 0);
        if (!one.hit) continue;
        hits++;
        expect(sameBits(one.distance, many[0].distance), `pixel (${x}, ${y})`).toBe(true);
      }
    }
    expect(hits).toBeGreaterThan(50);
    const message = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return String(error).replace('pickManySync', 'pickSync');
      }
      return 'no error';
    };
    for (const bad of [NaN, Infinity]) {
      scene.camera = makePerspectiveCamera({ position: [0.3, 2, 3], target: [0, 0, 0] });
      (scene.camera.position as unknown as number[])[1] = bad;
      const expected = message(() => pickManySync(scene, 10, 10));
      expect(expected).toMatch(/CpuPickError: pickSync: .*ray origin .* must be 3 finite numbers/);
      expect(message(() => pickSync(scene, 10, 10))).toBe(expected);
    }
  });
});

/** Every .ts file under `dir` (relative to the repo root). */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

describe('the markers and the node words stay honest', () => {
  test('every twin marker names a function that exists and a test that exists', () => {
    const marker = /\/\/ Twin of ([\w/.-]+\.ts):(\w+) \(kept equal by ([\w/.-]+\.ts): (.+)\)$/;
    let markers = 0;
    for (const file of sourceFiles('picking')) {
      const lines = readFileSync(join(root, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (!line.includes('Twin of')) return;
        const m = marker.exec(line.trim());
        expect(m, `${file}:${i + 1} ${line.trim()}`).not.toBeNull();
        const [, twinFile, fn, testFile, testName] = m!;
        expect(readFileSync(join(root, twinFile), 'utf8'), `${file}:${i + 1}`).toMatch(new RegExp(`function ${fn}\\b`));
        expect(readFileSync(join(root, testFile), 'utf8'), `${file}:${i + 1}`).toContain(`test('${testName}'`);
        markers++;
      });
    }
    expect(markers).toBeGreaterThanOrEqual(15);
  });

  test('no BVH node word is read or written through a raw offset (ints[o + 6], ints[o + 7])', () => {
    // Node ints are `ints` / `I` in every file; other arrays (triangles T, matrices M, tasks) use words 6 and 7 freely.
    const raw = /\b(?:\w*ints|I|\w*[nN]odes?\w*)\[[^\]]*\+\s*[67]\s*\]/;
    const offenders: string[] = [];
    for (const file of [...sourceFiles('picking/cpu'), ...sourceFiles('picking/rect')]) {
      const lines = readFileSync(join(root, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (raw.test(line)) offenders.push(`${relative(root, join(root, file))}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(offenders, 'use nodeFirstWord / nodeCountWord or the accessors of picking/cpu/bvh/bvh-nodes.ts').toEqual([]);
    // The regex does catch what it is there for.
    expect(raw.test('const count = ints[o + 7];')).toBe(true);
    expect(raw.test('node = I[o + 6] + 1;')).toBe(true);
    expect(raw.test('if (ints[n * nodeWords + 7] > 0)')).toBe(true);
    expect(raw.test('e2x = T[c + 6] - ax;')).toBe(false);
  });
});
