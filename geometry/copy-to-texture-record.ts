import {
  disposeRenderTarget,
  getRenderTargetTextures,
  type RenderTarget,
  resizeRenderTarget,
} from '../engine/render-target.js';
import { type BlitPass, createBlitPass, disposeBlitPass, resolveBlitRemap } from './blit-pass.js';
import type { CopyPath, CopyToTextureState } from './copy-to-texture-state.js';
import { GeometryError } from './geometry-errors.js';

/** The source's size at the task's mip level: what an owned target is sized to. */
function sourceSizeAtLod(state: CopyToTextureState): [number, number] {
  const { sourceTexture } = state.config;
  return [Math.max(1, sourceTexture.width >> state.lod), Math.max(1, sourceTexture.height >> state.lod)];
}

/** The texture read: colour attachment 0's resolve when multisampled (unless `readSamples`), else the attachment. */
function sourceTextureOf(state: CopyToTextureState): GPUTexture {
  const textures = getRenderTargetTextures(state.config.sourceTexture);
  return (!state.config.readSamples && textures.resolves[0]) || textures.colors[0];
}

/** The single-sample texture a multisampled target resolves into (`resolveTexture`, else its own), or null. */
function resolveTextureOf(state: CopyToTextureState, target: RenderTarget): GPUTexture | null {
  if (target.samples !== 4) return null;
  const { resolveTexture } = state.config;
  return resolveTexture
    ? getRenderTargetTextures(resolveTexture).colors[0]
    : getRenderTargetTextures(target).resolves[0];
}

/**
 * The cheapest path that gives the same pixels: an encoder copy (same format and size, single-sample, no viewport,
 * remap or flip), an empty pass that resolves a 4× source into the target, or the blit draw otherwise.
 */
function chooseCopyPath(
  state: CopyToTextureState,
  source: GPUTexture,
  target: GPUTexture,
  width: number,
  height: number,
): CopyPath {
  const { config } = state;
  const plain =
    !config.viewport &&
    !state.remap &&
    !config.flipY &&
    source.format === target.format &&
    width === target.width &&
    height === target.height &&
    target.sampleCount === 1;
  if (
    plain &&
    source.sampleCount === 1 &&
    source.usage & GPUTextureUsage.COPY_SRC &&
    target.usage & GPUTextureUsage.COPY_DST
  )
    return 'copy';
  if (
    plain &&
    source.sampleCount === 4 &&
    state.lod === 0 &&
    state.sourceCaps.resolve &&
    target.usage & GPUTextureUsage.RENDER_ATTACHMENT
  )
    return 'resolve';
  return 'blit';
}

/** @internal True when the device, the source's or target's textures or (for an owned target) the source size changed. */
export function copyNeedsRecord(state: CopyToTextureState): boolean {
  const { recorded, target, config } = state;
  if (!recorded || recorded.device !== state.engine.device) return true;
  const [width, height] = sourceSizeAtLod(state);
  if (state.owns && (target.width !== width || target.height !== height)) return true;
  return (
    sourceTextureOf(state) !== recorded.source ||
    getRenderTargetTextures(target).colors[0] !== recorded.target ||
    (config.resolveTexture ? resolveTextureOf(state, target) !== recorded.resolve : false)
  );
}

/**
 * Chooses the path and makes what it needs (the blit's pipeline and bind group, or the resolve pass); the previous
 * record is given back only once the new one exists.
 * @internal
 */
export function recordCopyToTexture(state: CopyToTextureState): void {
  const { name, config, target, lod } = state;
  if (state.disposed) throw new GeometryError('CopyToTextureTask.record', 'disposed', `task "${name}" was disposed`);
  const device = state.engine.device;
  if (state.owns) resizeRenderTarget(target, ...sourceSizeAtLod(state));
  const source = sourceTextureOf(state);
  if (lod >= source.mipLevelCount)
    throw new GeometryError(
      'CopyToTextureTask.record',
      'out-of-range',
      `lodLevel ${lod} is beyond the source's ${source.mipLevelCount} mip level(s)`,
    );
  const width = Math.max(1, source.width >> lod);
  const height = Math.max(1, source.height >> lod);
  const targetTexture = getRenderTargetTextures(target).colors[0];
  const resolve = resolveTextureOf(state, target);
  const path = chooseCopyPath(state, source, targetTexture, width, height);
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
      cache: state.cache,
      fragments: state.fragments,
      sourceView: source.createView({
        label: `weft:${name}:source:view`,
        baseMipLevel: lod,
        mipLevelCount: source.sampleCount === 1 ? source.mipLevelCount - lod : 1,
      }),
      sourceSize: [width, height],
      sourceMultisampled: source.sampleCount === 4,
      uint: state.sourceCaps.kind === 'uint',
      lod: 0,
      targetView: targetTexture.createView({ label: `weft:${name}:target:view` }),
      targetFormat: targetTexture.format,
      targetSamples: target.samples,
      resolveView: resolve?.createView({ label: `weft:${name}:resolve:view` }),
      viewport,
      remap: state.remap ?? resolveBlitRemap('identity'),
      flipY: config.flipY === true,
      firstSample: state.sourceCaps.kind === 'uint',
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
  releaseCopyRecord(state);
  state.recorded = {
    device,
    source,
    target: targetTexture,
    resolve,
    path,
    blit,
    resolvePass,
    copySize: [width, height],
  };
}

/** Gives back what the last record made (the blit's leases), if anything. */
function releaseCopyRecord(state: CopyToTextureState): void {
  if (state.recorded?.blit) disposeBlitPass(state.recorded.blit);
  state.recorded = null;
}

/** @internal Frees what the task made, and the target when the task owns it; a second call does nothing. */
export function disposeCopyToTexture(state: CopyToTextureState): void {
  if (state.disposed) return;
  releaseCopyRecord(state);
  if (state.owns) disposeRenderTarget(state.target);
  state.disposed = true;
}
