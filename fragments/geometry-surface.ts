import type { Fragment } from './fragment-types.js';

/** Name of the slot every geometry output fills: `fn(input: FragmentInput, output: ptr<function, FragmentOutput>)`. */
export const geometryOutputsSlot = 'geometryOutputs';

const source = `import bindings::scene;
import io::{ FragmentInput, FragmentOutput };
import slots::geometryOutputs;

// Unit world-space normal facing the viewer: the interpolated vertex normal (flipped on back faces), or
// without vertex normals the flat face normal from screen-space derivatives.
fn geometryWorldNormal(input: FragmentInput) -> vec3f {
  @if(normals) {
    let n = normalize(input.worldNormal);
    return select(-n, n, input.frontFacing);
  } @else {
    let n = normalize(cross(dpdx(input.worldPosition), dpdy(input.worldPosition)));
    return select(-n, n, dot(n, scene.cameraPosition.xyz - input.worldPosition) >= 0.0);
  }
}

fn geometryFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  geometryOutputs(input, &output);
  return output;
}
`;

/**
 * The geometry pass surface (fills `fragmentStage`): provides the `geometryOutputs` slot (combine "all") that each
 * requested output fragment fills, so the composed shader writes exactly the requested attachments.
 */
export function makeGeometrySurfaceFragment(): Fragment {
  return {
    id: 'geometry-surface',
    source,
    dependencies: ['scene-uniforms'],
    builtins: [{ builtin: 'front_facing', when: 'normals' }],
    provides: [
      {
        name: geometryOutputsSlot,
        params: [
          { name: 'input', type: 'FragmentInput' },
          { name: 'output', type: 'ptr<function, FragmentOutput>' },
        ],
        combine: 'all',
      },
    ],
    fills: [{ slot: 'fragmentStage', fn: 'geometryFragment' }],
  };
}
