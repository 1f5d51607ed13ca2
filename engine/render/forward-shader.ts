import type { Fragment } from '../../fragments/fragment-types.js';
import { makeForwardObjectIdFragment } from '../../fragments/forward-object-id.js';
import {
  makeStandardMaterialFragments,
  standardMaterialConditions,
  type StandardMaterialVariant,
} from '../../fragments/standard-material.js';
import {
  type ComposeCache,
  type ComposedShader,
  type ComposeSpec,
  composeShader,
} from '../../composer/compose-shader.js';
import type { VertexBufferSpec, VertexLayoutSpec } from '../../composer/vertex-layout.js';
import type { Mesh } from '../mesh.js';
import { deformationComposeParts } from '../mesh-deformation.js';
import {
  describeMeshShader,
  type MeshShaderDescription,
  standardVariantOfDescription,
  thinInstanceVertexBuffer,
  vertexBuffersOfDescription,
} from '../mesh-layout.js';
import { reuseFragmentList, type ShaderSpecOptions } from '../shader-spec-options.js';

/** @internal Options shared by the standard compose helpers. */
export interface StandardComposeOptions {
  /** Default: `standardVertexLayout(variant)`. */
  vertexLayout?: VertexLayoutSpec;
  cache?: ComposeCache;
  /** Reuse one array across calls so a compose cache recognises the fragments without re-hashing them. */
  fragments?: readonly Fragment[];
  deviceFeatures?: { has(feature: string): boolean };
  /** Extra conditions for fragments added to the variant (e.g. pick discard rules); the variant's own win. */
  conditions?: Readonly<Record<string, boolean>>;
}

/**
 * One tight buffer per present attribute, and one 64-byte per-instance buffer for the thin-instance matrix.
 * @internal
 */
export function standardVertexLayout(variant: Partial<StandardMaterialVariant>): VertexLayoutSpec {
  const tight = (semantic: string, format: GPUVertexFormat, size: number): VertexBufferSpec => ({
    arrayStride: size,
    attributes: [{ semantic, offset: 0, format }],
  });
  const buffers: VertexBufferSpec[] = [tight('position', 'float32x3', 12)];
  if (variant.normals) buffers.push(tight('normal', 'float32x3', 12));
  if (variant.uvs) buffers.push(tight('uv', 'float32x2', 8));
  if (variant.colors) buffers.push(tight('color', 'float32x4', 16));
  if (variant.thinInstances) buffers.push(thinInstanceVertexBuffer());
  return { kind: 'buffers', buffers };
}

/** The compose spec of a standard-material variant (for a host engine; weft's renderer uses `forwardShaderSpec`). */
function standardMaterialSpec(variant: StandardMaterialVariant, options: StandardComposeOptions = {}): ComposeSpec {
  return {
    fragments: options.fragments ?? makeStandardMaterialFragments(),
    conditions: { ...options.conditions, ...standardMaterialConditions(variant) },
    vertexLayout: options.vertexLayout ?? standardVertexLayout(variant),
    deviceFeatures: options.deviceFeatures,
  };
}

/** @internal Composes a standard-material variant. */
export function composeStandardMaterial(
  variant: StandardMaterialVariant,
  options: StandardComposeOptions = {},
): ComposedShader {
  return composeShader(standardMaterialSpec(variant, options), options.cache);
}

/** What the forward renderer's shader for one mesh depends on. */
interface ForwardShaderDescription {
  mesh: MeshShaderDescription;
  /** The task also writes object IDs (frame id, and the primitive index with `objectPrimitive`). */
  objectIds: boolean;
  objectPrimitive: boolean;
}

/** @internal Describes the forward shader of a mesh in a task with these object-ID options. */
export function describeForwardShader(
  mesh: Mesh,
  task: { objectIds: boolean; objectPrimitive: boolean },
): ForwardShaderDescription {
  return { mesh: describeMeshShader(mesh), objectIds: task.objectIds, objectPrimitive: task.objectPrimitive };
}

/**
 * The forward renderer's shader: the standard material over the mesh's own buffers, its deformation fragments and,
 * in a task with object IDs, the object-ID output. Weft's standard-* and deform-* variants are composed with it.
 * @internal
 */
export function forwardShaderSpec(description: ForwardShaderDescription, options: ShaderSpecOptions = {}): ComposeSpec {
  const { objectIds } = description;
  const deformation = deformationComposeParts(description.mesh.deformation, options.deformationTextures);
  const fragments = reuseFragmentList(
    options.fragmentLists,
    `${objectIds ? 'ids' : 'color'}|${deformation.key}`,
    () => [
      ...makeStandardMaterialFragments(),
      ...(objectIds ? [makeForwardObjectIdFragment()] : []),
      ...deformation.fragments,
    ],
  );
  return standardMaterialSpec(standardVariantOfDescription(description.mesh), {
    fragments,
    vertexLayout: { kind: 'buffers', buffers: vertexBuffersOfDescription(description.mesh) },
    deviceFeatures: options.deviceFeatures,
    conditions: {
      ...(objectIds ? { objectIds: true, objectPrimitive: description.objectPrimitive } : {}),
      ...deformation.conditions,
    },
  });
}
