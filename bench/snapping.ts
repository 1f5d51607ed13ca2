// Snapping cost as ratios measured side by side in one run (run: npm run bench:snap [rounds]).
// Issue #36 item 3's target: a snapping pick (radius 8) costs ≤ 1.5× a detailed pick at the same point.
// NODE_OPTIONS=--expose-gc lets each sample start after a collection.
import { mat4 } from 'wgpu-matrix';
import {
  createBoxMesh,
  createEngineAsync,
  createScene,
  disposeEngine,
  disposeScene,
  type Engine,
  makePerspectiveCamera,
  type Scene,
} from '../engine/index.js';
import {
  createGpuPicker,
  disposeGpuPicker,
  enableDetailedPicking,
  pickAsync,
  pickSnappedAsync,
} from '../picking/index.js';
import { collectGarbage, median, printTable, time, verdict } from './bench-timing.js';
import { createBenchGpu, reportBenchAdapter } from './bench-gpu.js';

const rounds = Number(process.argv[2] ?? 30);
const width = 640;
const height = 480;
const radius = 8;
const target = 1.5;
/** Points near box corners and edges and on faces of the grid, visited in turn by both cases. */
const points = [
  { x: 320, y: 240 },
  { x: 301, y: 222 },
  { x: 347, y: 263 },
  { x: 280, y: 250 },
];

/** `count` boxes on a square grid 1.1 apart, each a mesh of its own, seen obliquely so that edges and corners show. */
function makeGrid(engine: Engine, count: number): Scene {
  const scene = createScene(engine);
  const side = Math.ceil(Math.sqrt(count));
  const extent = side * 1.1;
  scene.camera = makePerspectiveCamera({
    position: [extent * 0.35 + 2, extent * 0.6 + 2, extent * 0.7 + 2],
    target: [0, 0, 0],
    fovY: 0.9,
  });
  for (let i = 0; i < count; i++) {
    const x = ((i % side) - (side - 1) / 2) * 1.1;
    const z = (Math.floor(i / side) - (side - 1) / 2) * 1.1;
    createBoxMesh(
      scene,
      `box${i}`,
      { width: 0.8, height: 0.8, depth: 0.8 },
      { worldMatrix: mat4.multiply(mat4.translation([x, 0.4, z]), mat4.rotationY(0.3 + (i % 7) * 0.1)) },
    );
  }
  return scene;
}

async function main(): Promise<void> {
  const gpu = createBenchGpu();
  const engine = await createEngineAsync(gpu, { width, height });
  reportBenchAdapter(engine);
  const rows: string[][] = [];
  for (const count of [1, 100, 1000]) {
    const scene = makeGrid(engine, count);
    const picker = createGpuPicker(scene);
    enableDetailedPicking(picker);
    let next = 0;
    let snapped = 0;
    const cases: [string, () => Promise<unknown>][] = [
      ['detailed', () => pickAsync(picker, points[next % points.length].x, points[next % points.length].y)],
      [
        'snap',
        async () => {
          const info = await pickSnappedAsync(picker, points[next % points.length].x, points[next % points.length].y, {
            snap: { radius },
          });
          if (info.snapped) snapped++;
        },
      ],
    ];
    for (let i = 0; i < 5; i++) for (const [, run] of cases) await run();
    const samples = cases.map(() => [] as number[]);
    const settle = async () => {
      collectGarbage();
      await new Promise((resolve) => setTimeout(resolve, 10));
      await engine.device.queue.onSubmittedWorkDone();
    };
    snapped = 0;
    // Interleaved so machine noise hits both cases alike; each round moves to the next point.
    for (let r = 0; r < rounds; r++, next++)
      for (let c = 0; c < cases.length; c++) {
        await settle();
        await cases[c][1]();
        await settle();
        samples[c].push(await time(cases[c][1]));
      }
    const [detailed, snap] = samples.map(median);
    const ratio = snap / detailed;
    rows.push([
      `${count} mesh${count === 1 ? '' : 'es'}`,
      `${snapped}/${2 * rounds}`,
      detailed.toFixed(3),
      snap.toFixed(3),
      `${ratio.toFixed(2)}×`,
      `≤ ${target}×`,
      verdict(ratio, target, 'atMost'),
    ]);
    disposeGpuPicker(picker);
    disposeScene(scene);
  }
  console.log(
    `\nsnapping pick (radius ${radius}: a ${2 * radius + 1}² block with detail) vs a detailed pickAsync at the same point, ${width}×${height} on Dawn (medians of ${rounds} interleaved rounds, ms)`,
  );
  printTable(['scene', 'snapped', 'detailed', 'snap', 'snap/detailed', 'TARGET', 'status'], rows);
  disposeEngine(engine);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
