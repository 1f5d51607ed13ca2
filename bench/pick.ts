// GPU pick latency on Dawn as ratios measured side by side in one run, each beside issue #17's target
// (run: npm run bench:pick, or NODE_OPTIONS=--expose-gc npx tsx bench/pick.ts [rounds] [detail]).
// Absolute times on this machine's software rasteriser mean little; the ratios are the result.
import { mat4 } from 'wgpu-matrix';
import {
  createBoxMesh,
  createEngineAsync,
  createSphereMesh,
  createScene,
  disposeEngine,
  type Engine,
  makePerspectiveCamera,
  type Scene,
  setThinInstances,
} from '../engine/index.js';
import {
  createCpuPicker,
  createGpuPicker,
  disposeGpuPicker,
  enableDetailedPicking,
  type GpuPicker,
  pickAsync,
  pickManyAsync,
  refitCpuPicker,
} from '../picking/index.js';
import { collectGarbage, median, printTable, time, verdict } from './bench-timing.js';
import { makeBareRoundTrip, makePickDrawFloor, makePickShapedPass } from './pick-floors.js';
import { createWebGpuCallTimer } from './webgpu-call-timer.js';
import { createBenchGpu, reportBenchAdapter } from './bench-gpu.js';

const rounds = Number(process.argv[2] ?? 40);
/** `detail` as the second argument runs the detailed-pick comparison (vertex-index vs primitive-index) instead. */
const only = process.argv[3];

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

/** One box mesh with `count` thin instances on the same grid as makeGridScene. */
function makeInstancedGridScene(engine: Engine, count: number): Scene {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [0, 60, 0.01], target: [0, 0, 0], fovY: 1.2 });
  const side = Math.ceil(Math.sqrt(count));
  const matrices = new Float32Array(count * 16);
  for (let i = 0; i < count; i++) {
    const x = (i % side) - Math.floor(side / 2);
    const z = Math.floor(i / side) - Math.floor(side / 2);
    matrices.set(mat4.translation([x * 0.9, 0, z * 0.9]), i * 16);
  }
  createBoxMesh(scene, 'boxes', { width: 0.4, height: 0.4, depth: 0.4 });
  setThinInstances(scene.meshes[0], matrices);
  return scene;
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
  printTable(
    [
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
    ],
    rows,
  );
}

/** The scenes of the main table: separate boxes and one box with thin instances, the camera over one at the centre. */
const scenes: { label: string; meshes: number; make: (engine: Engine) => Scene }[] = [
  ...[1, 100, 1000, 10000].map((n) => ({ label: `${n} meshes`, meshes: n, make: (e: Engine) => makeGridScene(e, n) })),
  { label: '10000 thin instances', meshes: 1, make: (e: Engine) => makeInstancedGridScene(e, 10000) },
];
const centre = { x: 256, y: 256 };
const points = Array.from({ length: 64 }, (_, i) => ({ x: 64 + (i % 8) * 48, y: 64 + Math.floor(i / 8) * 48 }));

/**
 * Weft's own synchronous JS per warm pick: the time from the call until it returns its promise (everything up to
 * and including the submit), minus the time spent inside WebGPU calls, which any GPU pick pays (the floor makes the
 * same kinds of calls). Measured in its own rounds so the call timer's wrappers do not slow the latency rounds.
 */
async function measurePickJs(picker: GpuPicker, samples: number): Promise<{ js: number; calls: number }> {
  const timer = createWebGpuCallTimer();
  const js: number[] = [];
  const calls: number[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      timer.reset();
      const start = performance.now();
      const pending = pickAsync(picker, centre.x, centre.y);
      const sync = performance.now() - start;
      const nativeMs = timer.ms;
      calls.push(timer.calls);
      await pending;
      js.push(sync - nativeMs);
    }
  } finally {
    timer.dispose();
  }
  return { js: median(js), calls: median(calls) };
}

/** A GC, one untimed round trip and a short pause: what the previous round left behind is done with. */
async function settle(bare: () => Promise<void>): Promise<void> {
  collectGarbage();
  await bare();
  await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Times `work` after one untimed call of it. */
async function sample(work: () => Promise<unknown>): Promise<number> {
  await work();
  return time(work);
}

async function main(): Promise<void> {
  const gpu = createBenchGpu();
  const engine = await createEngineAsync(gpu, { width: 512, height: 512 });
  reportBenchAdapter(engine);
  if (only === 'detail') {
    await benchDetailMethods(engine);
    disposeEngine(engine);
    return;
  }
  const bare = makeBareRoundTrip(engine.device);
  const floor = makePickShapedPass(engine.device);
  const drawFloor = makePickDrawFloor(engine.device);
  const rows: string[][] = [];
  const manyRows: string[][] = [];
  // Picks on a throwaway scene first: V8 keeps less optimised code for the first picker of a process until another one
  // has picked (lavapipe, 1 mesh, after 6 s of picks: 28 µs of JS per pick for the first picker, 16–20 µs for the next
  // ones and for the first again once they ran; --trace-deopt shows the pick path recompiled when the second starts).
  // An app that picks with more than one camera, scene or overlay gets the second kind; the rows report it.
  const warmUp = async (picker: GpuPicker, meshes: number, ms: number) => {
    // At least 100 calls and `ms` of them: V8 optimises a function once it has run long enough, so a pick over 1
    // mesh needs many more calls than one over 10 000.
    const until = performance.now() + ms;
    for (let i = 0; i < (meshes >= 10000 ? 30 : 100) || performance.now() < until; i++) {
      await pickAsync(picker, centre.x, centre.y);
      await pickManyAsync(picker, points);
      await bare();
      await floor();
      await drawFloor();
    }
  };
  const throwaway = makeGridScene(engine, 100);
  const throwawayPicker = createGpuPicker(throwaway);
  await warmUp(throwawayPicker, 100, 1500);
  disposeGpuPicker(throwawayPicker);
  for (const { label, meshes, make } of scenes) {
    const scene = make(engine);
    const picker: GpuPicker = createGpuPicker(scene);
    await warmUp(picker, meshes, 1500);
    const samples = {
      bare: [] as number[],
      floor: [] as number[],
      draw: [] as number[],
      pick: [] as number[],
      full: [] as number[],
    };
    const fullRounds = meshes >= 10000 ? Math.max(3, rounds / 8) : meshes >= 1000 ? Math.max(5, rounds / 4) : rounds;
    // Interleaved so machine noise hits every case alike. A GC and a pause start each round (so no sample pays for
    // another's garbage or its finalisers), and each timed call follows an untimed one of the same case.
    for (let r = 0; r < rounds; r++) {
      await settle(bare);
      samples.bare.push(await sample(bare));
      samples.floor.push(await sample(floor));
      samples.draw.push(await sample(drawFloor));
      samples.pick.push(await sample(() => pickAsync(picker, centre.x, centre.y)));
      if (r < fullRounds)
        samples.full.push(await sample(() => pickAsync(picker, centre.x, centre.y, { preFilter: false })));
    }
    // Many samples: V8 keeps optimising the pick path through the first hundreds of calls (lavapipe, 1 mesh: 50 µs
    // over the first 40 picks after the rounds, 37 µs over the next 400).
    const { js, calls } = await measurePickJs(picker, Math.max(400, rounds * 2));
    // The tuned path: the scene's CPU picker in refit 'manual' mode (the app refits once per frame), its own floor.
    const manual = { floor: [] as number[], pick: [] as number[] };
    refitCpuPicker(createCpuPicker(scene, { refit: 'manual' }));
    await pickAsync(picker, centre.x, centre.y);
    for (let r = 0; r < rounds; r++) {
      await settle(bare);
      manual.floor.push(await sample(floor));
      manual.pick.push(await sample(() => pickAsync(picker, centre.x, centre.y)));
    }
    const manualRatio = median(manual.pick) / median(manual.floor);
    // 64 points at once against single picks, both timed per call the same way: interleaved within each round, each
    // timed call after an untimed one of its kind, medians over all rounds (a burst's mean would let one stall of the
    // shared machine's rasteriser threads decide the row). The single picks walk the same 64 points. A pickMany call
    // right after the round's GC and pause is printed beside it.
    // Every other round starts without the forced GC, only the pause: after a global.gc() the `webgpu` package's native
    // calls run slower for dozens of calls, which a 64-point pass (~200 calls) feels more than a single pick, and apps
    // never force a GC. Both are printed; the verdict is on the rounds with it.
    const manyRounds = Math.max(5, rounds / 4);
    const many: number[] = [];
    const manyCold: number[] = [];
    const singles: number[] = [];
    const unforced = { many: [] as number[], singles: [] as number[] };
    for (let r = 0; r < 2 * manyRounds; r++) {
      const forced = r % 2 === 0;
      if (forced) await settle(bare);
      else await new Promise((resolve) => setTimeout(resolve, 5));
      if (forced) manyCold.push(await sample(() => pickManyAsync(picker, points)));
      for (let k = 0; k < 4; k++) {
        (forced ? many : unforced.many).push(await sample(() => pickManyAsync(picker, points)));
        const p = points[(r * 4 + k) % points.length];
        (forced ? singles : unforced.singles).push(await sample(() => pickAsync(picker, p.x, p.y)));
      }
    }
    const hit = await pickAsync(picker, centre.x, centre.y);
    const name = hit.hit
      ? `${hit.pickedMesh!.name}${hit.pickedMesh!.thinInstanceCount ? `#${hit.thinInstanceIndex}` : ''}`
      : 'miss';
    const [b, f, d, pick, full] = [samples.bare, samples.floor, samples.draw, samples.pick, samples.full].map(median);
    const jsMicros = js * 1000;
    rows.push([
      label,
      name,
      b.toFixed(3),
      f.toFixed(3),
      pick.toFixed(3),
      `${(pick / f).toFixed(2)}×`,
      '≤ 1.5×',
      verdict(pick / f, 1.5, 'atMost'),
      d.toFixed(3),
      `${(d / f).toFixed(2)}×`,
      `${(pick / d).toFixed(2)}×`,
      jsMicros.toFixed(0),
      String(calls),
      // Issue #33: weft's own JS at most 40 µs per warm pick at 10 000 meshes.
      meshes >= 10000 ? `≤ 40 (${verdict(jsMicros, 40, 'atMost')})` : '-',
      `${manualRatio.toFixed(2)}×`,
      `${(full / b).toFixed(1)}×`,
    ]);
    const cheaper = (median(singles) * points.length) / median(many);
    manyRows.push([
      label,
      (median(many) / points.length).toFixed(3),
      median(singles).toFixed(3),
      `${cheaper.toFixed(1)}×`,
      '≥ 20×',
      verdict(cheaper, 20, 'atLeast'),
      (median(manyCold) / points.length).toFixed(3),
      `${((median(singles) * points.length) / median(manyCold)).toFixed(1)}×`,
      (median(unforced.many) / points.length).toFixed(3),
      median(unforced.singles).toFixed(3),
      `${((median(unforced.singles) * points.length) / median(unforced.many)).toFixed(1)}×`,
    ]);
  }
  console.log(
    `\nwarm pickAsync with default options against the pass floor (medians of ${rounds} interleaved rounds, ms)`,
  );
  console.log(
    'bare = one submit + mapAsync of a 256-byte buffer; floor = a pass with the pick attachments, clears and copies, no draw and no weft code',
  );
  console.log(
    'draw floor = the floor plus one raw draw of the hit box (minimal pipeline, one uniform write): the cheapest pass that draws what is under the pixel',
  );
  console.log(
    'weft JS = synchronous time of a pick minus the time inside WebGPU calls (µs, median); calls = WebGPU calls until the submit',
  );
  console.log(
    "manual/floor = the same pick with the scene's CPU picker in refit: 'manual' mode (the tuned path), against its own floor samples",
  );
  console.log('no pre-filter = every mesh drawn (what a picker without a CPU pre-filter pays), relative to bare');
  printTable(
    [
      'scene',
      'hit',
      'bare',
      'floor',
      'pick',
      'pick/floor',
      'target',
      '',
      'draw floor',
      'draw/floor',
      'pick/draw',
      'weft JS µs',
      'calls',
      'target',
      'manual/floor',
      'no pre-filter',
    ],
    rows,
  );
  console.log(
    `\npickManyAsync (64 points in one call) against single pickAsync calls at the same points, ms per point (medians of per-call times, interleaved)`,
  );
  console.log("after GC = one pickManyAsync call right after the round's GC and pause (info)");
  console.log('no forced GC = the same measurement in rounds between them that start with the pause only (info)');
  printTable(
    [
      'scene',
      'pickMany',
      'single',
      'cheaper',
      'target',
      '',
      'after GC',
      'cheaper',
      'no forced GC: pickMany',
      'single',
      'cheaper',
    ],
    manyRows,
  );
  disposeEngine(engine);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
