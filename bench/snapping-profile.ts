// One case of the snapping benchmark in a loop, to profile it: tsx bench/snapping-profile.ts <meshes> <case> [picks]
// with case 'snap' (pickAsync with snap, radius 8), 'block' (the snap's pass and readback without the CPU snapping) or
// 'detailed' (a detailed pickAsync), e.g. under
// NODE_OPTIONS='--cpu-prof --cpu-prof-dir=/tmp/prof'. Prints the mean time per pick.
import { createEngineAsync, disposeEngine, disposeScene } from '../engine/index.js';
import { createGpuPicker, disposeGpuPicker, enableDetailedPicking, pickAsync } from '../picking/index.js';
import { snapPickAsync } from '../picking/snap/pick-snapped-async.js';
import { createBenchGpu, reportBenchAdapter } from './bench-gpu.js';
import { makeSnapGrid, snapBenchPoints as points } from './snapping-scene.js';

const count = Number(process.argv[2] ?? 100);
const which = process.argv[3] ?? 'snap';
const picks = Number(process.argv[4] ?? 400);

async function main(): Promise<void> {
  const engine = await createEngineAsync(createBenchGpu(), { width: 640, height: 480 });
  reportBenchAdapter(engine);
  const scene = makeSnapGrid(engine, count);
  const picker = createGpuPicker(scene);
  enableDetailedPicking(picker);
  const options = which === 'detailed' ? undefined : { snap: { radius: 8 } };
  const pick = (i: number) => {
    const { x, y } = points[i % points.length];
    return which === 'block' ? snapPickAsync(picker, x, y, options, 'bench', true) : pickAsync(picker, x, y, options);
  };
  for (let i = 0; i < 10; i++) await pick(i);
  const start = performance.now();
  for (let i = 0; i < picks; i++) await pick(i);
  console.log(`${which}, ${count} meshes: ${((performance.now() - start) / picks).toFixed(3)} ms per pick`);
  disposeGpuPicker(picker);
  disposeScene(scene);
  disposeEngine(engine);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
