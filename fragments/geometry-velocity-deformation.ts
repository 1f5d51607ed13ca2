import type { Fragment } from './fragment-types.js';
import { rowWrappedTextureBinding } from './standard-vertex.js';

const source = `@if(deformSkin) import bindings::prevBoneTexture;
@if(deformMorph && !deformTextures) import bindings::{ morphDeltas, morphInfo, prevMorphWeights };
@if(deformMorph && deformTextures) import bindings::{ morphDeltaTexture, morphInfo, prevMorphWeightTexture };
import io::VertexInput;
@if(deformSkin) import package::standard_vertex::blendBones;
@if(deformMorph && deformTextures) import package::standard_vertex::rowWrappedTexel;

// The vertex as the task's previous frame deformed it: previous morph weights, then previous bones.
fn previousDeformedPosition(input: VertexInput) -> vec3f {
  var position = input.position;
  @if(deformMorph) {
    for (var t = 0u; t < morphInfo.targetCount; t++) {
      @if(deformTextures) position += rowWrappedTexel(prevMorphWeightTexture, t).x * rowWrappedTexel(morphDeltaTexture, t * morphInfo.vertexCount + input.vertexIndex).xyz;
      @else position += prevMorphWeights[t] * morphDeltas[t * morphInfo.vertexCount + input.vertexIndex].xyz;
    }
  }
  @if(deformSkin) {
    // The previous bones laid out like the current ones (skinning): one row per bone.
    var skin = blendBones(prevBoneTexture, vec2i(0, 0), vec2i(0, 1), input.joints, input.weights);
    @if(skin8) {
      skin += blendBones(prevBoneTexture, vec2i(0, 0), vec2i(0, 1), input.joints2, input.weights2);
    }
    position = (skin * vec4f(position, 1.0)).xyz;
  }
  return position;
}
`;

/**
 * Previous-frame deformation for LINEAR_VELOCITY: fills `velocityPreviousPosition` with the vertex as deformed by
 * the task's previous bones (`prevBoneTexture`) and morph weights (`prevMorphWeights`; with `deformTextures` the
 * r32float texture `prevMorphWeightTexture`), so skinned and morphed
 * meshes report the motion of their deformation too. Needs the skinning / morph-targets fragments composed.
 * @internal
 */
export function makeGeometryVelocityDeformationFragment(): Fragment {
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
        when: 'deformMorph && !deformTextures',
      },
      { ...rowWrappedTextureBinding('prevMorphWeightTexture'), when: 'deformMorph && deformTextures' },
    ],
    fills: [{ slot: 'velocityPreviousPosition', fn: 'previousDeformedPosition' }],
  };
}
