import { makeComposeCache } from '../composer/compose-shader.js';
import { precomposedSourceOf } from '../engine/precomposed-shaders.js';
import { describeValue } from '../core/errors.js';
import { checkOptionKeys, type OptionKeys } from '../core/options.js';
import {
  createRenderTarget,
  disposeRenderTarget,
  getRenderTargetTextures,
  type RenderTarget,
  resizeRenderTarget,
} from '../engine/render-target.js';
import type { Scene } from '../engine/scene.js';
import type { Task } from '../engine/task.js';
import { makeGeometryBlitFragment } from '../fragments/geometry-blit.js';
import {
  type BlitPass,
  type BlitRemap,
  createBlitPass,
  disposeBlitPass,
  encodeBlitPass,
  resolveBlitRemap,
} from './blit-pass.js';
import { GeometryError, geometryOptionError } from './geometry-errors.js';
import { getColorFormatCaps } from './texture-format-caps.js';

/** A rectangle of the target in 0..1 units (origin top-left). */
export interface NormalizedViewport {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Options of `createCopyToTextureTask`. */
export interface CopyToTextureTaskConfig {
  name?: string;
  /** Colour attachment 0 is copied: its resolve when multisampled (unless `readSamples`). */
  sourceTexture: RenderTarget;
  /** Default: a new single-sample target of the source's size (at `lodLevel`) and format (rgba8unorm with a remap), owned by the task. */
  targetTexture?: RenderTarget;
  /** Dispose the target with the task and resize it with the source (default: true when the task made it). */
  ownsTargetTexture?: boolean;
  /** Draw into this part of the target only; the rest is kept (loadOp "load"). */
  viewport?: NormalizedViewport | null;
  /** Mip level of the source to read. Default 0. */
  lodLevel?: number;
  /** Single-sample texture that receives the hardware resolve when the target is multisampled (default: the target's own resolve). */
  resolveTexture?: RenderTarget;
  /** Float sources: per-channel remap to visualise data (e.g. 'normal', 'depth'); forces the blit. */
  remap?: BlitRemap;
  /** Flip Y, for a consumer whose origin is bottom-left (every WebGPU texture here is top-left). */
  flipY?: boolean;
  /** Multisampled source: read its samples (per-sample textureLoad, averaged) instead of its resolve texture. */
  readSamples?: boolean;
}

/** How a copy runs: an encoder copy, an empty pass resolving MSAA, or a blit draw. */
export type CopyPath = 'copy' | 'resolve' | 'blit';

/** Copies (or blits) one render target's colour into another. */
export interface CopyToTextureTask extends Task {
  readonly outputTexture: RenderTarget;
  /** The path chosen by the last record(), null before. */
  path: CopyPath | null;
}

interface Recorded {
  device: GPUDevice;
  source: GPUTexture;
  target: GPUTexture;
  resolve: GPUTexture | null;
  path: CopyPath;
  blit: BlitPass | null;
  resolvePass: GPURenderPassDescriptor | null;
  copySize: [number, number];
}

const api = 'createCopyToTextureTask';

const copyConfigKeys: OptionKeys<CopyToTextureTaskConfig> = {
  name: true,
  sourceTexture: true,
  targetTexture: true,
  ownsTargetTexture: true,
  viewport: true,
  lodLevel: true,
  resolveTexture: true,
  remap: true,
  flipY: true,
  readSamples: true,
};

function checkViewport(viewport: NormalizedViewport | null | undefined): void {
  if (!viewport) return;
  const { x, y, width, height } = viewport;
  if (
    ![x, y, width, height].every(Number.isFinite) ||
    x < 0 ||
    y < 0 ||
    width <= 0 ||
    height <= 0 ||
    x + width > 1 + 1e-9 ||
    y + height > 1 + 1e-9
  ) {
    throw new GeometryError(
      api,
      'bad-option',
      `viewport ${JSON.stringify(viewport)} must lie inside the target: x, y ≥ 0, width, height > 0, x + width ≤ 1, y + height ≤ 1`,
    );
  }
}

function sourceTextureOf(config: CopyToTextureTaskConfig): GPUTexture {
  const textures = getRenderTargetTextures(config.sourceTexture);
  return (!config.readSamples && textures.resolves[0]) || textures.colors[0];
}

/**
 * Creates a copy-to-texture task; the fast path, the MSAA resolve or the blit is chosen in record().
 * @throws {GeometryError} when the source, destination, viewport or remap is invalid
 */
export function createCopyToTextureTask(scene: Scene, config: CopyToTextureTaskConfig): CopyToTextureTask {
  const engine = scene.engine;
  checkOptionKeys(api, config, copyConfigKeys, geometryOptionError, 'config');
  if (!config?.sourceTexture)
    throw new GeometryError(
      api,
      'bad-option',
      `sourceTexture ${describeValue(config?.sourceTexture)} must be a RenderTarget`,
    );
  const name = config.name ?? 'copy-to-texture';
  const lod = config.lodLevel ?? 0;
  if (!Number.isInteger(lod) || lod < 0)
    throw new GeometryError(api, 'bad-option', `lodLevel ${describeValue(lod)} must be an integer ≥ 0`);
  checkViewport(config.viewport);
  const sourceFormat = config.sourceTexture.colorFormats[0];
  const sourceCaps = getColorFormatCaps(sourceFormat);
  if (!sourceCaps || sourceCaps.kind === 'sint')
    throw new GeometryError(
      api,
      'bad-format',
      `source format ${describeValue(sourceFormat)} cannot be copied; float, unorm and uint colour formats can`,
    );
  if (config.remap !== undefined && sourceCaps.kind === 'uint')
    throw new GeometryError(
      api,
      'bad-option',
      `remap applies to float sources; ${sourceFormat} is an unsigned-integer format`,
    );
  const remap = config.remap === undefined ? null : resolveBlitRemap(config.remap);
  const owns = config.ownsTargetTexture ?? !config.targetTexture;
  const target =
    config.targetTexture ??
    createRenderTarget(engine, {
      name: `${name}:target`,
      width: Math.max(1, config.sourceTexture.width >> lod),
      height: Math.max(1, config.sourceTexture.height >> lod),
      format: remap ? 'rgba8unorm' : sourceFormat,
      depthFormat: null,
      extraUsage: GPUTextureUsage.COPY_DST,
    });
  const targetCaps = getColorFormatCaps(target.colorFormats[0]);
  if (!targetCaps || (targetCaps.kind === 'uint') !== (sourceCaps.kind === 'uint')) {
    throw new GeometryError(
      api,
      'bad-format',
      `cannot copy ${sourceFormat} (${sourceCaps.kind}) into ${describeValue(target.colorFormats[0])}: unsigned-integer sources need unsigned-integer targets, float sources float or unorm targets`,
    );
  }
  const cache = makeComposeCache({ precomposed: precomposedSourceOf(engine) });
  const fragments = [makeGeometryBlitFragment()];
  let recorded: Recorded | null = null;
  let disposed = false;

  const release = () => {
    if (recorded?.blit) disposeBlitPass(recorded.blit);
    recorded = null;
  };

  const choosePath = (source: GPUTexture, targetTexture: GPUTexture, width: number, height: number): CopyPath => {
    const plain =
      !config.viewport &&
      !remap &&
      !config.flipY &&
      source.format === targetTexture.format &&
      width === targetTexture.width &&
      height === targetTexture.height &&
      targetTexture.sampleCount === 1;
    if (
      plain &&
      source.sampleCount === 1 &&
      source.usage & GPUTextureUsage.COPY_SRC &&
      targetTexture.usage & GPUTextureUsage.COPY_DST
    )
      return 'copy';
    if (
      plain &&
      source.sampleCount === 4 &&
      lod === 0 &&
      sourceCaps.resolve &&
      targetTexture.usage & GPUTextureUsage.RENDER_ATTACHMENT
    )
      return 'resolve';
    return 'blit';
  };

  const task: CopyToTextureTask = {
    name,
    outputTexture: target,
    path: null,
    needsRecord() {
      if (!recorded || recorded.device !== engine.device) return true;
      if (
        owns &&
        (target.width !== Math.max(1, config.sourceTexture.width >> lod) ||
          target.height !== Math.max(1, config.sourceTexture.height >> lod))
      )
        return true;
      return (
        sourceTextureOf(config) !== recorded.source ||
        getRenderTargetTextures(target).colors[0] !== recorded.target ||
        (config.resolveTexture ? getRenderTargetTextures(config.resolveTexture).colors[0] !== recorded.resolve : false)
      );
    },
    record() {
      if (disposed) throw new GeometryError('CopyToTextureTask.record', 'disposed', `task "${name}" was disposed`);
      const device = engine.device;
      if (owns)
        resizeRenderTarget(
          target,
          Math.max(1, config.sourceTexture.width >> lod),
          Math.max(1, config.sourceTexture.height >> lod),
        );
      const source = sourceTextureOf(config);
      if (lod >= source.mipLevelCount)
        throw new GeometryError(
          'CopyToTextureTask.record',
          'out-of-range',
          `lodLevel ${lod} is beyond the source's ${source.mipLevelCount} mip level(s)`,
        );
      const width = Math.max(1, source.width >> lod);
      const height = Math.max(1, source.height >> lod);
      const targetTextures = getRenderTargetTextures(target);
      const targetTexture = targetTextures.colors[0];
      const resolve =
        target.samples === 4
          ? config.resolveTexture
            ? getRenderTargetTextures(config.resolveTexture).colors[0]
            : targetTextures.resolves[0]
          : null;
      const path = choosePath(source, targetTexture, width, height);
      let blit: BlitPass | null = null;
      let resolvePass: GPURenderPassDescriptor | null = null;
      if (path === 'blit') {
        const viewport = config.viewport
          ? ([
              config.viewport.x * target.width,
              config.viewport.y * target.height,
              config.viewport.width * target.width,
              config.viewport.height * target.height,
            ] as const)
          : null;
        blit = createBlitPass(device, {
          label: `weft:${name}:blit`,
          cache,
          fragments,
          sourceView: source.createView({
            label: `weft:${name}:source:view`,
            baseMipLevel: lod,
            mipLevelCount: source.sampleCount === 1 ? source.mipLevelCount - lod : 1,
          }),
          sourceSize: [width, height],
          sourceMultisampled: source.sampleCount === 4,
          uint: sourceCaps.kind === 'uint',
          lod: 0,
          targetView: targetTexture.createView({ label: `weft:${name}:target:view` }),
          targetFormat: targetTexture.format,
          targetSamples: target.samples,
          resolveView: resolve?.createView({ label: `weft:${name}:resolve:view` }),
          viewport,
          remap: remap ?? resolveBlitRemap('identity'),
          flipY: config.flipY === true,
          firstSample: sourceCaps.kind === 'uint',
        });
      } else if (path === 'resolve') {
        resolvePass = {
          label: `weft:${name}:resolve`,
          colorAttachments: [
            {
              view: source.createView({ label: `weft:${name}:source:view` }),
              resolveTarget: targetTexture.createView({ label: `weft:${name}:target:view` }),
              loadOp: 'load',
              storeOp: 'store',
            },
          ],
        };
      }
      release();
      recorded = { device, source, target: targetTexture, resolve, path, blit, resolvePass, copySize: [width, height] };
      task.path = path;
    },
    execute(encoder) {
      const r = recorded!;
      if (r.path === 'copy')
        encoder.copyTextureToTexture({ texture: r.source, mipLevel: lod }, { texture: r.target }, r.copySize);
      else if (r.path === 'resolve') encoder.beginRenderPass(r.resolvePass!).end();
      else encodeBlitPass(encoder, r.blit!);
    },
    dispose() {
      if (disposed) return;
      release();
      if (owns) disposeRenderTarget(target);
      disposed = true;
    },
  };
  return task;
}
