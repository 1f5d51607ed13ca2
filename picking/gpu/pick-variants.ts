import { registerVariant, type VariantRegistry } from '../../composer/variant-registry.js';
import { type PickShaderDescription, type PickVariant, pickShaderSpec } from './pick-shader.js';
import { samplePickRule } from './pick-rule-variants.js';
import type { PickSubjectShape } from '../sources/pick-source.js';
import { describeWeftMeshShape } from '../sources/weft-pick-source.js';

/** Name of a pick variant in the registry: `pick` plus `-detail`, `-thin-instances`. */
function pickVariantName(v: PickVariant): string {
  return ['pick', v.primitiveDetail && 'detail', v.thinInstances && 'thin-instances'].filter(Boolean).join('-');
}

/**
 * Registers the pick pass's variants: with and without primitive detail and thin instances, and of deformed meshes.
 * @internal
 */
export function registerPickVariants(registry: VariantRegistry): VariantRegistry {
  for (const primitiveDetail of [false, true]) {
    for (const thinInstances of [false, true]) {
      const variant = { thinInstances, primitiveDetail };
      registerVariant(registry, {
        name: pickVariantName(variant),
        description: `pick ids ${JSON.stringify(variant)}`,
        spec: () =>
          pickShaderSpec({
            mesh: describeWeftMeshShape({ thinInstances }),
            detailed: primitiveDetail,
            rule: null,
          }),
      });
    }
  }
  // Deformed meshes in the detailed pass (positions and influences only: the pick shader reads no other attribute).
  const deformed: [string, PickSubjectShape][] = [
    ['pick-deform-skin8-detail', { skin: 8 }],
    ['pick-deform-morph-skin4-detail', { skin: 4, morph: true }],
    ['pick-deform-vat4-thin-instances-detail', { vat: 4, thinInstances: true }],
  ];
  for (const [name, shape] of deformed)
    registerVariant(registry, {
      name,
      description: `pick ids, primitive detail, deformed mesh ${JSON.stringify(shape)}`,
      spec: () => pickShaderSpec({ mesh: describeWeftMeshShape(shape), detailed: true, rule: null }),
    });
  // A compatibility-mode device's identity picks of deformed meshes: morph and VAT playback data read from textures.
  const compatible: [string, PickSubjectShape][] = [
    ['pick-deform-morph-skin4-textures', { skin: 4, morph: true }],
    ['pick-deform-vat4-thin-instances-textures', { vat: 4, thinInstances: true }],
  ];
  for (const [name, shape] of compatible)
    registerVariant(registry, {
      name,
      description: `pick ids, deformed mesh ${JSON.stringify(shape)}, deformation data in textures`,
      spec: () =>
        pickShaderSpec(
          { mesh: describeWeftMeshShape(shape), detailed: false, rule: null },
          { deformationTextures: true },
        ),
    });
  registerVertexIndexVariants(registry);
  return registry;
}

type IndexFormat = PickShaderDescription['indexFormat'];

/**
 * The vertex-index detail path (no optional feature): indexed meshes pull their vertices from storage (uint32 and
 * uint16 indices), a non-indexed mesh draws as it is; deformed meshes and a rule with vertex data and world adjust.
 */
function registerVertexIndexVariants(registry: VariantRegistry): void {
  const shapes: [string, PickSubjectShape, IndexFormat][] = [
    ['pick-vertex-detail', {}, 'uint32'],
    ['pick-vertex-detail-uint16', {}, 'uint16'],
    ['pick-vertex-detail-non-indexed', {}, null],
    ['pick-vertex-detail-thin-instances', { thinInstances: true }, 'uint32'],
    ['pick-deform-skin8-vertex-detail', { skin: 8 }, 'uint16'],
    ['pick-deform-morph-skin4-vertex-detail', { skin: 4, morph: true }, 'uint32'],
    ['pick-deform-vat4-thin-instances-vertex-detail', { vat: 4, thinInstances: true }, 'uint32'],
  ];
  for (const [name, shape, indexFormat] of shapes)
    registerVariant(registry, {
      name,
      description: `pick ids, vertex-index detail, ${indexFormat ?? 'non-indexed'} mesh ${JSON.stringify(shape)}`,
      spec: () =>
        pickShaderSpec({
          mesh: describeWeftMeshShape(shape),
          detailed: true,
          method: 'vertex-index',
          indexFormat,
          rule: null,
        }),
    });
  registerVariant(registry, {
    name: 'pick-rule-sample-vertex-detail-vertex-data-world-adjust',
    description: 'sample discard rule, vertex-index detail, uint16 mesh, vertex data pulled from a float32x2 stream',
    spec: () =>
      pickShaderSpec({
        mesh: describeWeftMeshShape({}),
        detailed: true,
        method: 'vertex-index',
        indexFormat: 'uint16',
        rule: {
          wgsl: samplePickRule.wgsl,
          worldAdjustWgsl: samplePickRule.worldAdjustWgsl,
          storage: samplePickRule.storage ?? [],
          vertexData: { arrayStride: 8, attributes: [{ semantic: 'pickVertexData', offset: 0, format: 'float32x2' }] },
        },
      }),
  });
}
