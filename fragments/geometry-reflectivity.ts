import type { Fragment } from './fragment-types.js';

const source = `import bindings::geometryDraw;
import io::{ FragmentInput, FragmentOutput };

fn writeReflectivity(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).reflectivity = geometryDraw.reflectivity;
}
`;

/**
 * REFLECTIVITY output `reflectivity` (rgba8unorm): specular colour (F0) in rgb, glossiness in a, from the per-draw uniforms.
 * @internal
 */
export function makeGeometryReflectivityFragment(): Fragment {
  return {
    id: 'geometry-reflectivity',
    source,
    dependencies: ['geometry-surface', 'geometry-draw-uniforms'],
    outputs: [{ name: 'reflectivity', type: 'vec4f', format: 'rgba8unorm' }],
    fills: [{ slot: 'geometryOutputs', fn: 'writeReflectivity' }],
  };
}
