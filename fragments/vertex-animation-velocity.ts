import type { Fragment } from './fragment-types.js';
import { rowWrappedTextureBinding } from './standard-vertex.js';

const source = `import bindings::prevVatInfo;
@if(!deformTextures) import bindings::prevVatPlayback;
@if(deformTextures) import bindings::prevVatPlaybackTexture;
import io::VertexInput;
@if(deformTextures) import package::standard_vertex::rowWrappedTexel;
import package::vertex_animation::vertexAnimationInfluence;

struct PreviousVertexAnimation {
  time: f32,
  pad0: f32,
  pad1: f32,
  pad2: f32,
}

// The vertex as the task's previous frame animated it: the same baked frames, the previous playback and time.
fn previousVertexAnimationPosition(input: VertexInput) -> vec3f {
  let base = input.instanceIndex * 3u;
  @if(deformTextures) let influence = vertexAnimationInfluence(input, rowWrappedTexel(prevVatPlaybackTexture, base), rowWrappedTexel(prevVatPlaybackTexture, base + 1u), rowWrappedTexel(prevVatPlaybackTexture, base + 2u).x, prevVatInfo.time);
  @else let influence = vertexAnimationInfluence(input, prevVatPlayback[base], prevVatPlayback[base + 1u], prevVatPlayback[base + 2u].x, prevVatInfo.time);
  return (influence * vec4f(input.position, 1.0)).xyz;
}
`;

/**
 * Previous-frame vertex animation for LINEAR_VELOCITY: fills `velocityPreviousPosition` with the vertex as animated
 * at the task's previous time (`prevVatInfo`) with its previous playback records (`prevVatPlayback`, or with
 * `deformTextures` the texture `prevVatPlaybackTexture`). Needs the
 * `vertex-animation` fragment composed.
 * @internal
 */
export function makeVertexAnimationVelocityFragment(): Fragment {
  return {
    id: 'vertex-animation-velocity',
    source,
    dependencies: ['geometry-velocity', 'vertex-animation'],
    bindings: [
      {
        name: 'prevVatPlayback',
        kind: 'read-only-storage',
        type: 'array<vec4f>',
        role: 'extra',
        visibility: ['vertex'],
        when: '!deformTextures',
      },
      rowWrappedTextureBinding('prevVatPlaybackTexture'),
      { name: 'prevVatInfo', kind: 'uniform', type: 'PreviousVertexAnimation', role: 'extra', visibility: ['vertex'] },
    ],
    fills: [{ slot: 'velocityPreviousPosition', fn: 'previousVertexAnimationPosition' }],
  };
}
