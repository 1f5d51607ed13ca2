// Pick latency as ratios measured side by side in one run (run: npx tsx bench/pick.ts [rounds]).
// Absolute times on this machine's software rasteriser mean little; the ratios are the result.
import { mat4 } from 'wgpu-matrix';
import { create, globals } from 'webgpu';
import {
  createBoxMesh,
  createEngineAsync,
  createSphereMesh,
  createScene,
  disposeEngine,
  type Engine,
  makePerspectiveCamera,
  type Scene,
} from '../engine/index.js';
import {
  createCpuPicker,
  createGpuPicker,
  enableDetailedPicking,
  type GpuPicker,
  pickAsync,
  pickManyAsync,
  refitCpuPicker,
} from '../picking/index.js';
import { median, time } from './bench-timing.js';

const rounds = Number(process.argv[2] ?? 40);
/** `detail` as the second argument runs only the detailed-pick comparison. */
const only = process.argv[3];
const sizes = [1, 100, 1000, 10000];

/** A grid of N small boxes spread over a plane; the camera looks down at its centre, where one box sits. */
function makeGridScene(engine: Engine, count: number): Scene {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [0, 60, 0.01], target: [0, 0, 0], fovY: 1.2 });
  const side = Math.ceil(Math.sqrt(count));
  for (let i = 0; i < count; i++) {
    const x = (i % side) - Math.floor(side / 2);
    const z = Math.floor(i / side) - Math.floor(side / 2);
    createBoxMesh(
      scene,
      `box${i}`,
      { width: 0.4, height: 0.4, depth: 0.4 },
      { worldMatrix: mat4.translation([x * 0.9, 0, z * 0.9]) },
    );
  }
  return scene;
}

/** The bare cost a pick cannot avoid: one submit and a mapAsync of a 256-byte buffer. */
function makeBareRoundTrip(device: GPUDevice): () => Promise<void> {
  const source = device.createBuffer({ size: 256, usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  const staging = device.createBuffer({ size: 256, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  return async () => {
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(source, 0, staging, 0, 256);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    staging.unmap();
  };
}

/** The GPU floor of a pick on this device: the same attachments, clears and copies, no draw, no weft code. */
function makePickShapedPass(device: GPUDevice): () => Promise<void> {
  const make = (format: GPUTextureFormat) =>
    device.createTexture({ size: [1, 1], format, usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  const colors = [make('rgba8unorm'), make('r32float')];
  const views = colors.map((t) => t.createView());
  const depthView = make('depth24plus').createView();
  const staging = device.createBuffer({ size: 1024, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  return async () => {
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginRenderPass({
      colorAttachments: views.map((view) => ({ view, loadOp: 'clear' as const, storeOp: 'store' as const })),
      depthStencilAttachment: { view: depthView, depthLoadOp: 'clear', depthClearValue: 0, depthStoreOp: 'discard' },
    });
    pass.end();
    colors.forEach((texture, i) =>
      encoder.copyTextureToBuffer({ texture }, { buffer: staging, offset: i * 256 }, [1, 1]),
    );
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    staging.unmap();
  };
}

/**
 * Detailed pick cost on both paths, side by side: one picker per method on the same scene, rounds interleaved.
 * Rows: box grids (pre-filter on: only the boxes under the pixel draw; off: every box draws), one dense sphere.
 */
async function benchDetailMethods(engine: Engine): Promise<void> {
  const centre = { x: 256, y: 256 };
  const points = Array.from({ length: 64 }, (_, i) => ({ x: 64 + (i % 8) * 48, y: 64 + Math.floor(i / 8) * 48 }));
  const scenes: [string, () => Scene][] = [
    ...[1, 100, 1000].map((n): [string, () => Scene] => [`${n} boxes`, () => makeGridScene(engine, n)]),
    [
      '1 sphere, 65k triangles',
      () => {
        const scene = createScene(engine);
        scene.camera = makePerspectiveCamera({ position: [0, 0, 3], target: [0, 0, 0] });
        createSphereMesh(scene, 'dense', { radius: 1, segments: 256, rings: 128 });
        return scene;
      },
    ],
  ];
  const rows: string[][] = [];
  for (const [name, make] of scenes) {
    const scene = make();
    const pickers = (['primitive-index', 'vertex-index'] as const).map((method) => {
      const picker = createGpuPicker(scene);
      enableDetailedPicking(picker, { method });
      return picker;
    });
    const cases = [
      (p: GpuPicker) => pickAsync(p, centre.x, centre.y),
      (p: GpuPicker) => pickAsync(p, centre.x, centre.y, { preFilter: false }),
      (p: GpuPicker) => pickManyAsync(p, points),
    ];
    for (const picker of pickers) for (const run of cases) for (let i = 0; i < 3; i++) await run(picker);
    const samples = cases.map(() => pickers.map(() => [] as number[]));
    const caseRounds = name.startsWith('1000') ? Math.max(5, rounds / 4) : rounds;
    // Interleaved: each round times every case on both paths, so machine noise hits them alike.
    for (let r = 0; r < caseRounds; r++)
      for (let c = 0; c < cases.length; c++)
        for (let m = 0; m < pickers.length; m++) samples[c][m].push(await time(() => cases[c](pickers[m])));
    const hit = await pickAsync(pickers[1], centre.x, centre.y);
    const cells = samples.flatMap(([primitive, vertex]) => {
      const [a, b] = [median(primitive), median(vertex)];
      return [a.toFixed(3), b.toFixed(3), `${(b / a).toFixed(2)}×`];
    });
    rows.push([name, hit.hit ? `face ${hit.faceId}` : 'miss', ...cells]);
  }
  console.log(
    `\ndetailed pick cost: vertex-index (fallback, no optional feature) vs primitive-index (medians of ${rounds} interleaved rounds, ms; ratio = fallback / primitive-index)`,
  );
  const header = [
    'scene',
    'hit',
    'prim',
    'vertex',
    'ratio',
    'no-pf prim',
    'no-pf vertex',
    'ratio',
    'many64 prim',
    'many64 vertex',
    'ratio',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<void> {
  Object.assign(globalThis, globals);
  const gpu = create([]);
  const engine = await createEngineAsync(gpu, { width: 512, height: 512 });
  if (only === 'detail') {
    await benchDetailMethods(engine);
    disposeEngine(engine);
    return;
  }
  const bare = makeBareRoundTrip(engine.device);
  const floor = makePickShapedPass(engine.device);
  const centre = { x: 256, y: 256 };
  const rows: string[][] = [];
  for (const count of sizes) {
    const scene = makeGridScene(engine, count);
    const picker: GpuPicker = createGpuPicker(scene);
    for (let i = 0; i < 10; i++) {
      await pickAsync(picker, centre.x, centre.y);
      await pickAsync(picker, centre.x, centre.y, { preFilter: false });
      await bare();
    }
    const samples = { bare: [] as number[], floor: [] as number[], pick: [] as number[], full: [] as number[] };
    const fullRounds = count >= 10000 ? Math.max(5, rounds / 4) : rounds;
    // Interleaved so machine noise hits all three alike.
    for (let r = 0; r < rounds; r++) {
      samples.bare.push(await time(bare));
      samples.floor.push(await time(floor));
      samples.pick.push(await time(() => pickAsync(picker, centre.x, centre.y)));
      if (r < fullRounds)
        samples.full.push(await time(() => pickAsync(picker, centre.x, centre.y, { preFilter: false })));
    }
    // The editor pattern for big scenes: the CPU picker refits once per frame (after animation), picks trust it.
    const cpu = createCpuPicker(scene, { refit: 'manual' });
    refitCpuPicker(cpu);
    await pickAsync(picker, centre.x, centre.y);
    const manual: number[] = [];
    for (let r = 0; r < rounds; r++) manual.push(await time(() => pickAsync(picker, centre.x, centre.y)));
    const hit = await pickAsync(picker, centre.x, centre.y);
    const b = median(samples.bare);
    const f = median(samples.floor);
    rows.push([
      String(count),
      hit.hit ? hit.pickedMesh!.name : 'miss',
      b.toFixed(3),
      f.toFixed(3),
      `${(f / b).toFixed(2)}×`,
      median(samples.pick).toFixed(3),
      `${(median(samples.pick) / b).toFixed(2)}×`,
      `${(median(samples.pick) / f).toFixed(2)}×`,
      median(manual).toFixed(3),
      `${(median(manual) / f).toFixed(2)}×`,
      median(samples.full).toFixed(3),
      `${(median(samples.full) / b).toFixed(2)}×`,
    ]);
    if (count === 1000) {
      const points = Array.from({ length: 64 }, (_, i) => ({ x: 64 + (i % 8) * 48, y: 64 + Math.floor(i / 8) * 48 }));
      await pickManyAsync(picker, points);
      const many: number[] = [];
      const singles: number[] = [];
      for (let r = 0; r < Math.max(5, rounds / 4); r++) {
        many.push(await time(() => pickManyAsync(picker, points)));
        singles.push(
          await time(async () => {
            for (const p of points) await pickAsync(picker, p.x, p.y);
          }),
        );
      }
      const perPointMany = median(many) / points.length;
      const perPointSingle = median(singles) / points.length;
      console.log(`\npickManyAsync vs single picks (1 000 meshes, 64 points; target ≥ 10× cheaper per point)`);
      console.log(
        `  per point: pickMany ${perPointMany.toFixed(3)} ms, single ${perPointSingle.toFixed(3)} ms → pickMany is ${(perPointSingle / perPointMany).toFixed(1)}× cheaper`,
      );
    }
  }
  console.log(
    `\nwarm pick latency vs the bare submit + mapAsync round trip of a 256-byte buffer (medians of ${rounds} interleaved rounds, ms)`,
  );
  console.log('target: ≤ 2× at 10 000 meshes with the pre-filter on');
  console.log(
    'floor = a pass with the pick attachments and copies but no draw and no weft code (what any GPU pick costs here)',
  );
  console.log("manual = the scene's CPU picker in refit: 'manual' mode (the app refits once per frame, not per pick)");
  const header = [
    'meshes',
    'hit',
    'bare',
    'floor',
    'floor/bare',
    'pick',
    'pick/bare',
    'pick/floor',
    'manual',
    'manual/floor',
    'no pre-filter',
    'no-pf/bare',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  await benchDetailMethods(engine);
  disposeEngine(engine);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
