// geometry-velocity-previous-depth: geometry pass {"outputs":["linearVelocity"],"normals":false,"uvs":false,"colors":false,"thinInstances":false,"previousDepth":true}
// key 69058ca8851ecf58
// fragments draw-uniforms, scene-uniforms, thin-instances, geometry-surface, standard-vertex, geometry-velocity
// conditions {"velocityPreviousDepth":true}
// features none
// @group(0) scene
//   @binding(0) scene: package::scene_uniforms::SceneUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from scene-uniforms
// @group(1) mesh
//   @binding(0) draw: package::draw_uniforms::DrawUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":160}} from draw-uniforms
//   @binding(1) velocity: package::geometry_velocity::VelocityUniforms {"binding":1,"visibility":"vertex","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":128}} from geometry-velocity
// vertex buffer 0 (caller buffer 0): stride 12 per vertex: @location(0) position float32x3 +0
// varying @location(0) color: vec4f
// varying @location(1) uv: vec2f
// varying @location(2) velocityCurrent: vec4f
// varying @location(3) velocityPrevious: vec4f
// varying @location(4) worldNormal: vec3f
// varying @location(5) worldPosition: vec3f
// target @location(0) linearVelocity: vec4f -> rgba16float
// slot adjustWorldPosition <- default
// slot deformVertex <- nothing
// slot fragmentStage <- geometry-surface
// slot geometryOutputs <- geometry-velocity
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
  let world = draw.world;
  var local: DeformedVertex;
  local.position = input.position;
  deformVertex(input, &local);
  let worldPosition = vec4f(adjustWorldPosition(input, world, (world * vec4f(local.position, 1.0)).xyz), 1.0);
  output.position = scene.viewProjection * worldPosition;
  output.worldPosition = worldPosition.xyz;
  output.worldNormal = vec3f(0.0);
  output.uv = vec2f(0.0);
  output.color = vec4f(1.0);
  vertexVaryings(input, &output);
  return output;
}

// ── generated weft:io ──
struct VertexInput {
  @builtin(vertex_index) vertexIndex: u32,
  @builtin(instance_index) instanceIndex: u32,
  @location(0) position: vec3f,
}


// ── generated weft:slots ──
fn deformVertex(input: VertexInput, vertex: ptr<function, DeformedVertex>) { }

fn adjustWorldPosition(input: VertexInput, world: mat4x4f, worldPosition: vec3f) -> vec3f {
  return keepWorldPosition(input, world, worldPosition);
}

// ── generated weft:bindings ──
@group(0) @binding(0) var<uniform> scene: SceneUniforms;

// ── generated weft:slots ──
fn vertexVaryings(input: VertexInput, output: ptr<function, VertexOutput>) {
  writeVelocityVaryings(input, output);
}

// ── generated weft:io ──
struct VertexOutput {
  @builtin(position) position: vec4f,
  @location(0) color: vec4f,
  @location(1) uv: vec2f,
  @location(2) velocityCurrent: vec4f,
  @location(3) velocityPrevious: vec4f,
  @location(4) worldNormal: vec3f,
  @location(5) worldPosition: vec3f,
}


// ── generated weft:bindings ──
@group(1) @binding(0) var<uniform> draw: DrawUniforms;

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
  let previousWorld = velocity.previousWorld;
  // The same world-adjust hook as the current position, so displaced surfaces move as drawn.
  let previousWorldPosition = vec4f(adjustWorldPosition(input, previousWorld, (previousWorld * vec4f(velocityPreviousPosition(input), 1.0)).xyz), 1.0);
  (*output).velocityPrevious = velocity.previousViewProjection * previousWorldPosition;
  (*output).velocityCurrent = (*output).position;
}

// ── generated weft:slots ──
fn velocityPreviousPosition(input: VertexInput) -> vec3f {
  return restPreviousPosition(input);
}

// ── generated weft:bindings ──
@group(1) @binding(1) var<uniform> velocity: VelocityUniforms;

// ── fragment geometry-velocity ──
struct VelocityUniforms {
  // The draw's world matrix and the camera's view-projection as of this task's previous frame
  // (both equal to the current ones when the draw has no history: first frame, re-included, excluded).
  previousWorld: mat4x4f,
  previousViewProjection: mat4x4f,
}


fn restPreviousPosition(input: VertexInput) -> vec3f {
  return input.position;
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
  @location(0) color: vec4f,
  @location(1) uv: vec2f,
  @location(2) velocityCurrent: vec4f,
  @location(3) velocityPrevious: vec4f,
  @location(4) worldNormal: vec3f,
  @location(5) worldPosition: vec3f,
}


// ── generated weft:slots ──
fn geometryOutputs(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  writeLinearVelocity(input, output);
}

// ── generated weft:io ──
struct FragmentOutput { @location(0) linearVelocity: vec4f }


// ── fragment geometry-velocity ──
// Clip positions are interpolated perspective-correctly and divided per pixel, so the motion is exact at the pixel.
fn writeLinearVelocity(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  let current = input.velocityCurrent.xy / input.velocityCurrent.w;
  let previous = input.velocityPrevious.xy / input.velocityPrevious.w;
  // For a perspective projection clip w is the positive view depth.
  let z = input.velocityPrevious.w;
  (*output).linearVelocity = vec4f((previous - current) * 0.5, z, 1.0);
}