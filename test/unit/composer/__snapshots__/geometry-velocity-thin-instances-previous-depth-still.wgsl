// geometry-velocity-thin-instances-previous-depth-still: geometry pass {"outputs":["linearVelocity","worldPosition"],"normals":false,"uvs":false,"colors":false,"thinInstances":true,"previousDepth":true,"velocityStatic":true}
// key 2c49d5aee601a868
// fragments draw-uniforms, geometry-scene-uniforms, scene-uniforms, thin-instances, geometry-surface, standard-vertex, geometry-velocity, geometry-world-position
// conditions {"thinInstances":true,"velocityPreviousDepth":true,"velocityStatic":true}
// features none
// @group(0) scene
//   @binding(0) geometryScene: package::geometry_scene_uniforms::GeometrySceneUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from geometry-scene-uniforms
//   @binding(1) scene: package::scene_uniforms::SceneUniforms {"binding":1,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from scene-uniforms
// @group(1) mesh
//   @binding(0) draw: package::draw_uniforms::DrawUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":160}} from draw-uniforms
//   @binding(1) velocity: package::geometry_velocity::VelocityUniforms {"binding":1,"visibility":"vertex","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":128}} from geometry-velocity
// vertex buffer 0 (caller buffer 0): stride 12 per vertex: @location(0) position float32x3 +0
// vertex buffer 1 (caller buffer 1): stride 64 per instance: @location(1) instance0 float32x4 +0, @location(2) instance1 float32x4 +16, @location(3) instance2 float32x4 +32, @location(4) instance3 float32x4 +48
// vertex buffer 2 (caller buffer 2): stride 64 per instance: @location(5) prevInstance0 float32x4 +0, @location(6) prevInstance1 float32x4 +16, @location(7) prevInstance2 float32x4 +32, @location(8) prevInstance3 float32x4 +48
// varying @location(0) worldNormal: vec3f
// varying @location(1) worldPosition: vec3f
// target @location(0) linearVelocity: vec4f -> rgba16float
// target @location(1) worldPosition: vec4f -> rgba32float
// slot adjustWorldPosition <- default
// slot deformVertex <- nothing
// slot fragmentStage <- geometry-surface
// slot geometryOutputs <- geometry-velocity, geometry-world-position
// slot velocityPreviousPosition <- default
// slot vertexStage <- standard-vertex
// slot vertexVaryings <- geometry-velocity


// ── generated weft:weft_main ──
@vertex fn vertexMain(input: VertexInput) -> VertexOutput {
  return standardVertex(input);
}

@fragment fn fragmentMain(input: FragmentInput) -> FragmentOutput {
  return geometryFragment(input);
}

// ── fragment standard-vertex ──
fn standardVertex(input: VertexInput) -> VertexOutput {
  var output: VertexOutput;
  let world = draw.world * instanceMatrix(input.instance0, input.instance1, input.instance2, input.instance3);
  var local: DeformedVertex;
  local.position = input.position;
  deformVertex(input, &local);
  let worldPosition = vec4f(adjustWorldPosition(input, world, (world * vec4f(local.position, 1.0)).xyz), 1.0);
  output.position = scene.viewProjection * worldPosition;
  output.worldPosition = worldPosition.xyz;
  output.worldNormal = vec3f(0.0);
  vertexVaryings(input, &output);
  return output;
}

// ── generated weft:io ──
struct VertexInput {
  @builtin(vertex_index) vertexIndex: u32,
  @builtin(instance_index) instanceIndex: u32,
  @location(0) position: vec3f,
  @location(1) instance0: vec4f,
  @location(2) instance1: vec4f,
  @location(3) instance2: vec4f,
  @location(4) instance3: vec4f,
  @location(5) prevInstance0: vec4f,
  @location(6) prevInstance1: vec4f,
  @location(7) prevInstance2: vec4f,
  @location(8) prevInstance3: vec4f,
}


// ── generated weft:slots ──
fn deformVertex(input: VertexInput, vertex: ptr<function, DeformedVertex>) { }

fn adjustWorldPosition(input: VertexInput, world: mat4x4f, worldPosition: vec3f) -> vec3f {
  return keepWorldPosition(input, world, worldPosition);
}

// ── generated weft:bindings ──
@group(0) @binding(1) var<uniform> scene: SceneUniforms;

// ── generated weft:slots ──
fn vertexVaryings(input: VertexInput, output: ptr<function, VertexOutput>) {
  writeVelocityVaryings(input, output);
}

// ── generated weft:io ──
struct VertexOutput {
  @builtin(position) position: vec4f,
  @location(0) worldNormal: vec3f,
  @location(1) worldPosition: vec3f,
}


// ── generated weft:bindings ──
@group(1) @binding(0) var<uniform> draw: DrawUniforms;

// ── fragment thin-instances ──
// The instance matrix's w lanes are a per-instance payload: the transform uses 0, 0, 0, 1.
fn instanceMatrix(c0: vec4f, c1: vec4f, c2: vec4f, c3: vec4f) -> mat4x4f {
  return mat4x4f(vec4f(c0.xyz, 0.0), vec4f(c1.xyz, 0.0), vec4f(c2.xyz, 0.0), vec4f(c3.xyz, 1.0));
}

// ── fragment draw-uniforms ──
struct DrawUniforms {
  world: mat4x4f,
  normalMatrix: mat4x4f,
  baseColor: vec4f,
  // x: unlit (1) or lit (0)
  flags: vec4u,
}


// ── fragment standard-vertex ──
// The mesh-local vertex after deformation (morph targets, skinning): what the world transform sees.
struct DeformedVertex {
  position: vec3f,
  normal: vec3f,
}


// Default of the adjustWorldPosition slot: the affine world position, unchanged.
fn keepWorldPosition(input: VertexInput, world: mat4x4f, worldPosition: vec3f) -> vec3f {
  return worldPosition;
}

// ── fragment scene-uniforms ──
struct SceneUniforms {
  viewProjection: mat4x4f,
  cameraPosition: vec4f,
  lightDirection: vec4f,
  lightColor: vec4f,
  ambientColor: vec4f,
}


// ── fragment geometry-velocity ──
fn writeVelocityVaryings(input: VertexInput, output: ptr<function, VertexOutput>) {
  {
    // Unread, referenced so both variants declare (and lay out) the same bindings.
    _ = velocity.previousWorld;
  }
}

// ── generated weft:bindings ──
@group(1) @binding(1) var<uniform> velocity: VelocityUniforms;

// ── fragment geometry-velocity ──
struct VelocityUniforms {
  // The draw's world matrix and the camera's view-projection as of this task's previous frame
  // (both equal to the current ones when the draw has no history: first frame, re-included, excluded).
  // Bound but unread by the still-draw variant (velocityStatic): both variants share one layout.
  previousWorld: mat4x4f,
  previousViewProjection: mat4x4f,
}


// ── fragment geometry-surface ──
fn geometryFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  geometryOutputs(input, &output);
  return output;
}

// ── generated weft:io ──
struct FragmentInput {
  @builtin(position) position: vec4f,
  @location(0) worldNormal: vec3f,
  @location(1) worldPosition: vec3f,
}


// ── generated weft:slots ──
fn geometryOutputs(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  writeLinearVelocity(input, output);
  writeWorldPosition(input, output);
}

// ── generated weft:io ──
struct FragmentOutput {
  @location(0) linearVelocity: vec4f,
  @location(1) worldPosition: vec4f,
}


// ── fragment geometry-velocity ──
// The previous clip position is interpolated perspective-correctly and divided per pixel; the current NDC is the
// pixel centre itself (the pass covers the whole target), which is what the interpolated current clip position
// divided by its w gives, without a second clip-position varying. Fragment position.w is 1 / clip w.
fn writeLinearVelocity(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  {
    // Same matrices as the current frame: the motion is exactly zero and the previous depth is the current one.
    let z = 1.0 / input.position.w;
    _ = geometryScene.viewport;
    (*output).linearVelocity = vec4f(0.0, 0.0, z, 1.0);
  }
}

// ── fragment geometry-world-position ──
fn writeWorldPosition(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).worldPosition = vec4f(input.worldPosition, 1.0);
}

// ── generated weft:bindings ──
@group(0) @binding(0) var<uniform> geometryScene: GeometrySceneUniforms;

// ── fragment geometry-scene-uniforms ──
struct GeometrySceneUniforms {
  view: mat4x4f,
  // x: near, y: far, z: 1 when far is infinite (then y is unused)
  depthRange: vec4f,
  // x, y: the target's size in pixels; z, w: 2 / x, 2 / y (pixel → NDC scale)
  viewport: vec4f,
}
