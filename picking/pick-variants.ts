import { registerVariant, type VariantRegistry } from '../composer/variant-registry.js';
import { describeRepresentativeMesh, type RepresentativeMeshShape } from '../engine/representative-mesh.js';
import { type PickVariant, pickShaderSpec } from './pick-shader.js';

/** Name of a pick variant in the registry: `pick` plus `-detail`, `-thin-instances`. */
export function pickVariantName(v: PickVariant): string {
  return ['pick', v.primitiveDetail && 'detail', v.thinInstances && 'thin-instances'].filter(Boolean).join('-');
}

/** Registers the pick pass's variants: with and without primitive detail and thin instances, and of deformed meshes. */
export function registerPickVariants(registry: VariantRegistry): VariantRegistry {
  for (const primitiveDetail of [false, true]) {
    for (const thinInstances of [false, true]) {
      const variant = { thinInstances, primitiveDetail };
      registerVariant(registry, {
        name: pickVariantName(variant),
        description: `pick ids ${JSON.stringify(variant)}`,
        spec: () =>
          pickShaderSpec({
            mesh: describeRepresentativeMesh({ thinInstances }),
            detailed: primitiveDetail,
            rule: null,
          }),
      });
    }
  }
  // Deformed meshes in the detailed pass (positions and influences only: the pick shader reads no other attribute).
  const deformed: [string, RepresentativeMeshShape][] = [
    ['pick-deform-skin8-detail', { skin: 8 }],
    ['pick-deform-morph-skin4-detail', { skin: 4, morph: true }],
    ['pick-deform-vat4-thin-instances-detail', { vat: 4, thinInstances: true }],
  ];
  for (const [name, shape] of deformed)
    registerVariant(registry, {
      name,
      description: `pick ids, primitive detail, deformed mesh ${JSON.stringify(shape)}`,
      spec: () => pickShaderSpec({ mesh: describeRepresentativeMesh(shape), detailed: true, rule: null }),
    });
  return registry;
}
