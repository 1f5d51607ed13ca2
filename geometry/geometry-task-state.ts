import type { ComposeCache } from '../composer/compose-shader.js';
import type { PipelineLeaseSet } from '../composer/pipeline-leases.js';
import type { Camera } from '../engine/camera.js';
import type { Engine } from '../engine/engine.js';
import type { Mesh } from '../engine/mesh.js';
import type { RenderTarget } from '../engine/render-target.js';
import type { Scene } from '../engine/scene.js';
import type { FragmentLists } from '../engine/shader-spec-options.js';
import type { Fragment } from '../fragments/fragment-types.js';
import type { GeometryOutputName } from '../fragments/geometry-fragments.js';
import type { BlitPass } from './blit-pass.js';
import type { FrameIdRange, FrameIdReader } from '../engine/frame-ids.js';
import type { GeometryDraw, TextureGroupCache } from './geometry-draws.js';
import type { GeometryTargets } from './geometry-targets.js';
import type { GeometryTextureType } from './geometry-types.js';
import type { GeometryAttachmentPlan, GeometryAttachmentRequest } from './geometry-validation.js';
import type { VelocityHistory } from './velocity/velocity-history.js';

/** One requested G-buffer output; `format` overrides the type's default format. */
export interface GeometryRendererTextureDescription {
  type: GeometryTextureType;
  format?: GPUTextureFormat;
}

/** Options of `createGeometryRendererTask`. */
export interface GeometryRendererTaskConfig {
  name?: string;
  /** Meshes to draw (default: every mesh of the scene, in scene order; hidden meshes are skipped per frame). */
  meshes?: readonly Mesh[];
  /** Overrides `scene.camera`. */
  camera?: Camera;
  /** 'canvas' (default) follows the engine's size. */
  size?: 'canvas' | { width: number; height: number };
  samples?: 1 | 4;
  /** Share this target's depth attachment (same size and samples) instead of the task's own depth32float. */
  depthTexture?: RenderTarget;
  /** With `depthTexture`: keep its content (depth load, compare greater-equal) instead of clearing it. */
  depthLoad?: boolean;
  /** 1–8 outputs (with `objectId`); each is one MRT attachment. */
  textureDescriptions: readonly GeometryRendererTextureDescription[];
  /** Cull front faces instead of back faces (mirrored views). */
  reverseCulling?: boolean;
  /** Blended participants: drawn after the opaque ones, depth test without depth write, every float attachment blended with the material alpha. */
  transparentMeshes?: readonly Mesh[];
  /** Adds the object-ID output (frame id + primitive index); `true` = rg32uint. Needs samples: 1. */
  objectId?: boolean | { format?: GPUTextureFormat };
  /** REFLECTIVITY per mesh (specular rgb, glossiness a); default rgb 0.04 (dielectric F0), a 0. */
  reflectivity?: (mesh: Mesh) => readonly [number, number, number, number];
  /** MESH_BLEND_TAG per mesh, an integer 0..255 (0 reads as background); default 1. */
  blendTag?: (mesh: Mesh) => number;
}

/** What the task renders and how its shaders are made: fixed at creation. */
interface GeometryTaskSetup {
  readonly samples: 1 | 4;
  readonly requests: readonly GeometryAttachmentRequest[];
  /** The attachments in MRT location order. */
  readonly plan: readonly GeometryAttachmentPlan[];
  readonly outputs: readonly GeometryOutputName[];
  /** The fragment lists of the task's shaders (`geometryShaderSpec`), reused with `cache`. */
  readonly fragmentLists: FragmentLists;
  readonly blitFragments: readonly Fragment[];
  readonly cache: ComposeCache;
  readonly objectPrimitive: boolean;
  readonly hasVelocity: boolean;
}

/** What the last record() was made for (needsRecord compares), and how many records ran. */
interface GeometryTaskRecorded {
  device: GPUDevice | null;
  structure: number;
  width: number;
  height: number;
  depth: GPUTexture | null;
  meshes: Mesh[];
  count: number;
  /** The precomposed table generation the draws were composed against (a replaced table re-records). */
  table: number;
}

/** The frame-ID ranges of the recorded draw list and of the last executed frame, and the reader of the ID texture. */
interface GeometryTaskIds {
  ranges: readonly FrameIdRange[];
  /** The ID ranges of the last executed frame (what the ID texture holds). */
  frameRanges: readonly FrameIdRange[] | null;
  readonly reader: FrameIdReader;
}

/** The scene and per-draw uniform buffers, their bind groups and the CPU copies execute() writes. */
interface GeometryTaskUniforms {
  sceneBuffer: GPUBuffer | null;
  drawBuffer: GPUBuffer | null;
  sceneGroup: GPUBindGroup | null;
  drawGroup: GPUBindGroup | null;
  /** The layouts and buffer the groups were made for (remade only when one changes). */
  groupsFor: { layout0: GPUBindGroupLayout | null; layout1: GPUBindGroupLayout | null; drawBuffer: GPUBuffer | null };
  drawData: Float32Array<ArrayBuffer>;
  drawWords: Uint32Array<ArrayBuffer>;
  readonly sceneData: Float32Array<ArrayBuffer>;
  readonly matrices: {
    view: Float32Array;
    projection: Float32Array;
    viewProjection: Float32Array;
    scratch: Float32Array;
  };
}

/** @internal The task's internal state (plain data, read by the geometry module's functions and tests). */
export interface GeometryTaskState {
  readonly name: string;
  readonly scene: Scene;
  readonly engine: Engine;
  readonly config: GeometryRendererTaskConfig;
  readonly setup: GeometryTaskSetup;
  readonly targets: GeometryTargets;
  /** Motion history for LINEAR_VELOCITY. */
  readonly velocity: VelocityHistory;
  readonly textureGroups: TextureGroupCache;
  readonly recorded: GeometryTaskRecorded;
  /** The recorded draws' pipeline leases (swapped by each record). */
  pipelines: PipelineLeaseSet | null;
  draws: GeometryDraw[];
  readonly ids: GeometryTaskIds;
  readonly uniforms: GeometryTaskUniforms;
  /** The recorded pass descriptor, and the MSAA first-sample resolve blits encoded after the pass. */
  readonly pass: { descriptor: GPURenderPassDescriptor | null; resolveBlits: BlitPass[] };
  disposed: boolean;
}
