/**
 * CPU picking vs three.js 0.187 + three-mesh-bvh 0.9.17, on three-mesh-bvh's own terms (issue #17 item 5):
 * - meshes: the `bunny` package's data as is, a 500 000-triangle torus, a 10 000-object scene;
 * - rays: coherent ones from a camera built by three.js (Raycaster.setFromCamera over a pixel grid) and incoherent
 *   random ones, the same for both libraries; "pick from a pixel" lets each library make its own ray;
 * - three-mesh-bvh as its users call it: `new MeshBVH(geometry)` (CENTER) and SAH, `raycastFirst`, Raycaster with
 *   `firstHitOnly` + `acceleratedRaycast`, `refit()`, ObjectBVH;
 * - medians of interleaved rounds (weft, three, weft, three, …) after warm-up rounds, GC before every sample;
 * - answers checked on every benched ray before timing (a disagreement stops the bench).
 * Ratios: weft speed / three speed (> 1: weft faster); memory: weft bytes / three bytes.
 * - the big mesh again by TriangleBvhLayout (build, memory, queries of each layout, interleaved with one another);
 * Run: npm run bench:cpu [-- rounds]   (NODE_OPTIONS=--expose-gc tsx bench/cpu-pick.ts [rounds], default 7)
 */
import { benchQueries, querySink } from './cpu-pick/mesh-query.js';
import { benchBuild, benchRefit } from './cpu-pick/mesh-build.js';
import { benchLayouts } from './cpu-pick/layout-rows.js';
import {
  boundsOf,
  cameraRays,
  loadRawBunny,
  makeBigMesh,
  makeCameraPair,
  type MeshCase,
  randomRays,
  threeGeometry,
} from './cpu-pick/data.js';
import { type BenchConfig, gcExposed, printTable, type Row } from './cpu-pick/harness.js';
import { benchScene } from './cpu-pick/scene-rows.js';

const rounds = Number(process.argv[2] ?? 7);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`rounds ${process.argv[2]} must be a positive integer`);
const config: BenchConfig = { rounds, warmUp: 1 };
const rows: Row[] = [];
const started = performance.now();

function benchMesh(c: MeshCase, coherentSize: [number, number], randomCount: number, byLayout = false): void {
  const built = benchBuild(
    c,
    threeGeometry(c.positions, c.indices),
    threeGeometry(c.positions, c.indices),
    config,
    rows,
  );
  const { centre, extent } = boundsOf(c.positions);
  const camera = makeCameraPair(centre, extent * 1.6, coherentSize[0], coherentSize[1]);
  const raySets = [
    { kind: 'camera rays', rays: cameraRays(camera) },
    { kind: 'random rays', rays: randomRays(centre, extent, randomCount, 7) },
  ];
  benchQueries(c, built.weft, built.sah, built.center, camera, raySets, config, rows);
  benchRefit(c, built, centre, extent, config, rows);
  if (byLayout) benchLayouts(c, built.sah, raySets, config, rows);
}

benchMesh(await loadRawBunny(), [256, 192], 32768);
benchMesh(makeBigMesh(), [256, 192], 32768, true);
benchScene(10_000, config, rows);

console.log(
  `CPU picking, weft vs three-mesh-bvh 0.9.17 (three 0.187): medians of ${rounds} interleaved rounds after ${config.warmUp} warm-up rounds, ${gcExposed ? 'GC before every sample' : 'NO GC between samples (run with NODE_OPTIONS=--expose-gc)'}; ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
printTable(rows);
if (querySink() < 0) console.log('');
