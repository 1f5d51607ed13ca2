// geometry-blit-multisampled: copy-to-texture blit {"multisampled":true,"uint":false}
// key e892b28e43d9ea5c
// fragments geometry-blit
// conditions {"blitMultisampled":true}
// features none
// @group(0) scene
//   @binding(0) blit: package::geometry_blit::BlitUniforms {"binding":0,"visibility":"fragment","buffer":{"type":"uniform"}} from geometry-blit
//   @binding(1) blitSource: texture_multisampled_2d<f32> {"binding":1,"visibility":"fragment","texture":{"sampleType":"unfilterable-float","viewDimension":"2d","multisampled":true}} from geometry-blit
// varying @location(0) blitUv: vec2f
// target @location(0) color: vec4f -> rgba8unorm
// slot fragmentStage <- geometry-blit
// slot vertexStage <- geometry-blit


// ── generated weft:weft_main ──
@vertex fn vertexMain(input: VertexInput) -> VertexOutput {
  return blitVertex(input);
}

@fragment fn fragmentMain(input: FragmentInput) -> FragmentOutput {
  return blitFragment(input);
}

// ── fragment geometry-blit ──
// One triangle covering the viewport; blitUv is 0..1 across it, v down (texture orientation).
fn blitVertex(input: VertexInput) -> VertexOutput {
  var output: VertexOutput;
  let corner = vec2f(f32((input.vertexIndex << 1u) & 2u), f32(input.vertexIndex & 2u));
  output.position = vec4f(corner * 2.0 - 1.0, 0.0, 1.0);
  output.blitUv = vec2f(corner.x, 1.0 - corner.y);
  return output;
}

// ── generated weft:io ──
struct VertexInput {
  @builtin(vertex_index) vertexIndex: u32,
  @builtin(instance_index) instanceIndex: u32,
}


struct VertexOutput {
  @builtin(position) position: vec4f,
  @location(0) blitUv: vec2f,
}


// ── fragment geometry-blit ──
fn blitFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  let texel = blitTexel(input);
  var value: vec4f;
  {
    value = textureLoad(blitSource, texel, 0);
    if (blit.flags.w == 0u) {
      let count = textureNumSamples(blitSource);
      for (var i = 1u; i < count; i++) {
        value += textureLoad(blitSource, texel, i);
      }
      value /= f32(count);
    }
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

// ── generated weft:io ──
struct FragmentInput {
  @builtin(position) position: vec4f,
  @location(0) blitUv: vec2f,
}


// ── fragment geometry-blit ──
// Nearest texel: at equal sizes pixel x reads texel x exactly.
fn blitTexel(input: FragmentInput) -> vec2u {
  var uv = input.blitUv;
  if (blit.flags.x == 1u) {
    uv.y = 1.0 - uv.y;
  }
  let size = vec2u(blit.source.xy);
  return min(vec2u(uv * blit.source.xy), size - vec2u(1u));
}

// ── generated weft:io ──
struct FragmentOutput { @location(0) color: vec4f }


// ── generated weft:bindings ──
@group(0) @binding(1) var blitSource: texture_multisampled_2d<f32>;

@group(0) @binding(0) var<uniform> blit: BlitUniforms;

// ── fragment geometry-blit ──
struct BlitUniforms {
  // Float sources: output = (texel, red replicated when flags.y) * scale + bias, rgb × source alpha when flags.z.
  scale: vec4f,
  bias: vec4f,
  // xy: source size in texels at the read level, z: the level (LOD)
  source: vec4f,
  // x: flip Y, y: replicate red into rgb, z: multiply rgb by the source alpha, w: first sample only (multisampled sources)
  flags: vec4u,
}
