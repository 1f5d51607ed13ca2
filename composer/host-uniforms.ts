// What a host engine feeds a weft surface's fragment stage: the uniform structs a library composition reads, field by
// field, checked by name and value before anything is written. Shared by the three.js and Babylon.js materials, which
// differ only in how a checked value reaches their uniforms.
import { describeValue } from '../core/errors.js';
import type { Fragment } from '../fragments/fragment-types.js';
import { makeStandardVertexFragments } from '../fragments/standard-material.js';
import { type ComposedShader, composeShader } from './compose-shader.js';
import type { StructLayout } from './uniform-layout-types.js';

/** Uniform values by binding, then field (`{ bandParams: { tint: [1, 0, 0, 1] } }`): numbers, or arrays of numbers. */
export type HostUniformValues = Readonly<Record<string, Readonly<Record<string, number | readonly number[]>>>>;

/** What a host engine's material is made from: a weft surface, its compose conditions and its uniforms' values. */
export interface HostSurfaceSpec {
  /**
   * The weft fragments of the surface (one fills the `fragmentStage` slot) and what they depend on (e.g.
   * `makeLambertLightingFragment()`); weft's standard vertex fragments are added for their structs.
   */
  fragments: readonly Fragment[];
  /** Compose conditions (`normals` is always on; `uvs: true` feeds the host's UV to `input.uv`). */
  conditions?: Readonly<Record<string, boolean>>;
  /** Initial values of the surface's uniform fields; fields left out start at zero. */
  uniforms?: HostUniformValues;
}

/** @internal How a host adapter reports a refusal: its own error class, with its API name already bound. */
export type HostUniformFailure = (code: 'bad-option' | 'unsupported', message: string) => Error;

/** @internal The WGSL field types a host feeds, and how many numbers each takes. */
export const hostFieldComponents: Readonly<Record<string, number>> = {
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

/**
 * A host surface as a library composition: weft's standard vertex fragments (for their structs) plus the surface,
 * with normals on.
 * @internal
 */
export function composeHostSurface(
  fragments: readonly Fragment[],
  conditions: Readonly<Record<string, boolean>> | undefined,
): ComposedShader {
  return composeShader({
    fragments: [...makeStandardVertexFragments(), ...fragments],
    conditions: { ...conditions, normals: true },
    vertexLayout: { kind: 'tight' },
    output: 'library',
  });
}

/** @internal Whether the composed surface's `FragmentInput` has a `uv` field for the host to fill. */
export function hostSurfaceReadsUv(composed: ComposedShader): boolean {
  return /struct FragmentInput \{[^}]*\buv\s*:/.test(composed.code);
}

/**
 * The uniform structs the fragment stage reads, by binding; refuses a binding that is not a uniform struct or a field
 * of a type the host cannot feed (`host` names the adapter in the message).
 * @internal
 */
export function hostFragmentStructs(
  composed: ComposedShader,
  host: string,
  fail: HostUniformFailure,
): Map<string, StructLayout> {
  const structs = new Map<string, StructLayout>();
  for (const binding of composed.stageResources!.fragment) {
    const type = composed.bufferLayouts[binding]?.type;
    if (type?.kind !== 'struct')
      throw fail(
        'unsupported',
        `the surface reads "${binding}", which is not a uniform struct; ${host} feeds uniform structs only (no textures, samplers or storage buffers yet)`,
      );
    for (const field of type.fields)
      if (!(field.type.wgsl in hostFieldComponents))
        throw fail(
          'unsupported',
          `${binding}.${field.name} is a ${field.type.wgsl}; ${host} feeds f32, i32, u32, vectors of those (2 to 4), mat3x3f and mat4x4f fields`,
        );
    structs.set(binding, type);
  }
  return structs;
}

/**
 * Refuses a binding or field the surface does not have, naming the valid ones.
 * @internal
 */
export function checkHostUniformNames(
  structs: ReadonlyMap<string, StructLayout>,
  values: HostUniformValues,
  fail: HostUniformFailure,
): void {
  if (values === null || typeof values !== 'object')
    throw fail('bad-option', `uniforms ${describeValue(values)} must be { binding: { field: value } }`);
  for (const [binding, fields] of Object.entries(values)) {
    const struct = structs.get(binding);
    if (!struct)
      throw fail(
        'bad-option',
        `the surface has no uniform binding "${binding}"; its bindings: ${[...structs.keys()].join(', ') || 'none'}`,
      );
    for (const field of Object.keys(fields ?? {}))
      if (!struct.fields.some((f) => f.name === field))
        throw fail(
          'bad-option',
          `${binding} (${struct.name}) has no field "${field}"; its fields: ${struct.fields.map((f) => f.name).join(', ')}`,
        );
  }
}

/**
 * A field's value as numbers, checked: the field's count of finite numbers, integers for integer types within
 * ±`integerLimit` (unsigned from 0), the bound a host's transport keeps exact.
 * @internal
 */
export function checkHostUniformValue(
  binding: string,
  field: string,
  wgsl: string,
  value: unknown,
  integerLimit: number,
  fail: HostUniformFailure,
): number[] {
  const list = typeof value === 'number' ? [value] : value;
  const length = hostFieldComponents[wgsl];
  const numbers =
    (Array.isArray(list) || ArrayBuffer.isView(list)) && (list as ArrayLike<number>).length === length
      ? Array.from(list as ArrayLike<number>)
      : undefined;
  const integer = /^(vec[234])?[iu](32)?$/.test(wgsl);
  const min = wgsl.endsWith('u') || wgsl === 'u32' ? 0 : 1 - integerLimit;
  const fits = (n: number) =>
    typeof n === 'number' && Number.isFinite(n) && (!integer || (Number.isInteger(n) && n >= min && n < integerLimit));
  if (!numbers?.every(fits)) {
    const range = `in [${min}, ${integerLimit})`;
    const one = integer ? `an integer ${range}` : 'a finite number';
    const many = `${length} ${integer ? `integers ${range}` : 'finite numbers'}`;
    throw fail(
      'bad-option',
      `${binding}.${field} ${describeValue(value)} must be ${length === 1 ? one : many} (WGSL ${wgsl})`,
    );
  }
  return numbers;
}
