import type { Fragment } from './fragment-types.js';

const source = `import io::{ FragmentInput, FragmentOutput };
import package::geometry_material::geometryAlbedo;

fn writeAlbedo(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).albedo = geometryAlbedo(input);
}
`;

/** @internal ALBEDO output `albedo` (rgba8unorm): base colour × texture × vertex colour, with its alpha. */
export function makeGeometryAlbedoFragment(): Fragment {
  return {
    id: 'geometry-albedo',
    source,
    dependencies: ['geometry-surface', 'geometry-material'],
    outputs: [{ name: 'albedo', type: 'vec4f', format: 'rgba8unorm' }],
    fills: [{ slot: 'geometryOutputs', fn: 'writeAlbedo' }],
  };
}
