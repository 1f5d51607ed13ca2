import type { ComposeSpec } from '../composer/compose-shader.js';
import { registerVariant, type VariantRegistry } from '../composer/variant-registry.js';
import { billboardColorSpec, billboardPickSpec } from './billboards/billboard-shaders.js';
import { splatColorSpec, splatPickSpec } from './splats/splat-shaders.js';

/**
 * Registers the billboard and splat shaders, with the builders their pick contributors and renderers draw with.
 * @internal
 */
export function registerEntityVariants(registry: VariantRegistry): VariantRegistry {
  const variants: [string, string, () => ComposeSpec][] = [
    ['billboard-pick', 'billboard pick contributor', () => billboardPickSpec(false)],
    ['billboard-pick-detail', 'billboard pick contributor, detail attachment', () => billboardPickSpec(true)],
    ['billboard-color', 'billboard renderer', billboardColorSpec],
    ['splat-pick', 'Gaussian splat pick contributor', () => splatPickSpec(false)],
    ['splat-pick-detail', 'Gaussian splat pick contributor, detail attachment', () => splatPickSpec(true)],
    ['splat-color', 'Gaussian splat renderer', splatColorSpec],
  ];
  for (const [name, description, spec] of variants) registerVariant(registry, { name, description, spec });
  return registry;
}
