import { describeValue } from '../core/errors.js';
import { nearestName } from './fragment-checks.js';
import { LayoutError } from './layout-errors.js';
import type { BufferLayout, LayoutScalar, TypeLayout } from './uniform-layout-types.js';

/**
 * A value for one field: a number (scalar); an array-like of numbers (vector: its components; matrix: column-major,
 * `columns × rows` numbers or the padded `columns × 4` form that `wgpu-matrix`'s mat3 uses; array: all elements'
 * numbers flat); an array of element values (array); an object of field values (struct, any subset of its fields).
 */
export type LayoutValue =
  | number
  | ArrayLike<number>
  | readonly LayoutValue[]
  | { readonly [field: string]: LayoutValue };

const scalarBytes = (scalar: LayoutScalar): number => (scalar === 'f16' ? 2 : 4);

/**
 * The type of a buffer layout, or the type itself; `not-a-layout` for anything else (usually `undefined` from a
 * misspelt `composed.bufferLayouts.name`).
 * @internal
 */
export function typeOf(layout: BufferLayout | TypeLayout, api: string): TypeLayout {
  if (layout === null || typeof layout !== 'object' || !('minBindingSize' in layout || 'kind' in layout))
    throw new LayoutError(
      api,
      'not-a-layout',
      '',
      `layout ${describeValue(layout)} is not a buffer layout; a misspelt binding name gives undefined: look the layout up with getBufferLayout(composed, name), which names the bindings the shader has`,
    );
  return 'minBindingSize' in layout ? layout.type : layout;
}

/** @internal A struct's field names for an error message (`(none)` for other types). */
export function fieldNames(type: TypeLayout): string {
  return type.kind === 'struct' ? type.fields.map((f) => f.name).join(', ') : '(none)';
}

const f16Bits = (value: number): number => {
  // Round to nearest even, through f32 (exact for the bit manipulation below).
  const f32 = new Float32Array([value]);
  const x = new Uint32Array(f32.buffer)[0];
  const sign = (x >>> 16) & 0x8000;
  const exponent = (x >>> 23) & 0xff;
  let mantissa = x & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  const e = exponent - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mantissa |= 0x800000;
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    let bits = mantissa >>> shift;
    const rest = mantissa & ((1 << shift) - 1);
    if (rest > half || (rest === half && bits & 1)) bits++;
    return sign | bits;
  }
  let bits = (e << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && bits & 1)) bits++;
  return sign | bits;
};

interface WriteContext {
  view: DataView;
  api: string;
  /** Check only: the first pass of a write, so a refused write leaves the target as it was. */
  dryRun: boolean;
  /** The buffer layout's binding name, named in every message; null when writing a bare TypeLayout. */
  binding: string | null;
}

/** What a message calls the value at `path`: `binding "draw" field world`, or the path alone without a binding. */
function subject(context: WriteContext, path: string): string {
  if (context.binding === null) return path || 'the value';
  return `binding "${context.binding}"${path ? ` field ${path}` : ''}`;
}

function checkRange(context: WriteContext, path: string, offset: number, size: number): void {
  if (offset + size > context.view.byteLength)
    throw new LayoutError(
      context.api,
      'out-of-bounds',
      path,
      `${subject(context, path)} ends at byte ${offset + size} but the target holds ${context.view.byteLength} bytes`,
    );
}

function writeScalar(context: WriteContext, path: string, scalar: LayoutScalar, offset: number, value: unknown): void {
  const ok =
    typeof value === 'number' &&
    (scalar === 'f32' || scalar === 'f16'
      ? true
      : Number.isInteger(value) &&
        (scalar === 'u32' ? value >= 0 && value <= 0xffffffff : value >= -0x80000000 && value <= 0x7fffffff));
  if (!ok)
    throw new LayoutError(
      context.api,
      'bad-value',
      path,
      `${subject(context, path)} is ${scalar}: expected ${scalar === 'u32' ? 'an integer in 0..4294967295' : scalar === 'i32' ? 'an integer in -2147483648..2147483647' : 'a number'}, got ${describeValue(value)}`,
    );
  if (context.dryRun) return;
  const n = value as number;
  if (scalar === 'f32') context.view.setFloat32(offset, n, true);
  else if (scalar === 'u32') context.view.setUint32(offset, n, true);
  else if (scalar === 'i32') context.view.setInt32(offset, n, true);
  else context.view.setUint16(offset, f16Bits(n), true);
}

const isArrayLike = (value: unknown): value is ArrayLike<unknown> =>
  Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));

/** Numbers per element when an element is made of numbers only (scalars, vectors, matrices): a flat array can feed it. */
function flatCount(type: TypeLayout): number | null {
  if (type.kind === 'scalar') return 1;
  if (type.kind === 'vector') return type.components;
  if (type.kind === 'matrix') return type.columns * type.rows;
  if (type.kind === 'array' && type.length !== null) {
    const inner = flatCount(type.element);
    return inner === null ? null : inner * type.length;
  }
  return null;
}

function writeFlat(
  context: WriteContext,
  path: string,
  type: TypeLayout,
  offset: number,
  values: ArrayLike<unknown>,
  at: number,
  paddedColumns = false,
): number {
  if (type.kind === 'scalar') {
    writeScalar(context, path, type.scalar, offset, values[at]);
    return at + 1;
  }
  if (type.kind === 'vector') {
    const step = scalarBytes(type.scalar);
    for (let c = 0; c < type.components; c++)
      writeScalar(context, `${path}[${c}]`, type.scalar, offset + c * step, values[at + c]);
    return at + type.components;
  }
  if (type.kind === 'matrix') {
    const step = scalarBytes(type.scalar);
    const sourceRows = paddedColumns ? type.columnStride / step : type.rows;
    for (let c = 0; c < type.columns; c++)
      for (let r = 0; r < type.rows; r++)
        writeScalar(
          context,
          `${path}[${c}][${r}]`,
          type.scalar,
          offset + c * type.columnStride + r * step,
          values[at + c * sourceRows + r],
        );
    return at + type.columns * sourceRows;
  }
  if (type.kind === 'array') {
    for (let e = 0; e < (type.length ?? 0); e++)
      at = writeFlat(context, `${path}[${e}]`, type.element, offset + e * type.stride, values, at);
    return at;
  }
  return at;
}

function writeValue(context: WriteContext, path: string, type: TypeLayout, offset: number, value: unknown): void {
  const name = subject(context, path);
  const bad = (expected: string): never => {
    throw new LayoutError(
      context.api,
      'bad-value',
      path,
      `${name} is ${type.wgsl}: expected ${expected}, got ${describeValue(value)}`,
    );
  };
  if (type.kind === 'scalar') {
    checkRange(context, path, offset, type.size);
    writeScalar(context, path, type.scalar, offset, value);
    return;
  }
  if (type.kind === 'struct') {
    if (!value || typeof value !== 'object' || isArrayLike(value))
      bad(`an object with any of the fields ${fieldNames(type)}`);
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const field = type.fields.find((f) => f.name === key);
      if (!field) {
        const near = nearestName(
          key,
          type.fields.map((f) => f.name),
        );
        throw new LayoutError(
          context.api,
          'unknown-field',
          path ? `${path}.${key}` : key,
          `${name} (${type.wgsl}) has no field "${key}"${near ? ` (did you mean "${near}"?)` : ''}; its fields: ${fieldNames(type)}`,
        );
      }
      writeValue(context, path ? `${path}.${key}` : key, field.type, offset + field.offset, record[key]);
    }
    return;
  }
  if (!isArrayLike(value)) bad(describeShape(type));
  const values = value as ArrayLike<unknown>;
  if (type.kind === 'vector' || type.kind === 'matrix') {
    const n = flatCount(type)!;
    const padded = type.kind === 'matrix' ? (type.columns * type.columnStride) / scalarBytes(type.scalar) : n;
    if (values.length !== n && values.length !== padded) bad(describeShape(type));
    checkRange(context, path, offset, type.size);
    writeFlat(context, path, type, offset, values, 0, values.length !== n);
    return;
  }
  const element = type.element;
  const perElement = flatCount(element);
  const flat = perElement !== null && values.length > 0 && typeof values[0] === 'number';
  const count = flat ? values.length / perElement : values.length;
  if (!Number.isInteger(count) || (type.length !== null && count !== type.length)) bad(describeShape(type));
  checkRange(context, path, offset, count === 0 ? 0 : (count - 1) * type.stride + element.size);
  for (let e = 0; e < count; e++) {
    const at = `${path}[${e}]`;
    if (flat) writeFlat(context, at, element, offset + e * type.stride, values, e * perElement!);
    else writeValue(context, at, element, offset + e * type.stride, values[e]);
  }
}

function describeShape(type: TypeLayout): string {
  if (type.kind === 'vector') return `${type.components} numbers`;
  if (type.kind === 'matrix') {
    const n = type.columns * type.rows;
    const padded = (type.columns * type.columnStride) / scalarBytes(type.scalar);
    return padded === n
      ? `${n} numbers (column-major)`
      : `${n} numbers (column-major) or ${padded} (columns padded to ${type.columnStride} bytes)`;
  }
  if (type.kind === 'array') {
    const per = flatCount(type.element);
    const elements = `an array of ${type.length === null ? 'any number of' : type.length} ${type.element.wgsl} values`;
    if (per === null) return elements;
    return `${elements} or ${type.length === null ? `a multiple of ${per}` : type.length * per} numbers flat`;
  }
  return type.wgsl;
}

/**
 * Writes `values` into `target` (an ArrayBuffer or a view on one) following `layout`, starting at `byteOffset` (e.g. a
 * slot of a dynamic-offset buffer). Names are checked: an unknown field, a value of the wrong kind or length, or a write
 * past the end is a LayoutError naming the binding, the field and what it takes (an unknown field: the nearest valid
 * one and all of them); the fields not named keep their bytes. Little-endian, as WebGPU buffers are.
 *
 * With a typed layout (`BufferLayout<V>`, e.g. from `getBufferLayout(composed, variant, binding)` and `weft types`),
 * `values` must be a `V`: the same mistakes fail type checking before they run.
 * @throws {LayoutError} `unknown-field`, `bad-value` or `out-of-bounds`
 */
export function setUniforms<V extends LayoutValue = LayoutValue>(
  layout: BufferLayout<V> | TypeLayout,
  target: ArrayBuffer | ArrayBufferView,
  values: NoInfer<V>,
  byteOffset = 0,
): void {
  const apiName = 'setUniforms';
  let view: DataView;
  if (target instanceof ArrayBuffer) view = new DataView(target);
  else if (ArrayBuffer.isView(target)) view = new DataView(target.buffer, target.byteOffset, target.byteLength);
  else
    throw new LayoutError(
      apiName,
      'bad-value',
      '',
      `target ${describeValue(target)} must be an ArrayBuffer or a view on one`,
    );
  if (!Number.isSafeInteger(byteOffset) || byteOffset < 0)
    throw new LayoutError(
      apiName,
      'out-of-bounds',
      '',
      `byteOffset ${describeValue(byteOffset)} must be a non-negative integer`,
    );
  const type = typeOf(layout as BufferLayout | TypeLayout, apiName);
  const binding = 'minBindingSize' in layout && typeof layout.name === 'string' ? layout.name : null;
  // Check everything before writing anything: a refused write leaves the target as it was.
  writeValue({ view, api: apiName, dryRun: true, binding }, '', type, byteOffset, values);
  writeValue({ view, api: apiName, dryRun: false, binding }, '', type, byteOffset, values);
}
