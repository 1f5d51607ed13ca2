import type { Fragment } from './fragment-types.js';

/** @internal Bytes per sprite in `billboardSprites`: centre + index, size + padding, colour. */
export const billboardSpriteBytes = 48;
/** @internal Bytes of `BillboardParams`. */
export const billboardParamsBytes = 16;

const quadSource = `import bindings::{ billboardParams, billboardSprites, contributorView };
import io::{ VertexInput, VertexOutput };

struct BillboardSprite {
  center: vec3f,
  // The sprite's index in its system (its pick id is the system's first id + index).
  index: u32,
  size: vec2f,
  pad: vec2f,
  color: vec4f,
}

struct BillboardParams {
  // xyz: unit sprite-up axis; w: 1 for axis-locked sprites, 0 for camera-facing ones.
  axis: vec4f,
}

// Quad corners in sprite units (two triangles).
fn billboardCorner(vertex: u32) -> vec2f {
  var corners = array<vec2f, 6>(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0));
  return corners[vertex];
}

// Camera-facing: the camera's right and up. Axis-locked: up is the axis, right is perpendicular to it and
// to the direction towards the camera (the camera's right when the camera looks along the axis).
fn billboardWorldCorner(sprite: BillboardSprite, corner: vec2f) -> vec3f {
  var right = contributorView.cameraRight.xyz;
  var up = contributorView.cameraUp.xyz;
  if (billboardParams.axis.w == 1.0) {
    up = billboardParams.axis.xyz;
    let side = cross(up, contributorView.cameraPosition.xyz - sprite.center);
    if (dot(side, side) > 1e-12) {
      right = normalize(side);
    }
  }
  return sprite.center + right * (corner.x * 0.5 * sprite.size.x) + up * (corner.y * 0.5 * sprite.size.y);
}

fn billboardVertex(input: VertexInput) -> VertexOutput {
  var output: VertexOutput;
  let sprite = billboardSprites[input.instanceIndex];
  output.position = contributorView.viewProjection * vec4f(billboardWorldCorner(sprite, billboardCorner(input.vertexIndex)), 1.0);
  output.spriteIndex = sprite.index;
  output.spriteColor = sprite.color;
  return output;
}
`;

const pickSource = `import io::{ FragmentInput, FragmentOutput };
import package::pick_contributor_output::writeContributorPick;

fn billboardPickFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  writeContributorPick(&output, input.spriteIndex, input.position.z, vec3u(input.spriteIndex, 0u, 0u));
  return output;
}
`;

const colorSource = `import io::{ FragmentInput, FragmentOutput };

fn billboardColorFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  output.color = input.spriteColor;
  return output;
}
`;

/** @internal Billboard quads (fills `vertexStage`): six vertices per sprite, one instance per drawn sprite. */
export function makeBillboardQuadFragment(): Fragment {
  return {
    id: 'billboard-quad',
    source: quadSource,
    dependencies: ['contributor-view'],
    bindings: [
      {
        name: 'billboardSprites',
        kind: 'read-only-storage',
        type: 'array<BillboardSprite>',
        role: 'mesh',
        visibility: ['vertex'],
      },
      { name: 'billboardParams', kind: 'uniform', type: 'BillboardParams', role: 'mesh', visibility: ['vertex'] },
    ],
    varyings: [
      { name: 'spriteIndex', type: 'u32', interpolation: 'flat', sampling: 'either' },
      { name: 'spriteColor', type: 'vec4f', interpolation: 'flat', sampling: 'either' },
    ],
    fills: [{ slot: 'vertexStage', fn: 'billboardVertex' }],
  };
}

/**
 * The billboard pick output (fills `fragmentStage`): the sprite's id, its depth, the sentinel and its index as detail.
 * @internal
 */
export function makeBillboardPickFragment(): Fragment {
  return {
    id: 'billboard-pick',
    source: pickSource,
    dependencies: ['billboard-quad', 'pick-contributor-output'],
    fills: [{ slot: 'fragmentStage', fn: 'billboardPickFragment' }],
  };
}

/** @internal The billboard colour output (fills `fragmentStage`): the sprite's flat colour. */
export function makeBillboardColorFragment(): Fragment {
  return {
    id: 'billboard-color',
    source: colorSource,
    dependencies: ['billboard-quad'],
    outputs: [{ name: 'color', type: 'vec4f' }],
    fills: [{ slot: 'fragmentStage', fn: 'billboardColorFragment' }],
  };
}
