import type { ComposeSpec } from '../composer/compose-shader.js';
import { registerVariant, type VariantRegistry } from '../composer/variant-registry.js';
import { forwardShaderSpec } from './render/forward-shader.js';
import { describeRepresentativeMesh } from './representative-mesh.js';

/** Which deformations a forward variant composes into the shared vertex stage (the mesh has normals, no UVs). */
interface DeformationVariant {
  skin: 0 | 4 | 8;
  morph: boolean;
  morphNormals?: boolean;
  /** Vertex animation texture with 4 or 8 influences (never with skin or morph). */
  vat?: 0 | 4 | 8;
  thinInstances?: boolean;
  /** The variant of a device without vertex-stage storage buffers (`deformTextures`). */
  textures?: boolean;
}

/**
 * The forward renderer's shader of a deformed mesh with normals (tight arrays, as `createMeshFromData` stores them).
 * @internal
 */
export function deformationSpec({ textures, ...variant }: DeformationVariant): ComposeSpec {
  const mesh = describeRepresentativeMesh({ normals: true, ...variant });
  return forwardShaderSpec({ mesh, objectIds: false, objectPrimitive: false }, { deformationTextures: textures });
}

/**
 * Registers the forward renderer's deformation variants: skinning (4/8 influences), morph targets, both, VAT, thin-instanced,
 * and the texture-reading variants of a compatibility-mode device.
 * @internal
 */
export function registerDeformationVariants(registry: VariantRegistry): VariantRegistry {
  const variants: [string, DeformationVariant][] = [
    ['deform-skin4', { skin: 4, morph: false }],
    ['deform-skin8', { skin: 8, morph: false }],
    ['deform-morph', { skin: 0, morph: true, morphNormals: true }],
    ['deform-morph-skin4-thin-instances', { skin: 4, morph: true, morphNormals: true, thinInstances: true }],
    ['deform-vat4', { skin: 0, morph: false, vat: 4 }],
    ['deform-vat8-thin-instances', { skin: 0, morph: false, vat: 8, thinInstances: true }],
    // A compatibility-mode device's: morph and VAT playback data read from textures.
    [
      'deform-morph-skin4-thin-instances-textures',
      { skin: 4, morph: true, morphNormals: true, thinInstances: true, textures: true },
    ],
    ['deform-vat8-thin-instances-textures', { skin: 0, morph: false, vat: 8, thinInstances: true, textures: true }],
  ];
  for (const [name, variant] of variants)
    registerVariant(registry, {
      name,
      description: `deformation ${JSON.stringify(variant)}`,
      spec: () => deformationSpec(variant),
    });
  return registry;
}
