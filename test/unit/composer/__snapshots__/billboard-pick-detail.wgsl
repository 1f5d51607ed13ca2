// billboard-pick-detail: billboard pick contributor, detail attachment
// key f8af4cadea345337
// fragments contributor-view, billboard-quad, pick-contributor-output, billboard-pick
// conditions {"primitiveDetail":true}
// features none
// @group(0) scene
//   @binding(0) contributorView: package::contributor_view::ContributorView {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":208}} from contributor-view
// @group(1) mesh
//   @binding(0) billboardParams: package::billboard_quad::BillboardParams {"binding":0,"visibility":"vertex","buffer":{"type":"uniform"}} from billboard-quad
//   @binding(1) billboardSprites: array<package::billboard_quad::BillboardSprite> {"binding":1,"visibility":"vertex","buffer":{"type":"read-only-storage"}} from billboard-quad
// varying @location(0) @interpolate(flat) spriteColor: vec4f
// varying @location(1) @interpolate(flat) spriteIndex: u32
// target @location(0) pickId: vec4f -> rgba8unorm
// target @location(1) pickDepth: f32 -> r32float
// target @location(2) pickDetail: vec4u -> rgba32uint
// slot fragmentStage <- billboard-pick
// slot vertexStage <- billboard-quad


// ── generated weft:weft_main ──
@vertex fn vertexMain(input: VertexInput) -> VertexOutput {
  return billboardVertex(input);
}

@fragment fn fragmentMain(input: FragmentInput) -> FragmentOutput {
  return billboardPickFragment(input);
}

// ── fragment billboard-quad ──
fn billboardVertex(input: VertexInput) -> VertexOutput {
  var output: VertexOutput;
  let sprite = billboardSprites[input.instanceIndex];
  output.position = contributorView.viewProjection * vec4f(billboardWorldCorner(sprite, billboardCorner(input.vertexIndex)), 1.0);
  output.spriteIndex = sprite.index;
  output.spriteColor = sprite.color;
  return output;
}

// ── generated weft:io ──
struct VertexInput {
  @builtin(vertex_index) vertexIndex: u32,
  @builtin(instance_index) instanceIndex: u32,
}


// ── generated weft:bindings ──
@group(1) @binding(1) var<storage, read> billboardSprites: array<BillboardSprite>;

@group(0) @binding(0) var<uniform> contributorView: ContributorView;

// ── fragment billboard-quad ──
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

// Quad corners in sprite units (two triangles).
fn billboardCorner(vertex: u32) -> vec2f {
  var corners = array<vec2f, 6>(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0));
  return corners[vertex];
}

// ── generated weft:io ──
struct VertexOutput {
  @builtin(position) position: vec4f,
  @location(0) @interpolate(flat, either) spriteColor: vec4f,
  @location(1) @interpolate(flat, either) spriteIndex: u32,
}


// ── fragment billboard-quad ──
struct BillboardSprite {
  center: vec3f,
  // The sprite's index in its system (its pick id is the system's first id + index).
  index: u32,
  size: vec2f,
  pad: vec2f,
  color: vec4f,
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


// ── generated weft:bindings ──
@group(1) @binding(0) var<uniform> billboardParams: BillboardParams;

// ── fragment billboard-quad ──
struct BillboardParams {
  // xyz: unit sprite-up axis; w: 1 for axis-locked sprites, 0 for camera-facing ones.
  axis: vec4f,
}


// ── fragment billboard-pick ──
fn billboardPickFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  writeContributorPick(&output, input.spriteIndex, input.position.z, vec3u(input.spriteIndex, 0u, 0u));
  return output;
}

// ── generated weft:io ──
struct FragmentInput {
  @builtin(position) position: vec4f,
  @location(0) @interpolate(flat, either) spriteColor: vec4f,
  @location(1) @interpolate(flat, either) spriteIndex: u32,
}


// ── fragment pick-contributor-output ──
// Writes id (contributor base + local), NDC depth and, in detailed mode, the "no triangle" sentinel plus the
// contributor's own three detail words.
fn writeContributorPick(output: ptr<function, FragmentOutput>, localId: u32, ndcDepth: f32, detail: vec3u) {
  let id = contributorView.ids.x + localId;
  (*output).pickId = vec4f(f32((id >> 16u) & 255u), f32((id >> 8u) & 255u), f32(id & 255u), 255.0) / 255.0;
  (*output).pickDepth = ndcDepth;
  (*output).pickDetail = vec4u(0xffffffffu, detail);
}

// ── generated weft:io ──
struct FragmentOutput {
  @location(0) pickId: vec4f,
  @location(1) pickDepth: f32,
  @location(2) pickDetail: vec4u,
}
