import {
  createBillboardColorFragment,
  createBillboardPickFragment,
  createBillboardQuadFragment,
} from '../fragments/billboard-pick.js';
import { createContributorViewFragment, createPickContributorOutputFragment } from '../fragments/contributor-view.js';
import type { Fragment } from '../fragments/fragment-types.js';
import { createSplatColorFragment, createSplatPickFragment, createSplatQuadFragment } from '../fragments/splat-pick.js';
import { registerVariant, type VariantRegistry } from '../composer/variant-registry.js';

/** Registers the billboard and splat shaders: their pick contributors (basic and detailed) and their renderers. */
export function registerEntityVariants(registry: VariantRegistry): VariantRegistry {
  const pick = (): Fragment[] => [createContributorViewFragment(), createPickContributorOutputFragment()];
  const variants: [string, string, () => Fragment[], boolean][] = [
    [
      'billboard-pick',
      'billboard pick contributor',
      () => [...pick(), createBillboardQuadFragment(), createBillboardPickFragment()],
      false,
    ],
    [
      'billboard-pick-detail',
      'billboard pick contributor, detail attachment',
      () => [...pick(), createBillboardQuadFragment(), createBillboardPickFragment()],
      true,
    ],
    [
      'billboard-color',
      'billboard renderer',
      () => [createContributorViewFragment(), createBillboardQuadFragment(), createBillboardColorFragment()],
      false,
    ],
    [
      'splat-pick',
      'Gaussian splat pick contributor',
      () => [...pick(), createSplatQuadFragment(), createSplatPickFragment()],
      false,
    ],
    [
      'splat-pick-detail',
      'Gaussian splat pick contributor, detail attachment',
      () => [...pick(), createSplatQuadFragment(), createSplatPickFragment()],
      true,
    ],
    [
      'splat-color',
      'Gaussian splat renderer',
      () => [createContributorViewFragment(), createSplatQuadFragment(), createSplatColorFragment()],
      false,
    ],
  ];
  for (const [name, description, fragments, detail] of variants) {
    registerVariant(registry, {
      name,
      description,
      spec: () => ({ fragments: fragments(), conditions: { primitiveDetail: detail } }),
    });
  }
  return registry;
}
