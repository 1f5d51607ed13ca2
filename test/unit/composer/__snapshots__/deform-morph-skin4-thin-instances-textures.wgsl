// deform-morph-skin4-thin-instances-textures: deformation {"skin":4,"morph":true,"morphNormals":true,"thinInstances":true,"textures":true}
// key 84fb8d13a86bc7d9
// fragments base-texture, draw-uniforms, lambert-lighting, scene-uniforms, thin-instances, standard-surface, standard-vertex, morph-targets, skinning
// conditions {"deformMorph":true,"deformSkin":true,"deformTextures":true,"morphNormals":true,"normals":true,"thinInstances":true}
// features none
// @group(0) scene
//   @binding(0) scene: package::scene_uniforms::SceneUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from scene-uniforms
// @group(1) mesh
//   @binding(0) draw: package::draw_uniforms::DrawUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":160}} from draw-uniforms
// @group(2) material
//   @binding(0) baseSampler: sampler {"binding":0,"visibility":"fragment","sampler":{"type":"filtering"}} from base-texture
//   @binding(1) baseTexture: texture_2d<f32> {"binding":1,"visibility":"fragment","texture":{"sampleType":"float","viewDimension":"2d","multisampled":false}} from base-texture
// @group(3) extra
//   @binding(0) boneTexture: texture_2d<f32> {"binding":0,"visibility":"vertex","texture":{"sampleType":"unfilterable-float","viewDimension":"2d","multisampled":false}} from skinning
//   @binding(1) morphDeltaTexture: texture_2d<f32> {"binding":1,"visibility":"vertex","texture":{"sampleType":"unfilterable-float","viewDimension":"2d","multisampled":false}} from morph-targets
//   @binding(2) morphInfo: package::morph_targets::MorphInfo {"binding":2,"visibility":"vertex","buffer":{"type":"uniform"}} from morph-targets
//   @binding(3) morphWeightTexture: texture_2d<f32> {"binding":3,"visibility":"vertex","texture":{"sampleType":"unfilterable-float","viewDimension":"2d","multisampled":false}} from morph-targets
// vertex buffer 0 (caller buffer 0): stride 12 per vertex: @location(0) position float32x3 +0
// vertex buffer 1 (caller buffer 1): stride 12 per vertex: @location(1) normal float32x3 +0
// vertex buffer 2 (caller buffer 2): stride 8 per vertex: @location(2) joints uint16x4 +0
// vertex buffer 3 (caller buffer 3): stride 16 per vertex: @location(3) weights float32x4 +0
// vertex buffer 4 (caller buffer 4): stride 64 per instance: @location(4) instance0 float32x4 +0, @location(5) instance1 float32x4 +16, @location(6) instance2 float32x4 +32, @location(7) instance3 float32x4 +48
// varying @location(0) worldNormal: vec3f
// varying @location(1) worldPosition: vec3f
// target @location(0) color: vec4f -> caller format
// slot adjustWorldPosition <- default
// slot deformVertex <- morph-targets, skinning
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
  let world = draw.world * instanceMatrix(input.instance0, input.instance1, input.instance2, input.instance3);
  var local: DeformedVertex;
  local.position = input.position;
  local.normal = input.normal;
  deformVertex(input, &local);
  let worldPosition = vec4f(adjustWorldPosition(input, world, (world * vec4f(local.position, 1.0)).xyz), 1.0);
  output.position = scene.viewProjection * worldPosition;
  output.worldPosition = worldPosition.xyz;
  output.worldNormal = (draw.normalMatrix * vec4f(instanceNormalMatrix(input.instance0, input.instance1, input.instance2) * local.normal, 0.0)).xyz;
  vertexVaryings(input, &output);
  return output;
}

// ── generated weft:io ──
struct VertexInput {
  @builtin(vertex_index) vertexIndex: u32,
  @builtin(instance_index) instanceIndex: u32,
  @location(0) position: vec3f,
  @location(1) normal: vec3f,
  @location(2) joints: vec4u,
  @location(3) weights: vec4f,
  @location(4) instance0: vec4f,
  @location(5) instance1: vec4f,
  @location(6) instance2: vec4f,
  @location(7) instance3: vec4f,
}


// ── generated weft:slots ──
fn deformVertex(input: VertexInput, vertex: ptr<function, DeformedVertex>) {
  morphVertex(input, vertex);
  skinVertex(input, vertex);
}

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


// ── fragment thin-instances ──
// Inverse-transpose of the instance's 3x3 up to scale: the cofactor matrix (callers normalise).
fn instanceNormalMatrix(c0: vec4f, c1: vec4f, c2: vec4f) -> mat3x3f {
  let a = c0.xyz;
  let b = c1.xyz;
  let c = c2.xyz;
  return mat3x3f(cross(b, c), cross(c, a), cross(a, b)) * sign(dot(a, cross(b, c)));
}

// ── fragment morph-targets ──
// Position deltas of target t are at [t * vertexCount + vertex]; normal deltas follow all position deltas.
fn morphVertex(input: VertexInput, vertex: ptr<function, DeformedVertex>) {
  for (var t = 0u; t < morphInfo.targetCount; t++) {
    let weight = rowWrappedTexel(morphWeightTexture, t).x;
    (*vertex).position += weight * rowWrappedTexel(morphDeltaTexture, t * morphInfo.vertexCount + input.vertexIndex).xyz;
    {
      (*vertex).normal += weight * rowWrappedTexel(morphDeltaTexture, (morphInfo.targetCount + t) * morphInfo.vertexCount + input.vertexIndex).xyz;
    }
  }
}

// ── fragment skinning ──
// Bone matrices live in a rgba32float texture, one row per bone, one texel per column.
fn skinVertex(input: VertexInput, vertex: ptr<function, DeformedVertex>) {
  var skin = blendBones(boneTexture, vec2i(0, 0), vec2i(0, 1), input.joints, input.weights);
  (*vertex).position = (skin * vec4f((*vertex).position, 1.0)).xyz;
  (*vertex).normal = (skin * vec4f((*vertex).normal, 0.0)).xyz;
}

// ── generated weft:bindings ──
@group(3) @binding(2) var<uniform> morphInfo: MorphInfo;

// ── fragment standard-vertex ──
fn rowWrappedTexel(data: texture_2d<f32>, index: u32) -> vec4f {
  // Element index of an array laid out in a texture row after row (deformation data on a device without vertex-stage
  // storage buffers): the same floats the storage buffer holds on other devices.
  let width = textureDimensions(data).x;
  return textureLoad(data, vec2u(index % width, index / width), 0);
}

// ── generated weft:bindings ──
@group(3) @binding(3) var morphWeightTexture: texture_2d<f32>;

@group(3) @binding(1) var morphDeltaTexture: texture_2d<f32>;

// ── fragment morph-targets ──
struct MorphInfo {
  targetCount: u32,
  vertexCount: u32,
  pad0: u32,
  pad1: u32,
}


// ── fragment standard-vertex ──
// The weighted sum of four bone matrices (one influence set), the bone blend every deformation fragment shares:
// bone j's first texel is first + joints[j] * step. Eight influences are two calls.
fn blendBones(bones: texture_2d<f32>, first: vec2i, step: vec2i, joints: vec4u, weights: vec4f) -> mat4x4f {
  return boneMatrixAt(bones, first + i32(joints.x) * step) * weights.x + boneMatrixAt(bones, first + i32(joints.y) * step) * weights.y + boneMatrixAt(bones, first + i32(joints.z) * step) * weights.z + boneMatrixAt(bones, first + i32(joints.w) * step) * weights.w;
}

// ── generated weft:bindings ──
@group(3) @binding(0) var boneTexture: texture_2d<f32>;

// ── fragment standard-vertex ──
// A bone matrix stored as four rgba32float texels in a row, one per column, starting at texel.
fn boneMatrixAt(bones: texture_2d<f32>, texel: vec2i) -> mat4x4f {
  return mat4x4f(textureLoad(bones, texel, 0), textureLoad(bones, texel + vec2i(1, 0), 0), textureLoad(bones, texel + vec2i(2, 0), 0), textureLoad(bones, texel + vec2i(3, 0), 0));
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
  @location(0) worldNormal: vec3f,
  @location(1) worldPosition: vec3f,
  @builtin(front_facing) frontFacing: bool,
}


// ── fragment standard-surface ──
fn shadeStandard(input: FragmentInput) -> vec4f {
  let texel = sampleBaseColor(vec2f(0.0));
  var albedo = draw.baseColor * texel;
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