// G-buffer cost against its floor, as ratios measured side by side in one run:
//   npx tsx bench/geometry.ts [rounds] [--profile]
// Target (issue #17): the 6-output G-buffer frame ≤ 1.25× its floor, where
//   floor = an empty render pass (clear + store) of exactly the G-buffer's attachments (the same textures: formats,
//           sample count, size, depth32float) + the forward renderer's frame of the same scene into its own target,
//           encoded as two passes in ONE submit and ended by one GPU sync — the G-buffer frame is one submit and one
//           sync too, so a sum of two separately synced frames would count the submit/sync round trip twice.
//           The sum of the two separately measured frames is printed beside it for reference.
// Every frame is `runTasks` (record check + execute + submit) then `queue.onSubmittedWorkDone()`. Medians of
// interleaved rounds after warm-up, GC between samples when node runs with --expose-gc.
// The machine renders with a CPU rasteriser (Mesa lavapipe): the cost is fragment work × attachment bytes.
import { mat4 } from 'wgpu-matrix';
import { getComposerCounters } from '../composer/index.js';
import {
  createEngineAsync,
  createForwardRenderTask,
  createMeshFromData,
  createRenderTarget,
  createScene,
  disposeEngine,
  disposeRenderTarget,
  type Engine,
  makeBoxData,
  makePerspectiveCamera,
  makeSphereData,
  makeStandardMaterial,
  makeTorusData,
  resizeEngine,
  runTasks,
  type Scene,
  type Task,
  type PerspectiveCamera,
} from '../engine/index.js';
import { createGeometryRendererTask, type GeometryRendererTask, GeometryTextureType } from '../geometry/index.js';
import { median } from './bench-timing.js';
import { createBenchGpu, reportBenchAdapter } from './bench-gpu.js';

const args = process.argv.slice(2);
const profile = args.includes('--profile');
const rounds = Number(args.find((a) => /^\d+$/.test(a)) ?? 25);
const target = 1.25;
const sizes: [number, number][] = [
  [640, 480],
  [1024, 768],
];
/** The six outputs of the target: world normal, world position, depth, albedo, reflectivity, linear velocity. */
const six = [
  GeometryTextureType.WORLD_NORMAL,
  GeometryTextureType.WORLD_POSITION,
  GeometryTextureType.VIEW_DEPTH,
  GeometryTextureType.ALBEDO,
  GeometryTextureType.REFLECTIVITY,
  GeometryTextureType.LINEAR_VELOCITY,
];
const gc = (globalThis as { gc?: () => void }).gc;

/** `count` lit meshes (spheres, boxes, tori) in rows receding from the camera, filling the view. */
function makeGridScene(engine: Engine, count: number): Scene {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [0, 3, 9], target: [0, 0, 0], fovY: 0.9, far: 60 });
  const shapes = [
    makeSphereData({ radius: 0.45, segments: 32, rings: 16 }),
    makeBoxData({ width: 0.8, height: 0.8, depth: 0.8 }),
    makeTorusData({ radius: 0.4, tube: 0.14 }),
  ];
  const side = Math.ceil(Math.sqrt(count));
  const s = 10 / side;
  for (let i = 0; i < count; i++) {
    const x = ((i % side) - (side - 1) / 2) * s * 1.05;
    const z = 2 - Math.floor(i / side) * s * 1.1;
    const world = mat4.multiply(mat4.translation([x, Math.sin(i) * 0.6, z]), mat4.rotationY(i * 0.7));
    mat4.scale(world, [s, s, s], world);
    createMeshFromData(scene, `m${i}`, shapes[i % 3], {
      worldMatrix: world,
      material: makeStandardMaterial({ baseColor: [0.3 + (i % 7) / 10, 0.5, 0.9 - (i % 5) / 10, 1] }),
    });
  }
  return scene;
}

/** One sphere of 262 144 triangles filling most of the view. */
function makeDenseScene(engine: Engine): Scene {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [0, 3, 9], target: [0, 0, 0], fovY: 0.9, far: 60 });
  createMeshFromData(scene, 'dense', makeSphereData({ radius: 4.2, segments: 512, rings: 256 }), {
    material: makeStandardMaterial({ baseColor: [0.8, 0.6, 0.4, 1] }),
  });
  return scene;
}

async function frame(engine: Engine, tasks: readonly Task[]): Promise<number> {
  gc?.();
  const start = performance.now();
  runTasks(engine, tasks);
  await engine.device.queue.onSubmittedWorkDone();
  return performance.now() - start;
}

/** A pass that only clears and stores the attachments of `gbuffer` (its own textures and load/store ops). */
function emptyPassOf(gbuffer: GeometryRendererTask): Task {
  return {
    name: 'empty-gbuffer-pass',
    needsRecord: () => false,
    record() {},
    execute(encoder) {
      encoder.beginRenderPass({ ...gbuffer.state.pass.descriptor!, label: 'bench:empty-gbuffer-pass' }).end();
    },
    dispose() {},
  };
}

/**
 * A task that moves the camera back and forth every frame (runs first in each frame): with it every draw's velocity
 * is non-zero, so the G-buffer draws its moving variant (previous-frame transform), not the still one.
 */
function cameraMover(scene: Scene): Task {
  let frame = 0;
  return {
    name: 'bench:camera-mover',
    needsRecord: () => false,
    record() {},
    execute() {
      (scene.camera as PerspectiveCamera).position[0] = ++frame % 2 ? 0.05 : -0.05;
    },
    dispose() {},
  };
}

type Frames = Record<string, readonly Task[]>;

/** Medians (ms) of interleaved rounds of every frame. */
async function measure(engine: Engine, frames: Frames): Promise<Record<string, number>> {
  const samples = Object.fromEntries(Object.keys(frames).map((k) => [k, [] as number[]]));
  for (let i = 0; i < 4; i++) for (const tasks of Object.values(frames)) await frame(engine, tasks);
  for (let r = 0; r < rounds; r++)
    for (const [key, tasks] of Object.entries(frames)) samples[key].push(await frame(engine, tasks));
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])));
  console.log(line(header).join('  '));
  for (const row of rows) console.log(line(row).join('  '));
}

/** GPU objects created by `body` (device create* and texture createView). */
function countCreates(device: GPUDevice, texture: GPUTexture, body: () => void): number {
  let count = 0;
  const restore: (() => void)[] = [];
  const patch = (owner: Record<string, unknown>, key: string) => {
    const original = owner[key] as (...args: unknown[]) => unknown;
    owner[key] = function (this: unknown, ...args: unknown[]) {
      count++;
      return original.apply(this, args);
    };
    restore.push(() => (owner[key] = original));
  };
  for (const key of [
    'createBuffer',
    'createTexture',
    'createBindGroup',
    'createBindGroupLayout',
    'createPipelineLayout',
    'createShaderModule',
    'createRenderPipeline',
    'createSampler',
  ])
    patch(device as unknown as Record<string, unknown>, key);
  patch(Object.getPrototypeOf(texture), 'createView');
  try {
    body();
  } finally {
    for (const undo of restore) undo();
  }
  return count;
}

/** Where a 6-output frame's time goes: 1..6 outputs, each output alone, the empty pass of each. */
async function profileScene(
  engine: Engine,
  scene: Scene,
  width: number,
  height: number,
  moving = false,
): Promise<void> {
  resizeEngine(engine, { width, height });
  const color = createRenderTarget(engine, { width, height, format: 'rgba8unorm' });
  const forward = createForwardRenderTask(scene, { target: color });
  const mover = moving ? [cameraMover(scene)] : [];
  const frames: Frames = { forward: [...mover, forward] };
  const tasks: Task[] = [forward];
  for (let n = 1; n <= six.length; n++) {
    const g = createGeometryRendererTask(scene, { textureDescriptions: six.slice(0, n).map((type) => ({ type })) });
    const empty = createGeometryRendererTask(scene, {
      meshes: [],
      textureDescriptions: six.slice(0, n).map((type) => ({ type })),
    });
    frames[`first ${n}`] = [...mover, g];
    frames[`empty ${n}`] = [empty];
    tasks.push(g, empty);
  }
  for (const type of six) {
    const g = createGeometryRendererTask(scene, { textureDescriptions: [{ type }] });
    frames[`only ${GeometryTextureType[type]}`] = [...mover, g];
    tasks.push(g);
  }
  const ms = await measure(engine, frames);
  const still = moving ? 'camera moving every frame' : 'still';
  console.log(`\nprofile, ${scene.meshes.length} mesh(es), ${width}×${height}, ${still} (ms, medians of ${rounds}):`);
  const rows: string[][] = [['forward', ms.forward.toFixed(2), '', '']];
  for (let n = 1; n <= six.length; n++)
    rows.push([
      `first ${n}: …${GeometryTextureType[six[n - 1]]}`,
      ms[`first ${n}`].toFixed(2),
      ms[`empty ${n}`].toFixed(2),
      (ms[`first ${n}`] / (ms[`empty ${n}`] + ms.forward)).toFixed(2),
    ]);
  for (const type of six)
    rows.push([`only ${GeometryTextureType[type]}`, ms[`only ${GeometryTextureType[type]}`].toFixed(2), '', '']);
  printTable(['frame', 'G-buffer', 'empty pass', 'G / (empty + fwd)'], rows);
  for (const task of tasks) task.dispose();
  disposeRenderTarget(color);
  (scene.camera as PerspectiveCamera).position[0] = 0;
}

async function main(): Promise<void> {
  const gpu = createBenchGpu();
  // Six attachments need 48 bytes per sample (alignment included); the default limit is 32.
  const engine = await createEngineAsync(
    gpu,
    { width: 640, height: 480 },
    { requiredLimits: { maxColorAttachmentBytesPerSample: 64 } },
  );
  reportBenchAdapter(engine);
  const scenes: [string, Scene][] = [
    ['100 meshes', makeGridScene(engine, 100)],
    ['1 000 meshes', makeGridScene(engine, 1000)],
    ['1 dense mesh', makeDenseScene(engine)],
  ];
  // The still scenes draw every mesh with the still-velocity variant; the moving-camera row pays the full velocity.
  const runs: [string, Scene, [number, number][], boolean][] = [
    ...scenes.map(([label, scene]): [string, Scene, [number, number][], boolean] => [label, scene, sizes, false]),
    ['dense, camera moving', scenes[2][1], [sizes[1]], true],
  ];
  const rows: string[][] = [];
  for (const [label, scene, runSizes, moving] of runs) {
    const mover = moving ? [cameraMover(scene)] : [];
    for (const [width, height] of runSizes) {
      resizeEngine(engine, { width, height });
      const color = createRenderTarget(engine, { width, height, format: 'rgba8unorm' });
      const forward = createForwardRenderTask(scene, { target: color });
      const gbuffer = createGeometryRendererTask(scene, { textureDescriptions: six.map((type) => ({ type })) });
      runTasks(engine, [gbuffer]);
      const empty = emptyPassOf(gbuffer);
      const ms = await measure(engine, {
        gbuffer: [...mover, gbuffer],
        floor: [...mover, empty, forward],
        forward: [...mover, forward],
        empty: [empty],
      });
      const ratio = ms.gbuffer / ms.floor;
      rows.push([
        label,
        `${width}×${height}`,
        ms.gbuffer.toFixed(2),
        ms.floor.toFixed(2),
        ms.forward.toFixed(2),
        ms.empty.toFixed(2),
        `${(ms.gbuffer / (ms.forward + ms.empty)).toFixed(2)}×`,
        `${ratio.toFixed(2)}×`,
        `≤ ${target}×`,
        ratio <= target ? 'yes' : 'no',
      ]);
      gbuffer.dispose();
      forward.dispose();
      disposeRenderTarget(color);
    }
    (scene.camera as PerspectiveCamera).position[0] = 0;
  }
  console.log(
    `G-buffer, 6 outputs (${six.map((t) => GeometryTextureType[t]).join(', ')}) vs its floor on Dawn (ms, medians of ${rounds} interleaved frames, each ended by onSubmittedWorkDone)`,
  );
  console.log(
    "floor = one submit of [an empty pass (clear + store) of the G-buffer's own attachments, the forward frame of the scene into its own rgba8unorm + depth24plus target]",
  );
  console.log('"/ sum" divides by the two measured separately (forward frame + empty-pass frame: two syncs).');
  printTable(
    ['scene', 'frame', 'G-buffer', 'floor', 'forward', 'empty pass', 'G / sum', 'G / floor', 'target', 'met'],
    rows,
  );

  if (profile) {
    for (const [, scene] of [scenes[0], scenes[2]]) for (const [w, h] of sizes) await profileScene(engine, scene, w, h);
    await profileScene(engine, scenes[2][1], ...sizes[1], true);
  }

  // Re-recording, resizing and rebuilding compile nothing; a steady frame creates no GPU object.
  const scene = scenes[0][1];
  resizeEngine(engine, { width: 256, height: 192 });
  const g = createGeometryRendererTask(scene, { textureDescriptions: six.map((type) => ({ type })) });
  runTasks(engine, [g]);
  const compiled = getComposerCounters(engine.device).modulesCompiled;
  for (let i = 0; i < 10; i++) {
    scene.structureVersion++;
    runTasks(engine, [g]);
  }
  resizeEngine(engine, { width: 320, height: 240 });
  runTasks(engine, [g]);
  const rebuilt = createGeometryRendererTask(scene, { textureDescriptions: six.map((type) => ({ type })) });
  runTasks(engine, [rebuilt]);
  g.dispose();
  const recompiled = getComposerCounters(engine.device).modulesCompiled - compiled;
  const encoder = engine.device.createCommandEncoder({ label: 'bench:count' });
  const created = countCreates(engine.device, rebuilt.outputTarget.textures!.colors[0], () => {
    for (let i = 0; i < 20; i++) rebuilt.execute(encoder);
  });
  engine.device.queue.submit([encoder.finish()]);
  console.log(`\nshader modules compiled by 10 re-records + a resize + a rebuild: ${recompiled} (target 0)`);
  console.log(`GPU objects created by 20 executed frames (create* and createView): ${created} (target 0)`);
  rebuilt.dispose();
  disposeEngine(engine);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
