import type { Fragment } from './fragment-types.js';

/** Name of the slot every geometry output fills: `fn(input: FragmentInput, output: ptr<function, FragmentOutput>)`. */
const geometryOutputsSlot = 'geometryOutputs';

const source = `import bindings::scene;
import io::{ FragmentInput, FragmentOutput };
import slots::geometryOutputs;

// Unit world-space normal on the side of the triangle the camera sees: the face normal (from screen-space
// derivatives) turned towards the camera, and the interpolated vertex normal negated when it points to the other
// side of the triangle. Neither winding, mirroring nor the data's normal convention changes it; a smooth normal that
// leans away from the camera at a silhouette is kept (it is still on the seen side of its triangle).
fn geometryWorldNormal(input: FragmentInput) -> vec3f {
  let g = cross(dpdx(input.worldPosition), dpdy(input.worldPosition));
  let face = select(-g, g, dot(g, scene.cameraPosition.xyz - input.worldPosition) >= 0.0);
  @if(normals) {
    let n = normalize(input.worldNormal);
    return select(-n, n, dot(n, face) >= 0.0);
  } @else {
    return normalize(face);
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
 * @internal
 */
export function makeGeometrySurfaceFragment(): Fragment {
  return {
    id: 'geometry-surface',
    source,
    dependencies: ['scene-uniforms'],
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
