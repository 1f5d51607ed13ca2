import type { Fragment } from './fragment-types.js';

const source = `import bindings::{ draw, scene };
import io::{ FragmentInput, FragmentOutput };
import package::geometry_material::geometryAlbedo;
import package::geometry_surface::geometryWorldNormal;
import package::lambert_lighting::lambert;

fn writeIrradiance(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  let albedo = geometryAlbedo(input);
  let normal = geometryWorldNormal(input);
  var lit = lambert(albedo.rgb, normal, scene.lightDirection.xyz, scene.lightColor.rgb, scene.ambientColor.rgb);
  if (draw.flags.x == 1u) {
    lit = albedo.rgb;
  }
  (*output).irradiance = vec4f(lit, albedo.a);
}
`;

/**
 * IRRADIANCE output `irradiance` (rgba16float): the colour the forward pass shades (Lambert + ambient, or albedo when unlit), albedo alpha.
 * @internal
 */
export function makeGeometryIrradianceFragment(): Fragment {
  return {
    id: 'geometry-irradiance',
    source,
    dependencies: ['geometry-surface', 'geometry-material', 'lambert-lighting', 'scene-uniforms', 'draw-uniforms'],
    outputs: [{ name: 'irradiance', type: 'vec4f', format: 'rgba16float' }],
    fills: [{ slot: 'geometryOutputs', fn: 'writeIrradiance' }],
  };
}
