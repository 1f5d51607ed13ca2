import type { ComposeCache } from '../../composer/compose-shader.js';
import type { PipelineLease } from '../../composer/pipeline-cache.js';
import type { PipelineLeaseOwner, PipelineLeaseSet } from '../../composer/pipeline-leases.js';
import type { Camera } from '../camera.js';
import type { Engine } from '../engine.js';
import type { StandardMaterial, TextureData } from '../material.js';
import type { Mesh } from '../mesh.js';
import type { RenderTarget } from '../render-target.js';
import type { Scene } from '../scene.js';
import type { FragmentLists } from '../shader-spec-options.js';
import type { ForwardObjectIds } from './forward-object-ids.js';

/** Options of `createForwardRenderTask`. */
export interface ForwardRenderTaskOptions {
  name?: string;
  /** Draw into this target instead of the engine's canvas / offscreen texture. */
  target?: RenderTarget;
  /** Overrides `scene.camera`. */
  camera?: Camera;
  /** Meshes to draw (default: every visible mesh of the scene, in scene order). */
  meshes?: () => readonly Mesh[];
  /** Also render object IDs (frame id + primitive index, rg32uint) for `readForwardFrameIdAsync`; single-sample only. */
  objectIds?: boolean;
}

/** @internal One recorded draw of the forward pass. */
export interface ForwardDraw {
  mesh: Mesh;
  material: StandardMaterial;
  lease: PipelineLease;
  /** The same pipeline with the clockwise front face, for mirrored world (× instance) matrices; null until needed. */
  mirroredLease: PipelineLease | null;
  vertexBuffers: GPUBuffer[];
  textureGroup: GPUBindGroup;
  /** Bones and morph data (group 3) of a deformed mesh. */
  deformGroup: GPUBindGroup | null;
  slot: number;
}

/** @internal Bytes per draw in the draw buffer (the dynamic offset alignment). */
export const forwardDrawUniformStride = 256;
/** @internal Depth of the canvas / offscreen frame (a render target brings its own). */
export const forwardDefaultDepthFormat: GPUTextureFormat = 'depth24plus';

/** The scene and per-draw uniforms: buffers, their bind groups and the CPU copies execute() writes. */
interface ForwardUniforms {
  sceneBuffer: GPUBuffer | null;
  drawBuffer: GPUBuffer | null;
  sceneGroup: GPUBindGroup | null;
  drawGroup: GPUBindGroup | null;
  readonly sceneData: Float32Array<ArrayBuffer>;
  drawData: Float32Array<ArrayBuffer>;
  /** `drawData`'s bytes as u32 (flags). */
  drawWords: Uint32Array<ArrayBuffer>;
  readonly scratch: Float32Array;
}

/** A material's base texture uploaded once, and its bind group for one layout. */
interface ForwardTextureEntry {
  texture: GPUTexture;
  layout: GPUBindGroupLayout;
  group: GPUBindGroup;
}

/** @internal The forward task's internal state (plain data, read by `forward-record.ts` and `forward-execute.ts`). */
export interface ForwardTaskState extends PipelineLeaseOwner {
  readonly name: string;
  readonly scene: Scene;
  readonly engine: Engine;
  readonly options: ForwardRenderTaskOptions;
  readonly objectIds: ForwardObjectIds | null;
  /** What every draw's shader is composed with besides its mesh. */
  readonly shaderOptions: { objectIds: boolean; objectPrimitive: boolean };
  readonly composeCache: ComposeCache;
  /** The fragment lists the shader builder made, reused so the compose cache recognises them without re-hashing. */
  readonly fragmentLists: FragmentLists;
  /** What the last record() was made for (needsRecord compares). */
  /** What the last record() was made for; `table`: the precomposed table generation it looked its shaders up in. */
  readonly recorded: { device: GPUDevice | null; structure: number; size: string; table: number };
  /** The recorded draws' pipeline leases (swapped by each record). */
  pipelines: PipelineLeaseSet | null;
  draws: ForwardDraw[];
  readonly uniforms: ForwardUniforms;
  /** The task's own depth (canvas / offscreen frame only). */
  depthTexture: GPUTexture | null;
  readonly textures: Map<TextureData | null, ForwardTextureEntry>;
  /** One view per texture (a canvas hands out a new texture, and so a new view, every frame). */
  readonly views: WeakMap<GPUTexture, GPUTextureView>;
}

/** @internal The task's frame size now: its target's, or the engine's. */
export function forwardTargetSize(state: ForwardTaskState): [number, number] {
  const { target } = state.options;
  return target ? [target.width, target.height] : [state.engine.width, state.engine.height];
}

/** @internal The frame size as a record key. */
export function forwardSizeKey(state: ForwardTaskState): string {
  return forwardTargetSize(state).join('x');
}

/** @internal The texture's view, made once. */
export function forwardViewOf(state: ForwardTaskState, texture: GPUTexture): GPUTextureView {
  let view = state.views.get(texture);
  if (!view) state.views.set(texture, (view = texture.createView()));
  return view;
}
