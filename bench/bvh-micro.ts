/**
 * Triangle BVH micro bench against three-mesh-bvh 0.9.17 on the same data, side by side in one run:
 * build (vs its default CENTER build and vs SAH), memory the BVH adds on top of the geometry, first-hit
 * query (vs raycastFirst on its SAH tree), refit after moving every vertex and 1 % of them.
 * Meshes: the `bunny` package as is, a 512k-triangle torus. Ratios > 1 mean weft is better; each is the
 * median of interleaved rounds after a warm-up, with global.gc between samples when exposed.
 * Run: NODE_OPTIONS=--expose-gc npx tsx bench/bvh-micro.ts [rounds] [bunny|torus]
 */
import { BufferAttribute, BufferGeometry, DoubleSide, Ray } from 'three';
import { MeshBVH, SAH } from 'three-mesh-bvh';
import type { MeshData } from '../engine/mesh-data.js';
import { makeBunnyDataAsync, makeTorusData } from '../engine/primitives/index.js';
import { triangleBvhRootBounds } from '../picking/cpu/bvh/triangle-bvh.js';
import {
  buildTriangleBvh,
  makeTriangleHit,
  raycastTriangleBvhFirst,
  refitTriangleBvh,
  type TriangleBvh,
} from '../picking/cpu/index.js';

const rounds = Number(process.argv[2] ?? 7);
const gc = (globalThis as { gc?: () => void }).gc;

function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Median ms of each run over `rounds` interleaved rounds, after one warm-up round; gc before every sample. */
function interleaved(...runs: Array<() => void>): number[] {
  const samples = runs.map(() => [] as number[]);
  for (let r = 0; r <= rounds; r++) {
    runs.forEach((run, i) => {
      gc?.();
      const start = performance.now();
      run();
      if (r > 0) samples[i].push(performance.now() - start);
    });
  }
  return samples.map(median);
}

function threeGeometry(positions: Float32Array, indices: Uint16Array | Uint32Array | null): BufferGeometry {
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(positions, 3));
  if (indices) g.setIndex(new BufferAttribute(indices.slice(), 1));
  return g;
}

/** Bytes three-mesh-bvh adds on top of the geometry: its node buffers and, when it made one, its index or indirect buffer. */
function threeBytes(bvh: MeshBVH, hadIndex: boolean): number {
  const inner = bvh as unknown as { _roots: ArrayBuffer[]; _indirectBuffer: Uint32Array | null };
  let bytes = inner._roots.reduce((s, r) => s + r.byteLength, 0);
  if (inner._indirectBuffer) bytes += inner._indirectBuffer.byteLength;
  if (!hadIndex) bytes += bvh.geometry.index!.array.byteLength;
  return bytes;
}

function weftBytes(bvh: TriangleBvh): number {
  const owned = new Set<ArrayBufferLike>();
  let bytes = 0;
  const parts = [bvh, bvh.nodes ?? {}, bvh.compact ?? {}] as unknown as Array<Record<string, unknown>>;
  for (const v of parts.flatMap((part) => Object.values(part))) {
    if (ArrayBuffer.isView(v) && !owned.has(v.buffer) && v !== bvh.positions && v !== bvh.indices) {
      owned.add(v.buffer);
      bytes += v.buffer.byteLength;
    }
  }
  return bytes;
}

/** The memory-lean layout: no triangle copy, leaves ~1.25× larger. */
const compactOptions = { layout: 'face-ids', traversalCost: 8 } as const;

const table: string[][] = [['mesh', 'measure', 'weft', 'three', 'ratio', 'target', 'met']];
function row(mesh: string, measure: string, weft: string, three: string, ratio: number, target: number, lower = false) {
  const met = lower ? ratio <= target : ratio >= target;
  table.push([mesh, measure, weft, three, ratio.toFixed(2), `${lower ? '<=' : '>='} ${target}`, met ? 'yes' : 'NO']);
}

function benchMesh(label: string, data: MeshData): void {
  const positions = data.positions!;
  const indices = data.indices ?? null;
  const triangles = indices ? indices.length / 3 : positions.length / 9;
  console.error(`${label}: ${triangles} triangles`);

  // Build: weft default vs three default (CENTER) and SAH; each three build gets a fresh geometry (it reorders the index).
  let weft = buildTriangleBvh(positions, indices);
  const geoms = () => threeGeometry(positions, indices);
  let g1 = geoms();
  let g2 = geoms();
  const [tw, tc, ts] = interleaved(
    () => (weft = buildTriangleBvh(positions, indices)),
    () => new MeshBVH(g1),
    () => new MeshBVH(g2, { strategy: SAH }),
  );
  g1 = geoms();
  g2 = geoms();
  row(label, 'build vs CENTER (ms)', tw.toFixed(1), tc.toFixed(1), tc / tw, 1.0);
  row(label, 'build vs SAH (ms)', tw.toFixed(1), ts.toFixed(1), ts / tw, 1.0);

  const centerGeom = geoms();
  const center = new MeshBVH(centerGeom);
  const wb = weftBytes(weft);
  const cb = threeBytes(center, indices !== null);
  const compact = buildTriangleBvh(positions, indices, compactOptions);
  const kb = weftBytes(compact);
  const ib = cb + (indices ? indices.byteLength : 0);
  row(label, 'memory vs CENTER (MB)', (wb / 1e6).toFixed(2), (cb / 1e6).toFixed(2), wb / cb, 1.2, true);
  row(label, 'memory compact (MB)', (kb / 1e6).toFixed(2), (cb / 1e6).toFixed(2), kb / cb, 1.2, true);
  row(label, 'mem compact vs +index', (kb / 1e6).toFixed(2), (ib / 1e6).toFixed(2), kb / ib, 1.2, true);

  // Query: first hit of 65 536 random rays through the bounds, vs raycastFirst on three's SAH tree.
  const sahGeom = geoms();
  const sah = new MeshBVH(sahGeom, { strategy: SAH });
  const box = new Float64Array(6);
  triangleBvhRootBounds(weft, box);
  const lo = [box[0], box[2], box[4]];
  const size = [box[1] - box[0], box[3] - box[2], box[5] - box[4]];
  const extent = Math.max(...size);
  const rand = seeded(7);
  const rayCount = 65536;
  const rays = new Float64Array(rayCount * 6);
  for (let i = 0; i < rayCount; i++) {
    const o = [0, 1, 2].map((a) => lo[a] + size[a] / 2 + (rand() - 0.5) * extent * 3);
    const t = [0, 1, 2].map((a) => lo[a] + rand() * size[a]);
    const d = [t[0] - o[0], t[1] - o[1], t[2] - o[2]];
    const n = Math.hypot(d[0], d[1], d[2]);
    rays.set([o[0], o[1], o[2], d[0] / n, d[1] / n, d[2] / n], i * 6);
  }
  const hit = makeTriangleHit();
  const ray = new Ray();
  let hitsW = 0;
  let hitsT = 0;
  let hitsK = 0;
  const [qw, qt, qk] = interleaved(
    () => {
      hitsW = 0;
      for (let i = 0; i < rays.length; i += 6) {
        if (
          raycastTriangleBvhFirst(
            weft,
            rays[i],
            rays[i + 1],
            rays[i + 2],
            rays[i + 3],
            rays[i + 4],
            rays[i + 5],
            0,
            Infinity,
            hit,
          )
        )
          hitsW++;
      }
    },
    () => {
      hitsT = 0;
      for (let i = 0; i < rays.length; i += 6) {
        ray.origin.set(rays[i], rays[i + 1], rays[i + 2]);
        ray.direction.set(rays[i + 3], rays[i + 4], rays[i + 5]);
        if (sah.raycastFirst(ray, DoubleSide)) hitsT++;
      }
    },
    () => {
      hitsK = 0;
      for (let i = 0; i < rays.length; i += 6) {
        const [ox, oy, oz, dx, dy, dz] = [rays[i], rays[i + 1], rays[i + 2], rays[i + 3], rays[i + 4], rays[i + 5]];
        if (raycastTriangleBvhFirst(compact, ox, oy, oz, dx, dy, dz, 0, Infinity, hit)) hitsK++;
      }
    },
  );
  if (hitsW !== hitsT || hitsK !== hitsT)
    console.error(`${label}: hit counts differ (weft ${hitsW}, compact ${hitsK}, three ${hitsT})`);
  row(label, `query ${rayCount} rays (ms)`, qw.toFixed(1), qt.toFixed(1), qt / qw, 1.5);
  row(label, 'query compact (ms)', qk.toFixed(1), qt.toFixed(1), qt / qk, 1.5);

  // Refit: the same displaced positions written to both (weft reads its copy, three its geometry's attribute).
  const threePositions = centerGeom.getAttribute('position').array as Float32Array;
  const ours = positions.slice();
  weft = buildTriangleBvh(ours, indices);
  const original = positions.slice();
  let phase = 0;
  const displace = (fraction: number) => {
    phase += 0.01;
    const vertexCount = original.length / 3;
    const step = Math.max(1, Math.round(1 / fraction));
    for (let v = 0; v < vertexCount; v += step) {
      const s = 1 + 0.05 * Math.sin(phase + v);
      for (let k = 0; k < 3; k++) {
        ours[v * 3 + k] = original[v * 3 + k] * s;
        threePositions[v * 3 + k] = original[v * 3 + k] * s;
      }
    }
  };
  for (const [name, fraction] of [
    ['refit all moved (ms)', 1],
    ['refit 1 % moved (ms)', 0.01],
  ] as const) {
    const [rw, rt] = interleaved(
      () => {
        displace(fraction);
        refitTriangleBvh(weft, ours, indices);
      },
      () => {
        displace(fraction);
        center.refit();
      },
    );
    row(label, name, rw.toFixed(2), rt.toFixed(2), rt / rw, 1.0);
  }
}

async function main() {
  const only = process.argv[3];
  if (!only || only === 'bunny') benchMesh('bunny', await makeBunnyDataAsync({ fitToUnitBox: false }));
  if (!only || only === 'torus') benchMesh('torus 512k', makeTorusData({ radialSegments: 500, tubularSegments: 512 }));
  const widths = table[0].map((_, c) => Math.max(...table.map((r) => r[c].length)));
  for (const r of table) console.log(`| ${r.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`);
}

await main();
