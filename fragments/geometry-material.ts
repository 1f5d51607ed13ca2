import type { Fragment } from './fragment-types.js';

const source = `import bindings::draw;
import io::FragmentInput;
import package::base_texture::sampleBaseColor;

// What the forward standard material shades: base colour × texture × vertex colour.
fn geometryAlbedo(input: FragmentInput) -> vec4f {
  return draw.baseColor * sampleBaseColor(input.uv) * input.color;
}
`;

/** The standard material's unlit surface colour for geometry outputs: `geometryAlbedo(input)`. */
export function makeGeometryMaterialFragment(): Fragment {
  return { id: 'geometry-material', source, dependencies: ['base-texture', 'draw-uniforms'] };
}
