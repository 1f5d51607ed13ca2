// A weft buffer layout as a TypeGPU data schema, so TypeGPU's typed buffers can write what a composed shader reads.
import { d } from 'typegpu';
import type { AnyWgslData } from 'typegpu/data';
import type { BufferLayout, LayoutScalar, TypeLayout } from '../../composer/uniform-layout-types.js';
import { describeValue } from '../../core/errors.js';
import { TypeGpuInteropError } from './typegpu-errors.js';

/**
 * A TypeGPU data schema as weft sees it: any `d.*` value (`d.f32`, `d.vec3f`, `d.struct({ … })`, `d.arrayOf(…)`).
 * weft's declarations describe it structurally and never load TypeGPU's own (which do not type-check with
 * `skipLibCheck: false`); cast to the TypeGPU type you need, e.g. `schema as d.AnyWgslData`.
 */
export interface TypeGpuSchema {
  /** TypeGPU's kind of data: `f32`, `vec3f`, `mat4x4f`, `array`, `struct`, `decorated`, `atomic`, … */
  readonly type: string;
}

/** Options of `toTypeGpuSchema`. */
export interface TypeGpuSchemaOptions {
  /**
   * Elements of the runtime-sized array (the last member of a storage buffer), so the schema sizes a buffer of that
   * many. Without it the array stays runtime-sized (TypeGPU's `d.arrayOf(element, 0)`).
   */
  readonly runtimeLength?: number;
}

const api = 'toTypeGpuSchema';

const scalars: Readonly<Record<LayoutScalar, AnyWgslData>> = { f32: d.f32, i32: d.i32, u32: d.u32, f16: d.f16 };

const vectors: Readonly<Record<LayoutScalar, readonly [AnyWgslData, AnyWgslData, AnyWgslData]>> = {
  f32: [d.vec2f, d.vec3f, d.vec4f],
  i32: [d.vec2i, d.vec3i, d.vec4i],
  u32: [d.vec2u, d.vec3u, d.vec4u],
  f16: [d.vec2h, d.vec3h, d.vec4h],
};

const squareMatrices: readonly AnyWgslData[] = [d.mat2x2f, d.mat3x3f, d.mat4x4f];

/**
 * The TypeGPU data schema of a weft buffer layout (a composed shader's `bufferLayouts[name]`, `getBufferLayout(…)`,
 * `makeWgslBufferLayouts(…)`), or of one type inside it. Structs keep their WGSL names and members; `@align` / `@size`
 * become `d.align` / `d.size`. Every offset, size and alignment TypeGPU computes for the schema is compared with
 * weft's layout before it is returned, so a buffer TypeGPU writes with it is read by the shader as weft lays it out.
 * @example
 * const schema = toTypeGpuSchema(getBufferLayout(composed, 'material')) as d.AnyWgslData;
 * const buffer = root.createBuffer(schema, values).$usage('uniform');
 * // bind root.unwrap(buffer) where the composed shader's bind group takes `material`
 * @throws {TypeGpuInteropError} `unsupported-type` for a type TypeGPU 0.12 has no schema for (a non-square or `f16`
 *   matrix), `layout-mismatch` if TypeGPU would lay it out differently, `not-a-schema` for a bad `runtimeLength`
 */
export function toTypeGpuSchema(layout: BufferLayout | TypeLayout, options: TypeGpuSchemaOptions = {}): TypeGpuSchema {
  const runtimeLength = options.runtimeLength;
  if (runtimeLength !== undefined && !(Number.isInteger(runtimeLength) && runtimeLength >= 1))
    throw new TypeGpuInteropError(
      api,
      'not-a-schema',
      `runtimeLength ${describeValue(runtimeLength)} must be a positive integer (the runtime-sized array's elements)`,
    );
  const type = 'addressSpace' in layout ? layout.type : layout;
  const root = 'addressSpace' in layout ? layout.name : type.wgsl;
  return schemaOf(type, root, runtimeLength, new Map()) as TypeGpuSchema;
}

function schemaOf(
  type: TypeLayout,
  path: string,
  runtimeLength: number | undefined,
  structs: Map<string, AnyWgslData>,
): AnyWgslData {
  switch (type.kind) {
    case 'scalar':
      if (!type.atomic) return scalars[type.scalar];
      return type.scalar === 'u32' ? d.atomic(d.u32) : d.atomic(d.i32);
    case 'vector':
      return vectors[type.scalar][type.components - 2];
    case 'matrix':
      if (type.scalar !== 'f32' || type.columns !== type.rows)
        throw new TypeGpuInteropError(
          api,
          'unsupported-type',
          `${path} is ${type.wgsl}; TypeGPU 0.12 has matrix schemas for mat2x2f, mat3x3f and mat4x4f only`,
        );
      return squareMatrices[type.columns - 2];
    case 'array': {
      const element = schemaOf(type.element, `${path}[]`, undefined, structs);
      const array = d.arrayOf(element, type.length ?? runtimeLength ?? 0);
      checkSchemaLayout(api, array as TypeGpuSchema, type, path);
      return array;
    }
    case 'struct': {
      const known = structs.get(type.name);
      if (known) return known;
      const members: Record<string, AnyWgslData> = {};
      for (const field of type.fields) {
        let member = schemaOf(field.type, `${path}.${field.name}`, runtimeLength, structs);
        if (field.align !== field.type.align) member = d.align(field.align, member) as unknown as AnyWgslData;
        if (field.size !== field.type.size && field.type.size > 0)
          member = d.size(field.size, member) as unknown as AnyWgslData;
        members[field.name] = member;
      }
      const struct = d.struct(members).$name(type.name);
      checkSchemaLayout(api, struct as TypeGpuSchema, type, path);
      structs.set(type.name, struct);
      return struct;
    }
  }
}

/**
 * Compares TypeGPU's layout of a schema with weft's WGSL layout of the same type: alignment, size (a runtime-sized
 * array counts no elements in weft's size, so it is left out) and, for a struct, where each member starts.
 * Typed structurally: exported declarations never name TypeGPU's types (see `TypeGpuSchema`).
 * @throws {TypeGpuInteropError} `layout-mismatch` naming `path` and the first difference
 * @internal
 */
export function checkSchemaLayout(api: string, typeGpuSchema: TypeGpuSchema, type: TypeLayout, path: string): void {
  const schema = typeGpuSchema as unknown as AnyWgslData;
  const mismatch = (what: string): never => {
    throw new TypeGpuInteropError(
      api,
      'layout-mismatch',
      `${path}: ${what}; refused rather than written at wrong offsets`,
    );
  };
  const align = d.alignmentOf(schema);
  if (align !== type.align) mismatch(`TypeGPU aligns ${type.wgsl} to ${align} bytes, WGSL to ${type.align}`);
  const size = d.sizeOf(schema);
  if (!hasRuntimeArray(type) && size !== type.size)
    mismatch(`TypeGPU sizes ${type.wgsl} at ${size} bytes, WGSL at ${type.size}`);
  if (type.kind !== 'struct') return;
  for (const field of type.fields) {
    const placed = d.memoryLayoutOf(schema, (value: unknown) => (value as Record<string, unknown>)[field.name]);
    if (placed.offset !== field.offset)
      mismatch(`member ${field.name} starts at byte ${placed.offset} in TypeGPU, ${field.offset} in WGSL`);
  }
}

function hasRuntimeArray(type: TypeLayout): boolean {
  if (type.kind === 'array') return type.length === null;
  return type.kind === 'struct' && type.fields.length > 0 && hasRuntimeArray(type.fields[type.fields.length - 1].type);
}
