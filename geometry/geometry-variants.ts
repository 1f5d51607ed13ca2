import {
  blitMultisampledCondition,
  blitUintCondition,
  createGeometryBlitFragment,
} from '../fragments/geometry-blit.js';
import {
  createGeometryFragments,
  type GeometryOutputName,
  geometryOutputsUsingMaterial,
  geometryOutputsUsingNormals,
} from '../fragments/geometry-fragments.js';
import { createVertexAnimationFragment } from '../fragments/vertex-animation.js';
import { createVertexAnimationVelocityFragment } from '../fragments/vertex-animation-velocity.js';
import { withInfluenceBuffers } from '../engine/deformation-variants.js';
import { objectPrimitiveCondition } from '../fragments/geometry-object-id.js';
import { velocityPreviousDepthCondition } from '../fragments/geometry-velocity.js';
import { type ComposedShader, type ComposeSpec, composeShader } from '../composer/compose-shader.js';
import { standardVertexLayout, type StandardComposeOptions } from '../engine/render/standard-variants.js';
import { registerVariant, type VariantRegistry } from '../composer/variant-registry.js';
import type { VertexBufferSpec, VertexLayoutSpec } from '../composer/vertex-layout.js';

/** One geometry-pass shader: which outputs it writes and which mesh inputs it reads. */
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
}

/** The task's previous thin-instance matrices: one 64-byte matrix per instance, columns `prevInstance0…3`. */
export function previousInstanceVertexBuffer(): VertexBufferSpec {
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
export function geometryVariantOf(
  outputs: readonly GeometryOutputName[],
  mesh: { normals: boolean; uvs: boolean; colors: boolean; thinInstances: boolean },
): Omit<GeometryVariant, 'previousDepth' | 'objectPrimitive'> {
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
export function geometryConditions(variant: GeometryVariant): Record<string, boolean> {
  return {
    normals: variant.normals,
    uvs: variant.uvs,
    colors: variant.colors,
    thinInstances: variant.thinInstances,
    [velocityPreviousDepthCondition]: variant.previousDepth === true,
    [objectPrimitiveCondition]: variant.objectPrimitive === true,
  };
}

/** The default buffers of a geometry variant: the standard tight layout plus the previous-instance buffer when velocity reads it. */
export function geometryVertexLayout(variant: GeometryVariant): VertexLayoutSpec {
  const layout = standardVertexLayout(variant) as Extract<VertexLayoutSpec, { kind: 'buffers' }>;
  const previous = variant.thinInstances && variant.outputs.includes('linearVelocity');
  return previous ? { kind: 'buffers', buffers: [...layout.buffers, previousInstanceVertexBuffer()] } : layout;
}

/** The compose spec of a geometry variant (`options.fragments` should be `createGeometryFragments(variant.outputs)`). */
export function geometrySpec(variant: GeometryVariant, options: StandardComposeOptions = {}): ComposeSpec {
  return {
    fragments: options.fragments ?? createGeometryFragments(variant.outputs),
    conditions: { ...options.conditions, ...geometryConditions(variant) },
    vertexLayout: options.vertexLayout ?? geometryVertexLayout(variant),
    deviceFeatures: options.deviceFeatures,
  };
}

/** Composes a geometry-pass shader: the standard vertex stage plus one output fragment per requested output. */
export function composeGeometryShader(variant: GeometryVariant, options: StandardComposeOptions = {}): ComposedShader {
  return composeShader(geometrySpec(variant, options), options.cache);
}

/** Options of the copy-to-texture blit shader. */
export interface BlitVariant {
  multisampled: boolean;
  /** Unsigned-integer source and target. */
  uint: boolean;
}

/** The compose spec of a blit variant (no vertex buffers: the triangle comes from the vertex index). */
export function blitSpec(variant: BlitVariant, options: Pick<StandardComposeOptions, 'fragments'> = {}): ComposeSpec {
  return {
    fragments: options.fragments ?? [createGeometryBlitFragment()],
    conditions: { [blitMultisampledCondition]: variant.multisampled, [blitUintCondition]: variant.uint },
    vertexLayout: { kind: 'buffers', buffers: [] },
  };
}

/** Name of a geometry variant in the registry: `geometry-` plus the outputs and the mesh inputs. */
export function geometryVariantName(label: string, variant: GeometryVariant): string {
  return [
    'geometry',
    label,
    variant.thinInstances && 'thin-instances',
    variant.previousDepth && 'previous-depth',
    variant.objectPrimitive && 'primitive',
  ]
    .filter(Boolean)
    .join('-');
}

const registered: readonly [string, GeometryVariant][] = [
  [
    'positions-normals',
    {
      outputs: ['worldPosition', 'worldNormal', 'viewNormal'],
      normals: true,
      uvs: false,
      colors: false,
      thinInstances: false,
    },
  ],
  [
    'depths',
    {
      outputs: ['viewDepth', 'normalizedViewDepth', 'screenspaceDepth', 'localPosition'],
      normals: false,
      uvs: false,
      colors: false,
      thinInstances: false,
    },
  ],
  [
    'material',
    {
      outputs: ['albedo', 'irradiance', 'reflectivity', 'meshBlendTag'],
      normals: true,
      uvs: true,
      colors: true,
      thinInstances: false,
    },
  ],
  [
    'velocity',
    { outputs: ['linearVelocity', 'worldPosition'], normals: false, uvs: false, colors: false, thinInstances: true },
  ],
  [
    'velocity',
    {
      outputs: ['linearVelocity'],
      normals: false,
      uvs: false,
      colors: false,
      thinInstances: false,
      previousDepth: true,
    },
  ],
  [
    'object-id',
    {
      outputs: ['objectId', 'albedo'],
      normals: false,
      uvs: false,
      colors: false,
      thinInstances: true,
      objectPrimitive: true,
    },
  ],
];

/** Registers the geometry variants (representative output sets within the default 32 bytes per sample) and the four blit variants. */
export function registerGeometryVariants(registry: VariantRegistry): VariantRegistry {
  for (const [label, variant] of registered) {
    registerVariant(registry, {
      name: geometryVariantName(label, variant),
      description: `geometry pass ${JSON.stringify(variant)}`,
      spec: () => geometrySpec(variant),
    });
  }
  for (const uint of [false, true]) {
    for (const multisampled of [false, true]) {
      const variant = { multisampled, uint };
      registerVariant(registry, {
        name: ['geometry-blit', uint && 'uint', multisampled && 'multisampled'].filter(Boolean).join('-'),
        description: `copy-to-texture blit ${JSON.stringify(variant)}`,
        spec: () => blitSpec(variant),
      });
    }
  }
  registerVariant(registry, {
    name: 'geometry-deform-vat4-velocity-thin-instances',
    description: 'geometry pass: linear velocity and world position of a thin-instanced VAT mesh',
    spec: vertexAnimationVelocitySpec,
  });
  return registry;
}

/** The G-buffer's velocity variant of a thin-instanced VAT mesh: current and previous animated positions. */
export function vertexAnimationVelocitySpec(): ComposeSpec {
  const variant = {
    outputs: ['linearVelocity', 'worldPosition'] as const,
    normals: false,
    uvs: false,
    colors: false,
    thinInstances: true,
  };
  const fragments = [
    ...createGeometryFragments(variant.outputs),
    createVertexAnimationFragment(),
    createVertexAnimationVelocityFragment(),
  ];
  return geometrySpec(variant, { fragments, vertexLayout: withInfluenceBuffers(geometryVertexLayout(variant), 4) });
}
