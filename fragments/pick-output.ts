import type { Fragment } from './fragment-types.js';

/** Condition that adds the `primitive_index` detail output (needs the `primitive-index` feature). */
export const primitiveDetailCondition = 'primitiveDetail';

/**
 * Condition: with `primitiveDetail`, the triangle number comes from the vertex stage (`vertex_index / 3` of a
 * non-indexed draw, passed flat) instead of the `primitive_index` builtin; needs no optional feature.
 */
export const triangleFromVertexCondition = 'pickTriangleFromVertex';

/** Bytes of `PickUniforms` (id + padding). */
export const pickUniformsByteSize = 16;

const source = `import bindings::pick;
@if(pickDiscard) import bindings::pickFrame;
import io::{ FragmentInput, FragmentOutput, VertexInput, VertexOutput };
import package::pick_discard_types::PickDiscardInput;
import slots::pickDiscard;

struct PickUniforms {
  // Pick id of instance 0 of this draw (1-based; 0 is a miss); instance i writes id + i.
  id: u32,
  // 1 when the draw is thin-instanced.
  hasThinInstance: u32,
  // Components the vertex-data stream really has (0 = none); the rest read zero, not the vertex fetch's 0, 0, 1.
  vertexDataComponents: u32,
  pad2: u32,
}

fn writePickVaryings(input: VertexInput, output: ptr<function, VertexOutput>) {
  (*output).pickInstance = input.instanceIndex;
  @if(primitiveDetail) (*output).pickLocal = input.position;
  @if(primitiveDetail && pickTriangleFromVertex && (vertexPulling || vertexIndexAttribute)) (*output).pickTriangle = input.drawVertexIndex / 3u;
  @if(primitiveDetail && pickTriangleFromVertex && !(vertexPulling || vertexIndexAttribute)) (*output).pickTriangle = input.vertexIndex / 3u;
  @if(pickDiscard && thinInstances) (*output).pickExtras = vec4f(input.instance0.w, input.instance1.w, input.instance2.w, input.instance3.w);
  @if(pickDiscard && pickVertexData) (*output).pickVertexData = zeroPadded(input.pickVertexData, pick.vertexDataComponents);
}

fn zeroPadded(value: vec4f, components: u32) -> vec4f {
  return select(vec4f(0.0), value, vec4u(0u, 1u, 2u, 3u) < vec4u(components));
}

// 24-bit id as RGB bytes of an rgba8unorm target: id = (r << 16) | (g << 8) | b.
fn encodePickId(id: u32) -> vec4f {
  return vec4f(f32((id >> 16u) & 255u), f32((id >> 8u) & 255u), f32(id & 255u), 255.0) / 255.0;
}

fn pickFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  let id = pick.id + input.pickInstance;
  @if(pickDiscard) {
    var rule: PickDiscardInput;
    rule.worldPos = input.worldPosition;
    rule.fragmentCoord = input.position.xy + pickFrame.pixelOffset.xy;
    rule.pickId = id;
    rule.hasThinInstance = pick.hasThinInstance;
    rule.thinInstanceIndex = select(0xffffffffu, input.pickInstance, pick.hasThinInstance == 1u);
    @if(thinInstances) rule.instanceExtras = input.pickExtras;
    @if(pickVertexData) rule.vertexData = input.pickVertexData;
    if (pickDiscard(rule)) {
      discard;
    }
  }
  output.pickId = encodePickId(id);
  output.pickDepth = input.position.z;
  // The interpolated mesh-local position is the exact hit on the triangle at the selected pixel centre:
  // with the primitive index, the CPU gets barycentrics without searching.
  @if(primitiveDetail && !pickTriangleFromVertex) output.pickDetail = vec4u(input.primitiveIndex, bitcast<vec3u>(input.pickLocal));
  @if(primitiveDetail && pickTriangleFromVertex) output.pickDetail = vec4u(input.pickTriangle, bitcast<vec3u>(input.pickLocal));
  return output;
}
`;

/**
 * Pick-ID outputs (fills `fragmentStage`, and `vertexVaryings` for the instance index): location 0 the 24-bit id
 * in rgba8unorm, 1 the NDC depth in r32float, 2 (when `primitiveDetail`) rgba32uint (triangle, bitcast local x, y, z): the
 * triangle is `primitive_index`, or with `pickTriangleFromVertex` the draw's `vertex_index / 3` (each triangle's corners are draw vertices 3t, 3t+1,
 * 3t+2: a non-indexed mesh draws so, an indexed one with `vertexPulling`, see composer/vertex-pulling.ts). With
 * `vertexIndexAttribute` (a de-indexed mesh drawn 3 vertices per triangle) `input.vertexIndex` is a per-vertex uint32
 * stream holding each corner's original vertex (which morph targets and VAT index by) and the triangle is
 * `drawVertexIndex / 3`.
 */
export function makePickOutputFragment(): Fragment {
  return {
    id: 'pick-output',
    source,
    bindings: [
      {
        name: 'pick',
        kind: 'uniform',
        type: 'PickUniforms',
        role: 'mesh',
        visibility: ['vertex', 'fragment'],
        minBindingSize: pickUniformsByteSize,
      },
    ],
    dependencies: ['pick-discard-types'],
    vertexInputs: [
      { semantic: 'pickVertexData', format: 'float32x4', when: 'pickDiscard && pickVertexData' },
      { semantic: 'vertexIndex', format: 'uint32', when: `${primitiveDetailCondition} && vertexIndexAttribute` },
    ],
    varyings: [
      { name: 'pickInstance', type: 'u32', interpolation: 'flat', sampling: 'either' },
      { name: 'pickLocal', type: 'vec3f', when: primitiveDetailCondition },
      {
        name: 'pickTriangle',
        type: 'u32',
        interpolation: 'flat',
        sampling: 'either',
        when: `${primitiveDetailCondition} && ${triangleFromVertexCondition}`,
      },
      {
        name: 'pickExtras',
        type: 'vec4f',
        interpolation: 'flat',
        sampling: 'either',
        when: 'pickDiscard && thinInstances',
      },
      { name: 'pickVertexData', type: 'vec4f', interpolation: 'flat', when: 'pickDiscard && pickVertexData' },
    ],
    builtins: [{ builtin: 'primitive_index', when: `${primitiveDetailCondition} && !${triangleFromVertexCondition}` }],
    outputs: [
      { name: 'pickId', type: 'vec4f', format: 'rgba8unorm' },
      { name: 'pickDepth', type: 'f32', format: 'r32float' },
      { name: 'pickDetail', type: 'vec4u', format: 'rgba32uint', when: primitiveDetailCondition },
    ],
    requires: [{ feature: 'primitive-index', when: `${primitiveDetailCondition} && !${triangleFromVertexCondition}` }],
    fills: [
      { slot: 'fragmentStage', fn: 'pickFragment' },
      { slot: 'vertexVaryings', fn: 'writePickVaryings' },
    ],
  };
}
