import type { Fragment } from './fragment-types.js';

/** Condition of the forward object-ID output; with `objectPrimitive` y holds `primitive_index`. */
export const forwardObjectIdCondition = 'objectIds';

const source = `import bindings::draw;
import io::{ FragmentInput, FragmentOutput, VertexInput, VertexOutput };

fn writeForwardObjectInstance(input: VertexInput, output: ptr<function, VertexOutput>) {
  (*output).objectInstance = input.instanceIndex;
}

fn writeForwardObjectId(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  @if(objectPrimitive) let primitive = input.primitiveIndex;
  @else let primitive = 0xffffffffu;
  // draw.flags.y: the frame id of the draw's first instance (0 is background).
  (*output).objectId = vec4u(draw.flags.y + input.objectInstance, primitive, 0u, 0u);
}
`;

/**
 * The forward pass's object-ID output `objectId` (rg32uint, location 1): x = frame id (the draw's first id + thin
 * instance index), y = `primitive_index` when `objectPrimitive`, otherwise 0xffffffff. Never blended.
 */
export function makeForwardObjectIdFragment(): Fragment {
  return {
    id: 'forward-object-id',
    source,
    dependencies: ['draw-uniforms', 'standard-surface', 'standard-vertex'],
    varyings: [{ name: 'objectInstance', type: 'u32', interpolation: 'flat', sampling: 'either' }],
    builtins: [{ builtin: 'primitive_index', when: 'objectPrimitive' }],
    outputs: [{ name: 'objectId', type: 'vec4u', format: 'rg32uint' }],
    requires: [{ feature: 'primitive-index', when: 'objectPrimitive' }],
    fills: [
      { slot: 'vertexVaryings', fn: 'writeForwardObjectInstance' },
      { slot: 'surfaceOutputs', fn: 'writeForwardObjectId' },
    ],
  };
}
