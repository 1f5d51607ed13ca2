import { describeValue, WeftError } from '../core/errors.js';
import { checkOptionKeys } from '../core/options.js';
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

/**
 * Per-draw uniforms (world, normal matrix, base colour, flags) as binding `draw` in the mesh group, read at a dynamic
 * offset (`dynamicOffset: false`: a bind group per draw slot instead, as weft's pick pass binds it: on Vulkan
 * software drivers a dynamic uniform buffer costs ~35 µs per draw against ~15 µs for a bound group).
 * @throws {WeftError} `bad-spec` when `options` is not an object of the known keys or `dynamicOffset` not a boolean
 */
export function makeDrawUniformsFragment(options: { dynamicOffset?: boolean } = {}): Fragment {
  const api = 'makeDrawUniformsFragment';
  const bad = (_: string, message: string) => new WeftError(api, 'bad-spec', message);
  checkOptionKeys(api, options, ['dynamicOffset'], bad);
  const dynamic = options?.dynamicOffset ?? true;
  if (typeof dynamic !== 'boolean')
    throw bad(api, `dynamicOffset ${describeValue(dynamic)} must be true (read at a dynamic offset) or false`);
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
        ...(dynamic ? { hasDynamicOffset: true } : {}),
        minBindingSize: drawUniformsByteSize,
      },
    ],
  };
}
