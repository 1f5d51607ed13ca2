import { describeValue } from '../core/errors.js';
import { checkOptionKeys, type OptionKeys } from '../core/options.js';
import type { Engine } from './engine.js';
import { assertEngineAlive, hostDeviceLostError } from './engine.js';
import { EngineError, engineOptionError } from './engine-errors.js';
import { readTexturePixelsAsync, rejectOnDeviceLossAsync, type TextureRegion } from './readback.js';
import { getTexelByteSize, isDepthFormat, isIntegerFormat } from './texture-formats.js';

/** The GPU textures of a render target on one device. */
export interface RenderTargetTextures {
  device: GPUDevice;
  /** Multisampled when samples is 4, otherwise what readers sample. */
  colors: GPUTexture[];
  /** Single-sample resolve textures (null entries when samples is 1 or the format is integer). */
  resolves: (GPUTexture | null)[];
  depth: GPUTexture | null;
}

/** Offscreen colour attachment(s) + optional depth; 1–8 colour attachments, optional MSAA 4. */
export interface RenderTarget {
  readonly name: string;
  readonly engine: Engine;
  width: number;
  height: number;
  readonly colorFormats: readonly GPUTextureFormat[];
  readonly samples: 1 | 4;
  readonly depthFormat: GPUTextureFormat | null;
  readonly extraUsage: GPUTextureUsageFlags;
  textures: RenderTargetTextures | null;
  disposed: boolean;
}

/** A render target with several colour attachments (MRT); the same shape as RenderTarget. */
export type RenderTargetMrt = RenderTarget;

/** Options shared by `createRenderTarget` and `createRenderTargetMrt`. */
export interface RenderTargetOptions {
  name?: string;
  width: number;
  height: number;
  samples?: 1 | 4;
  /** Depth format, or null for none. Default depth24plus. */
  depthFormat?: GPUTextureFormat | null;
  /** Usage flags added to RENDER_ATTACHMENT | COPY_SRC | TEXTURE_BINDING. */
  extraUsage?: GPUTextureUsageFlags;
}

const targetOptionKeys: OptionKeys<RenderTargetOptions> = {
  name: true,
  width: true,
  height: true,
  samples: true,
  depthFormat: true,
  extraUsage: true,
};

function checkTargetOptions(
  api: string,
  engine: Engine,
  formats: readonly GPUTextureFormat[],
  options: RenderTargetOptions,
): void {
  assertEngineAlive(engine, api);
  const { width, height } = options;
  const maxSize = engine.device.limits.maxTextureDimension2D;
  for (const [name, value] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (!Number.isInteger(value) || value < 1 || value > maxSize)
      throw new EngineError(api, 'bad-size', `${name} ${describeValue(value)} must be an integer in 1..${maxSize}`);
  }
  const samples = options.samples ?? 1;
  if (samples !== 1 && samples !== 4)
    throw new EngineError(api, 'bad-option', `samples ${describeValue(samples)} is not allowed; use 1 or 4`);
  const maxAttachments = engine.device.limits.maxColorAttachments;
  if (!Array.isArray(formats) || formats.length < 1 || formats.length > Math.min(8, maxAttachments)) {
    throw new EngineError(
      api,
      'bad-size',
      `${describeValue(formats)} colour formats given; use 1..${Math.min(8, maxAttachments)}`,
    );
  }
  formats.forEach((format, i) => {
    if (
      typeof format !== 'string' ||
      isDepthFormat(format as GPUTextureFormat) ||
      getTexelByteSize(format as GPUTextureFormat) === undefined
    ) {
      throw new EngineError(
        api,
        'bad-format',
        `colour attachment ${i} format ${describeValue(format)} is not a renderable colour format weft supports`,
      );
    }
    if (
      samples === 4 &&
      (isIntegerFormat(format as GPUTextureFormat) ||
        format === 'r32float' ||
        format === 'rg32float' ||
        format === 'rgba32float')
    ) {
      throw new EngineError(
        api,
        'bad-format',
        `colour attachment ${i} format "${format}" cannot be multisampled and resolved; use samples: 1 or a resolvable format`,
      );
    }
  });
  const depth = options.depthFormat === undefined ? 'depth24plus' : options.depthFormat;
  if (depth !== null && !isDepthFormat(depth))
    throw new EngineError(api, 'bad-format', `depthFormat ${describeValue(depth)} is not a depth format`);
}

function allocate(target: RenderTarget): RenderTargetTextures {
  const { device } = target.engine;
  const usage =
    GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC | GPUTextureUsage.TEXTURE_BINDING | target.extraUsage;
  const size = [target.width, target.height];
  const colors = target.colorFormats.map((format, i) =>
    device.createTexture({
      label: `weft:${target.name}:color${i}`,
      size,
      format,
      sampleCount: target.samples,
      usage: target.samples === 4 ? GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING : usage,
    }),
  );
  const resolves = target.colorFormats.map((format, i) =>
    target.samples === 4
      ? device.createTexture({ label: `weft:${target.name}:resolve${i}`, size, format, usage })
      : null,
  );
  const depth = target.depthFormat
    ? device.createTexture({
        label: `weft:${target.name}:depth`,
        size,
        format: target.depthFormat,
        sampleCount: target.samples,
        usage:
          GPUTextureUsage.RENDER_ATTACHMENT |
          GPUTextureUsage.TEXTURE_BINDING |
          (target.samples === 1 && target.depthFormat === 'depth32float' ? GPUTextureUsage.COPY_SRC : 0),
      })
    : null;
  return { device, colors, resolves, depth };
}

function make(
  api: string,
  engine: Engine,
  formats: readonly GPUTextureFormat[],
  options: RenderTargetOptions,
): RenderTarget {
  checkTargetOptions(api, engine, formats, options);
  const target: RenderTarget = {
    name: options.name ?? 'render-target',
    engine,
    width: options.width,
    height: options.height,
    colorFormats: [...formats],
    samples: options.samples ?? 1,
    depthFormat: options.depthFormat === undefined ? 'depth24plus' : options.depthFormat,
    extraUsage: options.extraUsage ?? 0,
    textures: null,
    disposed: false,
  };
  target.textures = allocate(target);
  return target;
}

/**
 * Creates a single-attachment render target (default rgba8unorm + depth24plus).
 * @throws {EngineError} when a size, format, sample count or option is invalid
 */
export function createRenderTarget(
  engine: Engine,
  options: RenderTargetOptions & { format?: GPUTextureFormat },
): RenderTarget {
  const api = 'createRenderTarget';
  checkOptionKeys(api, options, [...Object.keys(targetOptionKeys), 'format'], engineOptionError);
  if (options === undefined) throw new EngineError(api, 'bad-option', 'options { width, height, … } are required');
  return make(api, engine, [options.format ?? 'rgba8unorm'], options);
}

/**
 * Creates a render target with 1–8 colour attachments sharing one depth attachment.
 * @throws {EngineError} when there are not 1–8 formats, or a size, format or option is invalid
 */
export function createRenderTargetMrt(
  engine: Engine,
  options: RenderTargetOptions & { formats: GPUTextureFormat[] },
): RenderTargetMrt {
  const api = 'createRenderTargetMrt';
  checkOptionKeys(api, options, [...Object.keys(targetOptionKeys), 'formats'], engineOptionError);
  if (options === undefined)
    throw new EngineError(api, 'bad-option', 'options { width, height, formats, … } are required');
  return make(api, engine, options.formats, options);
}

function destroyTextures(textures: RenderTargetTextures | null): void {
  if (!textures) return;
  for (const texture of [...textures.colors, ...textures.resolves, textures.depth]) texture?.destroy();
}

/**
 * The target's textures on the engine's current device (re-created after a device loss).
 * @throws {EngineError} when the render target is disposed
 */
export function getRenderTargetTextures(target: RenderTarget): RenderTargetTextures {
  if (target.disposed)
    throw new EngineError('getRenderTargetTextures', 'disposed', `render target "${target.name}" was disposed`);
  if (!target.textures || target.textures.device !== target.engine.device) target.textures = allocate(target);
  return target.textures;
}

/** Reallocates the textures at a new size (no-op when unchanged). */
export function resizeRenderTarget(target: RenderTarget, width: number, height: number): void {
  if (target.width === width && target.height === height) return;
  checkTargetOptions('resizeRenderTarget', target.engine, target.colorFormats, {
    width,
    height,
    samples: target.samples,
    depthFormat: target.depthFormat,
  });
  destroyTextures(target.textures);
  target.width = width;
  target.height = height;
  target.textures = allocate(target);
}

/**
 * Reads colour attachment `index` (its resolve texture when multisampled) as packed bytes.
 * @throws {EngineError} when the attachment index does not exist or the target is disposed; `device-lost` (as a rejection) when a host-owned device is lost
 */
export function readRenderTargetPixelsAsync(
  target: RenderTarget,
  index = 0,
  region?: TextureRegion,
): Promise<Uint8Array> {
  if (target.engine.deviceLost)
    return Promise.reject(hostDeviceLostError(target.engine, 'readRenderTargetPixelsAsync'));
  const textures = getRenderTargetTextures(target);
  if (!Number.isInteger(index) || index < 0 || index >= textures.colors.length) {
    throw new EngineError(
      'readRenderTargetPixelsAsync',
      'out-of-range',
      `attachment ${describeValue(index)} does not exist; the target has ${textures.colors.length}`,
    );
  }
  const device = target.engine.device;
  return rejectOnDeviceLossAsync(
    device,
    readTexturePixelsAsync(device, textures.resolves[index] ?? textures.colors[index], region),
    (message) => new EngineError('readRenderTargetPixelsAsync', 'device-lost', message),
  );
}

/** Destroys the target's textures. */
export function disposeRenderTarget(target: RenderTarget): void {
  if (target.disposed) return;
  destroyTextures(target.textures);
  target.textures = null;
  target.disposed = true;
}
