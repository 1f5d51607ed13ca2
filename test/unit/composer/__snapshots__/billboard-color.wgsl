// billboard-color: billboard renderer
// key aaa7acc6d55cab95
// fragments contributor-view, billboard-quad, billboard-color
// conditions {}
// features none
// @group(0) scene
//   @binding(0) contributorView: package::contributor_view::ContributorView {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":208}} from contributor-view
// @group(1) mesh
//   @binding(0) billboardParams: package::billboard_quad::BillboardParams {"binding":0,"visibility":"vertex","buffer":{"type":"uniform"}} from billboard-quad
//   @binding(1) billboardSprites: array<package::billboard_quad::BillboardSprite> {"binding":1,"visibility":"vertex","buffer":{"type":"read-only-storage"}} from billboard-quad
// varying @location(0) @interpolate(flat) spriteColor: vec4f
// varying @location(1) @interpolate(flat) spriteIndex: u32
// target @location(0) color: vec4f -> caller format
// slot fragmentStage <- billboard-color
// slot vertexStage <- billboard-quad


// ── generated weft:weft_main ──
@vertex fn vertexMain(input: VertexInput) -> VertexOutput {
  return billboardVertex(input);
}

@fragment fn fragmentMain(input: FragmentInput) -> FragmentOutput {
  return billboardColorFragment(input);
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


// ── fragment billboard-color ──
fn billboardColorFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  output.color = input.spriteColor;
  return output;
}

// ── generated weft:io ──
struct FragmentInput {
  @builtin(position) position: vec4f,
  @location(0) @interpolate(flat, either) spriteColor: vec4f,
  @location(1) @interpolate(flat, either) spriteIndex: u32,
}


struct FragmentOutput { @location(0) color: vec4f }
