/** Which inputs a standard-material shader variant reads. */
export interface StandardShaderVariant {
  normals: boolean;
  uvs: boolean;
  colors: boolean;
  thinInstances: boolean;
}

/** Vertex shader locations of the standard material's inputs. */
export const standardVertexLocations = { position: 0, normal: 1, uv: 2, color: 3, instance0: 4 } as const;

/** WGSL of one standard-material variant (Lambert + ambient, base colour × texture × vertex colour). */
export function makeStandardMaterialWgsl(variant: StandardShaderVariant): string {
  const loc = standardVertexLocations;
  const inputs = [
    `  @location(${loc.position}) position: vec3f,`,
    variant.normals ? `  @location(${loc.normal}) normal: vec3f,` : '',
    variant.uvs ? `  @location(${loc.uv}) uv: vec2f,` : '',
    variant.colors ? `  @location(${loc.color}) color: vec4f,` : '',
    variant.thinInstances ? [0, 1, 2, 3].map((i) => `  @location(${loc.instance0 + i}) instance${i}: vec4f,`).join('\n') : '',
  ].filter(Boolean);
  // The instance matrix's w lanes are a per-instance payload: the transform uses 0, 0, 0, 1.
  const instanceWorld = variant.thinInstances
    ? `  let instance = mat4x4f(vec4f(input.instance0.xyz, 0.0), vec4f(input.instance1.xyz, 0.0), vec4f(input.instance2.xyz, 0.0), vec4f(input.instance3.xyz, 1.0));
  let world = draw.world * instance;`
    : '  let world = draw.world;';
  const normalTransform = variant.thinInstances
    ? `  // Inverse-transpose of the instance's 3×3 up to scale: the cofactor matrix (normalised below).
  let a = input.instance0.xyz;
  let b = input.instance1.xyz;
  let c = input.instance2.xyz;
  let cofactor = mat3x3f(cross(b, c), cross(c, a), cross(a, b)) * sign(dot(a, cross(b, c)));
  output.worldNormal = (draw.normalMatrix * vec4f(cofactor * input.normal, 0.0)).xyz;`
    : '  output.worldNormal = (draw.normalMatrix * vec4f(input.normal, 0.0)).xyz;';
  return `struct SceneUniforms {
  viewProjection: mat4x4f,
  cameraPosition: vec4f,
  lightDirection: vec4f,
  lightColor: vec4f,
  ambientColor: vec4f,
}

struct DrawUniforms {
  world: mat4x4f,
  normalMatrix: mat4x4f,
  baseColor: vec4f,
  // x: unlit (1) or lit (0)
  flags: vec4u,
}

@group(0) @binding(0) var<uniform> scene: SceneUniforms;
@group(1) @binding(0) var<uniform> draw: DrawUniforms;
@group(2) @binding(0) var baseTexture: texture_2d<f32>;
@group(2) @binding(1) var baseSampler: sampler;

struct VertexInput {
${inputs.join('\n')}
}

struct VertexOutput {
  @builtin(position) clipPosition: vec4f,
  @location(0) worldPosition: vec3f,
  @location(1) worldNormal: vec3f,
  @location(2) uv: vec2f,
  @location(3) color: vec4f,
}

@vertex
fn vertexMain(input: VertexInput) -> VertexOutput {
  var output: VertexOutput;
${instanceWorld}
  let worldPosition = world * vec4f(input.position, 1.0);
  output.clipPosition = scene.viewProjection * worldPosition;
  output.worldPosition = worldPosition.xyz;
${variant.normals ? normalTransform : '  output.worldNormal = vec3f(0.0);'}
  output.uv = ${variant.uvs ? 'input.uv' : 'vec2f(0.0)'};
  output.color = ${variant.colors ? 'input.color' : 'vec4f(1.0)'};
  return output;
}

@fragment
fn fragmentMain(input: VertexOutput, @builtin(front_facing) frontFacing: bool) -> @location(0) vec4f {
  let texel = textureSample(baseTexture, baseSampler, input.uv);
  let albedo = draw.baseColor * texel * input.color;
  if (draw.flags.x == 1u) {
    return albedo;
  }
${variant.normals
    ? '  var normal = normalize(input.worldNormal);\n  if (!frontFacing) {\n    normal = -normal;\n  }'
    : `  // No vertex normals: the flat face normal from screen-space derivatives, turned to the viewer.
  var normal = normalize(cross(dpdx(input.worldPosition), dpdy(input.worldPosition)));
  if (dot(normal, scene.cameraPosition.xyz - input.worldPosition) < 0.0) {
    normal = -normal;
  }`}
  let diffuse = max(dot(normal, scene.lightDirection.xyz), 0.0);
  let lit = albedo.rgb * (scene.ambientColor.rgb + scene.lightColor.rgb * diffuse);
  return vec4f(lit, albedo.a);
}
`;
}
