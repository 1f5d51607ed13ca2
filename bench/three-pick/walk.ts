// The JS a weft-gpu/three pick spends before the GPU sees it, in Node with a precise clock: three's
// `scene.updateMatrixWorld()`, the adapter's walk (collectThreeDrawables) and the seam's sync, on 1 – 10 000 boxes of
// one geometry (Dawn device; a stand-in renderer whose buffers weft cannot bind, so weft keeps one copy, as on
// SwiftShader). Medians of rounds of a steady scene with one mesh moved per round.
//   npx tsx bench/three-pick/walk.ts [rounds (default 60)] [mesh counts, e.g. 1,1000,10000]
import { BoxGeometry, Mesh, MeshBasicMaterial, PerspectiveCamera, Scene } from 'three';
import type { WebGPURenderer } from 'three/webgpu';
import { createEngineAsync, disposeEngine, makePerspectiveCamera } from '../../engine/index.js';
import { collectThreeDrawables, makeThreeDrawables } from '../../hosts/three/three-drawables.js';
import { createDrawableScene, syncDrawableScene } from '../../picking/sources/drawable-scene.js';
import { createBenchGpu } from '../bench-gpu.js';
import { median } from '../bench-timing.js';

const rounds = Number(process.argv[2] ?? 60);
const counts = (process.argv[3] ?? '1,100,1000,10000').split(',').map(Number);

async function main(): Promise<void> {
  const engine = await createEngineAsync(createBenchGpu(), { width: 64, height: 64 });
  // three's backend keeps no GPU buffer for these attributes: weft makes its own copy (bindHostBuffers false).
  const renderer = { backend: { get: () => ({}) } } as unknown as WebGPURenderer;
  for (const count of counts) {
    const scene = new Scene();
    const box = new BoxGeometry(1, 1, 1);
    const material = new MeshBasicMaterial();
    const side = Math.ceil(Math.sqrt(count));
    const meshes: Mesh[] = [];
    for (let i = 0; i < count; i++) {
      const mesh = new Mesh(box, material);
      mesh.position.set((i % side) * 1.6, Math.floor(i / side) * 1.6, 0);
      scene.add(mesh);
      meshes.push(mesh);
    }
    const camera = new PerspectiveCamera(50, 1, 0.1, 500);
    camera.position.set(0, 0, 100);
    camera.updateMatrixWorld();
    const state = makeThreeDrawables(renderer, engine.device, false);
    const target = createDrawableScene<unknown>(engine, makePerspectiveCamera({ position: [0, 0, 60] }));
    const world: number[] = [];
    const walk: number[] = [];
    const sync: number[] = [];
    for (let r = 0; r < rounds + 10; r++) {
      meshes[r % count].position.x += 0.001;
      const t0 = performance.now();
      scene.updateMatrixWorld();
      const t1 = performance.now();
      const list = collectThreeDrawables('bench', state, scene, camera);
      const t2 = performance.now();
      syncDrawableScene(target, list);
      const t3 = performance.now();
      if (r < 10) continue;
      world.push(t1 - t0);
      walk.push(t2 - t1);
      sync.push(t3 - t2);
    }
    const f = (v: number[]) => median(v).toFixed(3);
    console.log(`${count} meshes: updateMatrixWorld ${f(world)} ms, collect ${f(walk)} ms, sync ${f(sync)} ms`);
  }
  disposeEngine(engine);
}

main();
