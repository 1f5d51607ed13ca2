import type { ComposedShader, ComposeSpec } from '../composer/compose-shader.js';
import { composeShader } from '../composer/compose-shader.js';
import { registerVariant, type VariantRegistry } from '../composer/variant-registry.js';
import { standardVertexLayout, type StandardComposeOptions } from '../engine/render/standard-variants.js';
import { createPickFragments } from '../fragments/standard-material.js';

/** Options of the pick variants. */
export interface PickVariant {
  thinInstances: boolean;
  /** Adds the rgba32uint `primitive_index` output (location 2); needs the `primitive-index` feature. */
  primitiveDetail: boolean;
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

/** Name of a pick variant in the registry: `pick` plus `-detail`, `-thin-instances`. */
export function pickVariantName(v: PickVariant): string {
  return ['pick', v.primitiveDetail && 'detail', v.thinInstances && 'thin-instances'].filter(Boolean).join('-');
}

/** Registers the pick pass's variants (with and without primitive detail and thin instances). */
export function registerPickVariants(registry: VariantRegistry): VariantRegistry {
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
  return registry;
}
