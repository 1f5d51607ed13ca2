import type { Fragment } from './fragment-types.js';

const source = `import bindings::geometryDraw;
import io::{ FragmentInput, FragmentOutput };

fn writeMeshBlendTag(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).meshBlendTag = geometryDraw.ids.y;
}
`;

/** @internal MESH_BLEND_TAG output `meshBlendTag` (r8uint): the draw's integer tag (0 = background), never blended. */
export function makeGeometryMeshBlendTagFragment(): Fragment {
  return {
    id: 'geometry-mesh-blend-tag',
    source,
    dependencies: ['geometry-surface', 'geometry-draw-uniforms'],
    outputs: [{ name: 'meshBlendTag', type: 'u32', format: 'r8uint' }],
    fills: [{ slot: 'geometryOutputs', fn: 'writeMeshBlendTag' }],
  };
}
