// The meshes weft's variant packs stand for: described with the engine's own mesh code, so a registered variant
// composes exactly what a pass composes for a real mesh of that shape.
import { makeVertexAnimationFragment } from '../fragments/vertex-animation.js';
import { makeVertexAnimationVelocityFragment } from '../fragments/vertex-animation-velocity.js';
import { makeMeshGeometry, type MeshData } from './mesh-data.js';
import { deformationVariantOf } from './mesh-deformation.js';
import { geometryVertexBuffers, type MeshShaderDescription } from './mesh-layout.js';

/** @internal Which attributes, instances and deformation a representative mesh has (all off by default). */
export interface RepresentativeMeshShape {
  normals?: boolean;
  /** UVs and a base texture (uv is read only with a texture). */
  uvs?: boolean;
  /** float32x4 colours. */
  colors?: boolean;
  thinInstances?: boolean;
  /** Skinning with 4 or 8 influences. */
  skin?: 0 | 4 | 8;
  morph?: boolean;
  /** The morph targets move normals too (read only when the mesh has normals). */
  morphNormals?: boolean;
  /** A vertex animation texture with 4 or 8 influences (never with skin or morph). */
  vat?: 0 | 4 | 8;
}

/**
 * Describes a one-triangle mesh of that shape as `createMeshFromData` would make it from tight arrays: one buffer per
 * attribute in its order and formats (joints uint16x4, colours float32x4), plus the thin-instance buffer.
 * @internal
 */
export function describeRepresentativeMesh(shape: RepresentativeMeshShape): MeshShaderDescription {
  const data: MeshData = { positions: new Float32Array(9) };
  if (shape.normals) data.normals = new Float32Array(9);
  if (shape.uvs) data.uvs = new Float32Array(6);
  if (shape.colors) data.colors = new Float32Array(12);
  const influences = shape.skin || shape.vat || 0;
  if (influences) {
    data.joints = new Uint16Array(12);
    data.weights = new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]);
  }
  if (influences === 8) {
    data.joints2 = new Uint16Array(12);
    data.weights2 = new Float32Array(12);
  }
  const geometry = makeMeshGeometry('representative', data, 'describeRepresentativeMesh');
  const vertexAnimation = shape.vat
    ? { fragment: makeVertexAnimationFragment, velocityFragment: makeVertexAnimationVelocityFragment }
    : null;
  return {
    buffers: geometryVertexBuffers(geometry),
    thinInstances: shape.thinInstances ?? false,
    textured: shape.uvs ?? false,
    deformation: deformationVariantOf(geometry, {
      skinned: (shape.skin ?? 0) > 0,
      morphTargets: shape.morph ? { hasNormals: shape.morphNormals ?? false } : null,
      vertexAnimation,
    }),
  };
}
