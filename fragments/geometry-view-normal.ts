import type { Fragment } from './fragment-types.js';

const source = `import bindings::geometryScene;
import io::{ FragmentInput, FragmentOutput };
import package::geometry_surface::geometryWorldNormal;

fn writeViewNormal(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  let n = (geometryScene.view * vec4f(geometryWorldNormal(input), 0.0)).xyz;
  (*output).viewNormal = vec4f(normalize(n), 1.0);
}
`;

/** @internal VIEW_NORMAL output `viewNormal` (rgba16float): unit view-space normal (signed), w = 1 on geometry. */
export function makeGeometryViewNormalFragment(): Fragment {
  return {
    id: 'geometry-view-normal',
    source,
    dependencies: ['geometry-surface', 'geometry-scene-uniforms'],
    outputs: [{ name: 'viewNormal', type: 'vec4f', format: 'rgba16float' }],
    fills: [{ slot: 'geometryOutputs', fn: 'writeViewNormal' }],
  };
}
