// geometry-positions-normals: geometry pass {"outputs":["worldPosition","worldNormal","viewNormal"],"normals":true,"uvs":false,"colors":false,"thinInstances":false}
// key e0f9966cd7d1b943
// fragments draw-uniforms, geometry-scene-uniforms, scene-uniforms, thin-instances, geometry-surface, standard-vertex, geometry-view-normal, geometry-world-normal, geometry-world-position
// conditions {"normals":true}
// features none
// @group(0) scene
//   @binding(0) geometryScene: package::geometry_scene_uniforms::GeometrySceneUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from geometry-scene-uniforms
//   @binding(1) scene: package::scene_uniforms::SceneUniforms {"binding":1,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from scene-uniforms
// @group(1) mesh
//   @binding(0) draw: package::draw_uniforms::DrawUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":160}} from draw-uniforms
// vertex buffer 0 (caller buffer 0): stride 12 per vertex: @location(0) position float32x3 +0
// vertex buffer 1 (caller buffer 1): stride 12 per vertex: @location(1) normal float32x3 +0
// varying @location(0) worldNormal: vec3f
// varying @location(1) worldPosition: vec3f
// target @location(0) viewNormal: vec4f -> rgba16float
// target @location(1) worldNormal: vec4f -> rgba16float
// target @location(2) worldPosition: vec4f -> rgba32float
// slot adjustWorldPosition <- default
// slot deformVertex <- nothing
// slot fragmentStage <- geometry-surface
// slot geometryOutputs <- geometry-view-normal, geometry-world-normal, geometry-world-position
// slot vertexStage <- standard-vertex
// slot vertexVaryings <- nothing


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
  @builtin(vertex_index) vertexIndex: u32,
  @builtin(instance_index) instanceIndex: u32,
  @location(0) position: vec3f,
  @location(1) normal: vec3f,
}


// ── generated weft:slots ──
fn deformVertex(input: VertexInput, vertex: ptr<function, DeformedVertex>) { }

fn adjustWorldPosition(input: VertexInput, world: mat4x4f, worldPosition: vec3f) -> vec3f {
  return keepWorldPosition(input, world, worldPosition);
}

// ── generated weft:bindings ──
@group(0) @binding(1) var<uniform> scene: SceneUniforms;

// ── generated weft:slots ──
fn vertexVaryings(input: VertexInput, output: ptr<function, VertexOutput>) { }

// ── generated weft:io ──
struct VertexOutput {
  @builtin(position) position: vec4f,
  @location(0) worldNormal: vec3f,
  @location(1) worldPosition: vec3f,
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
  writeViewNormal(input, output);
  writeWorldNormal(input, output);
  writeWorldPosition(input, output);
}

// ── generated weft:io ──
struct FragmentOutput {
  @location(0) viewNormal: vec4f,
  @location(1) worldNormal: vec4f,
  @location(2) worldPosition: vec4f,
}


// ── fragment geometry-view-normal ──
fn writeViewNormal(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  let n = (geometryScene.view * vec4f(geometryWorldNormal(input), 0.0)).xyz;
  (*output).viewNormal = vec4f(normalize(n), 1.0);
}

// ── fragment geometry-world-normal ──
fn writeWorldNormal(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).worldNormal = vec4f(geometryWorldNormal(input), 1.0);
}

// ── fragment geometry-world-position ──
fn writeWorldPosition(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).worldPosition = vec4f(input.worldPosition, 1.0);
}

// ── generated weft:bindings ──
@group(0) @binding(0) var<uniform> geometryScene: GeometrySceneUniforms;

// ── fragment geometry-surface ──
// Unit world-space normal on the side of the triangle the camera sees: the face normal (from screen-space
// derivatives) turned towards the camera, and the interpolated vertex normal negated when it points to the other
// side of the triangle. Neither winding, mirroring nor the data's normal convention changes it; a smooth normal that
// leans away from the camera at a silhouette is kept (it is still on the seen side of its triangle).
fn geometryWorldNormal(input: FragmentInput) -> vec3f {
  let g = cross(dpdx(input.worldPosition), dpdy(input.worldPosition));
  let face = select(-g, g, dot(g, scene.cameraPosition.xyz - input.worldPosition) >= 0.0);
  {
    let n = normalize(input.worldNormal);
    return select(-n, n, dot(n, face) >= 0.0);
  }
}

// ── fragment geometry-scene-uniforms ──
struct GeometrySceneUniforms {
  view: mat4x4f,
  // x: near, y: far, z: 1 when far is infinite (then y is unused)
  depthRange: vec4f,
  // x, y: the target's size in pixels; z, w: 2 / x, 2 / y (pixel → NDC scale)
  viewport: vec4f,
}
