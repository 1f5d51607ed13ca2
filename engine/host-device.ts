import { describeValue } from '../core/errors.js';
import { checkOptionKeys, type OptionKeys } from '../core/options.js';
import {
  assertEngineAlive,
  checkDeviceSize,
  configureTarget,
  type Engine,
  type EngineTarget,
  isDeviceLostAsync,
  makeEngineState,
  resolveEngineTarget,
  watchDevice,
} from './engine.js';
import { checkWebGpuGlobals } from './argument-checks.js';
import { EngineError, engineOptionError } from './engine-errors.js';
import { noteHostOwnedDevice } from './readback.js';

/**
 * Options of `createEngineFromDeviceAsync`. The device's features and limits are the host's choice, so the request
 * options of `createEngineAsync` (limits, features, power preference) are refused here (EngineError `bad-option`).
 */
export interface EngineFromDeviceOptions {
  /** Backing pixels per CSS pixel; canvases are sized clientWidth × ratio. Default 1. */
  devicePixelRatio?: number;
  /**
   * Colour format of the draw target. Default: offscreen `rgba8unorm`; a canvas takes `navigator.gpu`'s preferred
   * canvas format (`bgra8unorm` where there is no `navigator.gpu`).
   */
  colorFormat?: GPUTextureFormat;
  /** Label prefix of every GPU object the engine makes. */
  label?: string;
}

const optionKeys: OptionKeys<EngineFromDeviceOptions> = { devicePixelRatio: true, colorFormat: true, label: true };

/** Where an engine on a host's device draws: a canvas, a canvas' `webgpu` context, or an offscreen size. */
export type EngineFromDeviceTarget = EngineTarget | GPUCanvasContext;

function isDevice(value: unknown): value is GPUDevice {
  const device = value as GPUDevice | null;
  return !!device && typeof device.createBuffer === 'function' && !!device.queue && !!device.limits;
}

function isCanvasContext(value: unknown): value is GPUCanvasContext {
  const context = value as GPUCanvasContext | null;
  return !!context && typeof context.configure === 'function' && typeof context.getCurrentTexture === 'function';
}

function preferredCanvasFormat(): GPUTextureFormat {
  const gpu = (globalThis as { navigator?: { gpu?: GPU } }).navigator?.gpu;
  return gpu?.getPreferredCanvasFormat() ?? 'bgra8unorm';
}

/**
 * Creates an engine on a `GPUDevice` the host already has (three.js, Babylon.js or your own code made it), so weft and
 * the host share one device. Features and limits are the device's own (`device.features`, `device.limits`): every
 * check (G-buffer attachment bytes, pick buffer sizes, texture sizes) reads them.
 *
 * The host owns the device: weft never destroys it (`disposeEngine` leaves it alive) and never replaces it behind the
 * host's back. When it is lost, the engine becomes `deviceLost` and every call that needs the GPU is refused with
 * EngineError `device-lost` until the host hands over a new device with `setEngineDeviceAsync`.
 *
 * A canvas or its `webgpu` context is configured for the device (weft renders into its current texture).
 * @throws {EngineError} `bad-option` for a value that is not a GPUDevice or an option `createEngineAsync` takes but this does not; `device-lost` for a device already lost; `bad-size` for a target the device's limits refuse
 */
export async function createEngineFromDeviceAsync(
  device: GPUDevice,
  target: EngineFromDeviceTarget,
  options: EngineFromDeviceOptions = {},
): Promise<Engine> {
  const api = 'createEngineFromDeviceAsync';
  checkOptionKeys(api, options, optionKeys, engineOptionError);
  if (!isDevice(device))
    throw new EngineError(
      api,
      'bad-option',
      `expected a GPUDevice (from adapter.requestDevice()), got ${describeValue(device)}`,
    );
  checkWebGpuGlobals(api);
  const given = isCanvasContext(target) ? target : null;
  const drawTarget = given ? (given.canvas as HTMLCanvasElement | OffscreenCanvas) : (target as EngineTarget);
  const { ratio, width, height, canvas } = resolveEngineTarget(api, drawTarget, options.devicePixelRatio);
  checkDeviceSize(api, device, canvas ? { width, height } : { 'target.width': width, 'target.height': height });
  if (await isDeviceLostAsync(device))
    throw new EngineError(api, 'device-lost', 'the device is lost already; adopt a live device');
  let context: GPUCanvasContext | null = given;
  if (canvas && !context) {
    context = canvas.getContext('webgpu') as GPUCanvasContext | null;
    if (!context) throw new EngineError(api, 'no-webgpu', 'the canvas did not give a "webgpu" context');
  }
  if (canvas) {
    canvas.width = width;
    canvas.height = height;
  }
  noteHostOwnedDevice(device);
  return makeEngineState(
    { gpu: null, adapter: null, device, deviceOwner: 'host', options, label: options.label ?? 'weft' },
    { canvas, context, width, height, devicePixelRatio: ratio },
    options.colorFormat ?? (canvas ? preferredCanvasFormat() : 'rgba8unorm'),
  );
}

/** The limits of `previous` that `next` does not meet (a higher maximum, a lower alignment), as messages. */
function weakerLimits(previous: GPUSupportedLimits, next: GPUSupportedLimits): string[] {
  const weaker: string[] = [];
  for (const name in previous) {
    const was = (previous as unknown as Record<string, unknown>)[name];
    const now = (next as unknown as Record<string, unknown>)[name];
    if (typeof was !== 'number' || typeof now !== 'number') continue;
    if (name.endsWith('Alignment') ? now > was : now < was) weaker.push(`${name} ${now} (was ${was})`);
  }
  return weaker.sort();
}

/**
 * Hands a host-owned engine a replacement device the host created (after a loss, or to move weft to another device).
 * The replacement needs every feature and limit of the device it replaces (weft's tasks and pickers were checked
 * against those); then the engine leaves `deviceLost`, the target is configured for the new device, `deviceGeneration`
 * increments and `onDeviceRestored` listeners run: meshes, tasks and pickers rebuild their GPU objects on their next
 * use, as after an engine-owned recovery. Objects weft made on a previous device that is still alive are left to the
 * host's `destroy()` (or garbage collection).
 * @throws {EngineError} `bad-option` when the engine owns its device, or `device` is not a GPUDevice or already the engine's; `device-lost` when `device` is lost; `missing-feature` / `limit-exceeded` naming what the replacement lacks; `disposed`
 */
export async function setEngineDeviceAsync(engine: Engine, device: GPUDevice): Promise<void> {
  const api = 'setEngineDeviceAsync';
  assertEngineAlive(engine, api);
  if (engine.deviceOwner !== 'host')
    throw new EngineError(
      api,
      'bad-option',
      `engine "${engine.label}" created its own device (createEngineAsync) and replaces it itself after a loss; setEngineDeviceAsync is for engines made by createEngineFromDeviceAsync`,
    );
  if (!isDevice(device))
    throw new EngineError(
      api,
      'bad-option',
      `expected a GPUDevice (from adapter.requestDevice()), got ${describeValue(device)}`,
    );
  const previous = engine.device;
  if (device === previous) throw new EngineError(api, 'bad-option', "the device is already the engine's device");
  const missing = [...engine.features].filter((f) => !device.features.has(f)).sort();
  if (missing.length)
    throw new EngineError(
      api,
      'missing-feature',
      `the replacement lacks feature(s) ${missing.join(', ')} of the device it replaces; request them in requestDevice({ requiredFeatures })`,
    );
  const weaker = weakerLimits(previous.limits, device.limits);
  if (weaker.length)
    throw new EngineError(
      api,
      'limit-exceeded',
      `the replacement's limits are below those of the device it replaces: ${weaker.join(', ')}; request them in requestDevice({ requiredLimits })`,
    );
  checkDeviceSize(api, device, { width: engine.width, height: engine.height });
  if (await isDeviceLostAsync(device))
    throw new EngineError(api, 'device-lost', 'the replacement device is lost already; hand over a live device');
  assertEngineAlive(engine, api);
  if (engine.device !== previous)
    throw new EngineError(api, 'bad-option', 'another setEngineDeviceAsync replaced the device meanwhile');
  noteHostOwnedDevice(device);
  engine.device = device;
  engine.features = new Set(device.features);
  engine.deviceLost = false;
  engine.deviceGeneration++;
  configureTarget(engine);
  watchDevice(engine, device);
  for (const listener of [...engine.listeners]) listener(engine);
}
