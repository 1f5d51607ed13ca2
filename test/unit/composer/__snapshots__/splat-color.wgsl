// splat-color: Gaussian splat renderer
// key 585ab9e27c1504f6
// fragments contributor-view, splat-quad, splat-color
// conditions {}
// features none
// @group(0) scene
//   @binding(0) contributorView: package::contributor_view::ContributorView {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":208}} from contributor-view
// @group(1) mesh
//   @binding(0) splatItems: array<package::splat_quad::SplatItem> {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"read-only-storage"}} from splat-quad
//   @binding(1) splatParams: package::splat_quad::SplatParams {"binding":1,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from splat-quad
// varying @location(0) @interpolate(flat) splatSlot: u32
// target @location(0) color: vec4f -> caller format
// slot fragmentStage <- splat-color
// slot vertexStage <- splat-quad


// ── generated weft:weft_main ──
@vertex fn vertexMain(input: VertexInput) -> VertexOutput {
  return splatVertex(input);
}

@fragment fn fragmentMain(input: FragmentInput) -> FragmentOutput {
  return splatColorFragment(input);
}

// ── fragment splat-quad ──
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

// ── generated weft:io ──
struct VertexInput {
  @builtin(vertex_index) vertexIndex: u32,
  @builtin(instance_index) instanceIndex: u32,
}


// ── generated weft:bindings ──
@group(1) @binding(0) var<storage, read> splatItems: array<SplatItem>;

@group(1) @binding(1) var<uniform> splatParams: SplatParams;

@group(0) @binding(0) var<uniform> contributorView: ContributorView;

// ── fragment splat-quad ──
fn splatCorner(vertex: u32) -> vec2f {
  var corners = array<vec2f, 6>(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0));
  return corners[vertex];
}

// ── generated weft:io ──
struct VertexOutput {
  @builtin(position) position: vec4f,
  @location(0) @interpolate(flat, either) splatSlot: u32,
}


// ── fragment splat-quad ──
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


// ── fragment contributor-view ──
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


// ── fragment splat-color ──
// Premultiplied colour at the splat's peak opacity; depth-tested at the peak's depth (blend: one, one − src alpha).
fn splatColorFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  let splat = splatItems[input.splatSlot];
  let sample = splatFragmentSample(splat, input.position.xy);
  output.splatDepth = sample.depth;
  output.color = vec4f(splat.color.rgb * sample.alpha, sample.alpha);
  return output;
}

// ── generated weft:io ──
struct FragmentInput {
  @builtin(position) position: vec4f,
  @location(0) @interpolate(flat, either) splatSlot: u32,
}


// ── fragment splat-quad ──
// Fragment stages only: the sample of this fragment's splat, discarding it below limits.x or outside the depth range.
fn splatFragmentSample(splat: SplatItem, fragmentCoord: vec2f) -> SplatSample {
  let sample = splatSample(splat, fragmentCoord);
  if (sample.alpha < splatParams.limits.x || sample.depth < 0.0 || sample.depth > 1.0) {
    discard;
  }
  return sample;
}

// ── generated weft:io ──
struct FragmentOutput {
  @location(0) color: vec4f,
  @builtin(frag_depth) splatDepth: f32,
}


// ── fragment splat-quad ──
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

// ── fragment contributor-view ──
// The world ray through the framebuffer pixel centre this fragment stands for (any camera, reverse-Z).
fn contributorPixelRay(fragmentCoord: vec2f) -> ContributorRay {
  let pixel = fragmentCoord + contributorView.framebuffer.xy;
  let ndc = vec2f(pixel.x / contributorView.framebuffer.z * 2.0 - 1.0, 1.0 - pixel.y / contributorView.framebuffer.w * 2.0);
  let nearPoint = contributorView.inverseViewProjection * vec4f(ndc, 1.0, 1.0);
  let midPoint = contributorView.inverseViewProjection * vec4f(ndc, 0.5, 1.0);
  let origin = nearPoint.xyz / nearPoint.w;
  return ContributorRay(origin, normalize(midPoint.xyz / midPoint.w - origin));
}

// ── fragment splat-quad ──
fn splatRotation(q: vec4f) -> mat3x3f {
  let x = q.x;
  let y = q.y;
  let z = q.z;
  let w = q.w;
  return mat3x3f(vec3f(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z), 2.0 * (x * z - w * y)), vec3f(2.0 * (x * y - w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + w * x)), vec3f(2.0 * (x * z + w * y), 2.0 * (y * z - w * x), 1.0 - 2.0 * (x * x + y * y)));
}

// ── fragment contributor-view ──
// NDC depth of a world point under the view (reverse-Z: 1 near, 0 far).
fn contributorNdcDepth(world: vec3f) -> f32 {
  let clip = contributorView.viewProjection * vec4f(world, 1.0);
  return clip.z / clip.w;
}

// ── fragment splat-quad ──
// Where the pixel ray meets a splat: its peak opacity along the ray and the NDC depth of that point
// (depth < 0: the peak lies behind the ray's start).
struct SplatSample {
  alpha: f32,
  depth: f32,
}


// ── fragment contributor-view ──
struct ContributorRay {
  origin: vec3f,
  direction: vec3f,
}
