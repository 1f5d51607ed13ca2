import { describeValue } from '../core/errors.js';
import { checkOptionKeys, type OptionKeys } from '../core/options.js';
import { checkEngineArgument, checkWebGpuGlobals } from './argument-checks.js';
import { EngineError, engineOptionError } from './engine-errors.js';

/** Features weft uses when the adapter offers them. */
export const optionalEngineFeatures: readonly GPUFeatureName[] = [
  'primitive-index' as GPUFeatureName,
  'float32-blendable',
  'timestamp-query',
];

/** Where the engine draws: a canvas (browser) or an offscreen size in backing pixels (Node). */
export type EngineTarget = HTMLCanvasElement | OffscreenCanvas | { width: number; height: number };

/**
 * Limits the engine requests at the adapter's own value unless `requiredLimits` names them: they cost nothing to ask
 * for, and a G-buffer of several outputs (e.g. 6 outputs, 48 bytes per sample) needs more than WebGPU's defaults
 * (`maxColorAttachmentBytesPerSample` 32).
 */
const adapterDefaultLimits: readonly string[] = ['maxColorAttachmentBytesPerSample', 'maxColorAttachments'];

/**
 * Options of `createEngineAsync`. Unknown keys are refused (EngineError `bad-option`).
 *
 * Limits: the device gets WebGPU's default limits, except `maxColorAttachmentBytesPerSample` and
 * `maxColorAttachments`, which are requested at the adapter's own value (as three.js and Babylon.js users expect: the
 * engine asks for what the adapter offers where it costs nothing), so a multi-output geometry task works on a default
 * engine. `requiredLimits` overrides any limit, these two included (e.g. `{ maxColorAttachmentBytesPerSample: 32 }`
 * to test against the WebGPU default).
 */
export interface EngineOptions {
  /** Backing pixels per CSS pixel; canvases are sized clientWidth × ratio. Default 1. */
  devicePixelRatio?: number;
  /**
   * Limits the device must grant; the request fails with an EngineError naming the limit otherwise. Limits not named
   * keep WebGPU's defaults, except `maxColorAttachmentBytesPerSample` and `maxColorAttachments` (the adapter's value).
   */
  requiredLimits?: Record<string, number>;
  /** Features to request when present, replacing `optionalEngineFeatures`. */
  optionalFeatures?: readonly GPUFeatureName[];
  /** Features the device must have; missing ones are an error. */
  requiredFeatures?: readonly GPUFeatureName[];
  powerPreference?: GPUPowerPreference;
  /** Offscreen colour format; canvases use the preferred canvas format. Default rgba8unorm. */
  colorFormat?: GPUTextureFormat;
  /** Label prefix of every GPU object the engine makes. */
  label?: string;
}

const engineOptionKeys: OptionKeys<EngineOptions> = {
  devicePixelRatio: true,
  requiredLimits: true,
  optionalFeatures: true,
  requiredFeatures: true,
  powerPreference: true,
  colorFormat: true,
  label: true,
};

type DeviceListener = (engine: Engine) => void;

/**
 * Device, adapter, target and lifetime state shared by scenes, renderers and pickers.
 *
 * Who owns the device (`deviceOwner`): `'engine'` when `createEngineAsync` requested it — the engine replaces it after a
 * loss by itself and destroys it in `disposeEngine`; `'host'` when `createEngineFromDeviceAsync` adopted the host's
 * device — weft never creates, replaces or destroys that device: after its loss the engine is `deviceLost` until the host
 * hands over a replacement with `setEngineDeviceAsync`.
 */
export interface Engine {
  /** The GPU the engine requested its device from; null for an adopted (host-owned) device. */
  readonly gpu: GPU | null;
  readonly options: EngineOptions;
  readonly label: string;
  /** The adapter of an engine-owned device; null for an adopted device (WebGPU gives no way from a device to its adapter). */
  adapter: GPUAdapter | null;
  device: GPUDevice;
  /** `'engine'`: created by `createEngineAsync`; `'host'`: adopted by `createEngineFromDeviceAsync`. */
  readonly deviceOwner: 'engine' | 'host';
  /**
   * True from the loss of a host-owned device until `setEngineDeviceAsync` hands over a replacement. Meanwhile every
   * call that needs the GPU (frames, picks, readbacks, `whenEngineReadyAsync`) is refused with EngineError `device-lost`;
   * scene edits keep working and reach the GPU with the replacement. Always false for an engine-owned device.
   */
  deviceLost: boolean;
  /** Features the device was granted. */
  features: ReadonlySet<string>;
  /** Increments each time the device is replaced after a loss. */
  deviceGeneration: number;
  canvas: HTMLCanvasElement | OffscreenCanvas | null;
  context: GPUCanvasContext | null;
  colorFormat: GPUTextureFormat;
  width: number;
  height: number;
  devicePixelRatio: number;
  /** Colour texture of an offscreen engine (recreated with the device); null for canvases. */
  offscreenTexture: GPUTexture | null;
  /**
   * Pending work before the engine can draw, if any: a recovery after a device loss, or the device check of a table
   * given to `usePrecomposedShaders`. Frames return false and picks wait meanwhile.
   */
  recovery: Promise<void> | null;
  lastLossMessage: string | null;
  listeners: Set<DeviceListener>;
  disposed: boolean;
}

function isCanvas(target: EngineTarget): target is HTMLCanvasElement | OffscreenCanvas {
  return typeof (target as HTMLCanvasElement).getContext === 'function';
}

function checkSize(api: string, what: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 16384) {
    throw new EngineError(api, 'bad-size', `${what} ${describeValue(value)} must be an integer in 1..16384`);
  }
  return value;
}

/** @internal Refuses a draw-target size the device cannot allocate (its `maxTextureDimension2D`, 8192 by default). */
export function checkDeviceSize(api: string, device: GPUDevice, sizes: Record<string, number>): void {
  const max = device.limits.maxTextureDimension2D;
  for (const [what, value] of Object.entries(sizes)) {
    if (value > max)
      throw new EngineError(
        api,
        'bad-size',
        `${what} ${value} exceeds the device's maxTextureDimension2D ${max}; use 1..${max} (or request a higher limit with requiredLimits)`,
      );
  }
}

async function requestDeviceFor(
  engine: Pick<Engine, 'options' | 'label'>,
  gpu: GPU,
  api: string,
): Promise<{ adapter: GPUAdapter; device: GPUDevice }> {
  const { options } = engine;
  const adapter = await gpu.requestAdapter({ powerPreference: options.powerPreference });
  if (!adapter)
    throw new EngineError(
      api,
      'no-webgpu',
      'no WebGPU adapter is available (in Node: Mesa lavapipe from bookworm-backports; in a browser: WebGPU enabled)',
    );
  const required = [...(options.requiredFeatures ?? [])];
  const missing = required.filter((f) => !adapter.features.has(f));
  if (missing.length)
    throw new EngineError(
      api,
      'missing-feature',
      `the adapter lacks required feature(s) ${missing.join(', ')}; it has: ${[...adapter.features].sort().join(', ')}`,
    );
  const optional = (options.optionalFeatures ?? optionalEngineFeatures).filter(
    (f) => adapter.features.has(f) && !required.includes(f),
  );
  const requiredLimits: Record<string, number> = {};
  const adapterLimits = adapter.limits as unknown as Record<string, number | undefined>;
  for (const name of adapterDefaultLimits) {
    const offered = adapterLimits[name];
    if (typeof offered === 'number') requiredLimits[name] = offered;
  }
  for (const [name, value] of Object.entries(options.requiredLimits ?? {})) {
    const supported = adapterLimits[name];
    if (supported === undefined)
      throw new EngineError(api, 'bad-option', `requiredLimits.${name} is not a WebGPU limit`);
    const isAlignment = name.endsWith('Alignment');
    if (typeof value !== 'number' || (isAlignment ? value < supported : value > supported)) {
      throw new EngineError(
        api,
        'limit-exceeded',
        `requiredLimits.${name} = ${describeValue(value)} exceeds what the adapter supports (${supported})`,
      );
    }
    requiredLimits[name] = value;
  }
  const device = await adapter.requestDevice({
    label: `${engine.label}:device`,
    requiredFeatures: [...required, ...optional],
    requiredLimits,
  });
  return { adapter, device };
}

/** @internal Configures the canvas context for the engine's device, or (re)creates the offscreen colour texture. */
export function configureTarget(engine: Engine): void {
  if (engine.context) {
    engine.context.configure({
      device: engine.device,
      format: engine.colorFormat,
      alphaMode: 'opaque',
      usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
    });
    engine.offscreenTexture = null;
    return;
  }
  engine.offscreenTexture?.destroy();
  engine.offscreenTexture = engine.device.createTexture({
    label: `${engine.label}:offscreen-color`,
    size: [engine.width, engine.height],
    format: engine.colorFormat,
    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC | GPUTextureUsage.TEXTURE_BINDING,
  });
}

/**
 * Watches `device` for its loss: an engine-owned device is replaced; a host-owned one leaves the engine `deviceLost`.
 * @internal
 */
export function watchDevice(engine: Engine, device: GPUDevice): void {
  device.lost.then((info) => {
    if (engine.disposed || engine.device !== device) return;
    engine.lastLossMessage = `${info.reason}: ${info.message}`;
    if (engine.deviceOwner === 'host') {
      engine.deviceLost = true;
      return;
    }
    engine.recovery = recoverDevice(engine).finally(() => {
      engine.recovery = null;
    });
  });
}

async function recoverDevice(engine: Engine): Promise<void> {
  const { adapter, device } = await requestDeviceFor(engine, engine.gpu!, 'recoverDevice');
  if (engine.disposed) {
    device.destroy();
    return;
  }
  engine.adapter = adapter;
  engine.device = device;
  engine.features = new Set(device.features);
  engine.deviceGeneration++;
  configureTarget(engine);
  watchDevice(engine, device);
  for (const listener of [...engine.listeners]) listener(engine);
}

/**
 * Creates an engine: adapter + device (optional features when offered; `maxColorAttachmentBytesPerSample` and
 * `maxColorAttachments` at the adapter's value unless `requiredLimits` says otherwise, see `EngineOptions`) and its
 * draw target.
 * @throws {EngineError} when no adapter or device is granted, a required feature or limit is missing, or an option is invalid; `no-webgpu` when the WebGPU globals (`GPUTextureUsage`, …) are not defined (Node without `Object.assign(globalThis, globals)` from the webgpu package)
 */
export async function createEngineAsync(gpu: GPU, target: EngineTarget, options: EngineOptions = {}): Promise<Engine> {
  const api = 'createEngineAsync';
  checkOptionKeys(api, options, engineOptionKeys, engineOptionError);
  if (!gpu || typeof gpu.requestAdapter !== 'function')
    throw new EngineError(
      api,
      'bad-option',
      `expected a GPU object (navigator.gpu or the webgpu package's create()), got ${describeValue(gpu)}`,
    );
  checkWebGpuGlobals(api);
  const { ratio, width, height, canvas } = resolveEngineTarget(api, target, options.devicePixelRatio);
  const label = options.label ?? 'weft';
  const { adapter, device } = await requestDeviceFor({ options, label }, gpu, api);
  try {
    checkDeviceSize(api, device, canvas ? { width, height } : { 'target.width': width, 'target.height': height });
  } catch (error) {
    device.destroy();
    throw error;
  }
  let context: GPUCanvasContext | null = null;
  if (canvas) {
    canvas.width = width;
    canvas.height = height;
    context = canvas.getContext('webgpu') as GPUCanvasContext | null;
    if (!context) {
      device.destroy();
      throw new EngineError(api, 'no-webgpu', 'the canvas did not give a "webgpu" context');
    }
  }
  return makeEngineState(
    { gpu, adapter, device, deviceOwner: 'engine', options, label },
    { canvas, context, width, height, devicePixelRatio: ratio },
    canvas ? gpu.getPreferredCanvasFormat() : (options.colorFormat ?? 'rgba8unorm'),
  );
}

/**
 * A started engine's plain state around a live device, configured and watched: shared by `createEngineAsync` (the
 * engine's own device) and `createEngineFromDeviceAsync` (the host's).
 * @internal
 */
export function makeEngineState(
  owner: Pick<Engine, 'gpu' | 'adapter' | 'device' | 'deviceOwner' | 'options' | 'label'>,
  target: Pick<Engine, 'canvas' | 'context' | 'width' | 'height' | 'devicePixelRatio'>,
  colorFormat: GPUTextureFormat,
): Engine {
  const engine: Engine = {
    ...owner,
    deviceLost: false,
    features: new Set(owner.device.features),
    deviceGeneration: 0,
    ...target,
    colorFormat,
    offscreenTexture: null,
    recovery: null,
    lastLossMessage: null,
    listeners: new Set(),
    disposed: false,
  };
  configureTarget(engine);
  watchDevice(engine, owner.device);
  return engine;
}

/**
 * Checks the pixel ratio and the target: a canvas (sized from its CSS size × ratio) or an offscreen `{ width, height }`.
 * @internal
 */
export function resolveEngineTarget(
  api: string,
  target: EngineTarget,
  devicePixelRatio: number | undefined,
): { ratio: number; width: number; height: number; canvas: HTMLCanvasElement | OffscreenCanvas | null } {
  const ratio = devicePixelRatio ?? 1;
  if (typeof ratio !== 'number' || !Number.isFinite(ratio) || ratio <= 0 || ratio > 8)
    throw new EngineError(api, 'bad-option', `devicePixelRatio ${describeValue(ratio)} must be a number in (0, 8]`);
  if (target && isCanvas(target)) return { ratio, ...canvasBackingSize(target, ratio), canvas: target };
  if (!target || typeof target !== 'object')
    throw new EngineError(api, 'bad-option', `target ${describeValue(target)} must be a canvas or { width, height }`);
  const width = checkSize(api, 'target.width', target.width);
  const height = checkSize(api, 'target.height', target.height);
  return { ratio, width, height, canvas: null };
}

function canvasBackingSize(
  canvas: HTMLCanvasElement | OffscreenCanvas,
  ratio: number,
): { width: number; height: number } {
  const client = canvas as HTMLCanvasElement;
  const cssWidth =
    typeof client.clientWidth === 'number' && client.clientWidth > 0 ? client.clientWidth : canvas.width / ratio;
  const cssHeight =
    typeof client.clientHeight === 'number' && client.clientHeight > 0 ? client.clientHeight : canvas.height / ratio;
  return { width: Math.max(1, Math.round(cssWidth * ratio)), height: Math.max(1, Math.round(cssHeight * ratio)) };
}

/**
 * Resizes the draw target: a canvas follows its CSS size × pixel ratio; offscreen takes a new size.
 * @throws {EngineError} when an offscreen engine is resized without an explicit `{ width, height }`
 */
export function resizeEngine(
  engine: Engine,
  size?: { width: number; height: number },
  devicePixelRatio = engine.devicePixelRatio,
): void {
  assertEngineAlive(engine, 'resizeEngine');
  engine.devicePixelRatio = devicePixelRatio;
  if (engine.canvas) {
    const backing = size ?? canvasBackingSize(engine.canvas, devicePixelRatio);
    const width = checkSize('resizeEngine', 'width', backing.width);
    const height = checkSize('resizeEngine', 'height', backing.height);
    checkDeviceSize('resizeEngine', engine.device, { width, height });
    engine.width = width;
    engine.height = height;
    engine.canvas.width = engine.width;
    engine.canvas.height = engine.height;
    return;
  }
  if (!size)
    throw new EngineError('resizeEngine', 'bad-size', 'an offscreen engine needs an explicit { width, height }');
  const width = checkSize('resizeEngine', 'width', size.width);
  const height = checkSize('resizeEngine', 'height', size.height);
  checkDeviceSize('resizeEngine', engine.device, { width, height });
  engine.width = width;
  engine.height = height;
  configureTarget(engine);
}

/** The colour texture a frame draws into now (the canvas' current texture, or the offscreen one). */
export function getEngineColorTexture(engine: Engine): GPUTexture {
  assertEngineAlive(engine, 'getEngineColorTexture');
  return engine.context ? engine.context.getCurrentTexture() : engine.offscreenTexture!;
}

/** Calls `listener` after every device replacement; returns the unsubscribe function. */
export function onDeviceRestored(engine: Engine, listener: DeviceListener): () => void {
  engine.listeners.add(listener);
  return () => engine.listeners.delete(listener);
}

/**
 * Resolves once the engine's device is live: a pending recovery is awaited, and a loss the device has not reported
 * yet (a `destroy()` or reset just before the call) is waited for with one queue round trip, so the promise never
 * resolves on a dead device.
 * @throws {EngineError} `disposed` when the engine is disposed meanwhile
 */
export async function whenEngineReadyAsync(engine: Engine): Promise<void> {
  for (;;) {
    while (engine.recovery) await engine.recovery;
    assertEngineDevice(engine, 'whenEngineReadyAsync');
    const device = engine.device;
    const lost = await isDeviceLostAsync(device);
    assertEngineAlive(engine, 'whenEngineReadyAsync');
    if (!lost) return;
    if (engine.deviceOwner === 'host' && engine.device === device)
      throw hostDeviceLostError(engine, 'whenEngineReadyAsync');
    // watchDevice's handler ran first (registered earlier) and started the recovery; a failed recovery leaves none.
    if (!engine.recovery && engine.device === device)
      throw new EngineError(
        'whenEngineReadyAsync',
        'device-lost',
        `the device was lost (${engine.lastLossMessage ?? 'no reason given'}) and no replacement is pending`,
      );
  }
}

/**
 * Whether `device` is lost: true when it reported its loss, else waits one queue round trip for a loss not yet
 * reported (a readback whose map was aborted asks this to tell a device loss from another failure).
 * @internal
 */
export async function isDeviceLostAsync(device: GPUDevice): Promise<boolean> {
  // A loss already reported settles `lost` within a microtask, before any queue round trip can.
  return Promise.race([
    device.lost.then(() => true),
    device.queue.onSubmittedWorkDone().then(
      () => false,
      () => true,
    ),
  ]);
}

/** @internal Throws when the engine was disposed. */
export function assertEngineAlive(engine: Engine, api: string): void {
  checkEngineArgument(api, engine);
  if (engine.disposed) throw new EngineError(api, 'disposed', `engine "${engine.label}" was disposed`);
}

/** @internal The `device-lost` EngineError of a host-owned engine whose device is lost (it names the way out). */
export function hostDeviceLostError(engine: Engine, api: string): EngineError {
  return new EngineError(
    api,
    'device-lost',
    `the host's GPU device of engine "${engine.label}" was lost (${engine.lastLossMessage ?? 'no reason given'}); weft does not replace a device it did not create: create a new one and hand it over with setEngineDeviceAsync(engine, device)`,
  );
}

/**
 * Throws when the engine was disposed, or its host-owned device was lost and no replacement was handed over.
 * @internal
 */
export function assertEngineDevice(engine: Engine, api: string): void {
  assertEngineAlive(engine, api);
  if (engine.deviceLost) throw hostDeviceLostError(engine, api);
}

/**
 * Throws the typed `device-lost` error when a GPU call of a host-owned engine failed because its device is lost (a
 * loss the device may not have reported yet); returns otherwise, so the caller handles its own error.
 * @internal
 */
export async function throwIfHostDeviceLostAsync(engine: Engine, device: GPUDevice, api: string): Promise<void> {
  if (engine.deviceOwner !== 'host' || engine.device !== device) return;
  if (engine.deviceLost || (await isDeviceLostAsync(device))) {
    if (engine.device !== device) return;
    engine.deviceLost = true;
    throw hostDeviceLostError(engine, api);
  }
}

/**
 * Ends the engine: its own targets go; an engine-owned device is destroyed (no recovery follows), a host-owned one is
 * left to the host (weft unconfigures the canvas context it configured and stops using the device).
 */
export function disposeEngine(engine: Engine): void {
  checkEngineArgument('disposeEngine', engine);
  if (engine.disposed) return;
  engine.disposed = true;
  engine.listeners.clear();
  engine.offscreenTexture?.destroy();
  engine.offscreenTexture = null;
  engine.context?.unconfigure();
  if (engine.deviceOwner === 'engine') engine.device.destroy();
}
