import type { Fragment } from '../../fragments/fragment-types.js';
import {
  createStandardMaterialFragments,
  standardMaterialConditions,
  type StandardMaterialVariant,
} from '../../fragments/standard-material.js';
import {
  type ComposeCache,
  type ComposedShader,
  type ComposeSpec,
  composeShader,
} from '../../composer/compose-shader.js';
import { registerVariant, type VariantRegistry } from '../../composer/variant-registry.js';
import type { VertexBufferSpec, VertexLayoutSpec } from '../../composer/vertex-layout.js';
import { thinInstanceVertexBuffer } from '../mesh-layout.js';

export { thinInstanceVertexBuffer };

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

/** Name of a standard-material variant in the registry: `standard` plus `-normals`, `-uvs`, `-colors`, `-thin-instances`. */
export function standardVariantName(v: StandardMaterialVariant): string {
  return ['standard', v.normals && 'normals', v.uvs && 'uvs', v.colors && 'colors', v.thinInstances && 'thin-instances']
    .filter(Boolean)
    .join('-');
}

/** Registers the forward renderer's standard-material variants (normals × UVs × colours × thin instances). */
export function registerStandardVariants(registry: VariantRegistry): VariantRegistry {
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
  return registry;
}
