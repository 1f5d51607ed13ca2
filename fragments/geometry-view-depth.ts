import type { Fragment } from './fragment-types.js';

const source = `import io::{ FragmentInput, FragmentOutput };
import package::geometry_scene_uniforms::viewDepthOf;

fn writeViewDepth(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).viewDepth = vec4f(viewDepthOf(input.worldPosition), 0.0, 0.0, 1.0);
}
`;

/** @internal VIEW_DEPTH output `viewDepth` (r32float): positive view-space depth in r. */
export function makeGeometryViewDepthFragment(): Fragment {
  return {
    id: 'geometry-view-depth',
    source,
    dependencies: ['geometry-surface', 'geometry-scene-uniforms'],
    outputs: [{ name: 'viewDepth', type: 'vec4f', format: 'r32float' }],
    fills: [{ slot: 'geometryOutputs', fn: 'writeViewDepth' }],
  };
}
