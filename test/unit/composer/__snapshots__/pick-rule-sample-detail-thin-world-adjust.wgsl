// pick-rule-sample-detail-thin-world-adjust: pick discard rule {"primitiveDetail":true,"thinInstances":true,"vertexData":false,"worldAdjust":true}
// key 9757405a8bdfc0ba
// fragments draw-uniforms, pick-discard-types, scene-uniforms, thin-instances, pick-discard-rule, pick-output, standard-vertex, pick-world-adjust-rule
// conditions {"pickDiscard":true,"pickWorldAdjust":true,"primitiveDetail":true,"thinInstances":true}
// features primitive-index (pick-output)
// @group(0) scene
//   @binding(0) pickFrame: package::pick_discard_types::PickFrameUniforms {"binding":0,"visibility":"fragment","buffer":{"type":"uniform"}} from pick-discard-types
//   @binding(1) scene: package::scene_uniforms::SceneUniforms {"binding":1,"visibility":"vertex|fragment","buffer":{"type":"uniform"}} from scene-uniforms
// @group(1) mesh
//   @binding(0) draw: package::draw_uniforms::DrawUniforms {"binding":0,"visibility":"vertex|fragment","buffer":{"type":"uniform","minBindingSize":160}} from draw-uniforms
//   @binding(1) pick: package::pick_output::PickUniforms {"binding":1,"visibility":"vertex|fragment","buffer":{"type":"uniform","minBindingSize":16}} from pick-output
// @group(2) material (empty)
// @group(3) extra
//   @binding(0) flags: array<f32> {"binding":0,"visibility":"fragment","buffer":{"type":"read-only-storage"}} from pick-discard-rule, pick-world-adjust-rule
// vertex buffer 0 (caller buffer 0): stride 12 per vertex: @location(0) position float32x3 +0
// vertex buffer 1 (caller buffer 1): stride 16 per instance: @location(1) instance0 float32x4 +0
// vertex buffer 2 (caller buffer 2): stride 16 per instance: @location(2) instance1 float32x4 +0
// vertex buffer 3 (caller buffer 3): stride 16 per instance: @location(3) instance2 float32x4 +0
// vertex buffer 4 (caller buffer 4): stride 16 per instance: @location(4) instance3 float32x4 +0
// varying @location(0) @interpolate(flat) pickExtras: vec4f
// varying @location(1) @interpolate(flat) pickInstance: u32
// varying @location(2) pickLocal: vec3f
// varying @location(3) worldNormal: vec3f
// varying @location(4) worldPosition: vec3f
// target @location(0) pickId: vec4f -> rgba8unorm
// target @location(1) pickDepth: f32 -> r32float
// target @location(2) pickDetail: vec4u -> rgba32uint
// slot adjustWorldPosition <- pick-world-adjust-rule
// slot deformVertex <- nothing
// slot fragmentStage <- pick-output
// slot pickDiscard <- pick-discard-rule
// slot vertexStage <- standard-vertex
// slot vertexVaryings <- pick-output

// ── generated weft:weft_main ──
enable primitive_index;

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
  @location(1) instance0: vec4f,
  @location(2) instance1: vec4f,
  @location(3) instance2: vec4f,
  @location(4) instance3: vec4f,
}


// ── generated weft:slots ──
fn deformVertex(input: VertexInput, vertex: ptr<function, DeformedVertex>) { }

fn adjustWorldPosition(input: VertexInput, world: mat4x4f, worldPosition: vec3f) -> vec3f {
  return adjustWorldForPick(input, world, worldPosition);
}

// ── generated weft:bindings ──
@group(0) @binding(1) var<uniform> scene: SceneUniforms;

// ── generated weft:slots ──
fn vertexVaryings(input: VertexInput, output: ptr<function, VertexOutput>) {
  writePickVaryings(input, output);
}

// ── generated weft:io ──
struct VertexOutput {
  @builtin(position) position: vec4f,
  @location(0) @interpolate(flat, either) pickExtras: vec4f,
  @location(1) @interpolate(flat, either) pickInstance: u32,
  @location(2) pickLocal: vec3f,
  @location(3) worldNormal: vec3f,
  @location(4) worldPosition: vec3f,
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


// ── fragment pick-world-adjust-rule ──
// weft: feeds the rule from the standard vertex stage (appended after the rule's own lines).
fn adjustWorldForPick(input: VertexInput, world: mat4x4f, worldPosition: vec3f) -> vec3f {
  var w: PickWorldInput;
  w.worldPos = worldPosition;
  w.localPos = input.position;
  w.basis0 = world[0].xyz;
  w.basis1 = world[1].xyz;
  w.basis2 = world[2].xyz;
  w.origin = world[3].xyz;
  w.thinInstanceIndex = 0xffffffffu;
  {
    w.instanceExtras = vec4f(input.instance0.w, input.instance1.w, input.instance2.w, input.instance3.w);
    w.thinInstanceIndex = input.instanceIndex;
    w.hasThinInstance = 1u;
  }
  return adjustPickWorld(w);
}

fn adjustPickWorld(input: PickWorldInput) -> vec3f {
  return input.worldPos + normalize(input.worldPos - input.origin) * input.vertexData.x * 0.1;
}

// ── fragment pick-discard-types ──
// What a world-adjust hook sees for each vertex of the pick pass.
struct PickWorldInput {
  worldPos: vec3f,
  localPos: vec3f,
  // Columns of the world (× instance) matrix: basis vectors and translation.
  basis0: vec3f,
  basis1: vec3f,
  basis2: vec3f,
  origin: vec3f,
  instanceExtras: vec4f,
  thinInstanceIndex: u32,
  hasThinInstance: u32,
  vertexData: vec4f,
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
  (*output).pickLocal = input.position;
  (*output).pickExtras = vec4f(input.instance0.w, input.instance1.w, input.instance2.w, input.instance3.w);
}

fn pickFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  let id = pick.id + input.pickInstance;
  {
    var rule: PickDiscardInput;
    rule.worldPos = input.worldPosition;
    rule.fragmentCoord = input.position.xy + pickFrame.pixelOffset.xy;
    rule.pickId = id;
    rule.hasThinInstance = pick.hasThinInstance;
    rule.thinInstanceIndex = select(0xffffffffu, input.pickInstance, pick.hasThinInstance == 1u);
    rule.instanceExtras = input.pickExtras;
    if (pickDiscard(rule)) {
      discard;
    }
  }
  output.pickId = encodePickId(id);
  output.pickDepth = input.position.z;
  // The interpolated mesh-local position is the exact hit on the triangle at the selected pixel centre:
  // with the primitive index, the CPU gets barycentrics without searching.
  output.pickDetail = vec4u(input.primitiveIndex, bitcast<vec3u>(input.pickLocal));
  return output;
}

// ── generated weft:io ──
struct FragmentInput {
  @builtin(position) position: vec4f,
  @location(0) @interpolate(flat, either) pickExtras: vec4f,
  @location(1) @interpolate(flat, either) pickInstance: u32,
  @location(2) pickLocal: vec3f,
  @location(3) worldNormal: vec3f,
  @location(4) worldPosition: vec3f,
  @builtin(primitive_index) primitiveIndex: u32,
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
  @location(2) pickDetail: vec4u,
}


// ── generated weft:bindings ──
@group(0) @binding(0) var<uniform> pickFrame: PickFrameUniforms;

// ── generated weft:slots ──
fn pickDiscard(input: PickDiscardInput) -> bool {
  return pickDiscard0(input);
}

// ── fragment pick-discard-types ──
// What a pick discard rule sees for each fragment of the pick pass.
struct PickDiscardInput {
  worldPos: vec3f,
  // The selected pixel centre in the original framebuffer (not the 1×1 pick target).
  fragmentCoord: vec2f,
  pickId: u32,
  // 0xffffffff for a mesh without thin instances.
  thinInstanceIndex: u32,
  hasThinInstance: u32,
  // The thin instance's w lanes (matrix elements 3, 7, 11, 15); zero without thin instances.
  instanceExtras: vec4f,
}


struct PickFrameUniforms {
  // Add to the pick target's fragment coordinate to get the original framebuffer's.
  pixelOffset: vec4f,
}


// ── fragment pick-discard-rule ──
fn pickDiscard0(input: PickDiscardInput) -> bool {
  let clipped = dot(input.worldPos, vec3f(0.0, 1.0, 0.0)) > 2.0;
  let hidden = input.hasThinInstance == 1u && input.instanceExtras.x > 0.5;
  return clipped || hidden || flags[0] > 0.5;
}

// ── generated weft:bindings ──
@group(3) @binding(0) var<storage, read> flags: array<f32>;

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
