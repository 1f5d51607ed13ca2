import type { Fragment } from './fragment-types.js';

/**
 * Condition that fills the object-ID output's y with `primitive_index` (needs the `primitive-index` feature).
 * @internal
 */
export const objectPrimitiveCondition = 'objectPrimitive';

const source = `import bindings::geometryDraw;
import io::{ FragmentInput, FragmentOutput, VertexInput, VertexOutput };

fn writeObjectInstance(input: VertexInput, output: ptr<function, VertexOutput>) {
  (*output).objectInstance = input.instanceIndex;
}

fn writeObjectId(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  @if(objectPrimitive) let primitive = input.primitiveIndex;
  @else let primitive = 0xffffffffu;
  (*output).objectId = vec4u(geometryDraw.ids.x + input.objectInstance, primitive, 0u, 0u);
}
`;

/**
 * Object-ID output `objectId` (rg32uint): x = frame id (the draw's first id + thin instance index; 0 = background),
 * y = `primitive_index` when `objectPrimitive`, otherwise 0xffffffff. Never blended.
 * @internal
 */
export function makeGeometryObjectIdFragment(): Fragment {
  return {
    id: 'geometry-object-id',
    source,
    dependencies: ['geometry-surface', 'geometry-draw-uniforms', 'standard-vertex'],
    varyings: [{ name: 'objectInstance', type: 'u32', interpolation: 'flat', sampling: 'either' }],
    builtins: [{ builtin: 'primitive_index', when: objectPrimitiveCondition }],
    outputs: [{ name: 'objectId', type: 'vec4u', format: 'rg32uint' }],
    requires: [{ feature: 'primitive-index', when: objectPrimitiveCondition }],
    fills: [
      { slot: 'vertexVaryings', fn: 'writeObjectInstance' },
      { slot: 'geometryOutputs', fn: 'writeObjectId' },
    ],
  };
}
