// standard-normals-colors: forward standard material {"normals":true,"uvs":false,"colors":true,"thinInstances":false}
// key f14dee4703784015
// fragments base-texture, draw-uniforms, lambert-lighting, scene-uniforms, thin-instances, standard-surface, standard-vertex
// conditions {"colors":true,"normals":true}
// features none
// @group(0) scene
//   @binding(0) scene: package::scene_uniforms::SceneUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from scene-uniforms
// @group(1) mesh
//   @binding(0) draw: package::draw_uniforms::DrawUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":160}} from draw-uniforms
// @group(2) material
//   @binding(0) baseSampler: sampler {"binding":0,"visibility":"fragment","sampler":{"type":"filtering"}} from base-texture
//   @binding(1) baseTexture: texture_2d<f32> {"binding":1,"visibility":"fragment","texture":{"sampleType":"float","viewDimension":"2d","multisampled":false}} from base-texture
// vertex buffer 0 (caller buffer 0): stride 12 per vertex: @location(0) position float32x3 +0
// vertex buffer 1 (caller buffer 1): stride 12 per vertex: @location(1) normal float32x3 +0
// vertex buffer 2 (caller buffer 2): stride 16 per vertex: @location(2) color float32x4 +0
// varying @location(0) color: vec4f
// varying @location(1) worldNormal: vec3f
// varying @location(2) worldPosition: vec3f
// target @location(0) color: vec4f -> caller format
// slot adjustWorldPosition <- default
// slot deformVertex <- nothing
// slot fragmentStage <- standard-surface
// slot surfaceOutputs <- nothing
// slot vertexStage <- standard-vertex
// slot vertexVaryings <- nothing


// ── generated weft:weft_main ──
@vertex fn vertexMain(input: VertexInput) -> VertexOutput {
  return standardVertex(input);
}

@fragment fn fragmentMain(input: FragmentInput) -> FragmentOutput {
  return standardSurface(input);
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
  output.color = input.color;
  vertexVaryings(input, &output);
  return output;
}

// ── generated weft:io ──
struct VertexInput {
  @builtin(vertex_index) vertexIndex: u32,
  @builtin(instance_index) instanceIndex: u32,
  @location(0) position: vec3f,
  @location(1) normal: vec3f,
  @location(2) color: vec4f,
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
  @location(0) color: vec4f,
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


// ── fragment standard-surface ──
fn standardSurface(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  output.color = shadeStandard(input);
  surfaceOutputs(input, &output);
  return output;
}

// ── generated weft:io ──
struct FragmentInput {
  @builtin(position) position: vec4f,
  @location(0) color: vec4f,
  @location(1) worldNormal: vec3f,
  @location(2) worldPosition: vec3f,
  @builtin(front_facing) frontFacing: bool,
}


// ── fragment standard-surface ──
fn shadeStandard(input: FragmentInput) -> vec4f {
  let texel = sampleBaseColor(vec2f(0.0));
  var albedo = draw.baseColor * texel;
  {
    albedo *= input.color;
  }
  if (draw.flags.x == 1u) {
    return albedo;
  }
  var normal: vec3f;
  {
    normal = normalize(input.worldNormal);
    if (!input.frontFacing) {
      normal = -normal;
    }
  }
  let lit = lambert(albedo.rgb, normal, scene.lightDirection.xyz, scene.lightColor.rgb, scene.ambientColor.rgb);
  return vec4f(lit, albedo.a);
}

// ── generated weft:slots ──
fn surfaceOutputs(input: FragmentInput, output: ptr<function, FragmentOutput>) { }

// ── generated weft:io ──
struct FragmentOutput { @location(0) color: vec4f }


// ── fragment lambert-lighting ──
fn lambert(albedo: vec3f, normal: vec3f, lightDirection: vec3f, lightColor: vec3f, ambientColor: vec3f) -> vec3f {
  let diffuse = max(dot(normal, lightDirection), 0.0);
  return albedo * (ambientColor + lightColor * diffuse);
}

// ── fragment base-texture ──
fn sampleBaseColor(uv: vec2f) -> vec4f {
  return textureSample(baseTexture, baseSampler, uv);
}

// ── generated weft:bindings ──
@group(2) @binding(1) var baseTexture: texture_2d<f32>;

@group(2) @binding(0) var baseSampler: sampler;