// The JS a weft-gpu/three pick spends before the GPU sees it, in Node with a precise clock: three's
// `scene.updateMatrixWorld()`, the adapter's walk (collectThreeDrawables) and the seam's sync, on 1 – 10 000 boxes of
// one geometry (Dawn device; a stand-in renderer whose buffers weft cannot bind, so weft keeps one copy, as on
// SwiftShader). Medians of rounds of a steady scene with one mesh moved per round. The floor is the least walk of what
// three draws (bareWalk: visibility, layers, geometry, material); three's own per-frame walk (threeFrameWalk), collect
// and sync are printed as multiples of it. Last, per round on their own caches: the adapter's pick path now (the fused
// walk that updates only what moved, then the sync taking the walk's steady places as they are) against the path
// before it (three's updateMatrixWorld, the walk — this version's, which then finds every matrix as it left it — and a
// sync that checks every drawable), each once with warm caches and once right after reading 64 MiB (caches cold, as
// after a frame's work or a Raycaster pass in a page). First on each line: a steady pick's walk and sync (nothing changed
// since the last) beside the reads of the scene any correct walk must make (host-read-floors.ts).
//   npx tsx bench/three-pick/walk.ts [rounds (default 60)] [mesh counts, e.g. 1,1000,10000]
import {
  BoxGeometry,
  type Camera,
  Matrix4,
  Mesh,
  MeshBasicMaterial,
  type Object3D,
  PerspectiveCamera,
  Scene,
  Vector4,
} from 'three';
import type { WebGPURenderer } from 'three/webgpu';
import { createEngineAsync, disposeEngine, makePerspectiveCamera } from '../../engine/index.js';
import { collectThreeDrawables, makeThreeDrawables } from '../../hosts/three/three-drawables.js';
import {
  createDrawableScene,
  syncDrawableScene,
  syncDrawableSceneHinted,
} from '../../picking/sources/drawable-scene.js';
import { createBenchGpu } from '../bench-gpu.js';
import { evictCaches, median } from '../bench-timing.js';
import { threeSteadyReads } from '../host-read-floors.js';

const rounds = Number(process.argv[2] ?? 60);
const counts = (process.argv[3] ?? '1,100,1000,10000').split(',').map(Number);

/** A render item as three's RenderList keeps them: made once, rewritten each frame. */
interface FrameItem {
  object: Object3D;
  geometry: unknown;
  material: unknown;
  z: number;
}

/**
 * What three's renderer does per object each frame before it draws (the WebGPU renderer's `project`, frustum culling
 * left out as picking leaves it out): skip hidden subtrees, test layers, and for each mesh read its geometry and
 * material, place its bounding-sphere centre in clip space for sorting and write a reused render item. Returns the
 * item count.
 */
function threeFrameWalk(object: Object3D, camera: Camera, viewProjection: Matrix4, items: FrameItem[], count: number) {
  if (object.visible === false) return count;
  if (object.layers.test(camera.layers) && (object as Mesh).isMesh) {
    const { geometry, material } = object as Mesh;
    if (geometry.boundingSphere === null) geometry.computeBoundingSphere();
    const z = centre.copy(geometry.boundingSphere!.center as unknown as Vector4);
    z.w = 1;
    z.applyMatrix4(object.matrixWorld).applyMatrix4(viewProjection);
    if ((material as MeshBasicMaterial).visible) {
      const item = (items[count] ??= { object, geometry, material, z: 0 });
      item.object = object;
      item.geometry = geometry;
      item.material = material;
      item.z = z.z;
      count++;
    }
  }
  const children = object.children;
  for (let i = 0; i < children.length; i++) count = threeFrameWalk(children[i], camera, viewProjection, items, count);
  return count;
}
const centre = new Vector4();

/** The least a walk of what three draws reads: visibility, layers, the mesh's geometry and material; no render item. */
function bareWalk(object: Object3D, camera: Camera, count: number): number {
  if (object.visible === false) return count;
  if (object.layers.test(camera.layers) && (object as Mesh).isMesh) {
    const { geometry, material } = object as Mesh;
    if (geometry !== null && (material as MeshBasicMaterial).visible) count++;
  }
  const children = object.children;
  for (let i = 0; i < children.length; i++) count = bareWalk(children[i], camera, count);
  return count;
}

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
    const viewProjection = new Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
    const items: FrameItem[] = [];
    const state = makeThreeDrawables(renderer, engine.device, false);
    const target = createDrawableScene<unknown>(engine, makePerspectiveCamera({ position: [0, 0, 60] }));
    const fusedState = makeThreeDrawables(renderer, engine.device, false);
    const fusedTarget = createDrawableScene<unknown>(engine, makePerspectiveCamera({ position: [0, 0, 60] }));
    const oldState = makeThreeDrawables(renderer, engine.device, false);
    const oldTarget = createDrawableScene<unknown>(engine, makePerspectiveCamera({ position: [0, 0, 60] }));
    const fused: number[] = [];
    const old: number[] = [];
    const fusedCold: number[] = [];
    const oldCold: number[] = [];
    const world: number[] = [];
    const bare: number[] = [];
    const frame: number[] = [];
    const walk: number[] = [];
    const sync: number[] = [];
    const steadyWalk: number[] = [];
    const reads: number[] = [];
    let readSum = 0;
    for (let r = 0; r < rounds + 10; r++) {
      meshes[r % count].position.x += 0.001;
      // The fused path first: it finds the moved mesh's matrix still to update, as a pick does.
      const f0 = performance.now();
      syncDrawableSceneHinted(fusedTarget, collectThreeDrawables('bench', fusedState, scene, camera), fusedState);
      const f1 = performance.now();
      scene.updateMatrixWorld();
      syncDrawableScene(oldTarget, collectThreeDrawables('bench', oldState, scene, camera));
      const f2 = performance.now();
      meshes[(r + 1) % count].position.y += 0.001;
      evictCaches();
      const c0 = performance.now();
      syncDrawableSceneHinted(fusedTarget, collectThreeDrawables('bench', fusedState, scene, camera), fusedState);
      const c1 = performance.now();
      evictCaches();
      const c2 = performance.now();
      scene.updateMatrixWorld();
      syncDrawableScene(oldTarget, collectThreeDrawables('bench', oldState, scene, camera));
      const c3 = performance.now();
      // A steady pick's walk (nothing changed since the last) beside the reads any correct walk must make.
      const s0 = performance.now();
      syncDrawableSceneHinted(fusedTarget, collectThreeDrawables('bench', fusedState, scene, camera), fusedState);
      const s1 = performance.now();
      readSum += threeSteadyReads(scene, camera.layers.mask);
      const s2 = performance.now();
      // Each walk starts where a pick does, right after three's matrix update (which leaves the caches as it likes).
      const t0 = performance.now();
      scene.updateMatrixWorld();
      const t1 = performance.now();
      const seen = bareWalk(scene, camera, 0);
      const t2 = performance.now();
      scene.updateMatrixWorld();
      const t3 = performance.now();
      const listed = threeFrameWalk(scene, camera, viewProjection, items, 0);
      const t4 = performance.now();
      scene.updateMatrixWorld();
      const t5 = performance.now();
      const list = collectThreeDrawables('bench', state, scene, camera);
      const t6 = performance.now();
      syncDrawableScene(target, list);
      const t7 = performance.now();
      if (listed !== list.length || seen !== listed)
        throw new Error(`three's walk lists ${listed} meshes, the adapter ${list.length}`);
      if (r < 10) continue;
      world.push(t1 - t0);
      bare.push(t2 - t1);
      frame.push(t4 - t3);
      walk.push(t6 - t5);
      sync.push(t7 - t6);
      fused.push(f1 - f0);
      old.push(f2 - f1);
      fusedCold.push(c1 - c0);
      oldCold.push(c3 - c2);
      steadyWalk.push(s1 - s0);
      reads.push(s2 - s1);
    }
    const floor = median(bare);
    const f = (v: number[]) => `${median(v).toFixed(3)} ms (${(median(v) / floor).toFixed(1)}× floor)`;
    if (!(readSum > 0)) throw new Error('the reads read nothing');
    console.log(
      `${count} meshes: steady walk + hinted sync ${median(steadyWalk).toFixed(3)} ms, reads ${median(reads).toFixed(3)} ms (${(median(steadyWalk) / median(reads)).toFixed(2)}×); updateMatrixWorld ${median(world).toFixed(3)} ms, floor (bare walk) ${floor.toFixed(3)} ms, three's frame walk ${f(frame)}, collect ${f(walk)}, sync ${f(sync)}; fused walk + hinted sync ${median(fused).toFixed(3)} ms vs updateMatrixWorld + collect + sync ${median(old).toFixed(3)} ms (${(median(old) / median(fused)).toFixed(1)}×); caches cold: ${median(fusedCold).toFixed(3)} ms vs ${median(oldCold).toFixed(3)} ms (${(median(oldCold) / median(fusedCold)).toFixed(1)}×)`,
    );
  }
  disposeEngine(engine);
}

main();
