import type { Fragment } from './fragment-types.js';

/** Condition: the deltas buffer also holds normal deltas (after all position deltas). */
export const morphNormalsCondition = 'morphNormals';

const source = `import bindings::{ morphDeltas, morphInfo, morphWeights };
import io::VertexInput;
import package::standard_vertex::DeformedVertex;

struct MorphInfo {
  targetCount: u32,
  vertexCount: u32,
  pad0: u32,
  pad1: u32,
}

// Position deltas of target t are at [t * vertexCount + vertex]; normal deltas follow all position deltas.
fn morphVertex(input: VertexInput, vertex: ptr<function, DeformedVertex>) {
  for (var t = 0u; t < morphInfo.targetCount; t++) {
    let weight = morphWeights[t];
    (*vertex).position += weight * morphDeltas[t * morphInfo.vertexCount + input.vertexIndex].xyz;
    @if(morphNormals && normals) {
      (*vertex).normal += weight * morphDeltas[(morphInfo.targetCount + t) * morphInfo.vertexCount + input.vertexIndex].xyz;
    }
  }
}
`;

/**
 * Morph targets: position (and, with `morphNormals`, normal) deltas in a storage buffer, weights in another,
 * target and vertex counts in `morphInfo`. Fills `deformVertex`; composed with skinning it runs first.
 */
export function makeMorphTargetsFragment(): Fragment {
  return {
    id: 'morph-targets',
    source,
    dependencies: ['standard-vertex'],
    bindings: [
      { name: 'morphDeltas', kind: 'read-only-storage', type: 'array<vec4f>', role: 'extra', visibility: ['vertex'] },
      { name: 'morphWeights', kind: 'read-only-storage', type: 'array<f32>', role: 'extra', visibility: ['vertex'] },
      { name: 'morphInfo', kind: 'uniform', type: 'MorphInfo', role: 'extra', visibility: ['vertex'] },
    ],
    fills: [{ slot: 'deformVertex', fn: 'morphVertex' }],
  };
}
