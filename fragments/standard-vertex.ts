import type { Fragment, TextureBinding } from './fragment-types.js';

/**
 * Condition: deformation data (morph deltas and weights, VAT playback, their previous-frame copies) is read from
 * textures (`rowWrappedTexel`) instead of vertex-stage storage buffers, for devices that have none (compatibility mode).
 */
export const deformTexturesCondition = 'deformTextures';

const source = `import bindings::{ draw, scene };
import io::{ VertexInput, VertexOutput };
import package::thin_instances::{ instanceMatrix, instanceNormalMatrix };
import slots::{ adjustWorldPosition, deformVertex, vertexVaryings };

// The mesh-local vertex after deformation (morph targets, skinning): what the world transform sees.
struct DeformedVertex {
  position: vec3f,
  normal: vec3f,
}

// A bone matrix stored as four rgba32float texels in a row, one per column, starting at texel.
fn boneMatrixAt(bones: texture_2d<f32>, texel: vec2i) -> mat4x4f {
  return mat4x4f(textureLoad(bones, texel, 0), textureLoad(bones, texel + vec2i(1, 0), 0),
                 textureLoad(bones, texel + vec2i(2, 0), 0), textureLoad(bones, texel + vec2i(3, 0), 0));
}

// The weighted sum of four bone matrices (one influence set), the bone blend every deformation fragment shares:
// bone j's first texel is first + joints[j] * step. Eight influences are two calls.
fn blendBones(bones: texture_2d<f32>, first: vec2i, step: vec2i, joints: vec4u, weights: vec4f) -> mat4x4f {
  return boneMatrixAt(bones, first + i32(joints.x) * step) * weights.x + boneMatrixAt(bones, first + i32(joints.y) * step) * weights.y
       + boneMatrixAt(bones, first + i32(joints.z) * step) * weights.z + boneMatrixAt(bones, first + i32(joints.w) * step) * weights.w;
}

@if(deformTextures)
fn rowWrappedTexel(data: texture_2d<f32>, index: u32) -> vec4f {
  // Element index of an array laid out in a texture row after row (deformation data on a device without vertex-stage
  // storage buffers): the same floats the storage buffer holds on other devices.
  let width = textureDimensions(data).x;
  return textureLoad(data, vec2u(index % width, index / width), 0);
}

// Default of the adjustWorldPosition slot: the affine world position, unchanged.
fn keepWorldPosition(input: VertexInput, world: mat4x4f, worldPosition: vec3f) -> vec3f {
  return worldPosition;
}

fn standardVertex(input: VertexInput) -> VertexOutput {
  var output: VertexOutput;
  @if(thinInstances) let world = draw.world * instanceMatrix(input.instance0, input.instance1, input.instance2, input.instance3);
  @else let world = draw.world;
  var local: DeformedVertex;
  local.position = input.position;
  @if(normals) local.normal = input.normal;
  deformVertex(input, &local);
  let worldPosition = vec4f(adjustWorldPosition(input, world, (world * vec4f(local.position, 1.0)).xyz), 1.0);
  output.position = scene.viewProjection * worldPosition;
  output.worldPosition = worldPosition.xyz;
  @if(normals && thinInstances) output.worldNormal = (draw.normalMatrix * vec4f(instanceNormalMatrix(input.instance0, input.instance1, input.instance2) * local.normal, 0.0)).xyz;
  @elif(normals) output.worldNormal = (draw.normalMatrix * vec4f(local.normal, 0.0)).xyz;
  @else output.worldNormal = vec3f(0.0);
  @if(uvs) output.uv = input.uv;
  @if(colors) output.color = input.color;
  vertexVaryings(input, &output);
  return output;
}
`;

/**
 * The standard vertex stage (fills `vertexStage`): world (× thin instance) transform, world normal (cofactor for
 * instances), uv and colour varyings (declared only with `uvs` / `colors`: an interpolated constant still costs every
 * fragment). Conditions: `normals`, `uvs`, `colors`, `thinInstances`. Provides the
 * `vertexVaryings` slot so other passes (pick, geometry) write extra varyings from the same transform, and the
 * `adjustWorldPosition` slot (world position after the affine transform, before projection) for displacement hooks.
 * Also holds the bone blend (`blendBones`) that skinning, VAT and the previous-frame deformation share, and, with
 * `deformTextures`, `rowWrappedTexel`: how morph and VAT data laid out in textures are read.
 */
export function makeStandardVertexFragment(): Fragment {
  return {
    id: 'standard-vertex',
    source,
    dependencies: ['draw-uniforms', 'scene-uniforms', 'thin-instances'],
    vertexInputs: [
      { semantic: 'position', format: 'float32x3' },
      { semantic: 'normal', format: 'float32x3', when: 'normals' },
      { semantic: 'uv', format: 'float32x2', when: 'uvs' },
      { semantic: 'color', format: 'float32x4', when: 'colors' },
    ],
    varyings: [
      { name: 'worldPosition', type: 'vec3f' },
      { name: 'worldNormal', type: 'vec3f' },
      { name: 'uv', type: 'vec2f', when: 'uvs' },
      { name: 'color', type: 'vec4f', when: 'colors' },
    ],
    provides: [
      {
        name: 'vertexVaryings',
        params: [
          { name: 'input', type: 'VertexInput' },
          { name: 'output', type: 'ptr<function, VertexOutput>' },
        ],
        combine: 'all',
      },
      {
        // Deformation hook: fillers (morph targets, then skinning) rewrite the local vertex in fragment order.
        name: 'deformVertex',
        params: [
          { name: 'input', type: 'VertexInput' },
          { name: 'vertex', type: 'ptr<function, DeformedVertex>' },
        ],
        combine: 'all',
      },
      {
        // World-adjust hook: runs after the affine world (× instance) transform, before the view-projection.
        name: 'adjustWorldPosition',
        params: [
          { name: 'input', type: 'VertexInput' },
          { name: 'world', type: 'mat4x4f' },
          { name: 'worldPosition', type: 'vec3f' },
        ],
        returns: 'vec3f',
        default: 'keepWorldPosition',
      },
    ],
    fills: [{ slot: 'vertexStage', fn: 'standardVertex' }],
  };
}

/**
 * A vertex-stage texture read by `rowWrappedTexel` (rgba32float or r32float, `textureLoad`), present only with
 * `deformTextures`.
 * @internal
 */
export function rowWrappedTextureBinding(name: string): TextureBinding {
  return {
    name,
    kind: 'texture',
    sampleType: 'unfilterable-float',
    viewDimension: '2d',
    role: 'extra',
    visibility: ['vertex'],
    when: deformTexturesCondition,
  };
}
