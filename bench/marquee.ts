// Marquee cost as ratios measured side by side in one run (run: npx tsx bench/marquee.ts [rounds]).
// Issue #17's target: a 191×120 pickRectAsync over 10 000 meshes at 640×480 costs ≤ 3× a single pickAsync.
// NODE_OPTIONS=--expose-gc lets each sample start after a collection.
import { mat4 } from 'wgpu-matrix';
import {
  createBoxMesh,
  createEngineAsync,
  createScene,
  disposeEngine,
  type Engine,
  makePerspectiveCamera,
  type Scene,
} from '../engine/index.js';
import { createGpuPicker, type GpuPicker, pickAsync, pickRectAsync } from '../picking/index.js';
import { pickRectByReadbackAsync } from '../picking/rect/pick-rect-readback.js';
import { makeRectPlanes, makeRectSnapshot } from '../picking/rect/pick-rect-snapshot.js';
import { getCameraViewProjectionMatrix } from '../engine/index.js';
import { median, time } from './bench-timing.js';
import { createBenchGpu, reportBenchAdapter } from './bench-gpu.js';

const rounds = Number(process.argv[2] ?? 20);
const width = 640;
const height = 480;
const count = 10_000;
const target = 3;
/** The marquee: 191 × 120 pixels centred on the framebuffer; the single pick reads its centre pixel. */
const rect = { x: 225, y: 180, width: 191, height: 120 };
const centre = { x: rect.x + 95, y: rect.y + 60 };

/** Grid cell i of a side × side grid, 0.9 apart, centred on the origin. */
function cell(i: number, side: number): [number, number, number] {
  return [((i % side) - Math.floor(side / 2)) * 0.9, 0, (Math.floor(i / side) - Math.floor(side / 2)) * 0.9];
}

/** 10 000 boxes (separate meshes, or thin instances of one mesh) on a grid the camera sees whole from above. */
function makeGrid(engine: Engine, instanced: boolean): Scene {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [0, 60, 0.01], target: [0, 0, 0], fovY: 1.2 });
  const side = Math.ceil(Math.sqrt(count));
  const size = { width: 0.4, height: 0.4, depth: 0.4 };
  if (instanced) {
    const matrices = new Float32Array(count * 16);
    for (let i = 0; i < count; i++) matrices.set(mat4.translation(cell(i, side)), i * 16);
    createBoxMesh(scene, 'boxes', size, { thinInstances: matrices });
  } else {
    for (let i = 0; i < count; i++)
      createBoxMesh(scene, `box${i}`, size, { worldMatrix: mat4.translation(cell(i, side)) });
  }
  return scene;
}

/** One draw of the floor: a clip-from-box matrix (cropped to the marquee) and the box's instance offsets. */
interface FloorDraw {
  matrix: Float32Array;
  offsets: Float32Array<ArrayBuffer>;
}

/**
 * What drawing the marquee's candidates costs on this device with no weft code: one render pass into a
 * rectangle-sized colour + depth target with one draw per candidate mesh (its own vertex and index buffers and a
 * dynamic uniform offset, as separate meshes draw; thin instances as instances of one draw), a flat-colour pipeline,
 * then a 256-byte copy and mapAsync.
 */
function makeDrawFloor(device: GPUDevice, draws: readonly FloorDraw[]): () => Promise<void> {
  const module = device.createShaderModule({
    code: `@group(0) @binding(0) var<uniform> m: mat4x4f;
@vertex fn vs(@location(0) p: vec3f, @location(1) o: vec3f) -> @builtin(position) vec4f { return m * vec4f(p + o, 1.0); }
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }`,
  });
  const layout = device.createBindGroupLayout({
    entries: [{ binding: 0, visibility: GPUShaderStage.VERTEX, buffer: { hasDynamicOffset: true } }],
  });
  const pipeline = device.createRenderPipeline({
    layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
    vertex: {
      module,
      entryPoint: 'vs',
      buffers: [
        { arrayStride: 12, attributes: [{ shaderLocation: 0, offset: 0, format: 'float32x3' }] },
        { arrayStride: 12, stepMode: 'instance', attributes: [{ shaderLocation: 1, offset: 0, format: 'float32x3' }] },
      ],
    },
    fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
    depthStencil: { format: 'depth24plus', depthWriteEnabled: true, depthCompare: 'greater' },
  });
  const corners = new Float32Array(24);
  for (let c = 0; c < 8; c++) corners.set([c & 1 ? 0.2 : -0.2, c & 2 ? 0.2 : -0.2, c & 4 ? 0.2 : -0.2], c * 3);
  const indices = Uint16Array.from([
    0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5,
  ]);
  const uniforms = device.createBuffer({
    size: 256 * draws.length,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  const data = new Float32Array(64 * draws.length);
  const meshes = draws.map((draw, i) => {
    const vertex = device.createBuffer({ size: 96, usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST });
    const index = device.createBuffer({ size: 72, usage: GPUBufferUsage.INDEX | GPUBufferUsage.COPY_DST });
    const offsets = device.createBuffer({
      size: draw.offsets.byteLength,
      usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(vertex, 0, corners);
    device.queue.writeBuffer(index, 0, indices);
    device.queue.writeBuffer(offsets, 0, draw.offsets);
    data.set(draw.matrix, i * 64);
    return { vertex, index, offsets, instances: draw.offsets.length / 3 };
  });
  const group = device.createBindGroup({ layout, entries: [{ binding: 0, resource: { buffer: uniforms, size: 64 } }] });
  const usage = GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC;
  const target = device.createTexture({ size: [rect.width, rect.height], format: 'rgba8unorm', usage });
  const depth = device.createTexture({ size: [rect.width, rect.height], format: 'depth24plus', usage });
  const staging = device.createBuffer({ size: 256, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  return async () => {
    device.queue.writeBuffer(uniforms, 0, data);
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginRenderPass({
      colorAttachments: [{ view: target.createView(), loadOp: 'clear', storeOp: 'store' }],
      depthStencilAttachment: {
        view: depth.createView(),
        depthLoadOp: 'clear',
        depthClearValue: 0,
        depthStoreOp: 'discard',
      },
    });
    pass.setPipeline(pipeline);
    meshes.forEach((mesh, i) => {
      pass.setBindGroup(0, group, [i * 256]);
      pass.setVertexBuffer(0, mesh.vertex);
      pass.setVertexBuffer(1, mesh.offsets);
      pass.setIndexBuffer(mesh.index, 'uint16');
      pass.drawIndexed(36, mesh.instances);
    });
    pass.end();
    encoder.copyTextureToBuffer({ texture: target }, { buffer: staging }, [1, 1]);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    staging.unmap();
  };
}

/** The floor's draws for a snapshot's candidates: the camera cropped to the marquee times each world matrix. */
function floorDraws(snapshot: ReturnType<typeof makeRectSnapshot>, viewProjection: Float32Array): FloorDraw[] {
  const [left, right] = [(rect.x / width) * 2 - 1, ((rect.x + rect.width) / width) * 2 - 1];
  const [top, bottom] = [1 - (rect.y / height) * 2, 1 - ((rect.y + rect.height) / height) * 2];
  const crop = mat4.create(
    ...[2 / (right - left), 0, 0, 0, 0, 2 / (top - bottom), 0, 0, 0, 0, 1, 0],
    ...[-(right + left) / (right - left), -(top + bottom) / (top - bottom), 0, 1],
  );
  const cropped = mat4.multiply(crop, viewProjection);
  return snapshot.candidates.map((c) => {
    const runs = c.runs ?? [{ first: 0, count: 1, matrices: mat4.identity() as Float32Array }];
    const offsets = new Float32Array(runs.reduce((n, run) => n + run.count, 0) * 3);
    let o = 0;
    for (const run of runs)
      for (let i = 0; i < run.count; i++, o += 3) offsets.set(run.matrices.subarray(i * 16 + 12, i * 16 + 15), o);
    return { matrix: mat4.multiply(cropped, c.worldMatrix) as Float32Array, offsets };
  });
}

/**
 * The same boxes as one instanced draw (the physical floor of drawing them): the grid's world matrices are
 * translations, so each candidate's (and each thin instance's) translation is an instance offset.
 */
function instancedFloorDraw(snapshot: ReturnType<typeof makeRectSnapshot>, viewProjection: Float32Array): FloorDraw {
  const perCandidate = floorDraws(snapshot, viewProjection);
  const cropped = mat4.multiply(perCandidate[0].matrix, mat4.inverse(snapshot.candidates[0].worldMatrix));
  const offsets: number[] = [];
  snapshot.candidates.forEach((c, i) => {
    const t = c.worldMatrix.subarray(12, 15);
    const o = perCandidate[i].offsets;
    for (let k = 0; k < o.length; k += 3) offsets.push(o[k] + t[0], o[k + 1] + t[1], o[k + 2] + t[2]);
  });
  return { matrix: cropped as Float32Array, offsets: new Float32Array(offsets) };
}

const gc = (globalThis as { gc?: () => void }).gc;

async function main(): Promise<void> {
  const gpu = createBenchGpu();
  const engine = await createEngineAsync(gpu, { width, height });
  reportBenchAdapter(engine);
  const rows: string[][] = [];
  for (const instanced of [false, true]) {
    const scene = makeGrid(engine, instanced);
    const picker: GpuPicker = createGpuPicker(scene);
    const viewProjection = getCameraViewProjectionMatrix(scene.camera!, width / height);
    const planes = makeRectPlanes(viewProjection, rect, width, height);
    const snapshot = makeRectSnapshot('bench', scene, {}, planes);
    const draws = floorDraws(snapshot, viewProjection);
    const cases: [string, () => Promise<unknown>][] = [
      ['single', () => pickAsync(picker, centre.x, centre.y)],
      ['reduce', () => pickRectAsync(picker, rect.x, rect.y, rect.width, rect.height)],
      ['readback', () => pickRectByReadbackAsync(picker, rect.x, rect.y, rect.width, rect.height)],
      ['floor', makeDrawFloor(engine.device, draws)],
      ['instanced floor', makeDrawFloor(engine.device, [instancedFloorDraw(snapshot, viewProjection)])],
    ];
    const reduced = await pickRectAsync(picker, rect.x, rect.y, rect.width, rect.height);
    const readBack = await pickRectByReadbackAsync(picker, rect.x, rect.y, rect.width, rect.height);
    const key = (found: typeof reduced) =>
      found
        .map((f) => `${f.mesh!.name}#${f.thinInstanceIndex}`)
        .sort()
        .join();
    if (key(reduced) !== key(readBack)) throw new Error('the reduce and readback paths disagree');
    for (let i = 0; i < 5; i++) for (const [, run] of cases) await run();
    const samples = cases.map(() => [] as number[]);
    // Interleaved so machine noise hits every case alike. Each timed call follows an untimed call of the same case and
    // a settled collection (V8 sweeps lazily): otherwise the garbage and Dawn clean-up of the previous, heavier case
    // would bill a single pick (measured: ~30 ms instead of ~1–2 ms).
    const settle = async () => {
      gc?.();
      await new Promise((resolve) => setTimeout(resolve, 20));
      await engine.device.queue.onSubmittedWorkDone();
    };
    for (let r = 0; r < rounds; r++)
      for (let c = 0; c < cases.length; c++) {
        await settle();
        await cases[c][1]();
        await settle();
        samples[c].push(await time(cases[c][1]));
      }
    const [single, reduce, readback, floor, instancedFloor] = samples.map(median);
    const ratio = reduce / single;
    rows.push([
      instanced ? `${count} thin instances` : `${count} meshes`,
      String(reduced.length),
      single.toFixed(3),
      reduce.toFixed(3),
      readback.toFixed(3),
      `${ratio.toFixed(2)}×`,
      `≤ ${target}×`,
      ratio <= target ? 'met' : 'MISSED',
      `${(readback / reduce).toFixed(2)}×`,
      String(draws.length),
      floor.toFixed(3),
      `${(floor / single).toFixed(2)}×`,
      `${(reduce / floor).toFixed(2)}×`,
      instancedFloor.toFixed(3),
      `${(instancedFloor / single).toFixed(2)}×`,
      `${(reduce / instancedFloor).toFixed(2)}×`,
    ]);
  }
  console.log(
    `\nmarquee ${rect.width}×${rect.height} vs a single pick at its centre, ${width}×${height} on Dawn (medians of ${rounds} interleaved rounds, ms${gc ? ', GC between samples' : ''})`,
  );
  console.log('reduce = pickRectAsync (frustum cull + GPU ID reduce); readback = every mesh drawn, every texel read');
  console.log(
    'floor = the culled candidates drawn alone in one bare pass (own buffers per mesh, flat colour, no weft code) + a 256-byte readback',
  );
  console.log(
    'inst. floor = the same boxes as one instanced draw in that bare pass (what drawing them costs at best; weft draws equal meshes so)',
  );
  const header = [
    'scene',
    'found',
    'single',
    'reduce',
    'readback',
    'reduce/single',
    'TARGET',
    'status',
    'readback/reduce',
    'draws',
    'floor',
    'floor/single',
    'reduce/floor',
    'inst. floor',
    'inst./single',
    'reduce/inst.',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  disposeEngine(engine);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
