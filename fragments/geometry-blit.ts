import type { Fragment } from './fragment-types.js';

/** @internal Condition: the source is multisampled (read with per-sample `textureLoad`). */
export const blitMultisampledCondition = 'blitMultisampled';
/** @internal Condition: source and target are unsigned-integer formats (copied as they are, no remap). */
export const blitUintCondition = 'blitUint';

/** @internal Bytes of `BlitUniforms`: scale 16 + bias 16 + source 16 + flags 16. */
export const blitUniformsByteSize = 64;

const source = `import bindings::{ blit, blitSource };
import io::{ FragmentInput, FragmentOutput, VertexInput, VertexOutput };

struct BlitUniforms {
  // Float sources: output = (texel, red replicated when flags.y) * scale + bias, rgb × source alpha when flags.z.
  scale: vec4f,
  bias: vec4f,
  // xy: source size in texels at the read level, z: the level (LOD)
  source: vec4f,
  // x: flip Y, y: replicate red into rgb, z: multiply rgb by the source alpha, w: first sample only (multisampled sources)
  flags: vec4u,
}

// One triangle covering the viewport; blitUv is 0..1 across it, v down (texture orientation).
fn blitVertex(input: VertexInput) -> VertexOutput {
  var output: VertexOutput;
  let corner = vec2f(f32((input.vertexIndex << 1u) & 2u), f32(input.vertexIndex & 2u));
  output.position = vec4f(corner * 2.0 - 1.0, 0.0, 1.0);
  output.blitUv = vec2f(corner.x, 1.0 - corner.y);
  return output;
}

// Nearest texel: at equal sizes pixel x reads texel x exactly.
fn blitTexel(input: FragmentInput) -> vec2u {
  var uv = input.blitUv;
  if (blit.flags.x == 1u) {
    uv.y = 1.0 - uv.y;
  }
  let size = vec2u(blit.source.xy);
  return min(vec2u(uv * blit.source.xy), size - vec2u(1u));
}

@if(blitUint)
fn blitFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  @if(blitMultisampled) output.colorUint = textureLoad(blitSource, blitTexel(input), 0);
  @else output.colorUint = textureLoad(blitSource, blitTexel(input), u32(blit.source.z));
  return output;
}

@if(!blitUint)
fn blitFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  let texel = blitTexel(input);
  var value: vec4f;
  @if(blitMultisampled) {
    value = textureLoad(blitSource, texel, 0);
    if (blit.flags.w == 0u) {
      let count = textureNumSamples(blitSource);
      for (var i = 1u; i < count; i++) {
        value += textureLoad(blitSource, texel, i);
      }
      value /= f32(count);
    }
  } @else {
    value = textureLoad(blitSource, texel, u32(blit.source.z));
  }
  var mapped = value;
  if (blit.flags.y == 1u) {
    mapped = vec4f(value.r, value.r, value.r, value.a);
  }
  mapped = mapped * blit.scale + blit.bias;
  if (blit.flags.z == 1u) {
    mapped = vec4f(mapped.rgb * value.a, mapped.a);
  }
  output.color = mapped;
  return output;
}
`;

/**
 * The copy-to-texture blit (fills `vertexStage` and `fragmentStage`): a full-viewport triangle reading
 * `blitSource` with `textureLoad` (any LOD, optional Y flip; per sample, averaged or the first, when
 * `blitMultisampled`), remapped by scale/bias for float targets, copied as is for unsigned-integer ones (`blitUint`).
 * @internal
 */
export function makeGeometryBlitFragment(): Fragment {
  const texture = (sampleType: 'unfilterable-float' | 'uint', multisampled: boolean, when: string) => ({
    name: 'blitSource',
    kind: 'texture' as const,
    sampleType,
    viewDimension: '2d' as const,
    multisampled,
    role: 'scene' as const,
    visibility: ['fragment' as const],
    when,
  });
  return {
    id: 'geometry-blit',
    source,
    bindings: [
      { name: 'blit', kind: 'uniform', type: 'BlitUniforms', role: 'scene', visibility: ['fragment'] },
      texture('unfilterable-float', false, '!blitUint && !blitMultisampled'),
      texture('unfilterable-float', true, '!blitUint && blitMultisampled'),
      texture('uint', false, 'blitUint && !blitMultisampled'),
      texture('uint', true, 'blitUint && blitMultisampled'),
    ],
    varyings: [{ name: 'blitUv', type: 'vec2f' }],
    outputs: [
      { name: 'color', type: 'vec4f', format: 'rgba8unorm', when: '!blitUint' },
      { name: 'colorUint', type: 'vec4u', format: 'rgba8uint', when: 'blitUint' },
    ],
    fills: [
      { slot: 'vertexStage', fn: 'blitVertex' },
      { slot: 'fragmentStage', fn: 'blitFragment' },
    ],
  };
}
