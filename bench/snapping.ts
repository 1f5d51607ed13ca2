// Snapping cost as ratios measured side by side in one run (run: npm run bench:snap [rounds]).
// Issue #36 item 3's target: a snapping pick (radius 8) costs ≤ 1.5× a detailed pick at the same point.
// NODE_OPTIONS=--expose-gc lets each sample start after a collection.
import { createEngineAsync, disposeEngine, disposeScene } from '../engine/index.js';
import { createGpuPicker, disposeGpuPicker, enableDetailedPicking, pickAsync } from '../picking/index.js';
import { snapPickAsync } from '../picking/snap/pick-snapped-async.js';
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
    // A second picker that never snaps: point picks on the first must cost what they cost here.
    const pointOnly = createGpuPicker(scene);
    enableDetailedPicking(pointOnly);
    let next = 0;
    let snapped = 0;
    const at = () => points[next % points.length];
    const cases: [string, () => Promise<unknown>][] = [
      ['detailed', () => pickAsync(picker, at().x, at().y)],
      ['detailed, never snapped', () => pickAsync(pointOnly, at().x, at().y)],
      // The floor: the same block pass and readback, no snapping on the CPU.
      ['block only', () => snapPickAsync(picker, at().x, at().y, { snap: { radius } }, 'bench', true)],
      [
        'snap',
        async () => {
          const info = await pickAsync(picker, at().x, at().y, { snap: { radius } });
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
    // Interleaved so machine noise hits every case alike; each round moves to the next point.
    for (let r = 0; r < rounds; r++, next++)
      for (let c = 0; c < cases.length; c++) {
        await settle();
        await cases[c][1]();
        await settle();
        samples[c].push(await time(cases[c][1]));
      }
    const [detailed, fresh, block, snap] = samples.map(median);
    const ratio = snap / detailed;
    rows.push([
      `${count} mesh${count === 1 ? '' : 'es'}`,
      `${snapped}/${2 * rounds}`,
      detailed.toFixed(3),
      fresh.toFixed(3),
      block.toFixed(3),
      snap.toFixed(3),
      `${(block / detailed).toFixed(2)}×`,
      `${ratio.toFixed(2)}×`,
      `≤ ${target}×`,
      verdict(ratio, target, 'atMost'),
    ]);
    disposeGpuPicker(picker);
    disposeGpuPicker(pointOnly);
    disposeScene(scene);
  }
  console.log(
    `\nsnapping pick (pickAsync with snap, radius ${radius}: a ${2 * radius + 1}² block with detail) vs a detailed pickAsync at the same point, ${width}×${height} on Dawn (medians of ${rounds} interleaved rounds, ms; "never snapped": a picker that never snaps; "block only": the snap's pass and readback without the CPU snapping)`,
  );
  printTable(
    [
      'scene',
      'snapped',
      'detailed',
      'never snapped',
      'block only',
      'snap',
      'block/detailed',
      'snap/detailed',
      'TARGET',
      'status',
    ],
    rows,
  );
  disposeEngine(engine);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
