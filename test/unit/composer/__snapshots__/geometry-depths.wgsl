// geometry-depths: geometry pass {"outputs":["viewDepth","normalizedViewDepth","screenspaceDepth","localPosition"],"normals":false,"uvs":false,"colors":false,"thinInstances":false}
// key b072436417f0c82c
// fragments draw-uniforms, geometry-scene-uniforms, scene-uniforms, thin-instances, geometry-surface, standard-vertex, geometry-local-position, geometry-normalized-view-depth, geometry-screenspace-depth, geometry-view-depth
// conditions {}
// features none
// @group(0) scene
//   @binding(0) geometryScene: package::geometry_scene_uniforms::GeometrySceneUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from geometry-scene-uniforms
//   @binding(1) scene: package::scene_uniforms::SceneUniforms {"binding":1,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from scene-uniforms
// @group(1) mesh
//   @binding(0) draw: package::draw_uniforms::DrawUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":160}} from draw-uniforms
// vertex buffer 0 (caller buffer 0): stride 12 per vertex: @location(0) position float32x3 +0
// varying @location(0) localPosition: vec3f
// varying @location(1) worldNormal: vec3f
// varying @location(2) worldPosition: vec3f
// target @location(0) localPosition: vec4f -> rgba32float
// target @location(1) normalizedViewDepth: vec4f -> r32float
// target @location(2) screenspaceDepth: vec4f -> r32float
// target @location(3) viewDepth: vec4f -> r32float
// slot adjustWorldPosition <- default
// slot deformVertex <- nothing
// slot fragmentStage <- geometry-surface
// slot geometryOutputs <- geometry-local-position, geometry-normalized-view-depth, geometry-screenspace-depth, geometry-view-depth
// slot vertexStage <- standard-vertex
// slot vertexVaryings <- geometry-local-position


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
@group(0) @binding(1) var<uniform> scene: SceneUniforms;

// ── generated weft:slots ──
fn vertexVaryings(input: VertexInput, output: ptr<function, VertexOutput>) {
  writeLocalPositionVarying(input, output);
}

// ── generated weft:io ──
struct VertexOutput {
  @builtin(position) position: vec4f,
  @location(0) localPosition: vec3f,
  @location(1) worldNormal: vec3f,
  @location(2) worldPosition: vec3f,
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


// ── fragment geometry-local-position ──
fn writeLocalPositionVarying(input: VertexInput, output: ptr<function, VertexOutput>) {
  (*output).localPosition = input.position;
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
  @location(0) localPosition: vec3f,
  @location(1) worldNormal: vec3f,
  @location(2) worldPosition: vec3f,
}


// ── generated weft:slots ──
fn geometryOutputs(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  writeLocalPosition(input, output);
  writeNormalizedViewDepth(input, output);
  writeScreenspaceDepth(input, output);
  writeViewDepth(input, output);
}

// ── generated weft:io ──
struct FragmentOutput {
  @location(0) localPosition: vec4f,
  @location(1) normalizedViewDepth: vec4f,
  @location(2) screenspaceDepth: vec4f,
  @location(3) viewDepth: vec4f,
}


// ── fragment geometry-local-position ──
fn writeLocalPosition(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).localPosition = vec4f(input.localPosition, 1.0);
}

// ── fragment geometry-normalized-view-depth ──
fn writeNormalizedViewDepth(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).normalizedViewDepth = vec4f(normalizedViewDepth(viewDepthOf(input.worldPosition)), 0.0, 0.0, 1.0);
}

// ── fragment geometry-screenspace-depth ──
fn writeScreenspaceDepth(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).screenspaceDepth = vec4f(input.position.z, 0.0, 0.0, 1.0);
}

// ── fragment geometry-view-depth ──
fn writeViewDepth(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).viewDepth = vec4f(viewDepthOf(input.worldPosition), 0.0, 0.0, 1.0);
}

// ── fragment geometry-normalized-view-depth ──
// Finite far: linear (depth - near) / (far - near). Infinite far: 1 - near / depth, which keeps 0 at the near
// plane, tends to 1 at infinity and stays monotonic (the linear form would collapse to 0).
fn normalizedViewDepth(depth: f32) -> f32 {
  let near = geometryScene.depthRange.x;
  if (geometryScene.depthRange.z > 0.5) {
    return 1.0 - near / depth;
  }
  return (depth - near) / (geometryScene.depthRange.y - near);
}

// ── fragment geometry-scene-uniforms ──
// Positive view-space depth of a world position (distance along the camera's -Z axis).
fn viewDepthOf(worldPosition: vec3f) -> f32 {
  return -(geometryScene.view * vec4f(worldPosition, 1.0)).z;
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
