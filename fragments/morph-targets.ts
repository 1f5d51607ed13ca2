import type { Fragment } from './fragment-types.js';
import { rowWrappedTextureBinding } from './standard-vertex.js';

/** Condition: the deltas buffer also holds normal deltas (after all position deltas). */
export const morphNormalsCondition = 'morphNormals';

const source = `@if(!deformTextures) import bindings::{ morphDeltas, morphWeights };
@if(deformTextures) import bindings::{ morphDeltaTexture, morphWeightTexture };
import bindings::morphInfo;
import io::VertexInput;
import package::standard_vertex::DeformedVertex;
@if(deformTextures) import package::standard_vertex::rowWrappedTexel;

struct MorphInfo {
  targetCount: u32,
  vertexCount: u32,
  pad0: u32,
  pad1: u32,
}

// Position deltas of target t are at [t * vertexCount + vertex]; normal deltas follow all position deltas.
fn morphVertex(input: VertexInput, vertex: ptr<function, DeformedVertex>) {
  for (var t = 0u; t < morphInfo.targetCount; t++) {
    @if(deformTextures) let weight = rowWrappedTexel(morphWeightTexture, t).x;
    @else let weight = morphWeights[t];
    @if(deformTextures) (*vertex).position += weight * rowWrappedTexel(morphDeltaTexture, t * morphInfo.vertexCount + input.vertexIndex).xyz;
    @else (*vertex).position += weight * morphDeltas[t * morphInfo.vertexCount + input.vertexIndex].xyz;
    @if(morphNormals && normals) {
      @if(deformTextures) (*vertex).normal += weight * rowWrappedTexel(morphDeltaTexture, (morphInfo.targetCount + t) * morphInfo.vertexCount + input.vertexIndex).xyz;
      @else (*vertex).normal += weight * morphDeltas[(morphInfo.targetCount + t) * morphInfo.vertexCount + input.vertexIndex].xyz;
    }
  }
}
`;

/**
 * Morph targets: position (and, with `morphNormals`, normal) deltas in a storage buffer, weights in another,
 * target and vertex counts in `morphInfo`. Fills `deformVertex`; composed with skinning it runs first. With
 * `deformTextures` the deltas are an rgba32float texture and the weights an r32float texture instead, both laid out
 * row after row (element i at texel (i mod width, i div width)), for devices without vertex-stage storage buffers.
 */
export function makeMorphTargetsFragment(): Fragment {
  return {
    id: 'morph-targets',
    source,
    dependencies: ['standard-vertex'],
    bindings: [
      {
        name: 'morphDeltas',
        kind: 'read-only-storage',
        type: 'array<vec4f>',
        role: 'extra',
        visibility: ['vertex'],
        when: '!deformTextures',
      },
      {
        name: 'morphWeights',
        kind: 'read-only-storage',
        type: 'array<f32>',
        role: 'extra',
        visibility: ['vertex'],
        when: '!deformTextures',
      },
      rowWrappedTextureBinding('morphDeltaTexture'),
      rowWrappedTextureBinding('morphWeightTexture'),
      { name: 'morphInfo', kind: 'uniform', type: 'MorphInfo', role: 'extra', visibility: ['vertex'] },
    ],
    fills: [{ slot: 'deformVertex', fn: 'morphVertex' }],
  };
}
