import type { StandardMaterialVariant } from '../../fragments/standard-material.js';
import { registerVariant, type VariantRegistry } from '../../composer/variant-registry.js';
import { describeRepresentativeMesh } from '../representative-mesh.js';
import { forwardShaderSpec } from './forward-shader.js';

/** Name of a standard-material variant in the registry: `standard` plus `-normals`, `-uvs`, `-colors`, `-thin-instances`. */
function standardVariantName(v: StandardMaterialVariant): string {
  return ['standard', v.normals && 'normals', v.uvs && 'uvs', v.colors && 'colors', v.thinInstances && 'thin-instances']
    .filter(Boolean)
    .join('-');
}

/**
 * Registers the forward renderer's shaders of undeformed meshes: normals × UVs (textured) × colours × thin instances.
 * @internal
 */
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
      spec: () =>
        forwardShaderSpec({ mesh: describeRepresentativeMesh(variant), objectIds: false, objectPrimitive: false }),
    });
  }
  return registry;
}
