import type { ComposeSpec } from '../composer/compose-shader.js';
import { registerVariant, type VariantRegistry } from '../composer/variant-registry.js';
import { describeRepresentativeMesh } from '../engine/representative-mesh.js';
import type { GeometryOutputName } from '../fragments/geometry-fragments.js';
import { blitSpec, type GeometryVariant, geometryShaderSpec } from './geometry-shader.js';

/** Name of a geometry variant in the registry: `geometry-` plus the outputs and the mesh inputs. */
function geometryVariantName(label: string, variant: GeometryVariant): string {
  return [
    'geometry',
    label,
    variant.thinInstances && 'thin-instances',
    variant.previousDepth && 'previous-depth',
    variant.objectPrimitive && 'primitive',
    variant.untextured && 'untextured',
    variant.velocityStatic && 'still',
  ]
    .filter(Boolean)
    .join('-');
}

/** Representative geometry passes: a label, the task's outputs and options, and the mesh (inputs it has, instances). */
const registered: readonly [string, GeometryVariant][] = [
  [
    'positions-normals',
    {
      outputs: ['worldPosition', 'worldNormal', 'viewNormal'],
      normals: true,
      uvs: false,
      colors: false,
      thinInstances: false,
    },
  ],
  [
    'depths',
    {
      outputs: ['viewDepth', 'normalizedViewDepth', 'screenspaceDepth', 'localPosition'],
      normals: false,
      uvs: false,
      colors: false,
      thinInstances: false,
    },
  ],
  [
    'material',
    {
      outputs: ['albedo', 'irradiance', 'reflectivity', 'meshBlendTag'],
      normals: true,
      uvs: true,
      colors: true,
      thinInstances: false,
    },
  ],
  [
    'velocity',
    { outputs: ['linearVelocity', 'worldPosition'], normals: false, uvs: false, colors: false, thinInstances: true },
  ],
  [
    'velocity',
    {
      outputs: ['linearVelocity'],
      normals: false,
      uvs: false,
      colors: false,
      thinInstances: false,
      previousDepth: true,
    },
  ],
  [
    'material',
    {
      outputs: ['albedo', 'irradiance', 'reflectivity', 'meshBlendTag'],
      normals: true,
      uvs: true,
      colors: false,
      thinInstances: false,
      untextured: true,
    },
  ],
  [
    'velocity',
    {
      outputs: ['linearVelocity', 'worldPosition'],
      normals: false,
      uvs: false,
      colors: false,
      thinInstances: true,
      previousDepth: true,
      velocityStatic: true,
    },
  ],
  [
    'object-id',
    {
      outputs: ['objectId', 'albedo'],
      normals: false,
      uvs: false,
      colors: false,
      thinInstances: true,
      objectPrimitive: true,
    },
  ],
];

/** The geometry pass's shader of a representative mesh with the variant's inputs, in a task with its outputs. */
function representativeGeometrySpec(variant: GeometryVariant): ComposeSpec {
  return geometryShaderSpec({
    mesh: describeRepresentativeMesh(variant),
    outputs: variant.outputs,
    previousDepth: variant.previousDepth ?? false,
    objectPrimitive: variant.objectPrimitive ?? false,
    untextured: variant.untextured ?? false,
    velocityStatic: variant.velocityStatic ?? false,
  });
}

/**
 * Registers the geometry variants (representative output sets within the default 32 bytes per sample) and the four blit variants.
 * @internal
 */
export function registerGeometryVariants(registry: VariantRegistry): VariantRegistry {
  for (const [label, variant] of registered) {
    registerVariant(registry, {
      name: geometryVariantName(label, variant),
      description: `geometry pass ${JSON.stringify(variant)}`,
      spec: () => representativeGeometrySpec(variant),
    });
  }
  for (const uint of [false, true]) {
    for (const multisampled of [false, true]) {
      const variant = { multisampled, uint };
      registerVariant(registry, {
        name: ['geometry-blit', uint && 'uint', multisampled && 'multisampled'].filter(Boolean).join('-'),
        description: `copy-to-texture blit ${JSON.stringify(variant)}`,
        spec: () => blitSpec(variant),
      });
    }
  }
  registerVariant(registry, {
    name: 'geometry-deform-vat4-velocity-thin-instances',
    description: 'geometry pass: linear velocity and world position of a thin-instanced VAT mesh',
    spec: () => vertexAnimationVelocitySpec(false),
  });
  registerVariant(registry, {
    name: 'geometry-deform-vat4-velocity-thin-instances-textures',
    description:
      'the same on a device without vertex-stage storage buffers: playback and its history read from textures',
    spec: () => vertexAnimationVelocitySpec(true),
  });
  registerVariant(registry, {
    name: 'geometry-deform-morph-skin4-velocity-textures',
    description:
      'geometry pass: linear velocity and world position of a morphed, skinned mesh on a device without vertex-stage storage buffers',
    spec: () =>
      geometryShaderSpec(
        {
          mesh: describeRepresentativeMesh({ skin: 4, morph: true }),
          outputs: ['linearVelocity', 'worldPosition'],
          previousDepth: false,
          objectPrimitive: false,
        },
        { deformationTextures: true },
      ),
  });
  return registry;
}

/** The G-buffer's velocity variant of a thin-instanced VAT mesh (4 influences): current and previous animated positions. */
function vertexAnimationVelocitySpec(textures: boolean): ComposeSpec {
  const outputs: GeometryOutputName[] = ['linearVelocity', 'worldPosition'];
  const mesh = describeRepresentativeMesh({ vat: 4, thinInstances: true });
  return geometryShaderSpec(
    { mesh, outputs, previousDepth: false, objectPrimitive: false },
    { deformationTextures: textures },
  );
}
