import type { ComposeCache } from '../composer/compose-shader.js';
import type { Engine } from '../engine/engine.js';
import type { RenderTarget } from '../engine/render-target.js';
import type { Task } from '../engine/task.js';
import type { Fragment } from '../fragments/fragment-types.js';
import type { BlitPass, BlitRemap, resolveBlitRemap } from './blit-pass.js';
import type { ColorFormatCaps } from './texture-format-caps.js';

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

/** @internal What `record()` made for the current device and textures; `execute()` only encodes it. */
export interface CopyRecord {
  device: GPUDevice;
  source: GPUTexture;
  target: GPUTexture;
  resolve: GPUTexture | null;
  path: CopyPath;
  blit: BlitPass | null;
  resolvePass: GPURenderPassDescriptor | null;
  copySize: [number, number];
}

/** @internal The task's plain state: the checked config, what it owns, and the last record. */
export interface CopyToTextureState {
  name: string;
  engine: Engine;
  config: CopyToTextureTaskConfig;
  /** The source mip level read (`config.lodLevel`, checked). */
  lod: number;
  /** The checked remap's values, or null (no remap: a plain copy may be possible). */
  remap: ReturnType<typeof resolveBlitRemap> | null;
  sourceCaps: ColorFormatCaps;
  target: RenderTarget;
  /** The task made (or was given ownership of) the target: it resizes it with the source and disposes it. */
  owns: boolean;
  cache: ComposeCache;
  fragments: readonly Fragment[];
  recorded: CopyRecord | null;
  disposed: boolean;
}
