import type { Fragment } from './fragment-types.js';

/** Bytes of `DrawUniforms`: world 64 + normalMatrix 64 + baseColor 16 + flags 16. */
export const drawUniformsByteSize = 160;

const source = `struct DrawUniforms {
  world: mat4x4f,
  normalMatrix: mat4x4f,
  baseColor: vec4f,
  // x: unlit (1) or lit (0)
  flags: vec4u,
}
`;

/** Per-draw uniforms (world, normal matrix, base colour, flags) as binding `draw` in the mesh group, read at a dynamic offset. */
export function makeDrawUniformsFragment(): Fragment {
  return {
    id: 'draw-uniforms',
    source,
    bindings: [
      {
        name: 'draw',
        kind: 'uniform',
        type: 'DrawUniforms',
        role: 'mesh',
        visibility: ['vertex', 'fragment'],
        hasDynamicOffset: true,
        minBindingSize: drawUniformsByteSize,
      },
    ],
  };
}
