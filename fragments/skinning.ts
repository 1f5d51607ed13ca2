import type { Fragment } from './fragment-types.js';

/** Condition for eight influences per vertex (joints1/weights1 as well as joints/weights). */
export const skin8Condition = 'skin8';

const source = `import bindings::boneTexture;
import io::VertexInput;
import package::standard_vertex::{ DeformedVertex, blendBones };

// Bone matrices live in a rgba32float texture, one row per bone, one texel per column.
fn skinVertex(input: VertexInput, vertex: ptr<function, DeformedVertex>) {
  var skin = blendBones(boneTexture, vec2i(0, 0), vec2i(0, 1), input.joints, input.weights);
  @if(skin8) {
    skin += blendBones(boneTexture, vec2i(0, 0), vec2i(0, 1), input.joints2, input.weights2);
  }
  (*vertex).position = (skin * vec4f((*vertex).position, 1.0)).xyz;
  @if(normals) (*vertex).normal = (skin * vec4f((*vertex).normal, 0.0)).xyz;
}
`;

/**
 * Linear-blend skinning with 4 (or, with `skin8`, 8) influences per vertex, bone matrices (mesh space:
 * bone world × inverse bind) read from `boneTexture` (rgba32float, 4 × bone count). Fills `deformVertex`.
 * Normals use the blended matrix directly (bones are assumed free of non-uniform scale).
 */
export function makeSkinningFragment(): Fragment {
  return {
    id: 'skinning',
    source,
    dependencies: ['standard-vertex'],
    vertexInputs: [
      { semantic: 'joints', format: 'uint16x4', type: 'vec4u' },
      { semantic: 'weights', format: 'float32x4' },
      { semantic: 'joints2', format: 'uint16x4', type: 'vec4u', when: skin8Condition },
      { semantic: 'weights2', format: 'float32x4', when: skin8Condition },
    ],
    bindings: [
      {
        name: 'boneTexture',
        kind: 'texture',
        sampleType: 'unfilterable-float',
        viewDimension: '2d',
        role: 'extra',
        visibility: ['vertex'],
      },
    ],
    fills: [{ slot: 'deformVertex', fn: 'skinVertex' }],
  };
}
