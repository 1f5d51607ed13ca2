import type { Fragment } from './fragment-types.js';
import { rowWrappedTextureBinding } from './standard-vertex.js';

/** Condition for eight influences per vertex (joints2/weights2 as well as joints/weights). */
export const vat8Condition = 'vat8';

const source = `import bindings::{ vatInfo, vatTexture };
@if(!deformTextures) import bindings::vatPlayback;
@if(deformTextures) import bindings::vatPlaybackTexture;
import io::VertexInput;
import package::standard_vertex::{ DeformedVertex, blendBones };
@if(deformTextures) import package::standard_vertex::rowWrappedTexel;

struct VertexAnimationInfo {
  time: f32,
  frameCount: u32,
  boneCount: u32,
  pad0: u32,
}

// clip = (fromFrame, toFrame, offset, speed): row = fromFrame + floor(mod(time * speed + offset, toFrame - fromFrame + 1)),
// mod(a, n) = a - n * floor(a / n); no interpolation between rows.
fn vertexAnimationRow(clip: vec4f, time: f32) -> i32 {
  let length = max(clip.y - clip.x + 1.0, 1.0);
  let t = time * clip.w + clip.z;
  let row = clip.x + min(floor(t - length * floor(t / length)), length - 1.0);
  return clamp(i32(row), 0, i32(vatInfo.frameCount) - 1);
}

// Frame f is texture row f; bone b is texels 4b..4b+3 of that row (one column each).
fn vertexAnimationBones(input: VertexInput, row: i32) -> mat4x4f {
  var bones = blendBones(vatTexture, vec2i(0, row), vec2i(4, 0), input.joints, input.weights);
  @if(vat8) {
    bones += blendBones(vatTexture, vec2i(0, row), vec2i(4, 0), input.joints2, input.weights2);
  }
  return bones;
}

// The influence matrix of a playback record: (1 - weightB) * bones(row of clip A) + weightB * bones(row of clip B).
fn vertexAnimationInfluence(input: VertexInput, clipA: vec4f, clipB: vec4f, weightB: f32, time: f32) -> mat4x4f {
  let b = clamp(weightB, 0.0, 1.0);
  return vertexAnimationBones(input, vertexAnimationRow(clipA, time)) * (1.0 - b) + vertexAnimationBones(input, vertexAnimationRow(clipB, time)) * b;
}

// Playback record i (12 floats = 3 vec4f) belongs to instance i; a mesh without thin instances draws instance 0.
fn vertexAnimationVertex(input: VertexInput, vertex: ptr<function, DeformedVertex>) {
  let base = input.instanceIndex * 3u;
  @if(deformTextures) let influence = vertexAnimationInfluence(input, rowWrappedTexel(vatPlaybackTexture, base), rowWrappedTexel(vatPlaybackTexture, base + 1u), rowWrappedTexel(vatPlaybackTexture, base + 2u).x, vatInfo.time);
  @else let influence = vertexAnimationInfluence(input, vatPlayback[base], vatPlayback[base + 1u], vatPlayback[base + 2u].x, vatInfo.time);
  (*vertex).position = (influence * vec4f((*vertex).position, 1.0)).xyz;
  @if(normals) (*vertex).normal = (influence * vec4f((*vertex).normal, 0.0)).xyz;
}
`;

/**
 * Vertex animation texture (VAT): baked mesh-space bone matrices per frame in `vatTexture` (rgba32float, width
 * 4 × bone count, height frame count), 4 (or, with `vat8`, 8) influences per vertex, per-instance playback records
 * (two clips and a blend weight) in `vatPlayback` (with `deformTextures`: the rgba32float texture
 * `vatPlaybackTexture`, row-wrapped), time and counts in `vatInfo`. Fills `deformVertex`.
 */
export function makeVertexAnimationFragment(): Fragment {
  return {
    id: 'vertex-animation',
    source,
    dependencies: ['standard-vertex'],
    vertexInputs: [
      { semantic: 'joints', format: 'uint16x4', type: 'vec4u' },
      { semantic: 'weights', format: 'float32x4' },
      { semantic: 'joints2', format: 'uint16x4', type: 'vec4u', when: vat8Condition },
      { semantic: 'weights2', format: 'float32x4', when: vat8Condition },
    ],
    bindings: [
      {
        name: 'vatTexture',
        kind: 'texture',
        sampleType: 'unfilterable-float',
        viewDimension: '2d',
        role: 'extra',
        visibility: ['vertex'],
      },
      {
        name: 'vatPlayback',
        kind: 'read-only-storage',
        type: 'array<vec4f>',
        role: 'extra',
        visibility: ['vertex'],
        when: '!deformTextures',
      },
      rowWrappedTextureBinding('vatPlaybackTexture'),
      { name: 'vatInfo', kind: 'uniform', type: 'VertexAnimationInfo', role: 'extra', visibility: ['vertex'] },
    ],
    fills: [{ slot: 'deformVertex', fn: 'vertexAnimationVertex' }],
  };
}
