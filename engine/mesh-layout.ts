// What the shaders read of a mesh: its vertex buffers, which standard attributes it has, its deformation. Every pass
// composes from this description, so a variant composed from a described representative mesh is the shader that runs.
import type { VertexBufferSpec } from '../composer/vertex-layout.js';
import type { StandardMaterialVariant } from '../fragments/standard-material.js';
import type { Mesh } from './mesh.js';
import type { MeshGeometry } from './mesh-data.js';
import { type MeshDeformationVariant, meshDeformationVariant } from './mesh-deformation.js';

/** @internal What every pass's shader reads of a mesh, as plain data (no live mesh, no device). */
export interface MeshShaderDescription {
  /** The mesh's own vertex buffers (tight or interleaved), without the thin-instance buffer. */
  buffers: readonly VertexBufferSpec[];
  thinInstances: boolean;
  /** Whether the material has a base texture: uv is read only then. */
  textured: boolean;
  deformation: MeshDeformationVariant;
}

/** The thin-instance buffer: one 64-byte column-major matrix per instance, columns `instance0…3` (append it to a mesh's buffers). */
export function thinInstanceVertexBuffer(): VertexBufferSpec {
  return {
    arrayStride: 64,
    stepMode: 'instance',
    attributes: [0, 1, 2, 3].map((i) => ({ semantic: `instance${i}`, offset: i * 16, format: 'float32x4' as const })),
  };
}

/** @internal A geometry's vertex buffers as the composer reads them: strides and attributes, no bytes. */
export function geometryVertexBuffers(geometry: MeshGeometry): VertexBufferSpec[] {
  return geometry.buffers.map((b) => ({
    arrayStride: b.arrayStride,
    attributes: b.attributes.map((a) => ({ semantic: a.semantic, offset: a.offset, format: a.format })),
  }));
}

/** @internal What the shaders of every pass read of this mesh. */
export function describeMeshShader(mesh: Mesh): MeshShaderDescription {
  return {
    buffers: geometryVertexBuffers(mesh.geometry),
    thinInstances: mesh.thinInstances !== null,
    textured: mesh.material.texture !== null,
    deformation: meshDeformationVariant(mesh),
  };
}

/**
 * The standard-material variant of a described mesh: which attributes it has, whether it is thin-instanced.
 * @internal
 */
export function standardVariantOfDescription(description: MeshShaderDescription): StandardMaterialVariant {
  const has = (semantic: string) => description.buffers.some((b) => b.attributes.some((a) => a.semantic === semantic));
  return {
    normals: has('normal'),
    uvs: has('uv') && description.textured,
    colors: has('color'),
    thinInstances: description.thinInstances,
  };
}

/** @internal A described mesh's own vertex buffers plus the thin-instance buffer, as the composer reads them. */
export function vertexBuffersOfDescription(description: MeshShaderDescription): VertexBufferSpec[] {
  return description.thinInstances ? [...description.buffers, thinInstanceVertexBuffer()] : [...description.buffers];
}

/** The mesh's own vertex buffers (tight or interleaved) plus the thin-instance buffer, as the composer reads them. */
export function meshVertexLayout(mesh: Mesh): VertexBufferSpec[] {
  return vertexBuffersOfDescription(describeMeshShader(mesh));
}
