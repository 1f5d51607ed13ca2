import type { Fragment } from './fragment-types.js';

const source = `@if(deformSkin) import bindings::prevBoneTexture;
@if(deformMorph) import bindings::{ morphDeltas, morphInfo, prevMorphWeights };
import io::VertexInput;

fn previousBone(bone: u32) -> mat4x4f {
  let row = i32(bone);
  return mat4x4f(textureLoad(prevBoneTexture, vec2i(0, row), 0), textureLoad(prevBoneTexture, vec2i(1, row), 0),
                 textureLoad(prevBoneTexture, vec2i(2, row), 0), textureLoad(prevBoneTexture, vec2i(3, row), 0));
}

// The vertex as the task's previous frame deformed it: previous morph weights, then previous bones.
fn previousDeformedPosition(input: VertexInput) -> vec3f {
  var position = input.position;
  @if(deformMorph) {
    for (var t = 0u; t < morphInfo.targetCount; t++) {
      position += prevMorphWeights[t] * morphDeltas[t * morphInfo.vertexCount + input.vertexIndex].xyz;
    }
  }
  @if(deformSkin) {
    var skin = previousBone(input.joints.x) * input.weights.x + previousBone(input.joints.y) * input.weights.y
             + previousBone(input.joints.z) * input.weights.z + previousBone(input.joints.w) * input.weights.w;
    @if(skin8) {
      skin += previousBone(input.joints2.x) * input.weights2.x + previousBone(input.joints2.y) * input.weights2.y
            + previousBone(input.joints2.z) * input.weights2.z + previousBone(input.joints2.w) * input.weights2.w;
    }
    position = (skin * vec4f(position, 1.0)).xyz;
  }
  return position;
}
`;

/**
 * Previous-frame deformation for LINEAR_VELOCITY: fills `velocityPreviousPosition` with the vertex as deformed by
 * the task's previous bones (`prevBoneTexture`) and morph weights (`prevMorphWeights`), so skinned and morphed
 * meshes report the motion of their deformation too. Needs the skinning / morph-targets fragments composed.
 */
export function createGeometryVelocityDeformationFragment(): Fragment {
  return {
    id: 'geometry-velocity-deformation',
    source,
    dependencies: ['geometry-velocity', 'standard-vertex'],
    bindings: [
      {
        name: 'prevBoneTexture',
        kind: 'texture',
        sampleType: 'unfilterable-float',
        viewDimension: '2d',
        role: 'extra',
        visibility: ['vertex'],
        when: 'deformSkin',
      },
      {
        name: 'prevMorphWeights',
        kind: 'read-only-storage',
        type: 'array<f32>',
        role: 'extra',
        visibility: ['vertex'],
        when: 'deformMorph',
      },
    ],
    fills: [{ slot: 'velocityPreviousPosition', fn: 'previousDeformedPosition' }],
  };
}
