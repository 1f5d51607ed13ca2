// geometry-deform-morph-skin4-velocity-textures: geometry pass: linear velocity and world position of a morphed, skinned mesh on a device without vertex-stage storage buffers
// key fc53cf4e6014526d
// fragments draw-uniforms, geometry-scene-uniforms, scene-uniforms, thin-instances, geometry-surface, standard-vertex, geometry-velocity, geometry-world-position, morph-targets, skinning, geometry-velocity-deformation
// conditions {"deformMorph":true,"deformSkin":true,"deformTextures":true}
// features none
// @group(0) scene
//   @binding(0) geometryScene: package::geometry_scene_uniforms::GeometrySceneUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from geometry-scene-uniforms
//   @binding(1) scene: package::scene_uniforms::SceneUniforms {"binding":1,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from scene-uniforms
// @group(1) mesh
//   @binding(0) draw: package::draw_uniforms::DrawUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":160}} from draw-uniforms
//   @binding(1) velocity: package::geometry_velocity::VelocityUniforms {"binding":1,"visibility":"vertex","buffer":{"type":"uniform","hasDynamicOffset":true,"minBindingSize":128}} from geometry-velocity
// @group(2) material (empty)
// @group(3) extra
//   @binding(0) boneTexture: texture_2d<f32> {"binding":0,"visibility":"vertex","texture":{"sampleType":"unfilterable-float","viewDimension":"2d","multisampled":false}} from skinning
//   @binding(1) morphDeltaTexture: texture_2d<f32> {"binding":1,"visibility":"vertex","texture":{"sampleType":"unfilterable-float","viewDimension":"2d","multisampled":false}} from morph-targets
//   @binding(2) morphInfo: package::morph_targets::MorphInfo {"binding":2,"visibility":"vertex","buffer":{"type":"uniform"}} from morph-targets
//   @binding(3) morphWeightTexture: texture_2d<f32> {"binding":3,"visibility":"vertex","texture":{"sampleType":"unfilterable-float","viewDimension":"2d","multisampled":false}} from morph-targets
//   @binding(4) prevBoneTexture: texture_2d<f32> {"binding":4,"visibility":"vertex","texture":{"sampleType":"unfilterable-float","viewDimension":"2d","multisampled":false}} from geometry-velocity-deformation
//   @binding(5) prevMorphWeightTexture: texture_2d<f32> {"binding":5,"visibility":"vertex","texture":{"sampleType":"unfilterable-float","viewDimension":"2d","multisampled":false}} from geometry-velocity-deformation
// vertex buffer 0 (caller buffer 0): stride 12 per vertex: @location(0) position float32x3 +0
// vertex buffer 1 (caller buffer 1): stride 8 per vertex: @location(1) joints uint16x4 +0
// vertex buffer 2 (caller buffer 2): stride 16 per vertex: @location(2) weights float32x4 +0
// varying @location(0) velocityPrevious: vec3f
// varying @location(1) worldNormal: vec3f
// varying @location(2) worldPosition: vec3f
// target @location(0) linearVelocity: vec4f -> rgba16float
// target @location(1) worldPosition: vec4f -> rgba32float
// slot adjustWorldPosition <- default
// slot deformVertex <- morph-targets, skinning
// slot fragmentStage <- geometry-surface
// slot geometryOutputs <- geometry-velocity, geometry-world-position
// slot velocityPreviousPosition <- geometry-velocity-deformation
// slot vertexStage <- standard-vertex
// slot vertexVaryings <- geometry-velocity


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
  @location(1) joints: vec4u,
  @location(2) weights: vec4f,
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
@group(0) @binding(1) var<uniform> scene: SceneUniforms;

// ── generated weft:slots ──
fn vertexVaryings(input: VertexInput, output: ptr<function, VertexOutput>) {
  writeVelocityVaryings(input, output);
}

// ── generated weft:io ──
struct VertexOutput {
  @builtin(position) position: vec4f,
  @location(0) velocityPrevious: vec3f,
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


// ── fragment morph-targets ──
// Position deltas of target t are at [t * vertexCount + vertex]; normal deltas follow all position deltas.
fn morphVertex(input: VertexInput, vertex: ptr<function, DeformedVertex>) {
  for (var t = 0u; t < morphInfo.targetCount; t++) {
    let weight = rowWrappedTexel(morphWeightTexture, t).x;
    (*vertex).position += weight * rowWrappedTexel(morphDeltaTexture, t * morphInfo.vertexCount + input.vertexIndex).xyz;
  }
}

// ── fragment skinning ──
// Bone matrices live in a rgba32float texture, one row per bone, one texel per column.
fn skinVertex(input: VertexInput, vertex: ptr<function, DeformedVertex>) {
  var skin = blendBones(boneTexture, vec2i(0, 0), vec2i(0, 1), input.joints, input.weights);
  (*vertex).position = (skin * vec4f((*vertex).position, 1.0)).xyz;
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


// ── fragment geometry-velocity ──
fn writeVelocityVaryings(input: VertexInput, output: ptr<function, VertexOutput>) {
  {
    let previousWorld = velocity.previousWorld;
    // The same world-adjust hook as the current position, so displaced surfaces move as drawn.
    let previousWorldPosition = vec4f(adjustWorldPosition(input, previousWorld, (previousWorld * vec4f(velocityPreviousPosition(input), 1.0)).xyz), 1.0);
    // Clip z is not needed: x, y and w, interpolated perspective-correctly like the clip position itself.
    (*output).velocityPrevious = (velocity.previousViewProjection * previousWorldPosition).xyw;
  }
}

// ── generated weft:slots ──
fn velocityPreviousPosition(input: VertexInput) -> vec3f {
  return previousDeformedPosition(input);
}

// ── generated weft:bindings ──
@group(1) @binding(1) var<uniform> velocity: VelocityUniforms;

// ── fragment geometry-velocity ──
struct VelocityUniforms {
  // The draw's world matrix and the camera's view-projection as of this task's previous frame
  // (both equal to the current ones when the draw has no history: first frame, re-included, excluded).
  // Bound but unread by the still-draw variant (velocityStatic): both variants share one layout.
  previousWorld: mat4x4f,
  previousViewProjection: mat4x4f,
}


// ── fragment geometry-velocity-deformation ──
// The vertex as the task's previous frame deformed it: previous morph weights, then previous bones.
fn previousDeformedPosition(input: VertexInput) -> vec3f {
  var position = input.position;
  {
    for (var t = 0u; t < morphInfo.targetCount; t++) {
      position += rowWrappedTexel(prevMorphWeightTexture, t).x * rowWrappedTexel(morphDeltaTexture, t * morphInfo.vertexCount + input.vertexIndex).xyz;
    }
  }
  {
    // The previous bones laid out like the current ones (skinning): one row per bone.
    var skin = blendBones(prevBoneTexture, vec2i(0, 0), vec2i(0, 1), input.joints, input.weights);
    position = (skin * vec4f(position, 1.0)).xyz;
  }
  return position;
}

// ── generated weft:bindings ──
@group(3) @binding(5) var prevMorphWeightTexture: texture_2d<f32>;

@group(3) @binding(4) var prevBoneTexture: texture_2d<f32>;

// ── fragment geometry-surface ──
fn geometryFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  geometryOutputs(input, &output);
  return output;
}

// ── generated weft:io ──
struct FragmentInput {
  @builtin(position) position: vec4f,
  @location(0) velocityPrevious: vec3f,
  @location(1) worldNormal: vec3f,
  @location(2) worldPosition: vec3f,
}


// ── generated weft:slots ──
fn geometryOutputs(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  writeLinearVelocity(input, output);
  writeWorldPosition(input, output);
}

// ── generated weft:io ──
struct FragmentOutput {
  @location(0) linearVelocity: vec4f,
  @location(1) worldPosition: vec4f,
}


// ── fragment geometry-velocity ──
// The previous clip position is interpolated perspective-correctly and divided per pixel; the current NDC is the
// pixel centre itself (the pass covers the whole target), which is what the interpolated current clip position
// divided by its w gives, without a second clip-position varying. Fragment position.w is 1 / clip w.
fn writeLinearVelocity(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  {
    let current = vec2f(input.position.x * geometryScene.viewport.z - 1.0, 1.0 - input.position.y * geometryScene.viewport.w);
    let previous = input.velocityPrevious.xy / input.velocityPrevious.z;
    let z = 0.0;
    (*output).linearVelocity = vec4f((previous - current) * 0.5, z, 1.0);
  }
}

// ── fragment geometry-world-position ──
fn writeWorldPosition(input: FragmentInput, output: ptr<function, FragmentOutput>) {
  (*output).worldPosition = vec4f(input.worldPosition, 1.0);
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
