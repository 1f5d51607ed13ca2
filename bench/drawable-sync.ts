// The JS of the pick-source seam on a steady host scene: `syncDrawableScene` over 10 000 drawables that share one
// geometry (what the three.js and Babylon.js adapters hand it every pick), with world matrices compared by value
// (three.js) or held by a version (Babylon.js's updateFlag), and one drawable moved per sync. Medians of syncs, in
// Node on Dawn.   npx tsx bench/drawable-sync.ts [syncs] [drawable counts, e.g. 1000,10000]
import { createEngineAsync, disposeEngine } from '../engine/index.js';
import { createDrawableScene, disposeDrawableScene, type PickDrawable, syncDrawableScene } from '../picking/index.js';
import { createBenchGpu } from './bench-gpu.js';
import { median } from './bench-timing.js';

const syncs = Number(process.argv[2] ?? 100);
const counts = (process.argv[3] ?? '1000,10000').split(',').map(Number);

async function main(): Promise<void> {
  const engine = await createEngineAsync(createBenchGpu(), { width: 64, height: 64 });
  const device = engine.device;
  // A unit box: 8 corners, 12 triangles.
  const positions = new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]);
  const indices = new Uint16Array([
    0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3,
  ]);
  const vertexBuffer = device.createBuffer({ size: 96, usage: GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE });
  const indexBuffer = device.createBuffer({ size: 72, usage: GPUBufferUsage.INDEX | GPUBufferUsage.STORAGE });
  const vertexBuffers = [
    {
      buffer: vertexBuffer,
      data: positions,
      arrayStride: 12,
      attributes: { position: { format: 'float32x3', offset: 0 } },
    },
  ] as const;
  for (const versioned of [false, true])
    for (const count of counts) {
      const target = createDrawableScene<number>(engine);
      const drawables: PickDrawable<number>[] = Array.from({ length: count }, (_, i) => {
        const world = new Float64Array(16);
        world[0] = world[5] = world[10] = world[15] = 1;
        world[12] = i % 100;
        world[13] = Math.floor(i / 100);
        return {
          object: i,
          name: `box${i}`,
          vertexBuffers,
          index: { buffer: indexBuffer, data: indices },
          worldMatrix: world,
          ...(versioned ? { worldMatrixVersion: 0 } : {}),
        };
      });
      syncDrawableScene(target, drawables);
      const times: number[] = [];
      for (let s = 0; s < syncs + 5; s++) {
        const moved = drawables[s % count];
        (moved.worldMatrix as Float64Array)[14] += 0.001;
        if (versioned) moved.worldMatrixVersion = (moved.worldMatrixVersion ?? 0) + 1;
        const t0 = performance.now();
        syncDrawableScene(target, drawables);
        if (s >= 5) times.push(performance.now() - t0);
      }
      console.log(
        `${count} drawables, world ${versioned ? 'versioned' : 'by value'}: sync ${median(times).toFixed(3)} ms (${((median(times) * 1e6) / count).toFixed(0)} ns each)`,
      );
      disposeDrawableScene(target);
    }
  disposeEngine(engine);
}

main();
