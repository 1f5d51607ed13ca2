// Variants of your own meshes, for build-time composition (weft-gpu/vite): a mesh's data shape and the passes that
// draw it, composed with the same spec builders the runtimes use, so the precomposed keys are the ones a page asks for.
import { registerVariant, type VariantRegistry } from '../composer/variant-registry.js';
import type { GeometryOutputName } from '../fragments/geometry-fragments.js';
import { type MeshData, makeMeshGeometry } from '../engine/mesh-data.js';
import { deformationVariantKey, deformationVariantOf } from '../engine/mesh-deformation.js';
import { geometryVertexBuffers, type MeshShaderDescription } from '../engine/mesh-layout.js';
import { forwardShaderSpec } from '../engine/render/forward-shader.js';
import { geometrySpec, geometryShaderSpec } from '../geometry/geometry-shader.js';
import { GEOMETRY_TEXTURE_DESCRIPTIONS, type GeometryTextureType } from '../geometry/geometry-types.js';
import { geometryOutputsUsingMaterial, makeGeometryFragments } from '../fragments/geometry-fragments.js';
import { pickShaderSpec } from '../picking/gpu/pick-shader.js';
import { WeftError } from '../core/errors.js';
import { checkOptionKeys } from '../core/options.js';

/**
 * A pass that draws a mesh: the default forward frame, the pick pass (basic, or detailed: `pick-detail` declares both
 * detail methods, `primitive-index` and `vertex-index`, so the page has detail on every adapter).
 */
export type MeshVariantPass = 'forward' | 'forward-object-ids' | 'pick' | 'pick-detail';

/** What a page draws of one mesh shape. Undeformed meshes only (skins, morph targets and VAT are not declared here). */
export interface MeshVariantDeclaration {
  /** The mesh's data as the page creates it (`makeBoxData()`, your arrays): only its attributes, formats and layout matter. */
  data: MeshData;
  /** The material has a base texture (the shader reads uv only then). Default false. */
  textured?: boolean;
  /** Drawn with thin instances. Default false. */
  thinInstances?: boolean;
  /** Default `['forward']`. `forward-object-ids` is a forward task with `objectIds` (no primitive IDs). */
  passes?: readonly MeshVariantPass[];
  /** The texture types of a geometry renderer task that draws the mesh (its `textureDescriptions`, in order). */
  geometry?: readonly GeometryTextureType[];
  /** The geometry task has an object-ID output with primitive IDs (`primitive-index`). Default false. */
  geometryObjectPrimitive?: boolean;
}

const declarationKeys = {
  data: true,
  textured: true,
  thinInstances: true,
  passes: true,
  geometry: true,
  geometryObjectPrimitive: true,
} as const;

function describeMeshData(
  geometry: ReturnType<typeof makeMeshGeometry>,
  declaration: MeshVariantDeclaration,
): MeshShaderDescription {
  return {
    buffers: geometryVertexBuffers(geometry),
    thinInstances: declaration.thinInstances ?? false,
    textured: declaration.textured ?? false,
    deformation: deformationVariantOf(geometry, { skinned: false, morphTargets: null, vertexAnimation: null }),
  };
}

/**
 * Registers the shaders the runtimes compose for a mesh of this shape: `<name>-forward`, `<name>-pick` (with
 * `<name>-pick-batched`, the marquee's instanced draw of equal meshes, when the mesh has no thin instances),
 * `<name>-pick-detail` and `<name>-pick-detail-vertex-index`, `<name>-geometry` (with `-untextured` when an output reads the
 * material, `-still` with LINEAR_VELOCITY; plus `<name>-geometry-probe`, the shader a geometry task composes at
 * creation to order its outputs). Returns the registry.
 * @throws {WeftError} when the name is not kebab-case or taken, or a pass is unknown
 * @throws {MeshDataError} when `data` is not valid mesh data
 */
export function registerMeshVariants(
  registry: VariantRegistry,
  name: string,
  declaration: MeshVariantDeclaration,
): VariantRegistry {
  const api = 'registerMeshVariants';
  checkOptionKeys(api, declaration, declarationKeys, (_, message) => new WeftError(api, 'bad-spec', message));
  const geometry = makeMeshGeometry(name, declaration.data, api);
  const mesh = describeMeshData(geometry, declaration);
  const indexFormat = geometry.indices ? (geometry.indices instanceof Uint16Array ? 'uint16' : 'uint32') : null;
  for (const pass of declaration.passes ?? ['forward']) {
    if (pass === 'forward' || pass === 'forward-object-ids') {
      const objectIds = pass === 'forward-object-ids';
      registerVariant(registry, {
        name: `${name}-${pass}`,
        description: `forward pass of mesh ${name}${objectIds ? ' with object IDs' : ''}`,
        spec: () => forwardShaderSpec({ mesh, objectIds, objectPrimitive: false }),
      });
    } else if (pass === 'pick' || pass === 'pick-detail') {
      const detailed = pass === 'pick-detail';
      registerVariant(registry, {
        name: `${name}-${pass}`,
        description: `${detailed ? 'detailed ' : ''}pick pass of mesh ${name}`,
        spec: () => pickShaderSpec({ mesh, detailed, rule: null }),
      });
      // A marquee draws meshes of equal geometry as the instances of one draw (picking/gpu/pick-batches.ts).
      if (!detailed && !mesh.thinInstances && deformationVariantKey(mesh.deformation) === 's0m0n0')
        registerVariant(registry, {
          name: `${name}-pick-batched`,
          description: `pick pass of meshes ${name} drawn as the instances of one marquee draw`,
          spec: () => pickShaderSpec({ mesh: { ...mesh, thinInstances: true }, detailed, rule: null }),
        });
      // The page may run on an adapter without primitive-index, where detail pulls the vertices (method vertex-index).
      if (detailed)
        registerVariant(registry, {
          name: `${name}-pick-detail-vertex-index`,
          description: `detailed pick pass of mesh ${name} without primitive-index (vertex pulling)`,
          spec: () => pickShaderSpec({ mesh, detailed, method: 'vertex-index', indexFormat, rule: null }),
        });
    } else
      throw new WeftError(
        api,
        'bad-spec',
        `pass ${JSON.stringify(pass)} of mesh ${JSON.stringify(name)} is not one of forward, forward-object-ids, pick, pick-detail`,
      );
  }
  if (declaration.geometry?.length) {
    const outputs = declaration.geometry.map((type) => {
      const description = GEOMETRY_TEXTURE_DESCRIPTIONS[type];
      if (!description)
        throw new WeftError(
          api,
          'bad-spec',
          `geometry texture type ${JSON.stringify(type)} is not a GeometryTextureType`,
        );
      return description.name as GeometryOutputName;
    });
    const objectPrimitive = declaration.geometryObjectPrimitive ?? false;
    // The task draws a textured or untextured material shader (when an output reads the material) and, with
    // LINEAR_VELOCITY, a still-draw shader beside the moving one: the page may meet each.
    const material = outputs.some((o) => geometryOutputsUsingMaterial.includes(o));
    for (const untextured of material ? [false, true] : [false])
      for (const velocityStatic of outputs.includes('linearVelocity') ? [false, true] : [false])
        registerVariant(registry, {
          name: [`${name}-geometry`, untextured && 'untextured', velocityStatic && 'still'].filter(Boolean).join('-'),
          description: `geometry pass of mesh ${name}: ${outputs.join(', ')}${untextured ? ', untextured material' : ''}${velocityStatic ? ', still draw' : ''}`,
          spec: () =>
            geometryShaderSpec({ mesh, outputs, previousDepth: false, objectPrimitive, untextured, velocityStatic }),
        });
    registerVariant(registry, {
      name: `${name}-geometry-probe`,
      description: `the shader a geometry task with ${outputs.join(', ')} composes at creation`,
      spec: () =>
        geometrySpec(
          { outputs, normals: false, uvs: false, colors: false, thinInstances: false, objectPrimitive },
          { fragments: makeGeometryFragments(outputs) },
        ),
    });
  }
  return registry;
}
