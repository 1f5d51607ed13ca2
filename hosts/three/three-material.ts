// A weft surface as a three.js material: three draws the mesh with its own vertex pipeline (object transform, camera,
// instancing, skinning, morph targets), and weft's composed fragment stage shades it from three's world position,
// world normal and UV. Every uniform field of the surface is a TSL uniform node, set by name without recompiling.
import { Matrix3, Matrix4, Vector2, Vector3, Vector4 } from 'three';
import { code, normalWorld, positionWorld, uniform, uv, wgslFn } from 'three/tsl';
import { MeshStandardNodeMaterial, NodeMaterial } from 'three/webgpu';
import type { ComposedShader } from '../../composer/compose-shader.js';
import {
  checkHostUniformNames,
  checkHostUniformValue,
  composeHostSurface,
  hostFieldComponents,
  hostFragmentStructs,
  hostSurfaceReadsUv,
  type HostSurfaceSpec,
  type HostUniformFailure,
  type HostUniformValues,
} from '../../composer/host-uniforms.js';
import type { StructLayout } from '../../composer/uniform-layout-types.js';
import { describeValue, WeftError } from '../../core/errors.js';

/** Codes of a ThreeMaterialError: a bad argument, or a surface weft-gpu/three cannot feed yet. */
export type ThreeMaterialErrorCode = 'bad-option' | 'unsupported';

/** What createThreeMaterial and setThreeMaterialUniforms throw: names the call, the value and what is allowed. */
export class ThreeMaterialError extends WeftError<ThreeMaterialErrorCode> {
  constructor(api: string, code: NoInfer<ThreeMaterialErrorCode>, message: string) {
    super(api, code, message);
    this.name = 'ThreeMaterialError';
  }
}

/** Uniform values by binding, then field (`{ bandParams: { tint: [1, 0, 0, 1] } }`): numbers, or arrays of numbers. */
export type ThreeUniformValues = HostUniformValues;

/** What createThreeMaterial makes a material from. */
export interface ThreeMaterialSpec extends HostSurfaceSpec {
  /**
   * `false` (default): weft's colour is the pixel (weft's own lighting, from its uniforms). `true`: weft's colour is the
   * base colour of a `MeshStandardNodeMaterial`, lit by three's lights.
   */
  lit?: boolean;
}

/** A TSL uniform node (its `value` is what reaches the GPU with the next frame). */
type UniformNode = { value: unknown };

/** A weft surface as a three.js material. Plain state: `material` goes on three meshes. */
export interface ThreeMaterial {
  readonly material: NodeMaterial;
  /** The composed library the material's fragment stage runs. */
  readonly composed: ComposedShader;
  /** The uniform node of each fed field, by binding then field. */
  readonly uniforms: ReadonlyMap<string, ReadonlyMap<string, { node: UniformNode; wgsl: string }>>;
}

const specKeys = ['fragments', 'conditions', 'uniforms', 'lit'];
/** Integer fields are exact in three's int / uint uniform nodes. */
const integerLimit = 2 ** 31;

/** The adapter's refusals, as ThreeMaterialErrors of `api`. */
const failWith =
  (api: string): HostUniformFailure =>
  (code, message) =>
    new ThreeMaterialError(api, code, message);

/** A TSL uniform node of a field's WGSL type, starting at `value`. */
function makeUniformNode(wgsl: string, value: readonly number[]): UniformNode {
  const v = value;
  const integer = /^vec([234])([iu])$/.exec(wgsl);
  if (integer) {
    const n = Number(integer[1]);
    const vector = n === 2 ? new Vector2() : n === 3 ? new Vector3() : new Vector4();
    vector.fromArray(v.length === n ? [...v] : new Array(n).fill(0));
    return (uniform as (value: unknown, type: string) => unknown)(vector, `${integer[2]}vec${n}`) as UniformNode;
  }
  switch (wgsl) {
    case 'f32':
      return uniform(v[0] ?? 0) as unknown as UniformNode;
    case 'i32':
      return uniform(v[0] ?? 0, 'int') as unknown as UniformNode;
    case 'u32':
      return uniform(v[0] ?? 0, 'uint') as unknown as UniformNode;
    case 'vec2f':
      return uniform(new Vector2(v[0] ?? 0, v[1] ?? 0)) as unknown as UniformNode;
    case 'vec3f':
      return uniform(new Vector3(v[0] ?? 0, v[1] ?? 0, v[2] ?? 0)) as unknown as UniformNode;
    case 'vec4f':
      return uniform(new Vector4(v[0] ?? 0, v[1] ?? 0, v[2] ?? 0, v[3] ?? 0)) as unknown as UniformNode;
    case 'mat3x3f':
      return uniform(new Matrix3().fromArray(v.length === 9 ? [...v] : new Array(9).fill(0))) as unknown as UniformNode;
    default:
      return uniform(
        new Matrix4().fromArray(v.length === 16 ? [...v] : new Array(16).fill(0)),
      ) as unknown as UniformNode;
  }
}

/** Writes `value` into a uniform node of type `wgsl` (checked before). */
function writeUniform(node: UniformNode, wgsl: string, value: readonly number[]): void {
  if (hostFieldComponents[wgsl] === 1) node.value = value[0];
  else (node.value as { fromArray(a: readonly number[]): void }).fromArray(value);
}

/**
 * Turns a weft surface into a three.js `NodeMaterial`: three's own vertex pipeline places the mesh (so it moves with
 * `mesh.position`, instances, bones and morph targets), and weft's fragment stage shades it. Equal specs compose to
 * equal code, which three compiles once for every material that uses it.
 * @throws {ThreeMaterialError} `bad-option` for an unknown key, binding, field or a wrong value; `unsupported` for a
 * surface that reads textures, samplers, storage or struct fields weft-gpu/three cannot feed; ComposeError from the
 * composer for a fragment that does not compose
 */
export function createThreeMaterial(spec: ThreeMaterialSpec): ThreeMaterial {
  const api = 'createThreeMaterial';
  if (spec === null || typeof spec !== 'object' || !Array.isArray(spec.fragments))
    throw new ThreeMaterialError(
      api,
      'bad-option',
      `spec ${describeValue(spec)} must be { fragments, conditions?, uniforms?, lit? }`,
    );
  for (const key of Object.keys(spec))
    if (!specKeys.includes(key))
      throw new ThreeMaterialError(api, 'bad-option', `${key} is not an option; allowed: ${specKeys.join(', ')}`);
  const fail = failWith(api);
  const composed = composeHostSurface(spec.fragments, spec.conditions);
  const structs = hostFragmentStructs(composed, 'weft-gpu/three', fail);
  const uniforms = new Map<string, Map<string, { node: UniformNode; wgsl: string }>>();
  const given = spec.uniforms ?? {};
  checkHostUniformNames(structs, given, fail);
  for (const [binding, struct] of structs) {
    const fields = new Map<string, { node: UniformNode; wgsl: string }>();
    for (const field of struct.fields) {
      const value = given[binding]?.[field.name];
      const initial =
        value === undefined
          ? []
          : checkHostUniformValue(binding, field.name, field.type.wgsl, value, integerLimit, fail);
      fields.set(field.name, { node: makeUniformNode(field.type.wgsl, initial), wgsl: field.type.wgsl });
    }
    uniforms.set(binding, fields);
  }
  const feedsUv = hostSurfaceReadsUv(composed);
  const args = [...structs].flatMap(([binding, struct]) => struct.fields.map((f) => ({ binding, field: f })));
  const argName = (binding: string, field: string) => `weft_${binding}_${field}`;
  const makers = [...structs]
    .map(([binding, struct]) => {
      const sets = struct.fields.map((f) => `  value.${f.name} = ${argName(binding, f.name)};`).join('\n');
      const params = struct.fields.map((f) => `${argName(binding, f.name)}: ${f.type.wgsl}`).join(', ');
      return `fn weftThreeMake_${binding}(${params}) -> ${struct.name} {\n  var value: ${struct.name};\n${sets}\n  return value;\n}`;
    })
    .join('\n');
  const library = code(`${composed.code}\n${makers}`);
  const params = args.map(({ binding, field }) => `, ${argName(binding, field.name)}: ${field.type.wgsl}`).join('');
  const calls = [...structs]
    .map(
      ([binding, struct]) =>
        `, weftThreeMake_${binding}(${struct.fields.map((f) => argName(binding, f.name)).join(', ')})`,
    )
    .join('');
  const surface = wgslFn(
    `fn weftThreeSurface(worldPosition: vec3f, worldNormal: vec3f${feedsUv ? ', uv: vec2f' : ''}${params}) -> vec4f {
  var input: FragmentInput;
  input.worldPosition = worldPosition;
  input.worldNormal = worldNormal;${feedsUv ? '\n  input.uv = uv;' : ''}
  return weftFragment(input${calls}).color;
}`,
    [library],
  );
  const nodeArgs: Record<string, unknown> = { worldPosition: positionWorld, worldNormal: normalWorld };
  if (feedsUv) nodeArgs.uv = uv();
  for (const { binding, field } of args)
    nodeArgs[argName(binding, field.name)] = uniforms.get(binding)!.get(field.name)!.node;
  const colour = surface(nodeArgs as never);
  let material: NodeMaterial;
  if (spec.lit) {
    const lit = new MeshStandardNodeMaterial();
    lit.colorNode = colour as never;
    material = lit;
  } else {
    material = new NodeMaterial();
    material.fragmentNode = colour;
  }
  return { material, composed, uniforms };
}

/**
 * Sets uniform fields by name (`{ bandParams: { tint: [1, 0, 0, 1] } }`): the values reach the GPU with three's next
 * frame; nothing is recompiled. Everything is checked before anything is written.
 * @throws {ThreeMaterialError} `bad-option` naming an unknown binding or field (and listing the valid ones) or a value
 * of the wrong length
 */
export function setThreeMaterialUniforms(material: ThreeMaterial, values: ThreeUniformValues): void {
  const api = 'setThreeMaterialUniforms';
  const structs = new Map<string, StructLayout>();
  for (const binding of material.uniforms.keys()) {
    const type = material.composed.bufferLayouts[binding]?.type;
    if (type?.kind === 'struct') structs.set(binding, type);
  }
  const fail = failWith(api);
  checkHostUniformNames(structs, values, fail);
  const writes: [UniformNode, string, readonly number[]][] = [];
  for (const [binding, fields] of Object.entries(values))
    for (const [field, value] of Object.entries(fields)) {
      const slot = material.uniforms.get(binding)!.get(field)!;
      writes.push([slot.node, slot.wgsl, checkHostUniformValue(binding, field, slot.wgsl, value, integerLimit, fail)]);
    }
  for (const [node, wgsl, value] of writes) writeUniform(node, wgsl, value);
}

/** Disposes the three.js material (three releases its pipeline when no material uses the code any more). */
export function disposeThreeMaterial(material: ThreeMaterial): void {
  material.material.dispose();
}
