// What the shaders read of a mesh: its vertex buffers and which standard attributes it has. Every pass draws with these.
import type { VertexBufferSpec } from '../composer/vertex-layout.js';
import type { StandardMaterialVariant } from '../fragments/standard-material.js';
import type { Mesh } from './mesh.js';

/** The thin-instance buffer: one 64-byte column-major matrix per instance, columns `instance0…3` (append it to a mesh's buffers). */
export function thinInstanceVertexBuffer(): VertexBufferSpec {
  return {
    arrayStride: 64,
    stepMode: 'instance',
    attributes: [0, 1, 2, 3].map((i) => ({ semantic: `instance${i}`, offset: i * 16, format: 'float32x4' as const })),
  };
}

/** The standard-material variant a mesh needs: which attributes it has, whether it is thin-instanced. */
export function standardVariantOf(mesh: Mesh): StandardMaterialVariant {
  const has = (semantic: string) =>
    mesh.geometry.buffers.some((b) => b.attributes.some((a) => a.semantic === semantic));
  return {
    normals: has('normal'),
    uvs: has('uv') && mesh.material.texture !== null,
    colors: has('color'),
    thinInstances: mesh.thinInstances !== null,
  };
}

/** The mesh's own vertex buffers (tight or interleaved) plus the thin-instance buffer, as the composer reads them. */
export function meshVertexLayout(mesh: Mesh): VertexBufferSpec[] {
  const buffers: VertexBufferSpec[] = mesh.geometry.buffers.map((b) => ({
    arrayStride: b.arrayStride,
    attributes: b.attributes.map((a) => ({ semantic: a.semantic, offset: a.offset, format: a.format })),
  }));
  if (mesh.thinInstances) buffers.push(thinInstanceVertexBuffer());
  return buffers;
}
