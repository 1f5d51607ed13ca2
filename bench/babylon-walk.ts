// The JS a weft-gpu/babylon pick spends before the GPU sees it — the walk of a Babylon.js scene into pick drawables and
// the seam's sync — beside Babylon.js's own floor for the same scene: `scene.render()` on the NullEngine (a whole frame's
// CPU), `_evaluateActiveMeshes` (what a frame spends deciding what to draw, world matrices included), a bare loop that
// reads only isPickable, isVisible, layerMask, isEnabled, the world matrix brought up to date and its updateFlag, and a
// reads loop that also reads what else of a steady plain mesh a pick that trusts no cache must read from Babylon.js
// each time (visibility, vertex count, geometry, the sub-mesh array, its one sub-mesh's span, indexing, skeleton, morph
// targets, material and side, thin-instance count): no weft state at all, the floor of a correct walk. Cloned boxes, in Node (Dawn GPU buffers stand in for the WebGPUEngine's); one mesh moved per round,
// each round timing every column in a rotated order. Medians (and fastest) of rounds: on a shared machine the fastest
// round is the one least disturbed by other processes. The ratios are of medians. With `cold`, 64 MiB are written
// before each timed step, so each starts with none of the scene in the CPU caches (as a pick may, after a frame).
//   npx tsx bench/babylon-walk.ts [rounds] [mesh counts, e.g. 1000,10000] [cold]
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { Scene } from '@babylonjs/core/scene.js';
import { createEngineAsync, disposeEngine, makePerspectiveCamera } from '../engine/index.js';
import { makeSceneWalk, walkBabylonScene } from '../hosts/babylon/babylon-drawables.js';
import { makeOwnedBuffers } from '../hosts/owned-buffers.js';
import { createDrawableScene, syncDrawableSceneHinted } from '../picking/sources/drawable-scene.js';
import { createBenchGpu } from './bench-gpu.js';
import { median, printTable } from './bench-timing.js';
import { babylonBareReads, babylonSteadyReads } from './host-read-floors.js';

const rounds = Number(process.argv[2] ?? 40);
const counts = (process.argv[3] ?? '1000,10000').split(',').map(Number);
const cold = process.argv[4] === 'cold';

function standIn(data: object, buffer: GPUBuffer): void {
  Object.defineProperty(data, 'underlyingResource', { value: buffer });
}

async function main(): Promise<void> {
  const engine = await createEngineAsync(createBenchGpu(), { width: 64, height: 64 });
  const device = engine.device;
  const columns = [
    'meshes',
    'walk ms',
    'sync ms',
    'render ms',
    'evaluate ms',
    'bare ms',
    'reads ms',
    'walk/render',
    'walk/eval',
    'walk/bare',
    'walk/reads',
  ];
  const rows: string[][] = [];
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
    const evaluate = (scene as unknown as { _evaluateActiveMeshes(): void })._evaluateActiveMeshes.bind(scene);
    const times = {
      walk: [] as number[],
      sync: [] as number[],
      render: [] as number[],
      evaluate: [] as number[],
      bare: [] as number[],
      reads: [] as number[],
    };
    let keep = 0;
    const steps: ((record: boolean) => void)[] = [
      (record) => {
        const t0 = performance.now();
        const list = walkBabylonScene('bench', walk, scene, camera, owned, null);
        const t1 = performance.now();
        syncDrawableSceneHinted(drawables, list, walk);
        const t2 = performance.now();
        if (record) {
          times.walk.push(t1 - t0);
          times.sync.push(t2 - t1);
        }
      },
      (record) => {
        const t0 = performance.now();
        scene.render();
        if (record) times.render.push(performance.now() - t0);
      },
      (record) => {
        // A new render id, as each frame has: Babylon.js recomputes no world matrix twice within one.
        scene.incrementRenderId();
        const t0 = performance.now();
        evaluate();
        if (record) times.evaluate.push(performance.now() - t0);
      },
      (record) => {
        const t0 = performance.now();
        keep += babylonBareReads(scene.meshes, camera.layerMask);
        if (record) times.bare.push(performance.now() - t0);
      },
      (record) => {
        const t0 = performance.now();
        keep += babylonSteadyReads(scene.meshes, camera.layerMask);
        if (record) times.reads.push(performance.now() - t0);
      },
    ];
    const evict = cold ? new Float64Array(8 << 20) : null;
    for (let r = 0; r < rounds + 5; r++) {
      meshes[r % count].position.x += 0.001;
      for (let k = 0; k < steps.length; k++) {
        if (evict) for (let j = 0; j < evict.length; j += 8) evict[j]++;
        steps[(r + k) % steps.length](r >= 5);
      }
    }
    const ms = (t: number[]) => `${median(t).toFixed(3)} (${Math.min(...t).toFixed(3)})`;
    const ratio = (a: number[], b: number[]) => (median(a) / median(b)).toFixed(2);
    rows.push([
      String(count),
      ms(times.walk),
      ms(times.sync),
      ms(times.render),
      ms(times.evaluate),
      ms(times.bare),
      ms(times.reads),
      ratio(times.walk, times.render),
      ratio(times.walk, times.evaluate),
      ratio(times.walk, times.bare),
      ratio(times.walk, times.reads),
    ]);
    if (keep === -1) console.log(keep);
    scene.dispose();
    babylon.dispose();
  }
  console.log(
    `Medians (fastest) of ${rounds} rounds, each column timed once per round in a rotated order${cold ? ', caches emptied before each' : ''}:`,
  );
  printTable(columns, rows);
  disposeEngine(engine);
}

main();
