// Snapping cost as ratios measured side by side in one run (run: npm run bench:snap [rounds]).
// Issue #36 item 3's target: a snapping pick (radius 8) costs ≤ 1.5× a detailed pick at the same point.
// NODE_OPTIONS=--expose-gc lets each sample start after a collection.
import { createEngineAsync, disposeEngine, disposeScene } from '../engine/index.js';
import {
  createGpuPicker,
  disposeGpuPicker,
  enableDetailedPicking,
  pickAsync,
  pickSnappedAsync,
} from '../picking/index.js';
import { collectGarbage, median, printTable, time, verdict } from './bench-timing.js';
import { createBenchGpu, reportBenchAdapter } from './bench-gpu.js';
import { makeSnapGrid as makeGrid, snapBenchPoints as points } from './snapping-scene.js';

const rounds = Number(process.argv[2] ?? 30);
const width = 640;
const height = 480;
const radius = 8;
const target = 1.5;

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
