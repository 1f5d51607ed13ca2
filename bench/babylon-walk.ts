// The JS a weft-gpu/babylon pick spends before the GPU sees it: the walk of a Babylon.js scene into pick drawables and
// the seam's sync, at 1 000 and 10 000 cloned boxes, in Node (Babylon.js's NullEngine; Dawn GPU buffers stand in for
// the WebGPUEngine's). Medians (and fastest) of rounds, steady scene and one moved mesh per round: on a shared machine the
// fastest round is the one least disturbed by other processes.
//   npx tsx bench/babylon-walk.ts [rounds] [mesh counts, e.g. 1000,10000]
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { Scene } from '@babylonjs/core/scene.js';
import { createEngineAsync, disposeEngine, makePerspectiveCamera } from '../engine/index.js';
import { makeSceneWalk, walkBabylonScene } from '../hosts/babylon/babylon-drawables.js';
import { makeOwnedBuffers } from '../hosts/owned-buffers.js';
import { createDrawableScene, syncDrawableScene } from '../picking/sources/drawable-scene.js';
import { createBenchGpu } from './bench-gpu.js';
import { median } from './bench-timing.js';

const rounds = Number(process.argv[2] ?? 40);
const counts = (process.argv[3] ?? '1000,10000').split(',').map(Number);

function standIn(data: object, buffer: GPUBuffer): void {
  Object.defineProperty(data, 'underlyingResource', { value: buffer });
}

async function main(): Promise<void> {
  const engine = await createEngineAsync(createBenchGpu(), { width: 64, height: 64 });
  const device = engine.device;
  for (const count of counts) {
    const babylon = new NullEngine();
    const scene = new Scene(babylon);
    const camera = new FreeCamera('camera', new Vector3(0, 0, 60), scene);
    camera.setTarget(Vector3.Zero());
    const first = CreateBox('box0', { size: 0.4 }, scene);
    const side = Math.ceil(Math.sqrt(count));
    const meshes: Mesh[] = [];
    for (let i = 0; i < count; i++) {
      const mesh = i === 0 ? first : first.clone(`box${i}`);
      mesh.position.set((i % side) - side / 2, Math.floor(i / side) - side / 2, 0);
      meshes.push(mesh);
    }
    // The WebGPUEngine's buffers are GPUBuffers; NullEngine's hold nothing, so give them Dawn's.
    for (const kind of ['position', 'normal', 'uv']) {
      const vb = first.getVertexBuffer(kind);
      const data = vb?.getBuffer();
      if (data)
        standIn(data, device.createBuffer({ size: 4096, usage: GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE }));
    }
    const index = first.geometry?.getIndexBuffer();
    if (index)
      standIn(index, device.createBuffer({ size: 4096, usage: GPUBufferUsage.INDEX | GPUBufferUsage.STORAGE }));
    scene.render();
    const walk = makeSceneWalk();
    const owned = makeOwnedBuffers(device, 'bench');
    const drawables = createDrawableScene<unknown>(
      engine,
      makePerspectiveCamera({ position: [0, 0, 60], target: [0, 0, 0] }),
    );
    const walkTimes: number[] = [];
    const syncTimes: number[] = [];
    for (let r = 0; r < rounds + 5; r++) {
      meshes[r % count].position.x += 0.001;
      const t0 = performance.now();
      const list = walkBabylonScene('bench', walk, scene, camera, owned, null);
      const t1 = performance.now();
      syncDrawableScene(drawables, list);
      const t2 = performance.now();
      if (r >= 5) {
        walkTimes.push(t1 - t0);
        syncTimes.push(t2 - t1);
      }
    }
    const ms = (times: number[]) => `${median(times).toFixed(3)} ms (fastest ${Math.min(...times).toFixed(3)})`;
    console.log(`${count} meshes: walk ${ms(walkTimes)}, sync ${ms(syncTimes)}`);
    scene.dispose();
    babylon.dispose();
  }
  disposeEngine(engine);
}

main();
