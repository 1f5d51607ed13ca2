// G-buffer cost as ratios measured side by side in one run (run: npx tsx bench/geometry.ts [rounds]).
// The machine renders with a CPU rasteriser (Mesa lavapipe), so absolute times mean little; per-pixel work dominates
// only when the frame is large and covered, hence frames from 256×192 to 1024×768 with a scene filling the view.
import { mat4 } from 'wgpu-matrix';
import { create, globals } from 'webgpu';
import { getComposerCounters } from '../composer/index.js';
import {
  createEngineAsync,
  createForwardRenderTask,
  createMeshFromData,
  createRenderTarget,
  createScene,
  disposeEngine,
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
} from '../engine/index.js';
import { createGeometryRendererTask, enableGeometryVelocity, GeometryTextureType } from '../geometry/index.js';
import { median } from './bench-timing.js';

const rounds = Number(process.argv[2] ?? 30);
const sizes: [number, number][] = [
  [256, 192],
  [512, 384],
  [1024, 768],
];
const strip = [
  GeometryTextureType.NORMALIZED_VIEW_DEPTH,
  GeometryTextureType.VIEW_NORMAL,
  GeometryTextureType.WORLD_NORMAL,
  GeometryTextureType.WORLD_POSITION,
  GeometryTextureType.REFLECTIVITY,
  GeometryTextureType.ALBEDO,
];

/** 96 lit meshes (spheres, boxes, tori; a thin-instanced row) in a block that fills the view. */
function makeScene(engine: Engine): Scene {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [0, 3, 9], target: [0, 0, 0], fovY: 0.9, far: 60 });
  const shapes = [
    makeSphereData({ radius: 0.45, segments: 32, rings: 16 }),
    makeBoxData({ width: 0.8, height: 0.8, depth: 0.8 }),
    makeTorusData({ radius: 0.4, tube: 0.14 }),
  ];
  for (let i = 0; i < 90; i++) {
    const x = (i % 10) - 4.5;
    const z = -Math.floor(i / 10) * 1.1 + 2;
    const world = mat4.multiply(mat4.translation([x * 1.05, Math.sin(i) * 0.6, z]), mat4.rotationY(i * 0.7));
    createMeshFromData(scene, `m${i}`, shapes[i % 3], {
      worldMatrix: world,
      material: makeStandardMaterial({ baseColor: [0.3 + (i % 7) / 10, 0.5, 0.9 - (i % 5) / 10] }),
    });
  }
  const instances = new Float32Array(6 * 16);
  for (let k = 0; k < 6; k++) instances.set(mat4.translation([k * 1.6 - 4, -1.6, 3]), k * 16);
  createMeshFromData(scene, 'row', shapes[0], { thinInstances: instances });
  return scene;
}

async function frame(engine: Engine, tasks: Task[]): Promise<number> {
  const start = performance.now();
  runTasks(engine, tasks);
  await engine.device.queue.onSubmittedWorkDone();
  return performance.now() - start;
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

async function main(): Promise<void> {
  Object.assign(globalThis, globals);
  const gpu = create([]);
  // Six attachments need 52 bytes per sample (alignment included); the default limit is 32.
  const engine = await createEngineAsync(
    gpu,
    { width: 256, height: 192 },
    { requiredLimits: { maxColorAttachmentBytesPerSample: 64 } },
  );
  const scene = makeScene(engine);
  const rows: string[][] = [];
  for (const [width, height] of sizes) {
    resizeEngine(engine, { width, height });
    // Same scene, same frame size; each pass draws into its own offscreen target(s).
    const target = createRenderTarget(engine, { width, height, format: 'rgba8unorm' });
    const forward = createForwardRenderTask(scene, { target });
    const one = createGeometryRendererTask(scene, { textureDescriptions: [{ type: GeometryTextureType.ALBEDO }] });
    const six = createGeometryRendererTask(scene, { textureDescriptions: strip.map((type) => ({ type })) });
    // The same six outputs in 8-bit formats (too coarse for the accuracy the tests demand): what the float formats cost here.
    const sixBytes = createGeometryRendererTask(scene, {
      textureDescriptions: strip.map((type) => ({
        type,
        format: (type === GeometryTextureType.NORMALIZED_VIEW_DEPTH ? 'r8unorm' : 'rgba8unorm') as GPUTextureFormat,
      })),
    });
    const velocity = createGeometryRendererTask(scene, {
      textureDescriptions: [{ type: GeometryTextureType.LINEAR_VELOCITY }, { type: GeometryTextureType.VIEW_DEPTH }],
    });
    enableGeometryVelocity(velocity);
    // The floor: the same passes with nothing to draw (clears and stores only).
    const forwardEmpty = createForwardRenderTask(scene, { target, meshes: () => [] });
    const sixEmpty = createGeometryRendererTask(scene, {
      meshes: [],
      textureDescriptions: strip.map((type) => ({ type })),
    });
    const all = { forward, one, six, sixBytes, velocity, forwardEmpty, sixEmpty };
    const samples = Object.fromEntries(Object.keys(all).map((k) => [k, [] as number[]])) as Record<
      keyof typeof all,
      number[]
    >;
    for (let i = 0; i < 5; i++) for (const task of Object.values(all)) await frame(engine, [task]);
    // Interleaved so machine noise hits every pass alike.
    for (let r = 0; r < rounds; r++)
      for (const [key, task] of Object.entries(all)) samples[key as keyof typeof all].push(await frame(engine, [task]));
    const f = median(samples.forward);
    const cells = (ms: number) => [ms.toFixed(2), `${(ms / f).toFixed(2)}×`];
    rows.push([
      `${width}×${height}`,
      f.toFixed(2),
      ...cells(median(samples.one)),
      ...cells(median(samples.six)),
      `${(median(samples.sixBytes) / f).toFixed(2)}×`,
      ...cells(median(samples.velocity)),
      `${(median(samples.sixEmpty) / median(samples.forwardEmpty)).toFixed(2)}×`,
    ]);
    for (const task of Object.values(all)) task.dispose();
  }
  console.log(
    `G-buffer frame time vs the forward pass of the same scene (${scene.meshes.length} meshes, medians of ${rounds} interleaved frames, ms; target: six attachments ≤ 1.5×)`,
  );
  console.log(
    '6 attachments write 52 B per pixel (+ depth32float) where the forward pass writes 4 (+ depth24plus): on this CPU rasteriser the',
  );
  console.log(
    'store bandwidth grows with the frame; "empty 6 / empty fwd" is the same two passes with nothing drawn (clears + stores only);',
  );
  console.log(
    '"6 × 8-bit" is the six outputs in rgba8unorm / r8unorm: same shader work, cheap stores, too coarse for the accuracy targets.',
  );
  const header = [
    'frame',
    'forward',
    '1 attachment',
    'ratio',
    '6 attachments',
    'ratio',
    '6 × 8-bit',
    'velocity + depth',
    'ratio',
    'empty 6 / empty fwd',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));

  // Re-recording, resizing and rebuilding compile nothing; a steady frame creates no GPU object.
  resizeEngine(engine, { width: 256, height: 192 });
  const six = createGeometryRendererTask(scene, { textureDescriptions: strip.map((type) => ({ type })) });
  runTasks(engine, [six]);
  const compiled = getComposerCounters(engine.device).modulesCompiled;
  for (let i = 0; i < 10; i++) {
    scene.structureVersion++;
    runTasks(engine, [six]);
  }
  resizeEngine(engine, { width: 320, height: 240 });
  runTasks(engine, [six]);
  const rebuilt = createGeometryRendererTask(scene, { textureDescriptions: strip.map((type) => ({ type })) });
  runTasks(engine, [rebuilt]);
  six.dispose();
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
