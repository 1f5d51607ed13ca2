import type { ComposeCache, ComposedShader } from '../composer/compose-shader.js';
import {
  composeGeometryShader,
  type GeometryVariant,
  geometryVariantOf,
  previousInstanceVertexBuffer,
} from './geometry-variants.js';
import { acquireRenderPipeline, type PipelineLease, type RenderPipelineState } from '../composer/pipeline-cache.js';
import { meshVertexLayout, standardVariantOf } from '../engine/mesh-layout.js';
import type { StandardMaterial, TextureData } from '../engine/material.js';
import type { Mesh } from '../engine/mesh.js';
import type { Fragment } from '../fragments/fragment-types.js';
import { deformationComposeParts, meshDeformationVariant } from '../engine/mesh-deformation.js';
import { createGeometryVelocityDeformationFragment } from '../fragments/geometry-velocity-deformation.js';
import type { GeometryOutputName } from '../fragments/geometry-fragments.js';
import type { GeometryAttachmentPlan } from './geometry-validation.js';
import type { MeshVelocityHistory } from './velocity/velocity-history.js';

/** Bytes per draw in the task's draw buffer: `draw` at 0, `geometryDraw` at 256, `velocity` at 512. */
export const geometryDrawStride = 768;
/** Where each mesh-group binding sits inside a draw's stride, and how many bytes it binds. */
export const geometryDrawBindings: Readonly<Record<string, { offset: number; size: number }>> = {
  draw: { offset: 0, size: 160 },
  geometryDraw: { offset: 256, size: 32 },
  velocity: { offset: 512, size: 128 },
};

/** One recorded draw of the geometry pass. */
export interface GeometryDraw {
  mesh: Mesh;
  material: StandardMaterial;
  transparent: boolean;
  composed: ComposedShader;
  lease: PipelineLease;
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

/** What every draw of one task shares. */
export interface GeometryDrawContext {
  name: string;
  device: GPUDevice;
  cache: ComposeCache;
  fragments: readonly Fragment[];
  outputs: readonly GeometryOutputName[];
  plan: readonly GeometryAttachmentPlan[];
  samples: 1 | 4;
  depthFormat: GPUTextureFormat;
  depthCompare: GPUCompareFunction;
  reverseCulling: boolean;
  previousDepth: boolean;
  objectPrimitive: boolean;
  features: ReadonlySet<string>;
}

const constantBlend: GPUBlendState = {
  color: { srcFactor: 'constant', dstFactor: 'one-minus-constant', operation: 'add' },
  alpha: { srcFactor: 'constant', dstFactor: 'one-minus-constant', operation: 'add' },
};

/** The geometry variant a mesh needs in this task. */
export function geometryVariantOfMesh(context: GeometryDrawContext, mesh: Mesh): GeometryVariant {
  const standard = standardVariantOf(mesh);
  return {
    ...geometryVariantOf(context.outputs, standard),
    previousDepth: context.previousDepth,
    objectPrimitive: context.objectPrimitive,
  };
}

/** The pipeline state of a draw: MRT targets (constant-alpha blending for transparent participants), culling, reverse-Z depth. */
export function geometryPipelineState(
  context: GeometryDrawContext,
  mesh: Mesh,
  transparent: boolean,
): RenderPipelineState {
  const cull: GPUCullMode = mesh.material.doubleSided ? 'none' : context.reverseCulling ? 'front' : 'back';
  return {
    label: `weft:${context.name}:geometry`,
    targets: context.plan.map((a) =>
      transparent && a.blended ? { format: a.format, blend: constantBlend } : { format: a.format },
    ),
    primitive: { topology: 'triangle-list', cullMode: cull, frontFace: 'ccw' },
    depthStencil: { format: context.depthFormat, depthWriteEnabled: !transparent, depthCompare: context.depthCompare },
    multisample: { count: context.samples },
  };
}

/** Phase 1 of a record (may throw; acquires one pipeline lease): composes the mesh's variant and acquires its pipeline. */
export function acquireGeometryDraw(
  context: GeometryDrawContext,
  mesh: Mesh,
  slot: number,
  transparent: boolean,
  perMesh: { reflectivity: readonly [number, number, number, number]; blendTag: number; firstId: number },
): GeometryDraw {
  const variant = geometryVariantOfMesh(context, mesh);
  const buffers = meshVertexLayout(mesh);
  if (variant.thinInstances && variant.outputs.includes('linearVelocity')) buffers.push(previousInstanceVertexBuffer());
  // A skinned, morphed or VAT mesh adds its deformation fragments to the shared vertex stage, and with velocity the
  // previous-frame deformation (the task's previous bones and morph weights, or VAT playback and time).
  const deformation = deformationComposeParts(meshDeformationVariant(mesh));
  const previousFragment = () =>
    mesh.vertexAnimation ? mesh.vertexAnimation.velocityFragment() : createGeometryVelocityDeformationFragment();
  const previous =
    deformation.fragments.length && variant.outputs.includes('linearVelocity') ? [previousFragment()] : [];
  const fragments = deformation.fragments.length
    ? [...context.fragments, ...deformation.fragments, ...previous]
    : context.fragments;
  const composed = composeGeometryShader(variant, {
    cache: context.cache,
    fragments,
    vertexLayout: { kind: 'buffers', buffers },
    deviceFeatures: context.features,
    conditions: deformation.conditions,
  });
  const lease = acquireRenderPipeline(context.device, composed, geometryPipelineState(context, mesh, transparent));
  const alpha = mesh.material.baseColor[3];
  return {
    mesh,
    material: mesh.material,
    transparent,
    composed,
    lease,
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

/** The mesh-group bind group entries of a task's layout: each present binding at its place in the draw stride. */
export function geometryDrawGroupEntries(composed: ComposedShader, buffer: GPUBuffer): GPUBindGroupEntry[] {
  return composed.bindGroups[1].bindings.map((b) => ({
    binding: b.binding,
    resource: { buffer, offset: geometryDrawBindings[b.name].offset, size: geometryDrawBindings[b.name].size },
  }));
}

/** A material texture bind group per (texture data, layout), shared by the task's draws. */
export interface TextureGroupCache {
  sampler: GPUSampler | null;
  white: TextureData;
  entries: Map<TextureData, { texture: GPUTexture; layout: GPUBindGroupLayout; group: GPUBindGroup }>;
}

/** Makes an empty texture-group cache. */
export function makeTextureGroupCache(): TextureGroupCache {
  return {
    sampler: null,
    white: { width: 1, height: 1, data: new Uint8Array([255, 255, 255, 255]) },
    entries: new Map(),
  };
}

/** Destroys the cache's textures and forgets its groups. */
export function clearTextureGroupCache(cache: TextureGroupCache): void {
  for (const entry of cache.entries.values()) entry.texture.destroy();
  cache.entries.clear();
  cache.sampler = null;
}

/** Record-time: the material group (sampler + base texture; a white texel without a texture), uploaded once per texture. */
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
