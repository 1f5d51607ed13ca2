import type { Fragment } from './fragment-types.js';

/** Condition for eight influences per vertex (joints1/weights1 as well as joints/weights). */
export const skin8Condition = 'skin8';

const source = `import bindings::boneTexture;
import io::VertexInput;
import package::standard_vertex::DeformedVertex;

// Bone matrices live in a rgba32float texture, one row per bone, one texel per column.
fn boneMatrix(bone: u32) -> mat4x4f {
  let row = i32(bone);
  return mat4x4f(textureLoad(boneTexture, vec2i(0, row), 0), textureLoad(boneTexture, vec2i(1, row), 0),
                 textureLoad(boneTexture, vec2i(2, row), 0), textureLoad(boneTexture, vec2i(3, row), 0));
}

fn skinVertex(input: VertexInput, vertex: ptr<function, DeformedVertex>) {
  var skin = boneMatrix(input.joints.x) * input.weights.x + boneMatrix(input.joints.y) * input.weights.y
           + boneMatrix(input.joints.z) * input.weights.z + boneMatrix(input.joints.w) * input.weights.w;
  @if(skin8) {
    skin += boneMatrix(input.joints2.x) * input.weights2.x + boneMatrix(input.joints2.y) * input.weights2.y
          + boneMatrix(input.joints2.z) * input.weights2.z + boneMatrix(input.joints2.w) * input.weights2.w;
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
export function createSkinningFragment(): Fragment {
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
