import type { Fragment } from './fragment-types.js';

const source = `import bindings::draw;
import io::FragmentInput;
import package::base_texture::sampleBaseColor;

// What the forward standard material shades: base colour × texture × vertex colour. Without a texture the forward
// pass samples a white texel and without vertex colours multiplies by 1: both are exact identities, so skipped.
fn geometryAlbedo(input: FragmentInput) -> vec4f {
  @if(untextured) var albedo = draw.baseColor;
  @elif(uvs) var albedo = draw.baseColor * sampleBaseColor(input.uv);
  @else var albedo = draw.baseColor * sampleBaseColor(vec2f(0.0));
  @if(colors) {
    albedo *= input.color;
  }
  return albedo;
}
`;

/** @internal Condition of a material without a base texture: the albedo skips the (white) texture sample. */
export const materialUntexturedCondition = 'untextured';

/**
 * The standard material's unlit surface colour for geometry outputs: `geometryAlbedo(input)` (`untextured`, `colors`).
 * @internal
 */
export function makeGeometryMaterialFragment(): Fragment {
  return { id: 'geometry-material', source, dependencies: ['base-texture', 'draw-uniforms'] };
}
