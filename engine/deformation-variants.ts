import { createMorphTargetsFragment } from '../fragments/morph-targets.js';
import { createSkinningFragment } from '../fragments/skinning.js';
import { createPickFragments, createStandardMaterialFragments } from '../fragments/standard-material.js';
import { createVertexAnimationFragment } from '../fragments/vertex-animation.js';
import type { ComposeSpec } from '../composer/compose-shader.js';
import { standardVertexLayout } from './render/standard-variants.js';
import { registerVariant, type VariantRegistry } from '../composer/variant-registry.js';
import type { VertexBufferSpec, VertexLayoutSpec } from '../composer/vertex-layout.js';

/** Which deformations a variant composes into the shared vertex stage. */
export interface DeformationVariant {
  skin: 0 | 4 | 8;
  morph: boolean;
  morphNormals?: boolean;
  /** Vertex animation texture with 4 or 8 influences (never with skin or morph). */
  vat?: 0 | 4 | 8;
  thinInstances?: boolean;
  /** Compose into the pick pass (with primitive detail) instead of the forward material. */
  pick?: boolean;
}

/** A layout's buffers plus one tight buffer per influence attribute (joints, weights, and joints2/weights2 for 8). */
export function withInfluenceBuffers(layout: VertexLayoutSpec, influences: 4 | 8): VertexLayoutSpec {
  const tight = (semantic: string, format: GPUVertexFormat, size: number): VertexBufferSpec => ({
    arrayStride: size,
    attributes: [{ semantic, offset: 0, format }],
  });
  const sets = influences === 8 ? ['', '2'] : [''];
  const buffers = (layout as Extract<VertexLayoutSpec, { kind: 'buffers' }>).buffers;
  return {
    kind: 'buffers',
    buffers: [
      ...buffers,
      ...sets.flatMap((n) => [tight(`joints${n}`, 'uint16x4', 8), tight(`weights${n}`, 'float32x4', 16)]),
    ],
  };
}

/**
 * The compose spec of a deformed variant: a tight vertex layout (each input its own buffer), except VAT variants, which
 * use the renderer's layout (one 64-byte instance buffer) so 8 influences and thin instances fit in 8 vertex buffers.
 */
export function deformationSpec(variant: DeformationVariant): ComposeSpec {
  const base = variant.pick ? createPickFragments() : createStandardMaterialFragments();
  const extra = [
    ...(variant.morph ? [createMorphTargetsFragment()] : []),
    ...(variant.skin ? [createSkinningFragment()] : []),
    ...(variant.vat ? [createVertexAnimationFragment()] : []),
  ];
  return {
    fragments: [...base, ...extra],
    conditions: {
      normals: !variant.pick,
      thinInstances: variant.thinInstances ?? false,
      skin8: variant.skin === 8,
      vat8: variant.vat === 8,
      morphNormals: variant.morphNormals ?? false,
      primitiveDetail: variant.pick ?? false,
    },
    vertexLayout: variant.vat
      ? withInfluenceBuffers(
          standardVertexLayout({ normals: !variant.pick, thinInstances: variant.thinInstances ?? false }),
          variant.vat,
        )
      : { kind: 'tight' },
  };
}

/** Registers the deformation variants: skinning (4/8 influences), morph targets, both, VAT, thin-instanced, and pick passes. */
export function registerDeformationVariants(registry: VariantRegistry): VariantRegistry {
  const variants: [string, DeformationVariant][] = [
    ['deform-skin4', { skin: 4, morph: false }],
    ['deform-skin8', { skin: 8, morph: false }],
    ['deform-morph', { skin: 0, morph: true, morphNormals: true }],
    ['deform-morph-skin4-thin-instances', { skin: 4, morph: true, morphNormals: true, thinInstances: true }],
    ['pick-deform-skin8-detail', { skin: 8, morph: false, pick: true }],
    ['pick-deform-morph-skin4-detail', { skin: 4, morph: true, pick: true }],
    ['deform-vat4', { skin: 0, morph: false, vat: 4 }],
    ['deform-vat8-thin-instances', { skin: 0, morph: false, vat: 8, thinInstances: true }],
    ['pick-deform-vat4-thin-instances-detail', { skin: 0, morph: false, vat: 4, thinInstances: true, pick: true }],
  ];
  for (const [name, variant] of variants)
    registerVariant(registry, {
      name,
      description: `deformation ${JSON.stringify(variant)}`,
      spec: () => deformationSpec(variant),
    });
  return registry;
}
