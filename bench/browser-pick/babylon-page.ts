// The bench page of weft-gpu/babylon: one WebGPUEngine, one Babylon.js scene, picked by Babylon.js's GPUPicker and by
// weft-gpu/babylon side by side. The runner (run-babylon.ts) calls window.__babylonBench step by step.
import { WebGPUEngine } from '@babylonjs/core/Engines/webgpuEngine.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import {
  type BabylonPicker,
  boxPickBabylonAsync,
  createBabylonPickerAsync,
  disposeBabylonPicker,
  multiPickBabylonAsync,
  pickBabylonAsync,
} from '../../hosts/babylon/index.js';
import {
  babylonAnswers,
  babylonBoxPick,
  babylonMultiPick,
  babylonPick,
  type BabylonPickSide,
  createBabylonPickSide,
  disposeBabylonPickSide,
  renderBabylonFrame,
} from './babylon-side.js';
import { centre, marquee, type PickSceneSpec, points } from './shared.js';
import { makeBareRoundTrip, makePickDrawFloor } from '../pick-floors.js';
import { pickManyAsync } from '../../picking/gpu-picker.js';
import { profileStagesAsync, type StageProfile } from './profile.js';
import { median } from '../bench-timing.js';
import { babylonBareReads } from '../host-read-floors.js';

export interface BabylonBenchRound {
  floor: number;
  /** The bare reads of every mesh's Babylon.js state a correct pick makes (host-read-floors.ts), no GPU work. */
  reads: number;
  /** weft requests of the round whose walk changed the synced scene (their early pass, if any, was dropped). */
  weftResynced: number;
  weftPick: number;
  gpuPickerPick: number;
  weftMulti: number;
  gpuPickerMulti: number;
  weftBox: number;
  gpuPickerBox: number;
}

export interface BabylonBenchAnswers {
  /** Hit keys per request: weft-gpu/babylon, GPUPicker, Babylon.js's CPU scene.pick (64 points). */
  weft: { centre: string; many: string[]; box: string[] };
  gpuPicker: { centre: string; many: string[]; rect: string[]; ray: string[]; mirrored: string[] };
}

let engine: WebGPUEngine;
let device: GPUDevice;
let side: BabylonPickSide | null = null;
let picker: BabylonPicker | null = null;
let thin = false;
let current = 'loaded';
const errors: string[] = [];

const keyOf = (mesh: AbstractMesh | null | undefined, instance: number) =>
  mesh ? (thin ? `${mesh.name}#${Math.max(0, instance)}` : mesh.name) : '-';

let floor: () => Promise<void>;

const weftPick = () => pickBabylonAsync(picker!, centre.x, centre.y);
const weftMulti = () => multiPickBabylonAsync(picker!, points);
const weftBox = () =>
  boxPickBabylonAsync(picker!, marquee.x, marquee.y, marquee.x + marquee.width, marquee.y + marquee.height);

async function time(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

const bench = {
  async init() {
    const canvas = document.querySelector<HTMLCanvasElement>('#babylon')!;
    engine = new WebGPUEngine(canvas, { antialias: false, adaptToDeviceRatio: false, setMaximumLimits: true });
    await engine.initAsync();
    device = (engine as unknown as { _device: GPUDevice })._device;
    device.addEventListener('uncapturederror', (e) => errors.push((e as GPUUncapturedErrorEvent).error.message));
    floor = makeBareRoundTrip(device);
    return {
      babylonVersion: WebGPUEngine.Version,
      isolated: globalThis.crossOriginIsolated === true,
      collects: typeof (globalThis as { gc?: unknown }).gc === 'function',
    };
  },
  async setup(spec: PickSceneSpec) {
    if (picker) disposeBabylonPicker(picker);
    if (side) disposeBabylonPickSide(side);
    thin = spec.thin;
    current = `setup ${spec.count}`;
    side = createBabylonPickSide(engine, spec);
    await side.scene.whenReadyAsync();
    renderBabylonFrame(engine, side.scene);
    const weftMs = await time(async () => {
      picker = await createBabylonPickerAsync(engine, side!.scene);
      await weftPick();
    });
    const gpuPickerMs = await time(() => babylonPick(side!));
    current = 'idle';
    return { weftMs, gpuPickerMs, ownedBytes: picker!.owned.bytes };
  },
  async round(order: number): Promise<BabylonBenchRound> {
    const scene = side!.scene;
    const steps: [keyof BabylonBenchRound, () => Promise<unknown>][] = [
      ['floor', floor],
      ['reads', async () => babylonBareReads(scene.meshes, scene.activeCamera!.layerMask)],
      ['weftPick', weftPick],
      ['gpuPickerPick', () => babylonPick(side!)],
      ['weftMulti', weftMulti],
      ['gpuPickerMulti', () => babylonMultiPick(side!)],
      ['weftBox', weftBox],
      ['gpuPickerBox', () => babylonBoxPick(side!)],
    ];
    const result = { weftResynced: 0 } as BabylonBenchRound;
    for (const [name, step] of order % 2 ? [...steps].reverse() : steps) {
      current = `${name} (order ${order})`;
      // Each request follows a presented Babylon.js frame, as a pick does in an app whose render loop runs (a click
      // lands between frames), on an idle device: the frame's GPU work is done before the clock starts. Every column
      // then starts alike, so the floor and the reads bound the picks measured beside them.
      renderBabylonFrame(engine, scene);
      await device.queue.onSubmittedWorkDone();
      // And a GC where the page may call gc() (the bench's Chromium allows it): no request pays for the garbage of the
      // one before it (GPUPicker's, at 10 000 meshes, is large).
      (globalThis as { gc?: () => void }).gc?.();
      const changes = picker!.drawables.changes;
      result[name] = await time(step);
      if (picker!.drawables.changes !== changes) result.weftResynced++;
    }
    current = 'idle';
    return result;
  },
  async answers(): Promise<BabylonBenchAnswers> {
    current = 'answers';
    const single = await weftPick();
    const many = await weftMulti();
    const box = await weftBox();
    const gpu = await babylonAnswers(side!, thin);
    current = 'idle';
    return {
      weft: {
        centre: keyOf(single.pickedMesh, single.thinInstanceIndex),
        many: many.map((i) => keyOf(i.pickedMesh, i.thinInstanceIndex)),
        box: box.meshes.map((m, k) => keyOf(m, box.thinInstanceIndexes[k])).sort(),
      },
      gpuPicker: gpu,
    };
  },
  /** weft's three requests only, `n` times each (the runner profiles this with BENCH_CPU_PROFILE). */
  async weftOnly(n: number) {
    for (let i = 0; i < n; i++) {
      await weftPick();
      await weftMulti();
      await weftBox();
    }
  },
  /**
   * Where each request's time goes (profile.ts stages, medians of 15): the adapter's requests, weft's own pickManyAsync
   * on the picker's drawable scene without the walk, sync and PickingInfo conversion, each with detail on and off; and
   * the adapter's pick right after a Babylon.js frame, as the timed rounds pick.
   */
  async stages(): Promise<Record<string, StageProfile>> {
    current = 'stages';
    const gpuPicker = picker!.gpuPicker;
    await weftPick();
    const core = (at: readonly { x: number; y: number }[]) => () =>
      pickManyAsync(gpuPicker, at, {
        camera: picker!.camera!,
        viewport: { width: engine.getRenderWidth(), height: engine.getRenderHeight() },
        devicePixelRatio: 1 / engine.getHardwareScalingLevel(),
      });
    const result: Record<string, StageProfile> = {};
    for (const detailed of [true, false]) {
      gpuPicker.detailed = detailed;
      const tag = detailed ? 'detail' : 'no detail';
      result[`adapter pick, ${tag}`] = await profileStagesAsync(device, weftPick, 15);
      result[`adapter 64 pts, ${tag}`] = await profileStagesAsync(device, weftMulti, 15);
      result[`core pickMany(1), ${tag}`] = await profileStagesAsync(device, core([centre]), 15);
      result[`core pickMany(64), ${tag}`] = await profileStagesAsync(device, core(points), 15);
    }
    gpuPicker.detailed = true;
    // As in the timed rounds, where a pick follows a Babylon.js frame (GPUPicker's, or the floor after one): the frame
    // leaves little of the scene in the CPU caches, and the walk's cost is its cache misses. Back to back (above) the
    // scene stays cached; the gap between the two is what a cold walk and sync add.
    // The floor after a frame too: what of the pick's map wait there is the browser's, not weft's.
    for (const [name, work] of [
      ['adapter pick after a frame, detail', weftPick],
      ['floor after a frame', floor],
    ] as const) {
      const afterFrame: StageProfile[] = [];
      for (let i = 0; i < 15; i++) {
        renderBabylonFrame(engine, side!.scene);
        await device.queue.onSubmittedWorkDone();
        afterFrame.push(await profileStagesAsync(device, work, 1));
      }
      const keys = Object.keys(afterFrame[0]) as (keyof StageProfile)[];
      result[name] = Object.fromEntries(
        keys.map((k) => [k, median(afterFrame.map((s) => s[k]))]),
      ) as unknown as StageProfile;
    }
    result['adapter box'] = await profileStagesAsync(device, weftBox, 15);
    current = 'idle';
    return result;
  },
  /**
   * Where the wait after a Babylon.js frame comes from (BENCH_LATENCY=1): the bare readback floor, the draw floor (one
   * box drawn into the pick's attachments by raw WebGPU, then read back), weft's own pick of the synced scene (no walk,
   * no sync) and the adapter's pick, each back to back, right after a presented frame, and after a frame and a GC (as
   * the timed rounds run); then the floor after a frame with the canvas not displayed. Medians of 15, total ms.
   */
  async latency(): Promise<Record<string, number>> {
    current = 'latency';
    const canvas = document.querySelector<HTMLCanvasElement>('#babylon')!;
    const drawFloor = makePickDrawFloor(device);
    const core = () =>
      pickManyAsync(picker!.gpuPicker, [centre], {
        camera: picker!.camera!,
        viewport: { width: engine.getRenderWidth(), height: engine.getRenderHeight() },
        devicePixelRatio: 1 / engine.getHardwareScalingLevel(),
      });
    const frame = async () => {
      renderBabylonFrame(engine, side!.scene);
      await device.queue.onSubmittedWorkDone();
    };
    const gc = () => (globalThis as { gc?: () => void }).gc?.();
    const result: Record<string, number> = {};
    const measure = async (name: string, before: () => Promise<unknown>, work: () => Promise<unknown>) => {
      const samples: number[] = [];
      for (let i = 0; i < 15; i++) {
        await before();
        samples.push(await time(work));
      }
      result[name] = median(samples);
    };
    for (const [label, work] of [
      ['floor', floor],
      ['draw floor', drawFloor],
      ["weft's own pick (no walk)", core],
      ['adapter pick', weftPick],
    ] as const) {
      await measure(`${label}, back to back`, async () => {}, work);
      await measure(`${label} after a frame`, frame, work);
      await measure(`${label} after a frame and a GC`, async () => (await frame(), gc()), work);
    }
    canvas.style.display = 'none';
    await measure('floor after a frame, canvas hidden', frame, floor);
    canvas.style.display = '';
    current = 'idle';
    return result;
  },
  errors: () => [...errors],
  step: () => current,
};

(window as unknown as { __babylonBench: typeof bench }).__babylonBench = bench;
