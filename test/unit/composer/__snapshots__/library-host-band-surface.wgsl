// library-host-band-surface: library output: standard vertex + Lambert + a host surface with its own uniform
// key 6f809f31482da554
// fragments draw-uniforms, lambert-lighting, scene-uniforms, thin-instances, host-band-surface, standard-vertex
// conditions {"normals":true}
// output library: weftVertex(input, scene, draw), weftFragment(input, scene, draw, bandParams)
// features none
// @group(0) scene
//   @binding(0) scene: package::scene_uniforms::SceneUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from scene-uniforms
// @group(1) mesh
//   @binding(0) draw: package::draw_uniforms::DrawUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":160}} from draw-uniforms
// @group(2) material
//   @binding(0) bandParams: package::host_band_surface::BandParams {"binding":0,"visibility":"fragment","buffer":{"type":"uniform"}} from host-band-surface
// vertex buffer 0 (caller buffer 0): stride 12 per vertex: @location(0) position float32x3 +0
// vertex buffer 1 (caller buffer 1): stride 12 per vertex: @location(1) normal float32x3 +0
// varying @location(0) worldNormal: vec3f
// varying @location(1) worldPosition: vec3f
// target @location(0) color: vec4f -> caller format
// slot adjustWorldPosition <- default
// slot deformVertex <- nothing
// slot fragmentStage <- host-band-surface
// slot vertexStage <- standard-vertex
// slot vertexVaryings <- nothing


// ── generated weft:weft_main ──
fn weftVertex(input: VertexInput, sceneValue: SceneUniforms, drawValue: DrawUniforms) -> VertexOutput {
  scene = sceneValue;
  draw = drawValue;
  return standardVertex(input);
}

fn weftFragment(input: FragmentInput, sceneValue: SceneUniforms, drawValue: DrawUniforms, bandParamsValue: BandParams) -> FragmentOutput {
  scene = sceneValue;
  draw = drawValue;
  bandParams = bandParamsValue;
  return bandSurface(input);
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

// ── generated weft:bindings ──
var<private> bandParams: BandParams;

// ── fragment host-band-surface ──
fn bandSurface(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  let t = 0.5 + 0.5 * sin(input.worldPosition.y * bandParams.band.x + bandParams.band.y);
  let albedo = mix(bandParams.tint.rgb, bandParams.bandColor.rgb, t);
  let lit = lambert(albedo, normalize(input.worldNormal), scene.lightDirection.xyz, scene.lightColor.rgb, scene.ambientColor.rgb);
  output.color = vec4f(lit, 1.0);
  return output;
}

// ── generated weft:io ──
struct FragmentInput {
  position: vec4f,
  worldNormal: vec3f,
  worldPosition: vec3f,
}


// ── fragment host-band-surface ──
struct BandParams {
  tint: vec4f,
  bandColor: vec4f,
  // x: bands per world unit along y, y: phase
  band: vec4f,
}


// ── fragment lambert-lighting ──
fn lambert(albedo: vec3f, normal: vec3f, lightDirection: vec3f, lightColor: vec3f, ambientColor: vec3f) -> vec3f {
  let diffuse = max(dot(normal, lightDirection), 0.0);
  return albedo * (ambientColor + lightColor * diffuse);
}

// ── generated weft:io ──
struct FragmentOutput { color: vec4f }
