import type { Fragment } from './fragment-types.js';

const source = `import io::{ FragmentInput, FragmentOutput, VertexInput, VertexOutput };

fn writeLocalPositionVarying(input: VertexInput, output: ptr<function, VertexOutput>) {
  (*output).localPosition = input.position;
}

fn writeLocalPosition(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).localPosition = vec4f(input.localPosition, 1.0);
}
`;

/**
 * LOCAL_POSITION output `localPosition` (rgba32float): the vertex position attribute's space (before world and thin-instance transforms), w = 1.
 * @internal
 */
export function makeGeometryLocalPositionFragment(): Fragment {
  return {
    id: 'geometry-local-position',
    source,
    dependencies: ['geometry-surface', 'standard-vertex'],
    varyings: [{ name: 'localPosition', type: 'vec3f' }],
    outputs: [{ name: 'localPosition', type: 'vec4f', format: 'rgba32float' }],
    fills: [
      { slot: 'vertexVaryings', fn: 'writeLocalPositionVarying' },
      { slot: 'geometryOutputs', fn: 'writeLocalPosition' },
    ],
  };
}
