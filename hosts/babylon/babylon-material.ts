// A weft surface as a Babylon.js material: a WGSL ShaderMaterial whose vertex stage is Babylon.js's own (world matrix,
// instances, thin instances, bones, morph targets), and whose fragment stage is weft's composed surface, fed from
// Babylon.js's world position, world normal and UV. Every uniform field of the surface is a Babylon.js uniform of its
// own, set by name without recompiling.
import { ShaderLanguage } from '@babylonjs/core/Materials/shaderLanguage.js';
import { ShaderMaterial } from '@babylonjs/core/Materials/shaderMaterial.pure.js';
import { Matrix, Vector2, Vector3, Vector4 } from '@babylonjs/core/Maths/math.vector.pure.js';
import type { Scene } from '@babylonjs/core/scene.js';
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
import {
  babylonUniformName,
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
export type BabylonUniformValues = HostUniformValues;

/** What createBabylonMaterial makes a material from. */
export interface BabylonMaterialSpec extends HostSurfaceSpec {
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
/** Integers travel as f32 (exactly below 2^24). */
const integerLimit = 2 ** 24;

/** The adapter's refusals, as BabylonMaterialErrors of `api`. */
const failWith =
  (api: string): HostUniformFailure =>
  (code, message) =>
    new BabylonMaterialError(api, code, message);

/** Writes a checked value into the material's uniform `name` (Babylon.js uploads it with the next draw). */
function writeUniform(material: ShaderMaterial, name: string, wgsl: string, v: readonly number[]): void {
  const size = hostFieldComponents[wgsl];
  if (wgsl === 'mat4x4f') material.setMatrix(name, Matrix.FromArray(v));
  else if (wgsl === 'mat3x3f') material.setMatrix3x3(name, Float32Array.from(v));
  else if (size === 1) material.setFloat(name, v[0]);
  else if (size === 2) material.setVector2(name, new Vector2(v[0], v[1]));
  else if (size === 3) material.setVector3(name, new Vector3(v[0], v[1], v[2]));
  else material.setVector4(name, new Vector4(v[0], v[1], v[2], v[3]));
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
  const fail = failWith(api);
  const composed = composeHostSurface(spec.fragments, spec.conditions);
  const structs = hostFragmentStructs(composed, 'weft-gpu/babylon', fail);
  const given = spec.uniforms ?? {};
  checkHostUniformNames(structs, given, fail);
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
        value === undefined
          ? new Array(hostFieldComponents[wgsl]).fill(0)
          : checkHostUniformValue(binding, field.name, wgsl, value, integerLimit, fail),
      ]);
    }
    uniforms.set(binding, fields);
  }
  const uvs = hostSurfaceReadsUv(composed);
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
  const fail = failWith(api);
  checkHostUniformNames(structs, values, fail);
  const writes: [string, string, number[]][] = [];
  for (const [binding, fields] of Object.entries(values))
    for (const [field, value] of Object.entries(fields)) {
      const slot = material.uniforms.get(binding)!.get(field)!;
      writes.push([slot.name, slot.wgsl, checkHostUniformValue(binding, field, slot.wgsl, value, integerLimit, fail)]);
    }
  for (const [name, wgsl, value] of writes) writeUniform(material.material, name, wgsl, value);
}

/** Disposes the Babylon.js material (Babylon.js keeps the compiled effect for other materials of the same code). */
export function disposeBabylonMaterial(material: BabylonMaterial): void {
  material.material.dispose();
}
