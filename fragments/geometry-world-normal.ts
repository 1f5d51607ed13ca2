import type { Fragment } from './fragment-types.js';

const source = `import io::{ FragmentInput, FragmentOutput };
import package::geometry_surface::geometryWorldNormal;

fn writeWorldNormal(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).worldNormal = vec4f(geometryWorldNormal(input), 1.0);
}
`;

/** @internal WORLD_NORMAL output `worldNormal` (rgba16float): unit world-space normal (signed), w = 1 on geometry. */
export function makeGeometryWorldNormalFragment(): Fragment {
  return {
    id: 'geometry-world-normal',
    source,
    dependencies: ['geometry-surface'],
    outputs: [{ name: 'worldNormal', type: 'vec4f', format: 'rgba16float' }],
    fills: [{ slot: 'geometryOutputs', fn: 'writeWorldNormal' }],
  };
}
