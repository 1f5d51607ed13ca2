// geometry-material-untextured: geometry pass {"outputs":["albedo","irradiance","reflectivity","meshBlendTag"],"normals":true,"uvs":true,"colors":false,"thinInstances":false,"untextured":true}
// key 0a410fc62bb088ec
// fragments base-texture, draw-uniforms, geometry-draw-uniforms, lambert-lighting, scene-uniforms, thin-instances, geometry-material, geometry-surface, standard-vertex, geometry-albedo, geometry-irradiance, geometry-mesh-blend-tag, geometry-reflectivity
// conditions {"normals":true,"untextured":true,"uvs":true}
// features none
// @group(0) scene
//   @binding(0) scene: package::scene_uniforms::SceneUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from scene-uniforms
// @group(1) mesh
//   @binding(0) draw: package::draw_uniforms::DrawUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":160}} from draw-uniforms
//   @binding(1) geometryDraw: package::geometry_draw_uniforms::GeometryDrawUniforms {"binding":1,"visibility":"fragment","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":32}} from geometry-draw-uniforms
// @group(2) material
//   @binding(0) baseSampler: sampler {"binding":0,"visibility":"fragment","sampler":{"type":"filtering"}} from base-texture
//   @binding(1) baseTexture: texture_2d<f32> {"binding":1,"visibility":"fragment","texture":{"sampleType":"float","viewDimension":"2d","multisampled":false}} from base-texture
// vertex buffer 0 (caller buffer 0): stride 12 per vertex: @location(0) position float32x3 +0
// vertex buffer 1 (caller buffer 1): stride 12 per vertex: @location(1) normal float32x3 +0
// vertex buffer 2 (caller buffer 2): stride 8 per vertex: @location(2) uv float32x2 +0
// varying @location(0) uv: vec2f
// varying @location(1) worldNormal: vec3f
// varying @location(2) worldPosition: vec3f
// target @location(0) albedo: vec4f -> rgba8unorm
// target @location(1) irradiance: vec4f -> rgba16float
// target @location(2) meshBlendTag: u32 -> r8uint
// target @location(3) reflectivity: vec4f -> rgba8unorm
// slot adjustWorldPosition <- default
// slot deformVertex <- nothing
// slot fragmentStage <- geometry-surface
// slot geometryOutputs <- geometry-albedo, geometry-irradiance, geometry-mesh-blend-tag, geometry-reflectivity
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
  output.uv = input.uv;
  vertexVaryings(input, &output);
  return output;
}

// ── generated weft:io ──
struct VertexInput {
  @builtin(vertex_index) vertexIndex: u32,
  @builtin(instance_index) instanceIndex: u32,
  @location(0) position: vec3f,
  @location(1) normal: vec3f,
  @location(2) uv: vec2f,
}


// ── generated weft:slots ──
fn deformVertex(input: VertexInput, vertex: ptr<function, DeformedVertex>) { }

fn adjustWorldPosition(input: VertexInput, world: mat4x4f, worldPosition: vec3f) -> vec3f {
  return keepWorldPosition(input, world, worldPosition);
}

// ── generated weft:bindings ──
@group(0) @binding(0) var<uniform> scene: SceneUniforms;

// ── generated weft:slots ──
fn vertexVaryings(input: VertexInput, output: ptr<function, VertexOutput>) { }

// ── generated weft:io ──
struct VertexOutput {
  @builtin(position) position: vec4f,
  @location(0) uv: vec2f,
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


// ── fragment geometry-surface ──
fn geometryFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  geometryOutputs(input, &output);
  return output;
}

// ── generated weft:io ──
struct FragmentInput {
  @builtin(position) position: vec4f,
  @location(0) uv: vec2f,
  @location(1) worldNormal: vec3f,
  @location(2) worldPosition: vec3f,
}


// ── generated weft:slots ──
fn geometryOutputs(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  writeAlbedo(input, output);
  writeIrradiance(input, output);
  writeMeshBlendTag(input, output);
  writeReflectivity(input, output);
}

// ── generated weft:io ──
struct FragmentOutput {
  @location(0) albedo: vec4f,
  @location(1) irradiance: vec4f,
  @location(2) meshBlendTag: u32,
  @location(3) reflectivity: vec4f,
}


// ── fragment geometry-albedo ──
fn writeAlbedo(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).albedo = geometryAlbedo(input);
}

// ── fragment geometry-irradiance ──
fn writeIrradiance(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  let albedo = geometryAlbedo(input);
  let normal = geometryWorldNormal(input);
  var lit = lambert(albedo.rgb, normal, scene.lightDirection.xyz, scene.lightColor.rgb, scene.ambientColor.rgb);
  if (draw.flags.x == 1u) {
    lit = albedo.rgb;
  }
  (*output).irradiance = vec4f(lit, albedo.a);
}

// ── fragment geometry-mesh-blend-tag ──
fn writeMeshBlendTag(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).meshBlendTag = geometryDraw.ids.y;
}

// ── fragment geometry-reflectivity ──
fn writeReflectivity(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).reflectivity = geometryDraw.reflectivity;
}

// ── fragment geometry-material ──
// What the forward standard material shades: base colour × texture × vertex colour. Without a texture the forward
// pass samples a white texel and without vertex colours multiplies by 1: both are exact identities, so skipped.
fn geometryAlbedo(input: FragmentInput) -> vec4f {
  var albedo = draw.baseColor;
  return albedo;
}

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

// ── fragment lambert-lighting ──
fn lambert(albedo: vec3f, normal: vec3f, lightDirection: vec3f, lightColor: vec3f, ambientColor: vec3f) -> vec3f {
  let diffuse = max(dot(normal, lightDirection), 0.0);
  return albedo * (ambientColor + lightColor * diffuse);
}

// ── generated weft:bindings ──
@group(1) @binding(1) var<uniform> geometryDraw: GeometryDrawUniforms;

// ── fragment geometry-draw-uniforms ──
struct GeometryDrawUniforms {
  // rgb: specular colour (F0), a: glossiness
  reflectivity: vec4f,
  // x: frame id of instance 0 (instance i writes x + i; 0 = background), y: mesh blend tag
  ids: vec4u,
}
