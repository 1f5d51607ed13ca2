import type { Engine } from '../engine/engine.js';
import type { RenderTarget } from '../engine/render-target.js';
import type { GeometryAttachmentPlan } from './geometry-validation.js';

/** @internal The task's MRT target, one single-attachment alias per output, and the views a pass needs. */
export interface GeometryTargets {
  /** Every attachment, in location order (a RenderTarget readers can use like any other). */
  mrt: RenderTarget;
  /** Per attachment: a RenderTarget whose textures alias the MRT's attachment, so readers never see the MRT. */
  aliases: RenderTarget[];
  /** Textures this task created (the shared depth is not among them). */
  owned: GPUTexture[];
  colorViews: GPUTextureView[];
  resolveViews: (GPUTextureView | null)[];
  depthView: GPUTextureView | null;
  device: GPUDevice | null;
}

function makeTarget(
  engine: Engine,
  name: string,
  formats: GPUTextureFormat[],
  samples: 1 | 4,
  depthFormat: GPUTextureFormat | null,
): RenderTarget {
  return {
    name,
    engine,
    width: 1,
    height: 1,
    colorFormats: formats,
    samples,
    depthFormat,
    extraUsage: 0,
    textures: null,
    disposed: false,
  };
}

/** @internal Makes the target objects (CPU only; textures come with `allocateGeometryTextures`). */
export function makeGeometryTargets(
  engine: Engine,
  name: string,
  plan: readonly GeometryAttachmentPlan[],
  samples: 1 | 4,
  depthFormat: GPUTextureFormat,
): GeometryTargets {
  return {
    mrt: makeTarget(
      engine,
      `${name}:mrt`,
      plan.map((a) => a.format),
      samples,
      depthFormat,
    ),
    aliases: plan.map((a) => makeTarget(engine, `${name}:${a.output}`, [a.format], samples, depthFormat)),
    owned: [],
    colorViews: [],
    resolveViews: [],
    depthView: null,
    device: null,
  };
}

/** @internal Destroys the task's own textures and detaches them from the targets. */
export function releaseGeometryTextures(targets: GeometryTargets): void {
  // A reader that asked an alias for textures before the first record got engine-allocated ones: not ours to keep.
  const known = new Set(targets.owned);
  for (const target of [targets.mrt, ...targets.aliases]) {
    for (const texture of [...(target.textures?.colors ?? []), ...(target.textures?.resolves ?? [])])
      if (texture && !known.has(texture)) texture.destroy();
  }
  for (const texture of targets.owned) texture.destroy();
  targets.owned = [];
  targets.colorViews = [];
  targets.resolveViews = [];
  targets.depthView = null;
  targets.device = null;
  for (const target of [targets.mrt, ...targets.aliases]) target.textures = null;
}

/**
 * Record-time: (re)creates every attachment at `width × height` (MSAA colour + single-sample resolve when samples is
 * 4; the resolve is the hardware's or a first-sample blit), the own depth32float unless `sharedDepth` is given, and
 * points the MRT and alias targets at them.
 * @internal
 */
export function allocateGeometryTextures(
  targets: GeometryTargets,
  device: GPUDevice,
  plan: readonly GeometryAttachmentPlan[],
  width: number,
  height: number,
  sharedDepth: GPUTexture | null,
): void {
  releaseGeometryTextures(targets);
  const { mrt } = targets;
  const samples = mrt.samples;
  const size = [width, height];
  const colorUsage = GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_SRC;
  const colors = plan.map((a) =>
    device.createTexture({
      label: `weft:${mrt.name}:${a.output}`,
      size,
      format: a.format,
      sampleCount: samples,
      usage: samples === 4 ? GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING : colorUsage,
    }),
  );
  const resolves = plan.map((a) =>
    samples === 4
      ? device.createTexture({
          label: `weft:${mrt.name}:${a.output}:resolve`,
          size,
          format: a.format,
          usage: colorUsage,
        })
      : null,
  );
  const depth =
    sharedDepth ??
    device.createTexture({
      label: `weft:${mrt.name}:depth`,
      size,
      format: 'depth32float',
      sampleCount: samples,
      usage:
        GPUTextureUsage.RENDER_ATTACHMENT |
        GPUTextureUsage.TEXTURE_BINDING |
        (samples === 1 ? GPUTextureUsage.COPY_SRC : 0),
    });
  targets.owned = [...colors, ...resolves.filter((t): t is GPUTexture => t !== null), ...(sharedDepth ? [] : [depth])];
  targets.colorViews = colors.map((t) => t.createView({ label: `${t.label}:view` }));
  targets.resolveViews = resolves.map((t) => t?.createView({ label: `${t.label}:view` }) ?? null);
  targets.depthView = depth.createView({ label: `weft:${mrt.name}:depth:view` });
  targets.device = device;
  for (const target of [mrt, ...targets.aliases]) {
    target.width = width;
    target.height = height;
  }
  mrt.textures = { device, colors, resolves, depth };
  targets.aliases.forEach((alias, i) => {
    alias.textures = { device, colors: [colors[i]], resolves: [resolves[i]], depth };
  });
}
