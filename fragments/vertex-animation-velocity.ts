import type { Fragment } from './fragment-types.js';

const source = `import bindings::{ prevVatInfo, prevVatPlayback };
import io::VertexInput;
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
  let influence = vertexAnimationInfluence(input, prevVatPlayback[base], prevVatPlayback[base + 1u], prevVatPlayback[base + 2u].x, prevVatInfo.time);
  return (influence * vec4f(input.position, 1.0)).xyz;
}
`;

/**
 * Previous-frame vertex animation for LINEAR_VELOCITY: fills `velocityPreviousPosition` with the vertex as animated
 * at the task's previous time (`prevVatInfo`) with its previous playback records (`prevVatPlayback`). Needs the
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
      },
      { name: 'prevVatInfo', kind: 'uniform', type: 'PreviousVertexAnimation', role: 'extra', visibility: ['vertex'] },
    ],
    fills: [{ slot: 'velocityPreviousPosition', fn: 'previousVertexAnimationPosition' }],
  };
}
