import { blitMultisampledCondition, blitUintCondition, makeGeometryBlitFragment } from '../fragments/geometry-blit.js';
import {
  makeGeometryFragments,
  type GeometryOutputName,
  geometryOutputsUsingMaterial,
  geometryOutputsUsingNormals,
} from '../fragments/geometry-fragments.js';
import { objectPrimitiveCondition } from '../fragments/geometry-object-id.js';
import { materialUntexturedCondition } from '../fragments/geometry-material.js';
import { velocityPreviousDepthCondition, velocityStaticCondition } from '../fragments/geometry-velocity.js';
import { makeGeometryVelocityDeformationFragment } from '../fragments/geometry-velocity-deformation.js';
import { type ComposedShader, type ComposeSpec, composeShader } from '../composer/compose-shader.js';
import type { VertexBufferSpec, VertexLayoutSpec } from '../composer/vertex-layout.js';
import type { Mesh } from '../engine/mesh.js';
import { deformationComposeParts } from '../engine/mesh-deformation.js';
import {
  describeMeshShader,
  type MeshShaderDescription,
  standardVariantOfDescription,
  vertexBuffersOfDescription,
} from '../engine/mesh-layout.js';
import { type StandardComposeOptions, standardVertexLayout } from '../engine/render/forward-shader.js';
import { reuseFragmentList, type ShaderSpecOptions } from '../engine/shader-spec-options.js';

/** @internal One geometry-pass shader: which outputs it writes and which mesh inputs it reads. */
export interface GeometryVariant {
  outputs: readonly GeometryOutputName[];
  normals: boolean;
  uvs: boolean;
  colors: boolean;
  thinInstances: boolean;
  /** LINEAR_VELOCITY z holds the previous view depth. */
  previousDepth?: boolean;
  /** The object-ID output's y holds `primitive_index` (needs the `primitive-index` feature). */
  objectPrimitive?: boolean;
  /** The material has no base texture: the albedo skips the sample of a white texel. */
  untextured?: boolean;
  /** Still-draw variant: LINEAR_VELOCITY writes zero motion without the previous-frame transform. */
  velocityStatic?: boolean;
}

/** The task's previous thin-instance matrices: one 64-byte matrix per instance, columns `prevInstance0…3`. */
function previousInstanceVertexBuffer(): VertexBufferSpec {
  return {
    arrayStride: 64,
    stepMode: 'instance',
    attributes: [0, 1, 2, 3].map((i) => ({
      semantic: `prevInstance${i}`,
      offset: i * 16,
      format: 'float32x4' as const,
    })),
  };
}

/** Mesh inputs a geometry variant actually reads: normals only for normal/lit outputs, uv and colour only for material outputs. */
function geometryVariantOf(
  outputs: readonly GeometryOutputName[],
  mesh: { normals: boolean; uvs: boolean; colors: boolean; thinInstances: boolean },
): Omit<GeometryVariant, 'previousDepth' | 'objectPrimitive' | 'untextured' | 'velocityStatic'> {
  const material = outputs.some((o) => geometryOutputsUsingMaterial.includes(o));
  return {
    outputs,
    normals: mesh.normals && outputs.some((o) => geometryOutputsUsingNormals.includes(o)),
    uvs: mesh.uvs && material,
    colors: mesh.colors && material,
    thinInstances: mesh.thinInstances,
  };
}

/** The compose conditions of a geometry variant. */
function geometryConditions(variant: GeometryVariant): Record<string, boolean> {
  return {
    normals: variant.normals,
    uvs: variant.uvs,
    colors: variant.colors,
    thinInstances: variant.thinInstances,
    [velocityPreviousDepthCondition]: variant.previousDepth === true,
    [objectPrimitiveCondition]: variant.objectPrimitive === true,
    [materialUntexturedCondition]: variant.untextured === true,
    [velocityStaticCondition]: variant.velocityStatic === true,
  };
}

/** The default buffers of a geometry variant: the standard tight layout plus the previous-instance buffer when velocity reads it. */
function geometryVertexLayout(variant: GeometryVariant): VertexLayoutSpec {
  const layout = standardVertexLayout(variant) as Extract<VertexLayoutSpec, { kind: 'buffers' }>;
  const previous = variant.thinInstances && variant.outputs.includes('linearVelocity');
  return previous ? { kind: 'buffers', buffers: [...layout.buffers, previousInstanceVertexBuffer()] } : layout;
}

/**
 * The compose spec of a geometry variant (`options.fragments` should be `makeGeometryFragments(variant.outputs)`).
 * @internal
 */
export function geometrySpec(variant: GeometryVariant, options: StandardComposeOptions = {}): ComposeSpec {
  return {
    fragments: options.fragments ?? makeGeometryFragments(variant.outputs),
    conditions: { ...options.conditions, ...geometryConditions(variant) },
    vertexLayout: options.vertexLayout ?? geometryVertexLayout(variant),
    deviceFeatures: options.deviceFeatures,
  };
}

/**
 * Composes a geometry-pass shader: the standard vertex stage plus one output fragment per requested output.
 * @internal
 */
export function composeGeometryShader(variant: GeometryVariant, options: StandardComposeOptions = {}): ComposedShader {
  return composeShader(geometrySpec(variant, options), options.cache);
}

/** Options of the copy-to-texture blit shader. */
interface BlitVariant {
  multisampled: boolean;
  /** Unsigned-integer source and target. */
  uint: boolean;
}

/** @internal The compose spec of a blit variant (no vertex buffers: the triangle comes from the vertex index). */
export function blitSpec(variant: BlitVariant, options: Pick<StandardComposeOptions, 'fragments'> = {}): ComposeSpec {
  return {
    fragments: options.fragments ?? [makeGeometryBlitFragment()],
    conditions: { [blitMultisampledCondition]: variant.multisampled, [blitUintCondition]: variant.uint },
    vertexLayout: { kind: 'buffers', buffers: [] },
  };
}

/** What the geometry pass's shader for one mesh depends on. */
interface GeometryShaderDescription {
  mesh: MeshShaderDescription;
  /** The task's outputs. */
  outputs: readonly GeometryOutputName[];
  /** LINEAR_VELOCITY z holds the previous view depth. */
  previousDepth: boolean;
  /** The object-ID output's y holds `primitive_index`. */
  objectPrimitive: boolean;
  /** The mesh's material has no base texture. */
  untextured?: boolean;
  /** The still-draw variant (zero motion, no previous-frame transform); only for meshes without deformation. */
  velocityStatic?: boolean;
}

/** @internal Describes the geometry shader of a mesh in a task with these outputs and options. */
export function describeGeometryShader(
  mesh: Mesh,
  task: { outputs: readonly GeometryOutputName[]; previousDepth: boolean; objectPrimitive: boolean },
  velocityStatic = false,
): GeometryShaderDescription {
  return {
    mesh: describeMeshShader(mesh),
    outputs: task.outputs,
    previousDepth: task.previousDepth,
    objectPrimitive: task.objectPrimitive,
    // Only outputs that read the material know about its texture: the others keep one shader for every material.
    untextured: mesh.material.texture === null && task.outputs.some((o) => geometryOutputsUsingMaterial.includes(o)),
    velocityStatic,
  };
}

/** The geometry variant of a described mesh: the inputs its outputs read, instances, previous depth, primitive IDs. */
function geometryVariantOfDescription(description: GeometryShaderDescription): GeometryVariant {
  return {
    ...geometryVariantOf(description.outputs, standardVariantOfDescription(description.mesh)),
    previousDepth: description.previousDepth,
    objectPrimitive: description.objectPrimitive,
    untextured: description.untextured === true,
    velocityStatic: description.velocityStatic === true,
  };
}

/**
 * The geometry pass's shader: the standard vertex stage over the mesh's own buffers (plus the previous instance
 * matrices for velocity), its deformation fragments (plus their previous-frame twin for velocity) and one output
 * fragment per output. Weft's geometry-* variants of meshes are composed with it.
 * @internal
 */
export function geometryShaderSpec(
  description: GeometryShaderDescription,
  options: ShaderSpecOptions = {},
): ComposeSpec {
  const variant = geometryVariantOfDescription(description);
  const velocity = variant.outputs.includes('linearVelocity');
  const buffers = vertexBuffersOfDescription(description.mesh);
  if (variant.thinInstances && velocity) buffers.push(previousInstanceVertexBuffer());
  // With velocity a deformed mesh also composes its previous-frame deformation (previous bones and morph weights,
  // or the VAT's previous playback and time).
  const deformation = deformationComposeParts(description.mesh.deformation, options.deformationTextures);
  const previous = deformation.fragments.length > 0 && velocity;
  const vertexAnimation = description.mesh.deformation.vertexAnimation;
  const key = `${variant.outputs.join(',')}|${deformation.key}`;
  const fragments = reuseFragmentList(options.fragmentLists, key, () => [
    ...makeGeometryFragments(variant.outputs),
    ...deformation.fragments,
    ...(previous
      ? [vertexAnimation ? vertexAnimation.velocityFragment() : makeGeometryVelocityDeformationFragment()]
      : []),
  ]);
  return geometrySpec(variant, {
    fragments,
    vertexLayout: { kind: 'buffers', buffers },
    deviceFeatures: options.deviceFeatures,
    conditions: deformation.conditions,
  });
}
