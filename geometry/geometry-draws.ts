import { meshUsesClockwise } from '../engine/winding.js';
import { type ComposeCache, type ComposedShader, composeShader } from '../composer/compose-shader.js';
import { describeGeometryShader, geometryShaderSpec } from './geometry-shader.js';
import { type PipelineLease, type RenderPipelineState, renderPipelineKey } from '../composer/pipeline-cache.js';
import { acquirePipelineLease, type PipelineLeaseSet } from '../composer/pipeline-leases.js';
import type { StandardMaterial, TextureData } from '../engine/material.js';
import type { Mesh } from '../engine/mesh.js';
import type { FragmentLists } from '../engine/shader-spec-options.js';
import type { GeometryOutputName } from '../fragments/geometry-fragments.js';
import { drawUniformsByteSize } from '../fragments/draw-uniforms.js';
import { geometryDrawUniformsByteSize } from '../fragments/geometry-draw-uniforms.js';
import { geometrySceneUniformsByteSize } from '../fragments/geometry-scene-uniforms.js';
import { velocityUniformsByteSize } from '../fragments/geometry-velocity.js';
import { sceneUniformsByteSize } from '../fragments/scene-uniforms.js';
import type { GeometryAttachmentPlan } from './geometry-validation.js';
import type { MeshVelocityHistory } from './velocity/velocity-history.js';

/** @internal Bytes per draw in the task's draw buffer: `draw` at 0, `geometryDraw` at 256, `velocity` at 512. */
export const geometryDrawStride = 768;
/** @internal Where each mesh-group binding sits inside a draw's stride, and how many bytes it binds. */
export const geometryDrawBindings: Readonly<Record<string, { offset: number; size: number }>> = {
  draw: { offset: 0, size: drawUniformsByteSize },
  geometryDraw: { offset: 256, size: geometryDrawUniformsByteSize },
  velocity: { offset: 512, size: velocityUniformsByteSize },
};
/** @internal Bytes of the task's scene buffer: `scene` at 0, `geometryScene` at 256. */
export const geometrySceneBufferBytes = 512;
/** @internal Where each scene-group binding sits inside the scene buffer, and how many bytes it binds. */
export const geometrySceneBindings: Readonly<Record<string, { offset: number; size: number }>> = {
  scene: { offset: 0, size: sceneUniformsByteSize },
  geometryScene: { offset: 256, size: geometrySceneUniformsByteSize },
};

/** @internal One recorded draw of the geometry pass. */
export interface GeometryDraw {
  mesh: Mesh;
  material: StandardMaterial;
  transparent: boolean;
  composed: ComposedShader;
  lease: PipelineLease;
  /** The same pipeline with the clockwise front face, for mirrored world (× instance) matrices; null until needed. */
  mirroredLease: PipelineLease | null;
  /**
   * The still-draw variant (LINEAR_VELOCITY without the previous-frame transform) and its clockwise twin, drawn on
   * frames where the draw's previous matrices and deformation equal the current ones; null without velocity.
   */
  stillLease: PipelineLease | null;
  stillMirroredLease: PipelineLease | null;
  /** This frame draws the still variant (set by execute). */
  still: boolean;
  /** The transposed inverse of the world matrix as of `normalVersion` (the mesh's `worldVersion`; -1: none yet). */
  normalMatrix: Float32Array;
  normalVersion: number;
  slot: number;
  reflectivity: readonly [number, number, number, number];
  blendTag: number;
  firstId: number;
  /** Filled once the whole list acquired its pipelines. */
  vertexBuffers: GPUBuffer[];
  textureGroup: GPUBindGroup | null;
  /** Bones and morph data (group 3) of a deformed mesh. */
  deformGroup: GPUBindGroup | null;
  dynamicOffsets: Uint32Array;
  blendConstant: GPUColorDict;
  velocity: MeshVelocityHistory | null;
}

/** @internal What every draw of one task shares. */
export interface GeometryDrawContext {
  name: string;
  /** The record's candidate lease set (swapped in when the whole record succeeds). */
  pipelines: PipelineLeaseSet;
  cache: ComposeCache;
  /** The task's fragment lists, reused with `cache`. */
  fragmentLists: FragmentLists;
  outputs: readonly GeometryOutputName[];
  plan: readonly GeometryAttachmentPlan[];
  samples: 1 | 4;
  depthFormat: GPUTextureFormat;
  depthCompare: GPUCompareFunction;
  reverseCulling: boolean;
  previousDepth: boolean;
  objectPrimitive: boolean;
  features: ReadonlySet<string>;
  /** The device keeps deformation data in textures (`deformationInTextures`). */
  deformationTextures: boolean;
}

const constantBlend: GPUBlendState = {
  color: { srcFactor: 'constant', dstFactor: 'one-minus-constant', operation: 'add' },
  alpha: { srcFactor: 'constant', dstFactor: 'one-minus-constant', operation: 'add' },
};

/** The pipeline state of a draw: MRT targets (constant-alpha blending for transparent participants), culling, reverse-Z depth. */
function geometryPipelineState(
  context: GeometryDrawContext,
  mesh: Mesh,
  transparent: boolean,
  frontFace: GPUFrontFace = 'ccw',
): RenderPipelineState {
  const cull: GPUCullMode = mesh.material.doubleSided ? 'none' : context.reverseCulling ? 'front' : 'back';
  return {
    label: `weft:${context.name}:geometry`,
    targets: context.plan.map((a) =>
      transparent && a.blended ? { format: a.format, blend: constantBlend } : { format: a.format },
    ),
    primitive: { topology: 'triangle-list', cullMode: cull, frontFace },
    depthStencil: { format: context.depthFormat, depthWriteEnabled: !transparent, depthCompare: context.depthCompare },
    multisample: { count: context.samples },
  };
}

/**
 * Phase 1 of a record (may throw): composes the mesh's variant and acquires its pipeline into the context's lease set.
 * @internal
 */
export function acquireGeometryDraw(
  context: GeometryDrawContext,
  mesh: Mesh,
  slot: number,
  transparent: boolean,
  perMesh: { reflectivity: readonly [number, number, number, number]; blendTag: number; firstId: number },
): GeometryDraw {
  const compose = (velocityStatic: boolean) =>
    composeShader(
      geometryShaderSpec(describeGeometryShader(mesh, context, velocityStatic), {
        fragmentLists: context.fragmentLists,
        deviceFeatures: context.features,
        deformationTextures: context.deformationTextures,
      }),
      context.cache,
    );
  const composed = compose(false);
  const acquire = (shader: ComposedShader, frontFace: GPUFrontFace) => {
    const state = geometryPipelineState(context, mesh, transparent, frontFace);
    return acquirePipelineLease(context.pipelines, renderPipelineKey(shader, state), () => shader, state).lease;
  };
  const mirrored = meshUsesClockwise(mesh);
  const lease = acquire(composed, 'ccw');
  const mirroredLease = mirrored ? acquire(composed, 'cw') : null;
  const still = context.outputs.includes('linearVelocity') ? compose(true) : null;
  const stillLease = still ? acquire(still, 'ccw') : null;
  const stillMirroredLease = still && mirrored ? acquire(still, 'cw') : null;
  const alpha = mesh.material.baseColor[3];
  return {
    mesh,
    material: mesh.material,
    transparent,
    composed,
    lease,
    mirroredLease,
    stillLease,
    stillMirroredLease,
    still: false,
    normalMatrix: new Float32Array(16),
    normalVersion: -1,
    slot,
    ...perMesh,
    vertexBuffers: [],
    textureGroup: null,
    deformGroup: null,
    dynamicOffsets: new Uint32Array(0),
    blendConstant: { r: alpha, g: alpha, b: alpha, a: alpha },
    velocity: null,
  };
}

/**
 * The mesh-group bind group entries of a task's layout: each present binding at its place in the draw stride.
 * @internal
 */
export function geometryDrawGroupEntries(composed: ComposedShader, buffer: GPUBuffer): GPUBindGroupEntry[] {
  return composed.bindGroups[1].bindings.map((b) => ({
    binding: b.binding,
    resource: { buffer, offset: geometryDrawBindings[b.name].offset, size: geometryDrawBindings[b.name].size },
  }));
}

/** @internal A material texture bind group per (texture data, layout), shared by the task's draws. */
export interface TextureGroupCache {
  sampler: GPUSampler | null;
  white: TextureData;
  entries: Map<TextureData, { texture: GPUTexture; layout: GPUBindGroupLayout; group: GPUBindGroup }>;
}

/** @internal Makes an empty texture-group cache. */
export function makeTextureGroupCache(): TextureGroupCache {
  return {
    sampler: null,
    white: { width: 1, height: 1, data: new Uint8Array([255, 255, 255, 255]) },
    entries: new Map(),
  };
}

/** @internal Destroys the cache's textures and forgets its groups. */
export function clearTextureGroupCache(cache: TextureGroupCache): void {
  for (const entry of cache.entries.values()) entry.texture.destroy();
  cache.entries.clear();
  cache.sampler = null;
}

/**
 * Record-time: the material group (sampler + base texture; a white texel without a texture), uploaded once per texture.
 * @internal
 */
export function textureGroupFor(
  cache: TextureGroupCache,
  device: GPUDevice,
  label: string,
  layout: GPUBindGroupLayout,
  data: TextureData | null,
): GPUBindGroup {
  const pixels = data ?? cache.white;
  const known = cache.entries.get(pixels);
  if (known && known.layout === layout) return known.group;
  cache.sampler ??= device.createSampler({
    label: `${label}:sampler`,
    magFilter: 'linear',
    minFilter: 'linear',
    addressModeU: 'repeat',
    addressModeV: 'repeat',
  });
  let texture = known?.texture;
  if (!texture) {
    texture = device.createTexture({
      label: `${label}:texture`,
      size: [pixels.width, pixels.height],
      format: 'rgba8unorm',
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
    });
    device.queue.writeTexture({ texture }, pixels.data, { bytesPerRow: pixels.width * 4 }, [
      pixels.width,
      pixels.height,
    ]);
  }
  const group = device.createBindGroup({
    label: `${label}:texture-group`,
    layout,
    entries: [
      { binding: 0, resource: cache.sampler },
      { binding: 1, resource: texture.createView({ label: `${label}:texture:view` }) },
    ],
  });
  cache.entries.set(pixels, { texture, layout, group });
  return group;
}
