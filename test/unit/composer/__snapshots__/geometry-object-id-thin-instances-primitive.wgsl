// geometry-object-id-thin-instances-primitive: geometry pass {"outputs":["objectId","albedo"],"normals":false,"uvs":false,"colors":false,"thinInstances":true,"objectPrimitive":true}
// key 682269d861ae4850
// fragments base-texture, draw-uniforms, geometry-draw-uniforms, scene-uniforms, thin-instances, geometry-material, geometry-surface, standard-vertex, geometry-albedo, geometry-object-id
// conditions {"objectPrimitive":true,"thinInstances":true}
// features primitive-index (geometry-object-id)
// @group(0) scene
//   @binding(0) scene: package::scene_uniforms::SceneUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from scene-uniforms
// @group(1) mesh
//   @binding(0) draw: package::draw_uniforms::DrawUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":160}} from draw-uniforms
//   @binding(1) geometryDraw: package::geometry_draw_uniforms::GeometryDrawUniforms {"binding":1,"visibility":"fragment","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":32}} from geometry-draw-uniforms
// @group(2) material
//   @binding(0) baseSampler: sampler {"binding":0,"visibility":"fragment","sampler":{"type":"filtering"}} from base-texture
//   @binding(1) baseTexture: texture_2d<f32> {"binding":1,"visibility":"fragment","texture":{"sampleType":"float","viewDimension":"2d","multisampled":false}} from base-texture
// vertex buffer 0 (caller buffer 0): stride 12 per vertex: @location(0) position float32x3 +0
// vertex buffer 1 (caller buffer 1): stride 64 per instance: @location(1) instance0 float32x4 +0, @location(2) instance1 float32x4 +16, @location(3) instance2 float32x4 +32, @location(4) instance3 float32x4 +48
// varying @location(0) @interpolate(flat) objectInstance: u32
// varying @location(1) worldNormal: vec3f
// varying @location(2) worldPosition: vec3f
// target @location(0) albedo: vec4f -> rgba8unorm
// target @location(1) objectId: vec4u -> rg32uint
// slot adjustWorldPosition <- default
// slot deformVertex <- nothing
// slot fragmentStage <- geometry-surface
// slot geometryOutputs <- geometry-albedo, geometry-object-id
// slot vertexStage <- standard-vertex
// slot vertexVaryings <- geometry-object-id

// ── generated weft:weft_main ──
enable primitive_index;

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
  writeObjectInstance(input, output);
}

// ── generated weft:io ──
struct VertexOutput {
  @builtin(position) position: vec4f,
  @location(0) @interpolate(flat, either) objectInstance: u32,
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


// ── fragment geometry-object-id ──
fn writeObjectInstance(input: VertexInput, output: ptr<function, VertexOutput>) {
  (*output).objectInstance = input.instanceIndex;
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
  @location(0) @interpolate(flat, either) objectInstance: u32,
  @location(1) worldNormal: vec3f,
  @location(2) worldPosition: vec3f,
  @builtin(primitive_index) primitiveIndex: u32,
}


// ── generated weft:slots ──
fn geometryOutputs(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  writeAlbedo(input, output);
  writeObjectId(input, output);
}

// ── generated weft:io ──
struct FragmentOutput {
  @location(0) albedo: vec4f,
  @location(1) objectId: vec4u,
}


// ── fragment geometry-albedo ──
fn writeAlbedo(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).albedo = geometryAlbedo(input);
}

// ── fragment geometry-object-id ──
fn writeObjectId(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  let primitive = input.primitiveIndex;
  (*output).objectId = vec4u(geometryDraw.ids.x + input.objectInstance, primitive, 0u, 0u);
}

// ── fragment geometry-material ──
// What the forward standard material shades: base colour × texture × vertex colour. Without a texture the forward
// pass samples a white texel and without vertex colours multiplies by 1: both are exact identities, so skipped.
fn geometryAlbedo(input: FragmentInput) -> vec4f {
  var albedo = draw.baseColor * sampleBaseColor(vec2f(0.0));
  return albedo;
}

// ── fragment base-texture ──
fn sampleBaseColor(uv: vec2f) -> vec4f {
  return textureSample(baseTexture, baseSampler, uv);
}

// ── generated weft:bindings ──
@group(2) @binding(1) var baseTexture: texture_2d<f32>;

@group(2) @binding(0) var baseSampler: sampler;

@group(1) @binding(1) var<uniform> geometryDraw: GeometryDrawUniforms;

// ── fragment geometry-draw-uniforms ──
struct GeometryDrawUniforms {
  // rgb: specular colour (F0), a: glossiness
  reflectivity: vec4f,
  // x: frame id of instance 0 (instance i writes x + i; 0 = background), y: mesh blend tag
  ids: vec4u,
}
