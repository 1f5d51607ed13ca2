/**
 * The by-layout rows of bench:cpu alone (issue #33 item 3), for more rounds than the full bench affords: every
 * TriangleBvhLayout's build, memory and first-hit queries on the 500k-triangle torus, interleaved with one another and
 * with three-mesh-bvh (CENTER build, SAH queries).
 * Run: NODE_OPTIONS=--expose-gc npx tsx bench/cpu-pick-layouts.ts [rounds]   (default 9)
 */
import { MeshBVH, SAH } from 'three-mesh-bvh';
import { boundsOf, cameraRays, makeBigMesh, makeCameraPair, randomRays, threeGeometry } from './cpu-pick/data.js';
import { type BenchConfig, gcExposed, printTable, type Row } from './cpu-pick/harness.js';
import { benchLayouts } from './cpu-pick/layout-rows.js';
import { querySink } from './cpu-pick/mesh-query.js';

const rounds = Number(process.argv[2] ?? 9);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`rounds ${process.argv[2]} must be a positive integer`);
const config: BenchConfig = { rounds, warmUp: 1 };
const rows: Row[] = [];
const c = makeBigMesh();
const sah = new MeshBVH(threeGeometry(c.positions, c.indices), { strategy: SAH });
const { centre, extent } = boundsOf(c.positions);
const camera = makeCameraPair(centre, extent * 1.6, 256, 192);
const raySets = [
  { kind: 'camera rays', rays: cameraRays(camera) },
  { kind: 'random rays', rays: randomRays(centre, extent, 32768, 7) },
];
benchLayouts(c, sah, raySets, config, rows);
console.log(
  `Triangle BVH layouts vs three-mesh-bvh 0.9.17: medians of ${rounds} interleaved rounds, ${gcExposed ? 'GC before every sample' : 'NO GC between samples'}`,
);
printTable(rows);
if (querySink() < 0) console.log('');
