// weft's own shader variants, assembled from the packs each runtime registers with the builders it draws with.
import { makeVariantRegistry, type VariantRegistry } from '../composer/variant-registry.js';
import { registerDeformationVariants } from '../engine/deformation-variants.js';
import { registerStandardVariants } from '../engine/render/standard-variants.js';
import { registerEntityVariants } from '../entities/entity-variants.js';
import { registerGeometryVariants } from '../geometry/geometry-variants.js';
import { registerPickRuleVariants } from '../picking/gpu/pick-rule-variants.js';
import { registerPickVariants } from '../picking/gpu/pick-variants.js';

/** Registers weft's own variants: standard material, pick, pick rules, geometry, deformation, billboard and splat shaders. */
export function registerWeftVariants(registry: VariantRegistry): VariantRegistry {
  registerStandardVariants(registry);
  registerPickVariants(registry);
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
