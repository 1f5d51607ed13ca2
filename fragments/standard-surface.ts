import type { Fragment } from './fragment-types.js';

const source = `import bindings::{ draw, scene };
import io::{ FragmentInput, FragmentOutput };
import package::base_texture::sampleBaseColor;
import package::lambert_lighting::lambert;
import slots::surfaceOutputs;

fn standardSurface(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  output.color = shadeStandard(input);
  surfaceOutputs(input, &output);
  return output;
}

fn shadeStandard(input: FragmentInput) -> vec4f {
  @if(uvs) let texel = sampleBaseColor(input.uv);
  @else let texel = sampleBaseColor(vec2f(0.0));
  var albedo = draw.baseColor * texel;
  @if(colors) { albedo *= input.color; }
  if (draw.flags.x == 1u) {
    return albedo;
  }
  var normal: vec3f;
  @if(normals) {
    normal = normalize(input.worldNormal);
    if (!input.frontFacing) {
      normal = -normal;
    }
  } @else {
    // No vertex normals: the flat face normal from screen-space derivatives, turned to the viewer.
    normal = normalize(cross(dpdx(input.worldPosition), dpdy(input.worldPosition)));
    if (dot(normal, scene.cameraPosition.xyz - input.worldPosition) < 0.0) {
      normal = -normal;
    }
  }
  let lit = lambert(albedo.rgb, normal, scene.lightDirection.xyz, scene.lightColor.rgb, scene.ambientColor.rgb);
  return vec4f(lit, albedo.a);
}
`;

/**
 * The standard forward surface (fills `fragmentStage`): base colour × texture × vertex colour, then Lambert + ambient
 * unless the draw's unlit flag is set. Without `normals` it lights the flat derivative normal facing the viewer.
 */
export function makeStandardSurfaceFragment(): Fragment {
  return {
    id: 'standard-surface',
    source,
    dependencies: ['base-texture', 'draw-uniforms', 'lambert-lighting', 'scene-uniforms'],
    builtins: [{ builtin: 'front_facing', when: 'normals' }],
    outputs: [{ name: 'color', type: 'vec4f' }],
    fills: [{ slot: 'fragmentStage', fn: 'standardSurface' }],
    // Extra colour outputs of the forward pass (e.g. object IDs) write here after the shaded colour.
    provides: [
      {
        name: 'surfaceOutputs',
        params: [
          { name: 'input', type: 'FragmentInput' },
          { name: 'output', type: 'ptr<function, FragmentOutput>' },
        ],
        combine: 'all',
      },
    ],
  };
}
