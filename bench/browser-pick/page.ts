// The bench page: weft and Babylon.js side by side, each on its own device and 640×480 canvas. The runner calls
// window.__bench step by step; every function times inside the page and returns milliseconds.
import { WebGPUEngine } from '@babylonjs/core/Engines/webgpuEngine.js';
import { createEngineAsync, type Engine } from '../../engine/index.js';
import {
  babylonAnswers,
  babylonBoxPick,
  type BabylonGbufferSide,
  babylonMultiPick,
  babylonOutputs,
  babylonPick,
  type BabylonPickSide,
  createBabylonGbufferSide,
  createBabylonPickSide,
  disposeBabylonPickSide,
  renderBabylonFrame,
} from './babylon-side.js';
import type { BenchPage, GbufferRound, PickRound, PickSceneSpec } from './shared.js';
import {
  createWeftGbufferSide,
  createWeftPickSide,
  disposeWeftPickSide,
  weftAnswers,
  weftFrameAsync,
  type WeftGbufferSide,
  type WeftPickSide,
  weftOutputs,
  weftPick,
  weftPickMany,
  weftPickRect,
} from './weft-side.js';

import { profileStagesAsync } from './profile.js';
import { makeBareRoundTrip, makePickDrawFloor } from '../pick-floors.js';

const errors: string[] = [];
/** What the page is doing right now, for the runner's timeout message. */
let current = 'loaded';

function watch(device: GPUDevice, who: string): void {
  device.addEventListener('uncapturederror', (event) =>
    errors.push(`${who}: ${(event as GPUUncapturedErrorEvent).error.message}`),
  );
  device.lost.then((info) => errors.push(`${who}: device lost (${info.reason}) ${info.message}`));
}

async function time(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

let weftEngine: Engine;
let babylonEngine: WebGPUEngine;
let babylonDevice: GPUDevice;
let floors: { weft: () => Promise<void>; weftDraw: () => Promise<void>; babylon: () => Promise<void> };
let weftPickSide: WeftPickSide | null = null;
let babylonPickSide: BabylonPickSide | null = null;
let pickSpec: PickSceneSpec | null = null;
let weftGbuffer: WeftGbufferSide | null = null;
let babylonGbuffer: BabylonGbufferSide | null = null;

/**
 * A GC (where the page may call `gc()`: the bench launches Chromium with it) and a short pause before each timed step:
 * no step pays for the garbage or the GPU process's tail of the step before it, the other library's included.
 */
async function settleBeforeStep(): Promise<void> {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((resolve) => setTimeout(resolve, 2));
}

/** Runs the named steps in `order` (0: as listed, 1: reversed) so neither library always goes first. */
async function timeSteps<K extends string>(
  steps: [K, () => Promise<unknown>][],
  order: number,
): Promise<Record<K, number>> {
  const result = {} as Record<K, number>;
  for (const [name, step] of order % 2 ? [...steps].reverse() : steps) {
    current = `${name} (round order ${order})`;
    await settleBeforeStep();
    result[name] = await time(step);
  }
  current = 'idle';
  return result;
}

/**
 * Calls every timed step until the JIT has compiled its code (up to 40 calls, or 250 ms per step): the handful of
 * warm-up rounds alone left the first scene's picks running colder code than the later scenes'.
 */
async function warmUp(): Promise<void> {
  const w = weftPickSide!;
  const b = babylonPickSide!;
  const steps = [
    floors.weft,
    floors.weftDraw,
    () => weftPick(w),
    () => weftPickMany(w),
    () => weftPickRect(w),
    floors.babylon,
    () => babylonPick(b),
  ];
  for (const step of steps) {
    const start = performance.now();
    for (let i = 0; i < 40 && performance.now() - start < 250; i++) await step();
  }
}

const bench: BenchPage = {
  async init() {
    const weftCanvas = document.querySelector<HTMLCanvasElement>('#weft')!;
    const babylonCanvas = document.querySelector<HTMLCanvasElement>('#babylon')!;
    weftEngine = await createEngineAsync(navigator.gpu, weftCanvas, { label: 'weft-bench' });
    watch(weftEngine.device, 'weft');
    // setMaximumLimits: the adapter's limits, as weft asks for maxColorAttachmentBytesPerSample; Babylon.js's five
    // RGBA16F G-buffer outputs (40 B per sample) exceed WebGPU's default 32.
    babylonEngine = new WebGPUEngine(babylonCanvas, {
      antialias: false,
      adaptToDeviceRatio: false,
      setMaximumLimits: true,
    });
    await babylonEngine.initAsync();
    // Babylon.js keeps its device in a private field; its floor must be measured on that device.
    babylonDevice = (babylonEngine as unknown as { _device: GPUDevice })._device;
    watch(babylonDevice, 'babylon');
    floors = {
      weft: makeBareRoundTrip(weftEngine.device),
      weftDraw: makePickDrawFloor(weftEngine.device),
      babylon: makeBareRoundTrip(babylonDevice),
    };
    // V8 keeps less optimised code for the first picker of a process until another one has picked (bench/pick.ts):
    // a throwaway scene picks first, so the first measured scene is not the one that pays for it.
    const throwaway = createWeftPickSide(weftEngine, { count: 100, thin: false });
    for (const start = performance.now(); performance.now() - start < 500; ) {
      await weftPick(throwaway);
      await weftPickMany(throwaway);
      await weftPickRect(throwaway);
    }
    disposeWeftPickSide(throwaway);
    const info = weftEngine.adapter?.info;
    return {
      adapter: info ? `${info.vendor} ${info.architecture} ${info.device} ${info.description}`.trim() : 'unknown',
      isolated: globalThis.crossOriginIsolated === true,
      collects: typeof (globalThis as { gc?: unknown }).gc === 'function',
      babylonVersion: WebGPUEngine.Version,
      weftOutputs: weftOutputs.map(String),
      babylonOutputs,
      meshesInGbufferScene: 91,
    };
  },

  async setupPick(spec) {
    if (weftPickSide) disposeWeftPickSide(weftPickSide);
    if (babylonPickSide) disposeBabylonPickSide(babylonPickSide);
    weftPickSide = babylonPickSide = null;
    pickSpec = spec;
    current = `setupPick ${spec.count}${spec.thin ? ' thin' : ''}: weft`;
    const weftMs = await time(async () => {
      weftPickSide = createWeftPickSide(weftEngine, spec);
      await weftPick(weftPickSide);
    });
    const babylonMs = await time(async () => {
      current = `setupPick ${spec.count}${spec.thin ? ' thin' : ''}: Babylon.js scene`;
      babylonPickSide = createBabylonPickSide(babylonEngine, spec);
      current = `setupPick ${spec.count}${spec.thin ? ' thin' : ''}: Babylon.js whenReadyAsync`;
      await babylonPickSide.scene.whenReadyAsync();
      renderBabylonFrame(babylonEngine, babylonPickSide.scene);
      current = `setupPick ${spec.count}${spec.thin ? ' thin' : ''}: Babylon.js first pick`;
      await babylonPick(babylonPickSide);
    });
    current = `setupPick ${spec.count}${spec.thin ? ' thin' : ''}: warming up`;
    await warmUp();
    current = 'idle';
    return { weftMs, babylonMs };
  },

  async pickRound(order): Promise<PickRound> {
    const w = weftPickSide!;
    const b = babylonPickSide!;
    return timeSteps<keyof PickRound>(
      [
        ['weftFloor', floors.weft],
        ['weftDrawFloor', floors.weftDraw],
        ['weftPick', () => weftPick(w)],
        ['weftMany', () => weftPickMany(w)],
        ['weftRect', () => weftPickRect(w)],
        ['babylonFloor', floors.babylon],
        ['babylonPick', () => babylonPick(b)],
        ['babylonMulti', () => babylonMultiPick(b)],
        ['babylonBox', () => babylonBoxPick(b)],
        [
          'babylonFrame',
          async () => {
            renderBabylonFrame(babylonEngine, b.scene);
            await babylonDevice.queue.onSubmittedWorkDone();
          },
        ],
      ],
      order,
    );
  },

  async pickAnswers() {
    current = 'pickAnswers';
    const weft = await weftAnswers(weftPickSide!);
    const babylon = await babylonAnswers(babylonPickSide!, pickSpec!.thin);
    return { weft, babylon, babylonFramesPerPick: babylonPickSide!.framesLastPick };
  },

  async profile() {
    current = 'profile';
    const w = weftPickSide!;
    const device = weftEngine.device;
    const result = {
      floor: await profileStagesAsync(device, floors.weft, 15),
      drawFloor: await profileStagesAsync(device, floors.weftDraw, 15),
      pick: await profileStagesAsync(device, () => weftPick(w), 15),
      many: await profileStagesAsync(device, () => weftPickMany(w), 15),
      rect: await profileStagesAsync(device, () => weftPickRect(w), 15),
    };
    current = 'idle';
    return result;
  },

  async setupGbuffer() {
    current = 'setupGbuffer';
    if (weftPickSide) disposeWeftPickSide(weftPickSide);
    if (babylonPickSide) disposeBabylonPickSide(babylonPickSide);
    weftPickSide = babylonPickSide = null;
    weftGbuffer = createWeftGbufferSide(weftEngine);
    babylonGbuffer = createBabylonGbufferSide(babylonEngine);
    await babylonGbuffer.scene.whenReadyAsync();
  },

  async gbufferRound(order): Promise<GbufferRound> {
    const w = weftGbuffer!;
    const scene = babylonGbuffer!.scene;
    // The G-buffer renderer is one of the scene's render targets: off for the plain frame, on for the G-buffer frame.
    const babylonFrame = async (withGbuffer: boolean) => {
      scene.renderTargetsEnabled = withGbuffer;
      renderBabylonFrame(babylonEngine, scene);
      await babylonDevice.queue.onSubmittedWorkDone();
    };
    return timeSteps<keyof GbufferRound>(
      [
        ['weftForward', () => weftFrameAsync(weftEngine, [w.forward])],
        ['weftGbuffer', () => weftFrameAsync(weftEngine, [w.gbuffer])],
        ['weftBoth', () => weftFrameAsync(weftEngine, [w.gbuffer, w.forward])],
        ['babylonPlain', () => babylonFrame(false)],
        ['babylonGbuffer', () => babylonFrame(true)],
      ],
      order,
    );
  },

  errors: () => [...errors],
  step: () => current,
};

window.__bench = bench;
