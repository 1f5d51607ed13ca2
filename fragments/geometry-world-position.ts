import type { Fragment } from './fragment-types.js';

const source = `import io::{ FragmentInput, FragmentOutput };

fn writeWorldPosition(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).worldPosition = vec4f(input.worldPosition, 1.0);
}
`;

/** @internal WORLD_POSITION output `worldPosition` (rgba32float): world xyz, w = 1 on geometry. */
export function makeGeometryWorldPositionFragment(): Fragment {
  return {
    id: 'geometry-world-position',
    source,
    dependencies: ['geometry-surface'],
    outputs: [{ name: 'worldPosition', type: 'vec4f', format: 'rgba32float' }],
    fills: [{ slot: 'geometryOutputs', fn: 'writeWorldPosition' }],
  };
}
