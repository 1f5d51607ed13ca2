// A weft surface as a three.js material: three draws the mesh with its own vertex pipeline (object transform, camera,
// instancing, skinning, morph targets), and weft's composed fragment stage shades it from three's world position,
// world normal and UV. Every uniform field of the surface is a TSL uniform node, set by name without recompiling.
import { Matrix3, Matrix4, Vector2, Vector3, Vector4 } from 'three';
import { code, normalWorld, positionWorld, uniform, uv, wgslFn } from 'three/tsl';
import { MeshStandardNodeMaterial, NodeMaterial } from 'three/webgpu';
import { type ComposedShader, composeShader } from '../../composer/compose-shader.js';
import type { StructLayout } from '../../composer/uniform-layout-types.js';
import { describeValue, WeftError } from '../../core/errors.js';
import type { Fragment } from '../../fragments/fragment-types.js';
import { makeStandardVertexFragments } from '../../fragments/standard-material.js';

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
export type ThreeUniformValues = Readonly<Record<string, Readonly<Record<string, number | readonly number[]>>>>;

/** What createThreeMaterial makes a material from. */
export interface ThreeMaterialSpec {
  /**
   * The weft fragments of the surface (one fills the `fragmentStage` slot) and what they depend on (e.g.
   * `makeLambertLightingFragment()`); weft's standard vertex fragments are added for their structs.
   */
  fragments: readonly Fragment[];
  /** Compose conditions (`normals` is always on; `uvs: true` feeds three's `uv()` to `input.uv`). */
  conditions?: Readonly<Record<string, boolean>>;
  /** Initial values of the surface's uniform fields; fields left out start at zero. */
  uniforms?: ThreeUniformValues;
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
const components: Record<string, number> = {
  f32: 1,
  i32: 1,
  u32: 1,
  vec2f: 2,
  vec3f: 3,
  vec4f: 4,
  vec2i: 2,
  vec3i: 3,
  vec4i: 4,
  vec2u: 2,
  vec3u: 3,
  vec4u: 4,
  mat3x3f: 9,
  mat4x4f: 16,
};

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
  if (components[wgsl] === 1) node.value = value[0];
  else (node.value as { fromArray(a: readonly number[]): void }).fromArray(value);
}

function checkValue(api: string, binding: string, field: string, wgsl: string, value: unknown): readonly number[] {
  const list = typeof value === 'number' ? [value] : value;
  const length = components[wgsl];
  if (
    !(Array.isArray(list) || ArrayBuffer.isView(list)) ||
    (list as ArrayLike<number>).length !== length ||
    !Array.from(list as ArrayLike<number>).every((n) => typeof n === 'number' && Number.isFinite(n))
  )
    throw new ThreeMaterialError(
      api,
      'bad-option',
      `${binding}.${field} ${describeValue(value)} must be ${length === 1 ? 'a finite number' : `${length} finite numbers`} (WGSL ${wgsl})`,
    );
  return Array.from(list as ArrayLike<number>);
}

/** The struct layouts of the fragment stage's resources, by binding (every field must be a type a node can hold). */
function fragmentStructs(api: string, composed: ComposedShader): Map<string, StructLayout> {
  const structs = new Map<string, StructLayout>();
  for (const binding of composed.stageResources!.fragment) {
    const type = composed.bufferLayouts[binding]?.type;
    if (type?.kind !== 'struct')
      throw new ThreeMaterialError(
        api,
        'unsupported',
        `the surface reads "${binding}", which is not a uniform struct; weft-gpu/three feeds uniform structs only (no textures, samplers or storage buffers yet)`,
      );
    for (const field of type.fields)
      if (
        !(field.type.kind === 'scalar' || field.type.kind === 'vector' || field.type.kind === 'matrix') ||
        !(field.type.wgsl in components)
      )
        throw new ThreeMaterialError(
          api,
          'unsupported',
          `${binding}.${field.name} is a ${field.type.wgsl}; weft-gpu/three feeds f32, i32, u32, vectors of those (2 to 4), mat3x3f and mat4x4f fields`,
        );
    structs.set(binding, type);
  }
  return structs;
}

/** The fields of FragmentInput in the composed library (three feeds those it has: world position, normal, uv). */
function fragmentInputFields(composed: ComposedShader): string[] {
  const match = /struct FragmentInput \{([^}]*)\}/.exec(composed.code);
  return match ? [...match[1].matchAll(/(\w+)\s*:/g)].map((m) => m[1]) : [];
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
  const composed = composeShader({
    fragments: [...makeStandardVertexFragments(), ...spec.fragments],
    conditions: { ...spec.conditions, normals: true },
    vertexLayout: { kind: 'tight' },
    output: 'library',
  });
  const structs = fragmentStructs(api, composed);
  const uniforms = new Map<string, Map<string, { node: UniformNode; wgsl: string }>>();
  const given = spec.uniforms ?? {};
  checkBindings(api, structs, given);
  for (const [binding, struct] of structs) {
    const fields = new Map<string, { node: UniformNode; wgsl: string }>();
    for (const field of struct.fields) {
      const value = given[binding]?.[field.name];
      const initial = value === undefined ? [] : checkValue(api, binding, field.name, field.type.wgsl, value);
      fields.set(field.name, { node: makeUniformNode(field.type.wgsl, initial), wgsl: field.type.wgsl });
    }
    uniforms.set(binding, fields);
  }
  const inputs = fragmentInputFields(composed);
  const feedsUv = inputs.includes('uv');
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

function checkBindings(api: string, structs: Map<string, StructLayout>, values: ThreeUniformValues): void {
  if (values === null || typeof values !== 'object')
    throw new ThreeMaterialError(
      api,
      'bad-option',
      `uniforms ${describeValue(values)} must be { binding: { field: value } }`,
    );
  for (const [binding, fields] of Object.entries(values)) {
    const struct = structs.get(binding);
    if (!struct)
      throw new ThreeMaterialError(
        api,
        'bad-option',
        `the surface has no uniform binding "${binding}"; its bindings: ${[...structs.keys()].join(', ') || 'none'}`,
      );
    for (const field of Object.keys(fields ?? {}))
      if (!struct.fields.some((f) => f.name === field))
        throw new ThreeMaterialError(
          api,
          'bad-option',
          `${binding} (${struct.name}) has no field "${field}"; its fields: ${struct.fields.map((f) => f.name).join(', ')}`,
        );
  }
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
  checkBindings(api, structs, values);
  const writes: [UniformNode, string, readonly number[]][] = [];
  for (const [binding, fields] of Object.entries(values))
    for (const [field, value] of Object.entries(fields)) {
      const slot = material.uniforms.get(binding)!.get(field)!;
      writes.push([slot.node, slot.wgsl, checkValue(api, binding, field, slot.wgsl, value)]);
    }
  for (const [node, wgsl, value] of writes) writeUniform(node, wgsl, value);
}

/** Disposes the three.js material (three releases its pipeline when no material uses the code any more). */
export function disposeThreeMaterial(material: ThreeMaterial): void {
  material.material.dispose();
}
