// A weft surface as a Babylon.js material: a WGSL ShaderMaterial whose vertex stage is Babylon.js's own (world matrix,
// instances, thin instances, bones, morph targets), and whose fragment stage is weft's composed surface, fed from
// Babylon.js's world position, world normal and UV. Every uniform field of the surface is a Babylon.js uniform of its
// own, set by name without recompiling.
import { ShaderLanguage } from '@babylonjs/core/Materials/shaderLanguage.js';
import { ShaderMaterial } from '@babylonjs/core/Materials/shaderMaterial.pure.js';
import { Matrix, Vector2, Vector3, Vector4 } from '@babylonjs/core/Maths/math.vector.pure.js';
import type { Scene } from '@babylonjs/core/scene.js';
import { type ComposedShader, composeShader } from '../../composer/compose-shader.js';
import type { StructLayout } from '../../composer/uniform-layout-types.js';
import { describeValue, WeftError } from '../../core/errors.js';
import type { Fragment } from '../../fragments/fragment-types.js';
import { makeStandardVertexFragments } from '../../fragments/standard-material.js';
import {
  babylonUniformName,
  isIntegerType,
  loadBabylonMaterialIncludesAsync,
  makeBabylonMaterialSources,
} from './babylon-material-shaders.js';

/** Codes of a BabylonMaterialError: a bad argument, or a surface weft-gpu/babylon cannot feed yet. */
export type BabylonMaterialErrorCode = 'bad-option' | 'unsupported';

/** What createBabylonMaterial and setBabylonMaterialUniforms throw: names the call, the value and what is allowed. */
export class BabylonMaterialError extends WeftError<BabylonMaterialErrorCode> {
  constructor(api: string, code: NoInfer<BabylonMaterialErrorCode>, message: string) {
    super(api, code, message);
    this.name = 'BabylonMaterialError';
  }
}

/** Uniform values by binding, then field (`{ bandParams: { tint: [1, 0, 0, 1] } }`): numbers, or arrays of numbers. */
export type BabylonUniformValues = Readonly<Record<string, Readonly<Record<string, number | readonly number[]>>>>;

/** What createBabylonMaterial makes a material from. */
export interface BabylonMaterialSpec {
  /**
   * The weft fragments of the surface (one fills the `fragmentStage` slot) and what they depend on (e.g.
   * `makeLambertLightingFragment()`); weft's standard vertex fragments are added for their structs.
   */
  fragments: readonly Fragment[];
  /** Compose conditions (`normals` is always on; `uvs: true` feeds the mesh's `uv` attribute to `input.uv`). */
  conditions?: Readonly<Record<string, boolean>>;
  /** Initial values of the surface's uniform fields; fields left out start at zero. */
  uniforms?: BabylonUniformValues;
  /** The Babylon.js material's name (default `weft`). */
  name?: string;
}

/** A weft surface as a Babylon.js material. Plain state: `material` goes on Babylon.js meshes. */
export interface BabylonMaterial {
  readonly material: ShaderMaterial;
  /** The composed library the material's fragment stage runs. */
  readonly composed: ComposedShader;
  /** The Babylon.js uniform of each fed field (`weft_<binding>_<field>`) and its WGSL type, by binding then field. */
  readonly uniforms: ReadonlyMap<string, ReadonlyMap<string, { name: string; wgsl: string }>>;
}

const specKeys = ['fragments', 'conditions', 'uniforms', 'name'];
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
/** Integers travel as f32 (exactly below 2^24). */
const integerLimit = 2 ** 24;

function checkValue(api: string, binding: string, field: string, wgsl: string, value: unknown): number[] {
  const list = typeof value === 'number' ? [value] : value;
  const length = components[wgsl];
  const numbers =
    (Array.isArray(list) || ArrayBuffer.isView(list)) && (list as ArrayLike<number>).length === length
      ? Array.from(list as ArrayLike<number>)
      : undefined;
  const integer = isIntegerType(wgsl);
  const min = wgsl.endsWith('u') || wgsl === 'u32' ? 0 : 1 - integerLimit;
  if (
    !numbers?.every(
      (n) =>
        typeof n === 'number' &&
        Number.isFinite(n) &&
        (!integer || (Number.isInteger(n) && n >= min && n < integerLimit)),
    )
  ) {
    const range = `in [${min}, ${integerLimit})`;
    const one = integer ? `an integer ${range}` : 'a finite number';
    const many = `${length} ${integer ? `integers ${range}` : 'finite numbers'}`;
    throw new BabylonMaterialError(
      api,
      'bad-option',
      `${binding}.${field} ${describeValue(value)} must be ${length === 1 ? one : many} (WGSL ${wgsl})`,
    );
  }
  return numbers;
}

/** Writes a checked value into the material's uniform `name` (Babylon.js uploads it with the next draw). */
function writeUniform(material: ShaderMaterial, name: string, wgsl: string, v: readonly number[]): void {
  const size = components[wgsl];
  if (wgsl === 'mat4x4f') material.setMatrix(name, Matrix.FromArray(v));
  else if (wgsl === 'mat3x3f') material.setMatrix3x3(name, Float32Array.from(v));
  else if (size === 1) material.setFloat(name, v[0]);
  else if (size === 2) material.setVector2(name, new Vector2(v[0], v[1]));
  else if (size === 3) material.setVector3(name, new Vector3(v[0], v[1], v[2]));
  else material.setVector4(name, new Vector4(v[0], v[1], v[2], v[3]));
}

/** The struct layouts of the fragment stage's resources, by binding (every field must be a type Babylon.js can hold). */
function fragmentStructs(api: string, composed: ComposedShader): Map<string, StructLayout> {
  const structs = new Map<string, StructLayout>();
  for (const binding of composed.stageResources!.fragment) {
    const type = composed.bufferLayouts[binding]?.type;
    if (type?.kind !== 'struct')
      throw new BabylonMaterialError(
        api,
        'unsupported',
        `the surface reads "${binding}", which is not a uniform struct; weft-gpu/babylon feeds uniform structs only (no textures, samplers or storage buffers yet)`,
      );
    for (const field of type.fields)
      if (
        !(field.type.kind === 'scalar' || field.type.kind === 'vector' || field.type.kind === 'matrix') ||
        !(field.type.wgsl in components)
      )
        throw new BabylonMaterialError(
          api,
          'unsupported',
          `${binding}.${field.name} is a ${field.type.wgsl}; weft-gpu/babylon feeds f32, i32, u32, vectors of those (2 to 4), mat3x3f and mat4x4f fields`,
        );
    structs.set(binding, type);
  }
  return structs;
}

function checkBindings(api: string, structs: ReadonlyMap<string, StructLayout>, values: BabylonUniformValues): void {
  if (values === null || typeof values !== 'object')
    throw new BabylonMaterialError(
      api,
      'bad-option',
      `uniforms ${describeValue(values)} must be { binding: { field: value } }`,
    );
  for (const [binding, fields] of Object.entries(values)) {
    const struct = structs.get(binding);
    if (!struct)
      throw new BabylonMaterialError(
        api,
        'bad-option',
        `the surface has no uniform binding "${binding}"; its bindings: ${[...structs.keys()].join(', ') || 'none'}`,
      );
    for (const field of Object.keys(fields ?? {}))
      if (!struct.fields.some((f) => f.name === field))
        throw new BabylonMaterialError(
          api,
          'bad-option',
          `${binding} (${struct.name}) has no field "${field}"; its fields: ${struct.fields.map((f) => f.name).join(', ')}`,
        );
  }
}

/**
 * Turns a weft surface into a Babylon.js WGSL `ShaderMaterial` (for a `WebGPUEngine`): Babylon.js's own vertex code
 * places the mesh (world matrix, instances, thin instances, bones, morph targets, clip planes), and weft's fragment
 * stage shades it. The material culls back faces and leaves `sideOrientation` null, so each mesh's own orientation
 * decides (what `MeshBuilder` and the glTF loader set for the scene's handedness). Equal specs compose to equal code,
 * which Babylon.js compiles once for every material that uses it.
 * @throws {BabylonMaterialError} `bad-option` for an unknown key, binding, field or a wrong value; `unsupported` for a
 * surface that reads textures, samplers, storage or struct fields weft-gpu/babylon cannot feed; ComposeError from the
 * composer for a fragment that does not compose
 */
export function createBabylonMaterial(scene: Scene, spec: BabylonMaterialSpec): BabylonMaterial {
  const api = 'createBabylonMaterial';
  if (scene === null || typeof scene !== 'object' || typeof (scene as Partial<Scene>).getEngine !== 'function')
    throw new BabylonMaterialError(api, 'bad-option', `scene ${describeValue(scene)} must be a Babylon.js Scene`);
  if (spec === null || typeof spec !== 'object' || !Array.isArray(spec.fragments))
    throw new BabylonMaterialError(
      api,
      'bad-option',
      `spec ${describeValue(spec)} must be { fragments, conditions?, uniforms?, name? }`,
    );
  for (const key of Object.keys(spec))
    if (!specKeys.includes(key))
      throw new BabylonMaterialError(api, 'bad-option', `${key} is not an option; allowed: ${specKeys.join(', ')}`);
  if (spec.name !== undefined && typeof spec.name !== 'string')
    throw new BabylonMaterialError(api, 'bad-option', `name ${describeValue(spec.name)} must be a string`);
  const composed = composeShader({
    fragments: [...makeStandardVertexFragments(), ...spec.fragments],
    conditions: { ...spec.conditions, normals: true },
    vertexLayout: { kind: 'tight' },
    output: 'library',
  });
  const structs = fragmentStructs(api, composed);
  const given = spec.uniforms ?? {};
  checkBindings(api, structs, given);
  const initial: [string, string, number[]][] = [];
  const uniforms = new Map<string, Map<string, { name: string; wgsl: string }>>();
  for (const [binding, struct] of structs) {
    const fields = new Map<string, { name: string; wgsl: string }>();
    for (const field of struct.fields) {
      const wgsl = field.type.wgsl;
      const value = given[binding]?.[field.name];
      const name = babylonUniformName(binding, field.name);
      fields.set(field.name, { name, wgsl });
      initial.push([
        name,
        wgsl,
        value === undefined ? new Array(components[wgsl]).fill(0) : checkValue(api, binding, field.name, wgsl, value),
      ]);
    }
    uniforms.set(binding, fields);
  }
  const uvs = /struct FragmentInput \{[^}]*\buv\s*:/.test(composed.code);
  const material = new ShaderMaterial(
    spec.name ?? 'weft',
    scene,
    makeBabylonMaterialSources(composed.code, structs, uvs),
    {
      attributes: uvs ? ['position', 'normal', 'uv'] : ['position', 'normal'],
      uniforms: ['world', 'viewProjection', ...initial.map(([name]) => name)],
      defines: uvs ? ['NORMAL', 'UV1'] : ['NORMAL'],
      shaderLanguage: ShaderLanguage.WGSL,
      extraInitializationsAsync: loadBabylonMaterialIncludesAsync,
    },
  );
  material.backFaceCulling = true;
  material.sideOrientation = null;
  for (const [name, wgsl, value] of initial) writeUniform(material, name, wgsl, value);
  return { material, composed, uniforms };
}

/**
 * Sets uniform fields by name (`{ bandParams: { tint: [1, 0, 0, 1] } }`): the values reach the GPU with Babylon.js's
 * next draw; nothing is recompiled. Everything is checked before anything is written.
 * @throws {BabylonMaterialError} `bad-option` naming an unknown binding or field (and listing the valid ones) or a
 * value of the wrong length or kind
 */
export function setBabylonMaterialUniforms(material: BabylonMaterial, values: BabylonUniformValues): void {
  const api = 'setBabylonMaterialUniforms';
  const structs = new Map<string, StructLayout>();
  for (const binding of material.uniforms.keys()) {
    const type = material.composed.bufferLayouts[binding]?.type;
    if (type?.kind === 'struct') structs.set(binding, type);
  }
  checkBindings(api, structs, values);
  const writes: [string, string, number[]][] = [];
  for (const [binding, fields] of Object.entries(values))
    for (const [field, value] of Object.entries(fields)) {
      const slot = material.uniforms.get(binding)!.get(field)!;
      writes.push([slot.name, slot.wgsl, checkValue(api, binding, field, slot.wgsl, value)]);
    }
  for (const [name, wgsl, value] of writes) writeUniform(material.material, name, wgsl, value);
}

/** Disposes the Babylon.js material (Babylon.js keeps the compiled effect for other materials of the same code). */
export function disposeBabylonMaterial(material: BabylonMaterial): void {
  material.material.dispose();
}
