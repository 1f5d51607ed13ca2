// Pick latency among many thin instances on one mesh vs separate meshes (run: npm run bench:instances, or
// NODE_OPTIONS=--expose-gc npx tsx bench/instances.ts [rounds] [mesh counts]).
// Target: a warm pick among 1 000 000 thin instances costs ≤ 2× a pick among 1 000.
import { mat4 } from 'wgpu-matrix';
import {
  createBoxMesh,
  createEngineAsync,
  createScene,
  disposeEngine,
  type Engine,
  makePerspectiveCamera,
  type Scene,
  setThinInstances,
} from '../engine/index.js';
import { createGpuPicker, type GpuPicker, pickAsync } from '../picking/index.js';
import { collectGarbage, median, printTable, time, verdict } from './bench-timing.js';
import { createBenchGpu, reportBenchAdapter } from './bench-gpu.js';

const rounds = Number(process.argv[2] ?? 30);
const instanceCounts = [1000, 100_000, 1_000_000];
const meshCounts = (process.argv[3] ?? '1000,100000').split(',').map(Number);

/** Grid cell i of a side × side grid, 0.9 apart, centred on the origin (cell `side/2, side/2` is at the centre). */
function cell(i: number, side: number): [number, number, number] {
  return [((i % side) - Math.floor(side / 2)) * 0.9, 0, (Math.floor(i / side) - Math.floor(side / 2)) * 0.9];
}

function makeCamera(scene: Scene): void {
  scene.camera = makePerspectiveCamera({ position: [0, 60, 0.01], target: [0, 0, 0], fovY: 1.2 });
}

/** One box mesh with `count` thin instances on a grid. */
function makeInstancedScene(engine: Engine, count: number): Scene {
  const scene = createScene(engine);
  makeCamera(scene);
  const side = Math.ceil(Math.sqrt(count));
  const matrices = new Float32Array(count * 16);
  for (let i = 0; i < count; i++) matrices.set(mat4.translation(cell(i, side)), i * 16);
  createBoxMesh(scene, 'boxes', { width: 0.4, height: 0.4, depth: 0.4 }, { thinInstances: matrices });
  return scene;
}

/** `count` separate box meshes on the same grid. */
function makeMeshScene(engine: Engine, count: number): Scene {
  const scene = createScene(engine);
  makeCamera(scene);
  const side = Math.ceil(Math.sqrt(count));
  for (let i = 0; i < count; i++)
    createBoxMesh(
      scene,
      `box${i}`,
      { width: 0.4, height: 0.4, depth: 0.4 },
      { worldMatrix: mat4.translation(cell(i, side)) },
    );
  return scene;
}

async function main(): Promise<void> {
  const gpu = createBenchGpu();
  const engine = await createEngineAsync(gpu, { width: 512, height: 512 });
  reportBenchAdapter(engine);
  const cases: {
    label: string;
    picker: GpuPicker;
    first: number;
    samples: number[];
    hit: string;
    moved: string;
  }[] = [];
  const add = async (label: string, scene: Scene) => {
    const picker = createGpuPicker(scene);
    const first = await time(() => pickAsync(picker, 256, 256));
    for (let i = 0; i < 5; i++) await pickAsync(picker, 256, 256);
    const hit = await pickAsync(picker, 256, 256);
    const name = hit.hit ? `${hit.pickedMesh!.name}#${hit.thinInstanceIndex}` : 'miss';
    cases.push({ label, picker, first, samples: [], hit: name, moved: '' });
  };
  for (const count of instanceCounts) await add(`${count} instances`, makeInstancedScene(engine, count));
  for (const count of meshCounts) await add(`${count} meshes`, makeMeshScene(engine, count));
  // Interleaved so machine noise hits every case alike.
  for (let r = 0; r < rounds; r++)
    for (const c of cases) {
      collectGarbage();
      c.samples.push(await time(() => pickAsync(c.picker, 256, 256)));
    }
  // One move of every instance (same count: a refit of the entries and the hierarchy, no structural rebuild).
  for (const c of cases) {
    const mesh = c.picker.scene.meshes[0];
    if (!mesh.thinInstances || c.picker.scene.meshes.length !== 1) continue;
    const moved = mesh.thinInstances.slice();
    for (let i = 0; i < mesh.thinInstanceCount; i++) moved[i * 16 + 13] += 0.05;
    c.moved = (
      await time(async () => {
        setThinInstances(mesh, moved);
        await pickAsync(c.picker, 256, 256);
      })
    ).toFixed(1);
  }
  const base = median(cases[0].samples);
  console.log(`warm pickAsync (pre-filter on), medians of ${rounds} interleaved rounds after warm-up, ms`);
  console.log('target: 1 000 000 instances ≤ 2× 1 000 instances');
  const rows = cases.map((c) => {
    const ratio = median(c.samples) / base;
    const target = c.label === '1000000 instances' ? `≤ 2× (${verdict(ratio, 2, 'atMost')})` : '-';
    return [
      c.label,
      c.hit,
      c.first.toFixed(1),
      median(c.samples).toFixed(3),
      `${ratio.toFixed(2)}×`,
      target,
      c.moved || '-',
    ];
  });
  printTable(['scene', 'hit', 'first pick', 'warm pick', 'vs 1 000 inst.', 'target', 'move + pick'], rows);
  disposeEngine(engine);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
