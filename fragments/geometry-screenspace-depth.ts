import type { Fragment } from './fragment-types.js';

const source = `import io::{ FragmentInput, FragmentOutput };

fn writeScreenspaceDepth(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).screenspaceDepth = vec4f(input.position.z, 0.0, 0.0, 1.0);
}
`;

/**
 * SCREENSPACE_DEPTH output `screenspaceDepth` (r32float): the NDC depth the depth buffer holds (reverse-Z) in r.
 * @internal
 */
export function makeGeometryScreenspaceDepthFragment(): Fragment {
  return {
    id: 'geometry-screenspace-depth',
    source,
    dependencies: ['geometry-surface'],
    outputs: [{ name: 'screenspaceDepth', type: 'vec4f', format: 'r32float' }],
    fills: [{ slot: 'geometryOutputs', fn: 'writeScreenspaceDepth' }],
  };
}
