import type { Fragment } from '../fragments/fragment-types.js';
import {
  createPickFragments,
  createStandardMaterialFragments,
  standardMaterialConditions,
  type StandardMaterialVariant,
} from '../fragments/standard-material.js';
import { type ComposeCache, type ComposedShader, type ComposeSpec, composeShader } from './compose-shader.js';
import { registerDeformationVariants } from './deformation-variants.js';
import { registerEntityVariants } from './entity-variants.js';
import { registerGeometryVariants } from './geometry-variants.js';
import { registerPickRuleVariants } from './pick-rule-variants.js';
import { makeVariantRegistry, registerVariant, type VariantRegistry } from './variant-registry.js';
import type { VertexBufferSpec, VertexLayoutSpec } from './vertex-layout.js';

/** Options of the pick variants. */
export interface PickVariant {
  thinInstances: boolean;
  /** Adds the rgba32uint `primitive_index` output (location 2); needs the `primitive-index` feature. */
  primitiveDetail: boolean;
}

/** Options shared by the standard compose helpers. */
export interface StandardComposeOptions {
  /** Default: `standardVertexLayout(variant)`. */
  vertexLayout?: VertexLayoutSpec;
  cache?: ComposeCache;
  /** Reuse one array across calls so a compose cache recognises the fragments without re-hashing them. */
  fragments?: readonly Fragment[];
  deviceFeatures?: { has(feature: string): boolean };
  /** Extra conditions for fragments added to the variant (e.g. pick discard rules); the variant's own win. */
  conditions?: Readonly<Record<string, boolean>>;
}

/** The thin-instance buffer: one 64-byte column-major matrix per instance, columns `instance0…3` (append it to a mesh's buffers). */
export function thinInstanceVertexBuffer(): VertexBufferSpec {
  return {
    arrayStride: 64,
    stepMode: 'instance',
    attributes: [0, 1, 2, 3].map((i) => ({ semantic: `instance${i}`, offset: i * 16, format: 'float32x4' as const })),
  };
}

/** The forward renderer's buffers: one tight buffer per present attribute, and one 64-byte per-instance buffer for the thin-instance matrix. */
export function standardVertexLayout(variant: Partial<StandardMaterialVariant>): VertexLayoutSpec {
  const tight = (semantic: string, format: GPUVertexFormat, size: number): VertexBufferSpec => ({
    arrayStride: size,
    attributes: [{ semantic, offset: 0, format }],
  });
  const buffers: VertexBufferSpec[] = [tight('position', 'float32x3', 12)];
  if (variant.normals) buffers.push(tight('normal', 'float32x3', 12));
  if (variant.uvs) buffers.push(tight('uv', 'float32x2', 8));
  if (variant.colors) buffers.push(tight('color', 'float32x4', 16));
  if (variant.thinInstances) buffers.push(thinInstanceVertexBuffer());
  return { kind: 'buffers', buffers };
}

/** The compose spec of a standard-material variant (the forward renderer's shader). */
export function standardMaterialSpec(
  variant: StandardMaterialVariant,
  options: StandardComposeOptions = {},
): ComposeSpec {
  return {
    fragments: options.fragments ?? createStandardMaterialFragments(),
    conditions: { ...options.conditions, ...standardMaterialConditions(variant) },
    vertexLayout: options.vertexLayout ?? standardVertexLayout(variant),
    deviceFeatures: options.deviceFeatures,
  };
}

/** Composes a standard-material variant: the forward renderer's shader. */
export function composeStandardMaterial(
  variant: StandardMaterialVariant,
  options: StandardComposeOptions = {},
): ComposedShader {
  return composeShader(standardMaterialSpec(variant, options), options.cache);
}

/** The compose spec of a pick variant: the standard vertex stage plus the pick-ID outputs. */
export function pickSpec(variant: PickVariant, options: StandardComposeOptions = {}): ComposeSpec {
  return {
    fragments: options.fragments ?? createPickFragments(),
    conditions: {
      ...options.conditions,
      thinInstances: variant.thinInstances,
      primitiveDetail: variant.primitiveDetail,
    },
    vertexLayout: options.vertexLayout ?? standardVertexLayout({ thinInstances: variant.thinInstances }),
    deviceFeatures: options.deviceFeatures,
  };
}

/** Composes a pick variant (ID rgba8unorm @0, depth r32float @1, optional primitive detail rgba32uint @2). */
export function composePickShader(variant: PickVariant, options: StandardComposeOptions = {}): ComposedShader {
  return composeShader(pickSpec(variant, options), options.cache);
}

/** Name of a standard-material variant in the registry: `standard` plus `-normals`, `-uvs`, `-colors`, `-thin-instances`. */
export function standardVariantName(v: StandardMaterialVariant): string {
  return ['standard', v.normals && 'normals', v.uvs && 'uvs', v.colors && 'colors', v.thinInstances && 'thin-instances']
    .filter(Boolean)
    .join('-');
}

/** Name of a pick variant in the registry: `pick` plus `-detail`, `-thin-instances`. */
export function pickVariantName(v: PickVariant): string {
  return ['pick', v.primitiveDetail && 'detail', v.thinInstances && 'thin-instances'].filter(Boolean).join('-');
}

/** Registers weft's own variants: standard material, pick, pick rules, geometry, deformation, billboard and splat shaders. */
export function registerWeftVariants(registry: VariantRegistry): VariantRegistry {
  for (let bits = 0; bits < 16; bits++) {
    const variant: StandardMaterialVariant = {
      normals: !!(bits & 1),
      uvs: !!(bits & 2),
      colors: !!(bits & 4),
      thinInstances: !!(bits & 8),
    };
    registerVariant(registry, {
      name: standardVariantName(variant),
      description: `forward standard material ${JSON.stringify(variant)}`,
      spec: () => standardMaterialSpec(variant),
    });
  }
  for (const primitiveDetail of [false, true]) {
    for (const thinInstances of [false, true]) {
      const variant = { thinInstances, primitiveDetail };
      registerVariant(registry, {
        name: pickVariantName(variant),
        description: `pick ids ${JSON.stringify(variant)}`,
        spec: () => pickSpec(variant),
      });
    }
  }
  registerPickRuleVariants(registry);
  registerGeometryVariants(registry);
  registerDeformationVariants(registry);
  registerEntityVariants(registry);
  return registry;
}

/** A registry holding weft's own variants. */
export function makeWeftVariantRegistry(): VariantRegistry {
  return registerWeftVariants(makeVariantRegistry());
}
