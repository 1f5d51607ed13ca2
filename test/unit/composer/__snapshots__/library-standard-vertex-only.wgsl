// library-standard-vertex-only: library output without a fragment stage (a depth-only host pass)
// key a1f01c0bbde2eb92
// fragments draw-uniforms, scene-uniforms, thin-instances, standard-vertex
// conditions {"normals":true}
// output library: weftVertex(input, scene, draw)
// features none
// @group(0) scene
//   @binding(0) scene: package::scene_uniforms::SceneUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from scene-uniforms
// @group(1) mesh
//   @binding(0) draw: package::draw_uniforms::DrawUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":160}} from draw-uniforms
// vertex buffer 0 (caller buffer 0): stride 12 per vertex: @location(0) position float32x3 +0
// vertex buffer 1 (caller buffer 1): stride 12 per vertex: @location(1) normal float32x3 +0
// varying @location(0) worldNormal: vec3f
// varying @location(1) worldPosition: vec3f
// slot adjustWorldPosition <- default
// slot deformVertex <- nothing
// slot fragmentStage <- nothing
// slot vertexStage <- standard-vertex
// slot vertexVaryings <- nothing


// ── generated weft:weft_main ──
fn weftVertex(input: VertexInput, sceneValue: SceneUniforms, drawValue: DrawUniforms) -> VertexOutput {
  scene = sceneValue;
  draw = drawValue;
  return standardVertex(input);
}

// ── generated weft:bindings ──
var<private> scene: SceneUniforms;

var<private> draw: DrawUniforms;

// ── fragment standard-vertex ──
fn standardVertex(input: VertexInput) -> VertexOutput {
  var output: VertexOutput;
  let world = draw.world;
  var local: DeformedVertex;
  local.position = input.position;
  local.normal = input.normal;
  deformVertex(input, &local);
  let worldPosition = vec4f(adjustWorldPosition(input, world, (world * vec4f(local.position, 1.0)).xyz), 1.0);
  output.position = scene.viewProjection * worldPosition;
  output.worldPosition = worldPosition.xyz;
  output.worldNormal = (draw.normalMatrix * vec4f(local.normal, 0.0)).xyz;
  vertexVaryings(input, &output);
  return output;
}

// ── generated weft:io ──
struct VertexInput {
  vertexIndex: u32,
  instanceIndex: u32,
  position: vec3f,
  normal: vec3f,
}


// ── fragment scene-uniforms ──
struct SceneUniforms {
  viewProjection: mat4x4f,
  cameraPosition: vec4f,
  lightDirection: vec4f,
  lightColor: vec4f,
  ambientColor: vec4f,
}


// ── fragment draw-uniforms ──
struct DrawUniforms {
  world: mat4x4f,
  normalMatrix: mat4x4f,
  baseColor: vec4f,
  // x: unlit (1) or lit (0)
  flags: vec4u,
}


// ── generated weft:slots ──
fn deformVertex(input: VertexInput, vertex: ptr<function, DeformedVertex>) { }

fn adjustWorldPosition(input: VertexInput, world: mat4x4f, worldPosition: vec3f) -> vec3f {
  return keepWorldPosition(input, world, worldPosition);
}

fn vertexVaryings(input: VertexInput, output: ptr<function, VertexOutput>) { }

// ── generated weft:io ──
struct VertexOutput {
  position: vec4f,
  worldNormal: vec3f,
  worldPosition: vec3f,
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