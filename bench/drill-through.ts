// Drill-through cost as ratios measured side by side in one run (run: npm run bench:drill [rounds]).
// Issue #36 item 2's target: pickAllAsync with max 8 over a pixel with >= 8 layers costs <= 4x a single pickAsync.
// NODE_OPTIONS=--expose-gc lets each sample start after a collection.
import { mat4 } from 'wgpu-matrix';
import {
  createBoxMesh,
  createEngineAsync,
  createScene,
  disposeEngine,
  type Engine,
  makePerspectiveCamera,
  type Scene,
} from '../engine/index.js';
import { createGpuPicker, enableDetailedPicking, type GpuPicker, pickAllAsync, pickAsync } from '../picking/index.js';
import { median, printTable, time, verdict } from './bench-timing.js';
import { createBenchGpu, reportBenchAdapter } from './bench-gpu.js';

const rounds = Number(process.argv[2] ?? 20);
const width = 640;
const height = 480;
const target = 4;
const layers = 8;
/** Boxes stacked along the view axis under the centre pixel: 10 boxes, 20 faces with culling 'none'. */
const stacked = 10;
const centre = { x: width / 2, y: height / 2 };

/** The stack under the centre pixel: one thin-instanced mesh, or `stacked` meshes; `others` more boxes around it. */
function makeScene(engine: Engine, separateMeshes: boolean, others: number): Scene {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [0.05, 0.07, 30], target: [0, 0, 0], fovY: 0.8 });
  const size = { width: 1, height: 1, depth: 0.5 };
  const depthOf = (i: number) => (i - stacked / 2) * 1.5;
  if (separateMeshes) {
    for (let i = 0; i < stacked; i++)
      createBoxMesh(scene, `stack${i}`, size, { worldMatrix: mat4.translation([0, 0, depthOf(i)]) });
  } else {
    const matrices = new Float32Array(stacked * 16);
    for (let i = 0; i < stacked; i++) matrices.set(mat4.translation([0, 0, depthOf(i)]), i * 16);
    createBoxMesh(scene, 'stack', size, { thinInstances: matrices });
  }
  // The others on a grid in the plane of the stack, none under the centre pixel.
  const side = Math.ceil(Math.sqrt(others + 1));
  for (let i = 0, placed = 0; placed < others; i++) {
    const x = (i % side) - Math.floor(side / 2);
    const y = Math.floor(i / side) - Math.floor(side / 2);
    if (x === 0 && y === 0) continue;
    createBoxMesh(
      scene,
      `other${placed++}`,
      { width: 0.4, height: 0.4, depth: 0.4 },
      {
        worldMatrix: mat4.translation([x * 1.2, y * 1.2, 0]),
      },
    );
  }
  return scene;
}

async function main(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const gpu = createBenchGpu();
  const engine = await createEngineAsync(gpu, { width, height });
  reportBenchAdapter(engine);
  const rows: string[][] = [];
  const scenes: [string, boolean, number][] = [
    ['1 mesh (10 thin instances)', false, 0],
    ['10 meshes', true, 0],
    ['1000 meshes (10 stacked)', true, 990],
  ];
  for (const [name, separate, others] of scenes)
    for (const detailed of [false, true]) {
      const scene = makeScene(engine, separate, others);
      const picker: GpuPicker = createGpuPicker(scene);
      if (detailed) enableDetailedPicking(picker);
      const found = await pickAllAsync(picker, centre.x, centre.y, { max: layers });
      if (found.length !== layers) throw new Error(`${name}: ${found.length} layers under the centre, not ${layers}`);
      const cases: [string, () => Promise<unknown>][] = [
        ['single', () => pickAsync(picker, centre.x, centre.y)],
        ['all', () => pickAllAsync(picker, centre.x, centre.y, { max: layers })],
        ['all 1', () => pickAllAsync(picker, centre.x, centre.y, { max: 1 })],
      ];
      for (let i = 0; i < 5; i++) for (const [, run] of cases) await run();
      const samples = cases.map(() => [] as number[]);
      const settle = async () => {
        gc?.();
        await new Promise((resolve) => setTimeout(resolve, 10));
        await engine.device.queue.onSubmittedWorkDone();
      };
      // Interleaved so machine noise hits every case alike; each timed call follows an untimed one of the same case.
      for (let r = 0; r < rounds; r++)
        for (let c = 0; c < cases.length; c++) {
          await settle();
          await cases[c][1]();
          await settle();
          samples[c].push(await time(cases[c][1]));
        }
      const [single, all, one] = samples.map(median);
      const ratio = all / single;
      rows.push([
        name,
        detailed ? 'detailed' : 'basic',
        String(found.length),
        single.toFixed(3),
        one.toFixed(3),
        all.toFixed(3),
        `${(one / single).toFixed(2)}×`,
        `${ratio.toFixed(2)}×`,
        `≤ ${target}×`,
        verdict(ratio, target, 'atMost'),
      ]);
    }
  console.log(
    `\ndrill-through (pickAllAsync max ${layers}) vs a single pickAsync at the centre pixel, ${width}×${height} on Dawn (medians of ${rounds} interleaved rounds, ms${gc ? ', GC between samples' : ''})`,
  );
  console.log(`all 1 = pickAllAsync max 1 (one peel pass: the fixed cost of the drill path)`);
  printTable(
    ['scene', 'mode', 'layers', 'single', 'all 1', `all ${layers}`, 'all1/single', 'all/single', 'TARGET', 'status'],
    rows,
  );
  disposeEngine(engine);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
