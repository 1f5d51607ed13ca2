// pick-thin-instances: pick ids {"thinInstances":true,"primitiveDetail":false}
// key f445e685b81ba447
// fragments draw-uniforms, pick-discard-types, scene-uniforms, thin-instances, pick-output, standard-vertex
// conditions {"thinInstances":true}
// features none
// @group(0) scene
//   @binding(0) scene: package::scene_uniforms::SceneUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from scene-uniforms
// @group(1) mesh
//   @binding(0) draw: package::draw_uniforms::DrawUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform","minBindingSize":160}} from draw-uniforms
//   @binding(1) pick: package::pick_output::PickUniforms {"binding":1,"visibility":"vertex|fragment","buffer":{"type":"uniform","minBindingSize":16}} from pick-output
// vertex buffer 0 (caller buffer 0): stride 12 per vertex: @location(0) position float32x3 +0
// vertex buffer 1 (caller buffer 1): stride 64 per instance: @location(1) instance0 float32x4 +0, @location(2) instance1 float32x4 +16, @location(3) instance2 float32x4 +32, @location(4) instance3 float32x4 +48
// varying @location(0) @interpolate(flat) pickInstance: u32
// varying @location(1) worldNormal: vec3f
// varying @location(2) worldPosition: vec3f
// target @location(0) pickId: vec4f -> rgba8unorm
// target @location(1) pickDepth: f32 -> r32float
// slot adjustWorldPosition <- default
// slot deformVertex <- nothing
// slot fragmentStage <- pick-output
// slot pickDiscard <- default
// slot vertexStage <- standard-vertex
// slot vertexVaryings <- pick-output


// ── generated weft:weft_main ──
@vertex fn vertexMain(input: VertexInput) -> VertexOutput {
  return standardVertex(input);
}

@fragment fn fragmentMain(input: FragmentInput) -> FragmentOutput {
  return pickFragment(input);
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
  writePickVaryings(input, output);
}

// ── generated weft:io ──
struct VertexOutput {
  @builtin(position) position: vec4f,
  @location(0) @interpolate(flat, either) pickInstance: u32,
  @location(1) worldNormal: vec3f,
  @location(2) worldPosition: vec3f,
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


// ── fragment pick-output ──
fn writePickVaryings(input: VertexInput, output: ptr<function, VertexOutput>) {
  (*output).pickInstance = input.instanceIndex;
}

fn pickFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  let id = pick.id + input.pickInstance;
  output.pickId = encodePickId(id);
  output.pickDepth = input.position.z;
  return output;
}

// ── generated weft:io ──
struct FragmentInput {
  @builtin(position) position: vec4f,
  @location(0) @interpolate(flat, either) pickInstance: u32,
  @location(1) worldNormal: vec3f,
  @location(2) worldPosition: vec3f,
}


// ── generated weft:bindings ──
@group(1) @binding(1) var<uniform> pick: PickUniforms;

// ── fragment pick-output ──
// 24-bit id as RGB bytes of an rgba8unorm target: id = (r << 16) | (g << 8) | b.
fn encodePickId(id: u32) -> vec4f {
  return vec4f(f32((id >> 16u) & 255u), f32((id >> 8u) & 255u), f32(id & 255u), 255.0) / 255.0;
}

// ── generated weft:io ──
struct FragmentOutput {
  @location(0) pickId: vec4f,
  @location(1) pickDepth: f32,
}


// ── fragment pick-output ──
struct PickUniforms {
  // Pick id of instance 0 of this draw (1-based; 0 is a miss); instance i writes id + i.
  id: u32,
  // 1 when the draw is thin-instanced.
  hasThinInstance: u32,
  // Components the vertex-data stream really has (0 = none); the rest read zero, not the vertex fetch's 0, 0, 1.
  vertexDataComponents: u32,
  pad2: u32,
}
