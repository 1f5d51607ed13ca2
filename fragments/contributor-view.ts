import type { Fragment } from './fragment-types.js';

/** @internal Bytes of `ContributorView`: two matrices, four vec4f and a vec4u. */
export const contributorViewByteSize = 208;

const source = `import bindings::contributorView;

struct ContributorView {
  // The view-projection: pick-zoomed per point in the pick pass (z and w as in the full-size render), the camera's in a render.
  viewProjection: mat4x4f,
  // Inverse of the unzoomed view-projection: framebuffer pixel → world.
  inverseViewProjection: mat4x4f,
  cameraPosition: vec4f,
  // Camera right and up in world space (view matrix rows).
  cameraRight: vec4f,
  cameraUp: vec4f,
  // xy: framebuffer pixel of the target's texel (0, 0) in this viewport; zw: framebuffer size.
  framebuffer: vec4f,
  // x: the contributor's first pick id (pick pass only).
  ids: vec4u,
}

struct ContributorRay {
  origin: vec3f,
  direction: vec3f,
}

// The world ray through the framebuffer pixel centre this fragment stands for (any camera, reverse-Z).
fn contributorPixelRay(fragmentCoord: vec2f) -> ContributorRay {
  let pixel = fragmentCoord + contributorView.framebuffer.xy;
  let ndc = vec2f(pixel.x / contributorView.framebuffer.z * 2.0 - 1.0, 1.0 - pixel.y / contributorView.framebuffer.w * 2.0);
  let nearPoint = contributorView.inverseViewProjection * vec4f(ndc, 1.0, 1.0);
  let midPoint = contributorView.inverseViewProjection * vec4f(ndc, 0.5, 1.0);
  let origin = nearPoint.xyz / nearPoint.w;
  return ContributorRay(origin, normalize(midPoint.xyz / midPoint.w - origin));
}

// NDC depth of a world point under the view (reverse-Z: 1 near, 0 far).
fn contributorNdcDepth(world: vec3f) -> f32 {
  let clip = contributorView.viewProjection * vec4f(world, 1.0);
  return clip.z / clip.w;
}
`;

const outputSource = `import bindings::contributorView;
import io::FragmentOutput;

// Writes id (contributor base + local), NDC depth and, in detailed mode, the "no triangle" sentinel plus the
// contributor's own three detail words.
fn writeContributorPick(output: ptr<function, FragmentOutput>, localId: u32, ndcDepth: f32, detail: vec3u) {
  let id = contributorView.ids.x + localId;
  (*output).pickId = vec4f(f32((id >> 16u) & 255u), f32((id >> 8u) & 255u), f32(id & 255u), 255.0) / 255.0;
  (*output).pickDepth = ndcDepth;
  @if(primitiveDetail) (*output).pickDetail = vec4u(0xffffffffu, detail);
}
`;

/**
 * The camera view of pick contributors and entity renderers (billboards, splats, …): the `contributorView` uniform
 * (dynamic offset, one slot per pick point or one per frame) with pixel-ray and NDC-depth helpers.
 * @internal
 */
export function makeContributorViewFragment(): Fragment {
  return {
    id: 'contributor-view',
    source,
    bindings: [
      {
        name: 'contributorView',
        kind: 'uniform',
        type: 'ContributorView',
        role: 'scene',
        visibility: ['vertex', 'fragment'],
        hasDynamicOffset: true,
        minBindingSize: contributorViewByteSize,
      },
    ],
  };
}

/**
 * The pick pass outputs of a contributor (id, depth, detail with the primitive sentinel) and `writeContributorPick`.
 * @internal
 */
export function makePickContributorOutputFragment(): Fragment {
  return {
    id: 'pick-contributor-output',
    source: outputSource,
    dependencies: ['contributor-view'],
    outputs: [
      { name: 'pickId', type: 'vec4f', format: 'rgba8unorm' },
      { name: 'pickDepth', type: 'f32', format: 'r32float' },
      { name: 'pickDetail', type: 'vec4u', format: 'rgba32uint', when: 'primitiveDetail' },
    ],
  };
}
