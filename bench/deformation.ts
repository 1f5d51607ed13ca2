// Pick latency on 200 skinned meshes vs 200 static ones, and a 200-instance VAT crowd vs 200 static instances,
// measured side by side (run: npx tsx bench/deformation.ts [rounds]).
import { mat4 } from 'wgpu-matrix';
import {
  createEngineAsync,
  createMeshFromData,
  createScene,
  disposeEngine,
  type Engine,
  makePerspectiveCamera,
  makeSkeleton,
  makeSphereData,
  makeVertexAnimation,
  type Scene,
  setBoneMatrix,
} from '../engine/index.js';
import { createGpuPicker, enableDetailedPicking, type GpuPicker, pickAsync } from '../picking/index.js';
import { median, time } from './bench-timing.js';
import { createBenchGpu, reportBenchAdapter } from './bench-gpu.js';

const rounds = Number(process.argv[2] ?? 60);
const count = 200;

type Kind = 'static' | 'skinned' | 'instances' | 'vat';

function makeScene(engine: Engine, kind: Kind): Scene {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [0, 0, 30], target: [0, 0, 0] });
  const data = makeSphereData({ radius: 0.4, segments: 24, rings: 12 });
  const n = data.positions!.length / 3;
  const joints = new Uint16Array(n * 4).map((_, i) =>
    i % 4 === 0 && data.positions![Math.floor(i / 4) * 3 + 1] > 0 ? 1 : 0,
  );
  const weights = new Float32Array(n * 4).map((_, i) => (i % 4 === 0 ? 1 : 0));
  if (kind === 'instances' || kind === 'vat') {
    // One thin-instanced mesh; the VAT one plays 8 baked frames of 2 bones, each instance at its own offset.
    const instances = new Float32Array(count * 16);
    for (let i = 0; i < count; i++) instances.set(mat4.translation([(i % 20) - 10, Math.floor(i / 20) - 5, 0]), i * 16);
    if (kind === 'instances') {
      createMeshFromData(scene, 'instances', data, { thinInstances: instances });
      return scene;
    }
    const frames = new Float32Array(8 * 2 * 16);
    for (let f = 0; f < 8; f++) {
      frames.set(mat4.identity(), f * 32);
      frames.set(mat4.translation([0, 0.05 * f, 0]), f * 32 + 16);
    }
    const playback = new Float32Array(count * 12);
    for (let i = 0; i < count; i++) playback.set([0, 7, i % 8, 8, 0, 7, i % 8, 8, 0, 0, 0, 0], i * 12);
    const walk = makeVertexAnimation({ name: 'walk', frames, boneCount: 2, frameCount: 8 });
    createMeshFromData(
      scene,
      'crowd',
      { ...data, joints, weights },
      { thinInstances: instances, vertexAnimation: walk, vertexAnimationPlayback: playback },
    );
    return scene;
  }
  for (let i = 0; i < count; i++) {
    const world = mat4.translation([(i % 20) - 10, Math.floor(i / 20) - 5, 0]);
    if (kind === 'static') {
      createMeshFromData(scene, `static${i}`, data, { worldMatrix: world });
      continue;
    }
    const skeleton = makeSkeleton(2);
    setBoneMatrix(skeleton, 1, mat4.translation([0, 0.1, 0]));
    createMeshFromData(scene, `skinned${i}`, { ...data, joints, weights }, { worldMatrix: world, skeleton });
  }
  return scene;
}

async function main(): Promise<void> {
  const gpu = createBenchGpu();
  const engine = await createEngineAsync(gpu, { width: 512, height: 256 });
  reportBenchAdapter(engine);
  const kinds: Kind[] = ['static', 'skinned', 'instances', 'vat'];
  const pickers = {} as Record<Kind, GpuPicker>;
  for (const kind of kinds) {
    pickers[kind] = createGpuPicker(makeScene(engine, kind));
    enableDetailedPicking(pickers[kind]);
    for (let i = 0; i < 10; i++) await pickAsync(pickers[kind], 256, 128);
  }
  const samples = Object.fromEntries(kinds.map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
  for (let r = 0; r < rounds; r++) {
    for (const kind of kinds) samples[kind].push(await time(() => pickAsync(pickers[kind], 256 + (r % 7), 128)));
  }
  const a = median(samples.static);
  const b = median(samples.skinned);
  const hit = await pickAsync(pickers.skinned, 256, 128);
  const crowdHit = await pickAsync(pickers.vat, 256, 128);
  console.log(`pick latency, ${count} meshes, detailed picks, medians of ${rounds} interleaved rounds (ms)`);
  console.log(
    `  static ${a.toFixed(3)}   skinned ${b.toFixed(3)}   skinned/static ${(b / a).toFixed(2)}×   (hit: ${hit.hit ? hit.pickedMesh!.name : 'miss'})`,
  );
  console.log(
    '  skinned meshes are pre-filtered by conservative bounds of their current pose (rest bounds under every bone),',
  );
  console.log(
    '  so both scenes draw only the few meshes under the cursor; the difference is bone uploads and the deformation shader.',
  );
  const c = median(samples.instances);
  const d = median(samples.vat);
  console.log(
    `  ${count} static thin instances ${c.toFixed(3)}   ${count}-instance VAT crowd ${d.toFixed(3)}   vat/static ${(d / c).toFixed(2)}×   (hit: ${crowdHit.hit ? `crowd#${crowdHit.thinInstanceIndex}` : 'miss'})`,
  );
  disposeEngine(engine);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
