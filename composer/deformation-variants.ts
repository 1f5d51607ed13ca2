import { createMorphTargetsFragment } from '../fragments/morph-targets.js';
import { createSkinningFragment } from '../fragments/skinning.js';
import { createPickFragments, createStandardMaterialFragments } from '../fragments/standard-material.js';
import type { ComposeSpec } from './compose-shader.js';
import { registerVariant, type VariantRegistry } from './variant-registry.js';

/** Which deformations a variant composes into the shared vertex stage. */
export interface DeformationVariant {
  skin: 0 | 4 | 8;
  morph: boolean;
  morphNormals?: boolean;
  thinInstances?: boolean;
  /** Compose into the pick pass (with primitive detail) instead of the forward material. */
  pick?: boolean;
}

/** The compose spec of a deformed variant (tight vertex layout: each input its own buffer). */
export function deformationSpec(variant: DeformationVariant): ComposeSpec {
  const base = variant.pick ? createPickFragments() : createStandardMaterialFragments();
  const extra = [...(variant.morph ? [createMorphTargetsFragment()] : []), ...(variant.skin ? [createSkinningFragment()] : [])];
  return {
    fragments: [...base, ...extra],
    conditions: {
      normals: !variant.pick, thinInstances: variant.thinInstances ?? false, skin8: variant.skin === 8,
      morphNormals: variant.morphNormals ?? false, primitiveDetail: variant.pick ?? false,
    },
    vertexLayout: { kind: 'tight' },
  };
}

/** Registers the deformation variants: skinning (4/8 influences), morph targets, both, thin-instanced, and pick passes. */
export function registerDeformationVariants(registry: VariantRegistry): VariantRegistry {
  const variants: [string, DeformationVariant][] = [
    ['deform-skin4', { skin: 4, morph: false }],
    ['deform-skin8', { skin: 8, morph: false }],
    ['deform-morph', { skin: 0, morph: true, morphNormals: true }],
    ['deform-morph-skin4-thin-instances', { skin: 4, morph: true, morphNormals: true, thinInstances: true }],
    ['pick-deform-skin8-detail', { skin: 8, morph: false, pick: true }],
    ['pick-deform-morph-skin4-detail', { skin: 4, morph: true, pick: true }],
  ];
  for (const [name, variant] of variants) registerVariant(registry, { name, description: `deformation ${JSON.stringify(variant)}`, spec: () => deformationSpec(variant) });
  return registry;
}
