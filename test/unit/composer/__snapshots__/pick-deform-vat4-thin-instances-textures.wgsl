// pick-deform-vat4-thin-instances-textures: pick ids, deformed mesh {"vat":4,"thinInstances":true}, deformation data in textures
// key d041c800b712d97a
// fragments draw-uniforms, pick-discard-types, scene-uniforms, thin-instances, pick-output, standard-vertex, vertex-animation
// conditions {"deformTextures":true,"deformVat":true,"thinInstances":true}
// features none
// @group(0) scene
//   @binding(0) scene: package::scene_uniforms::SceneUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from scene-uniforms
// @group(1) mesh
//   @binding(0) draw: package::draw_uniforms::DrawUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform","minBindingSize":160}} from draw-uniforms
//   @binding(1) pick: package::pick_output::PickUniforms {"binding":1,"visibility":"vertex|fragment","buffer":{"type":"uniform","minBindingSize":16}} from pick-output
// @group(2) material (empty)
// @group(3) extra
//   @binding(0) vatInfo: package::vertex_animation::VertexAnimationInfo {"binding":0,"visibility":"vertex","buffer":{"type":"uniform"}} from vertex-animation
//   @binding(1) vatPlaybackTexture: texture_2d<f32> {"binding":1,"visibility":"vertex","texture":{"sampleType":"unfilterable-float","viewDimension":"2d","multisampled":false}} from vertex-animation
//   @binding(2) vatTexture: texture_2d<f32> {"binding":2,"visibility":"vertex","texture":{"sampleType":"unfilterable-float","viewDimension":"2d","multisampled":false}} from vertex-animation
// vertex buffer 0 (caller buffer 0): stride 12 per vertex: @location(0) position float32x3 +0
// vertex buffer 1 (caller buffer 1): stride 8 per vertex: @location(1) joints uint16x4 +0
// vertex buffer 2 (caller buffer 2): stride 16 per vertex: @location(2) weights float32x4 +0
// vertex buffer 3 (caller buffer 3): stride 64 per instance: @location(3) instance0 float32x4 +0, @location(4) instance1 float32x4 +16, @location(5) instance2 float32x4 +32, @location(6) instance3 float32x4 +48
// varying @location(0) @interpolate(flat) pickInstance: u32
// varying @location(1) worldNormal: vec3f
// varying @location(2) worldPosition: vec3f
// target @location(0) pickId: vec4f -> rgba8unorm
// target @location(1) pickDepth: f32 -> r32float
// slot adjustWorldPosition <- default
// slot deformVertex <- vertex-animation
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
  @location(1) joints: vec4u,
  @location(2) weights: vec4f,
  @location(3) instance0: vec4f,
  @location(4) instance1: vec4f,
  @location(5) instance2: vec4f,
  @location(6) instance3: vec4f,
}


// ── generated weft:slots ──
fn deformVertex(input: VertexInput, vertex: ptr<function, DeformedVertex>) {
  vertexAnimationVertex(input, vertex);
}

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


// ── fragment vertex-animation ──
// Playback record i (12 floats = 3 vec4f) belongs to instance i; a mesh without thin instances draws instance 0.
fn vertexAnimationVertex(input: VertexInput, vertex: ptr<function, DeformedVertex>) {
  let base = input.instanceIndex * 3u;
  let influence = vertexAnimationInfluence(input, rowWrappedTexel(vatPlaybackTexture, base), rowWrappedTexel(vatPlaybackTexture, base + 1u), rowWrappedTexel(vatPlaybackTexture, base + 2u).x, vatInfo.time);
  (*vertex).position = (influence * vec4f((*vertex).position, 1.0)).xyz;
}

// The influence matrix of a playback record: (1 - weightB) * bones(row of clip A) + weightB * bones(row of clip B).
fn vertexAnimationInfluence(input: VertexInput, clipA: vec4f, clipB: vec4f, weightB: f32, time: f32) -> mat4x4f {
  let b = clamp(weightB, 0.0, 1.0);
  return vertexAnimationBones(input, vertexAnimationRow(clipA, time)) * (1.0 - b) + vertexAnimationBones(input, vertexAnimationRow(clipB, time)) * b;
}

// ── fragment standard-vertex ──
fn rowWrappedTexel(data: texture_2d<f32>, index: u32) -> vec4f {
  // Element index of an array laid out in a texture row after row (deformation data on a device without vertex-stage
  // storage buffers): the same floats the storage buffer holds on other devices.
  let width = textureDimensions(data).x;
  return textureLoad(data, vec2u(index % width, index / width), 0);
}

// ── generated weft:bindings ──
@group(3) @binding(1) var vatPlaybackTexture: texture_2d<f32>;

@group(3) @binding(0) var<uniform> vatInfo: VertexAnimationInfo;

// ── fragment vertex-animation ──
// Frame f is texture row f; bone b is texels 4b..4b+3 of that row (one column each).
fn vertexAnimationBones(input: VertexInput, row: i32) -> mat4x4f {
  var bones = blendBones(vatTexture, vec2i(0, row), vec2i(4, 0), input.joints, input.weights);
  return bones;
}

// clip = (fromFrame, toFrame, offset, speed): row = fromFrame + floor(mod(time * speed + offset, toFrame - fromFrame + 1)),
// mod(a, n) = a - n * floor(a / n); no interpolation between rows.
fn vertexAnimationRow(clip: vec4f, time: f32) -> i32 {
  let length = max(clip.y - clip.x + 1.0, 1.0);
  let t = time * clip.w + clip.z;
  let row = clip.x + min(floor(t - length * floor(t / length)), length - 1.0);
  return clamp(i32(row), 0, i32(vatInfo.frameCount) - 1);
}

// ── fragment standard-vertex ──
// The weighted sum of four bone matrices (one influence set), the bone blend every deformation fragment shares:
// bone j's first texel is first + joints[j] * step. Eight influences are two calls.
fn blendBones(bones: texture_2d<f32>, first: vec2i, step: vec2i, joints: vec4u, weights: vec4f) -> mat4x4f {
  return boneMatrixAt(bones, first + i32(joints.x) * step) * weights.x + boneMatrixAt(bones, first + i32(joints.y) * step) * weights.y + boneMatrixAt(bones, first + i32(joints.z) * step) * weights.z + boneMatrixAt(bones, first + i32(joints.w) * step) * weights.w;
}

// ── generated weft:bindings ──
@group(3) @binding(2) var vatTexture: texture_2d<f32>;

// ── fragment standard-vertex ──
// A bone matrix stored as four rgba32float texels in a row, one per column, starting at texel.
fn boneMatrixAt(bones: texture_2d<f32>, texel: vec2i) -> mat4x4f {
  return mat4x4f(textureLoad(bones, texel, 0), textureLoad(bones, texel + vec2i(1, 0), 0), textureLoad(bones, texel + vec2i(2, 0), 0), textureLoad(bones, texel + vec2i(3, 0), 0));
}

// ── fragment vertex-animation ──
struct VertexAnimationInfo {
  time: f32,
  frameCount: u32,
  boneCount: u32,
  pad0: u32,
}


// ── fragment standard-vertex ──
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
