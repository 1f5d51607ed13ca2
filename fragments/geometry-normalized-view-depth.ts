import type { Fragment } from './fragment-types.js';

const source = `import bindings::geometryScene;
import io::{ FragmentInput, FragmentOutput };
import package::geometry_scene_uniforms::viewDepthOf;

// Finite far: linear (depth - near) / (far - near). Infinite far: 1 - near / depth, which keeps 0 at the near
// plane, tends to 1 at infinity and stays monotonic (the linear form would collapse to 0).
fn normalizedViewDepth(depth: f32) -> f32 {
  let near = geometryScene.depthRange.x;
  if (geometryScene.depthRange.z > 0.5) {
    return 1.0 - near / depth;
  }
  return (depth - near) / (geometryScene.depthRange.y - near);
}

fn writeNormalizedViewDepth(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).normalizedViewDepth = vec4f(normalizedViewDepth(viewDepthOf(input.worldPosition)), 0.0, 0.0, 1.0);
}
`;

/**
 * NORMALIZED_VIEW_DEPTH output `normalizedViewDepth` (r32float): view depth mapped to 0 (near) … 1 (far) in r.
 * @internal
 */
export function makeGeometryNormalizedViewDepthFragment(): Fragment {
  return {
    id: 'geometry-normalized-view-depth',
    source,
    dependencies: ['geometry-surface', 'geometry-scene-uniforms'],
    outputs: [{ name: 'normalizedViewDepth', type: 'vec4f', format: 'r32float' }],
    fills: [{ slot: 'geometryOutputs', fn: 'writeNormalizedViewDepth' }],
  };
}
