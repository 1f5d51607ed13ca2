import type { Fragment } from './fragment-types.js';

/** @internal Bytes per splat in `splatItems`: centre + index, rotation quaternion, scale + opacity, colour. */
export const splatItemBytes = 64;
/** @internal Bytes of `SplatParams`: world, inverse world, limits. */
export const splatParamsBytes = 144;

const quadSource = `import bindings::{ contributorView, splatItems, splatParams };
import io::{ VertexInput, VertexOutput };
import package::contributor_view::{ contributorNdcDepth, contributorPixelRay };

struct SplatItem {
  center: vec3f,
  index: u32,
  // Unit quaternion (x, y, z, w) of the ellipsoid's axes in mesh space.
  rotation: vec4f,
  // xyz: standard deviations along the rotated axes; w: peak opacity.
  scaleOpacity: vec4f,
  color: vec4f,
}

struct SplatParams {
  world: mat4x4f,
  inverseWorld: mat4x4f,
  // x: opacity below which a pixel ignores the splat (pick threshold, or the renderer's cut-off);
  // y: largest axis scale of the world matrix.
  limits: vec4f,
}

// Where the pixel ray meets a splat: its peak opacity along the ray and the NDC depth of that point
// (depth < 0: the peak lies behind the ray's start).
struct SplatSample {
  alpha: f32,
  depth: f32,
}

fn splatRotation(q: vec4f) -> mat3x3f {
  let x = q.x; let y = q.y; let z = q.z; let w = q.w;
  return mat3x3f(
    vec3f(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z), 2.0 * (x * z - w * y)),
    vec3f(2.0 * (x * y - w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + w * x)),
    vec3f(2.0 * (x * z + w * y), 2.0 * (y * z - w * x), 1.0 - 2.0 * (x * x + y * y)));
}

fn splatCorner(vertex: u32) -> vec2f {
  var corners = array<vec2f, 6>(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0));
  return corners[vertex];
}

// A quad facing the camera that covers the splat's bounding sphere (radius: where opacity falls to limits.x).
fn splatVertex(input: VertexInput) -> VertexOutput {
  var output: VertexOutput;
  let splat = splatItems[input.instanceIndex];
  let reach = sqrt(max(2.0 * log(splat.scaleOpacity.w / splatParams.limits.x), 0.0));
  let radius = reach * max(splat.scaleOpacity.x, max(splat.scaleOpacity.y, splat.scaleOpacity.z)) * splatParams.limits.y;
  let center = (splatParams.world * vec4f(splat.center, 1.0)).xyz;
  let toCamera = contributorView.cameraPosition.xyz - center;
  let distance = length(toCamera);
  let corner = splatCorner(input.vertexIndex);
  output.splatSlot = input.instanceIndex;
  if (distance <= radius * 1.001) {
    // The camera is inside the sphere: cover the whole viewport; the fragment stage decides per pixel.
    output.position = vec4f(corner, 0.5, 1.0);
    return output;
  }
  let facing = toCamera / distance;
  var right = cross(contributorView.cameraUp.xyz, facing);
  if (dot(right, right) < 1e-12) {
    right = contributorView.cameraRight.xyz;
  }
  right = normalize(right);
  let up = cross(facing, right);
  // The cone from the camera around the sphere cuts the quad's plane in a circle of this radius.
  let half = radius * distance / sqrt(distance * distance - radius * radius);
  output.position = contributorView.viewProjection * vec4f(center + (right * corner.x + up * corner.y) * half, 1.0);
  return output;
}

// Opacity along the pixel ray peaks where the ray is closest to the centre in the splat's whitened space.
fn splatSample(splat: SplatItem, fragmentCoord: vec2f) -> SplatSample {
  let ray = contributorPixelRay(fragmentCoord);
  let origin = (splatParams.inverseWorld * vec4f(ray.origin, 1.0)).xyz;
  let direction = (splatParams.inverseWorld * vec4f(ray.direction, 0.0)).xyz;
  let toLocal = transpose(splatRotation(splat.rotation));
  let whitenedOrigin = (toLocal * (origin - splat.center)) / splat.scaleOpacity.xyz;
  let whitenedDirection = (toLocal * direction) / splat.scaleOpacity.xyz;
  let t = -dot(whitenedOrigin, whitenedDirection) / dot(whitenedDirection, whitenedDirection);
  let closest = whitenedOrigin + t * whitenedDirection;
  let depth = contributorNdcDepth((splatParams.world * vec4f(origin + t * direction, 1.0)).xyz);
  return SplatSample(splat.scaleOpacity.w * exp(-0.5 * dot(closest, closest)), select(-1.0, depth, t >= 0.0));
}

// Fragment stages only: the sample of this fragment's splat, discarding it below limits.x or outside the depth range.
fn splatFragmentSample(splat: SplatItem, fragmentCoord: vec2f) -> SplatSample {
  let sample = splatSample(splat, fragmentCoord);
  if (sample.alpha < splatParams.limits.x || sample.depth < 0.0 || sample.depth > 1.0) {
    discard;
  }
  return sample;
}
`;

const pickSource = `import bindings::splatItems;
import io::{ FragmentInput, FragmentOutput };
import package::pick_contributor_output::writeContributorPick;
import package::splat_quad::splatFragmentSample;

// The splat picks where its peak opacity along the ray reaches the threshold, at the depth of that peak.
fn splatPickFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  let splat = splatItems[input.splatSlot];
  let sample = splatFragmentSample(splat, input.position.xy);
  output.splatDepth = sample.depth;
  writeContributorPick(&output, splat.index, sample.depth, vec3u(splat.index, bitcast<u32>(sample.alpha), 0u));
  return output;
}
`;

const colorSource = `import bindings::splatItems;
import io::{ FragmentInput, FragmentOutput };
import package::splat_quad::splatFragmentSample;

// Premultiplied colour at the splat's peak opacity; depth-tested at the peak's depth (blend: one, one − src alpha).
fn splatColorFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  let splat = splatItems[input.splatSlot];
  let sample = splatFragmentSample(splat, input.position.xy);
  output.splatDepth = sample.depth;
  output.color = vec4f(splat.color.rgb * sample.alpha, sample.alpha);
  return output;
}
`;

/**
 * Splat quads (fills `vertexStage`) and `splatSample` / `splatFragmentSample`: a splat's peak opacity and its depth along a pixel's ray.
 * @internal
 */
export function makeSplatQuadFragment(): Fragment {
  return {
    id: 'splat-quad',
    source: quadSource,
    dependencies: ['contributor-view'],
    bindings: [
      {
        name: 'splatItems',
        kind: 'read-only-storage',
        type: 'array<SplatItem>',
        role: 'mesh',
        visibility: ['vertex', 'fragment'],
      },
      { name: 'splatParams', kind: 'uniform', type: 'SplatParams', role: 'mesh', visibility: ['vertex', 'fragment'] },
    ],
    varyings: [{ name: 'splatSlot', type: 'u32', interpolation: 'flat', sampling: 'either' }],
    outputs: [{ name: 'splatDepth', type: 'f32', builtin: 'frag_depth' }],
    fills: [{ slot: 'vertexStage', fn: 'splatVertex' }],
  };
}

/** @internal The splat pick output (fills `fragmentStage`; writes `frag_depth`). */
export function makeSplatPickFragment(): Fragment {
  return {
    id: 'splat-pick',
    source: pickSource,
    dependencies: ['splat-quad', 'pick-contributor-output'],
    fills: [{ slot: 'fragmentStage', fn: 'splatPickFragment' }],
  };
}

/**
 * The splat colour output (fills `fragmentStage`; writes `frag_depth`): premultiplied colour for back-to-front blending.
 * @internal
 */
export function makeSplatColorFragment(): Fragment {
  return {
    id: 'splat-color',
    source: colorSource,
    dependencies: ['splat-quad'],
    outputs: [{ name: 'color', type: 'vec4f' }],
    fills: [{ slot: 'fragmentStage', fn: 'splatColorFragment' }],
  };
}
