// The layout of host-shareable WGSL types as plain data: what `makeWgslBufferLayouts` returns.
import type { LayoutValue } from './uniform-layout-writer.js';

/** A WGSL scalar a host-shareable buffer can hold. */
export type LayoutScalar = 'f32' | 'i32' | 'u32' | 'f16';

interface TypeLayoutBase {
  /** The WGSL type as weft writes it: `f32`, `vec3f`, `mat3x3f`, `array<vec4f, 4>`, `array<Item>`, `Item`. */
  readonly wgsl: string;
  /** AlignOf(T) per the WGSL spec's alignment and size rules. */
  readonly align: number;
  /** SizeOf(T); a runtime-sized array counts 0 elements here. */
  readonly size: number;
}

/** `f32`, `i32`, `u32`, `f16` or `atomic<u32 | i32>`. */
export interface ScalarLayout extends TypeLayoutBase {
  readonly kind: 'scalar';
  readonly scalar: LayoutScalar;
  readonly atomic: boolean;
}

/** `vecN<T>`: `components` scalars, tightly packed (a vec3 is 12 bytes aligned to 16). */
export interface VectorLayout extends TypeLayoutBase {
  readonly kind: 'vector';
  readonly scalar: LayoutScalar;
  readonly components: 2 | 3 | 4;
}

/** `matCxR<T>`: `columns` column vectors of `rows` scalars, each column starting `columnStride` bytes after the last. */
export interface MatrixLayout extends TypeLayoutBase {
  readonly kind: 'matrix';
  readonly scalar: LayoutScalar;
  readonly columns: 2 | 3 | 4;
  readonly rows: 2 | 3 | 4;
  readonly columnStride: number;
}

/** `array<E, N>` (`length` N) or a runtime-sized `array<E>` (`length` null, storage buffers only). */
export interface ArrayLayout extends TypeLayoutBase {
  readonly kind: 'array';
  readonly element: TypeLayout;
  readonly length: number | null;
  /** Bytes from one element to the next: roundUp(AlignOf(E), SizeOf(E)). */
  readonly stride: number;
}

/** A struct member: where it starts in its struct, and its own size and alignment (after `@size` / `@align`). */
export interface FieldLayout {
  readonly name: string;
  readonly offset: number;
  readonly size: number;
  readonly align: number;
  readonly type: TypeLayout;
}

/** A struct: members in declaration order; `size` is rounded up to `align`. */
export interface StructLayout extends TypeLayoutBase {
  readonly kind: 'struct';
  readonly name: string;
  readonly fields: readonly FieldLayout[];
}

/** The layout of any host-shareable WGSL type. */
export type TypeLayout = ScalarLayout | VectorLayout | MatrixLayout | ArrayLayout | StructLayout;

/**
 * The layout of one module-scope `var<uniform>` or `var<storage>` of a WGSL module: what a host writes into its buffer.
 * `V` is the values type `setUniforms` takes for it: `LayoutValue` (anything shaped like a value, checked at run time)
 * unless the layout came typed, e.g. from `getBufferLayout(composed, variant, binding)` with `weft types` output.
 */
export interface BufferLayout<V = LayoutValue> {
  /** The variable's name (the binding name of a composed shader). */
  readonly name: string;
  /** `@group` / `@binding` as declared, or null when the module does not say (e.g. a library-mode output). */
  readonly group: number | null;
  readonly binding: number | null;
  readonly addressSpace: 'uniform' | 'storage';
  /** `read` or `read_write` for storage; null for uniform. */
  readonly access: 'read' | 'read_write' | null;
  readonly type: TypeLayout;
  /**
   * Bytes the buffer binding needs at least: SizeOf(T), where a runtime-sized array counts one element (WebGPU's
   * minimum binding size rule). `bufferLayoutByteSize(layout, n)` gives the size for n elements.
   */
  readonly minBindingSize: number;
  /** Where the runtime-sized array (the last member, or the whole type) starts and its stride; null without one. */
  readonly runtimeArray: { readonly offset: number; readonly stride: number } | null;
  /** Type-only, never present at run time: carries `V`, so a typed layout types what `setUniforms` takes. */
  readonly valuesType?: V;
}

/**
 * The uniform and storage values of registered variants, by variant name then binding name: empty in weft, filled by
 * the declarations `weft types` (or the Vite plugin's `types` option) writes, which merge into it. With an entry,
 * `getBufferLayout(composed, variant, binding)` returns a layout typed with its values, so a misspelled field or a
 * vector of the wrong length is a TypeScript error.
 */
// biome-ignore lint/suspicious/noEmptyInterface: declaration merging fills it
export interface WeftUniforms {}

/** The values type of one binding of a variant `weft types` declared (see `WeftUniforms`). */
export type UniformValues<
  Variant extends keyof WeftUniforms,
  Binding extends keyof WeftUniforms[Variant],
> = WeftUniforms[Variant][Binding];

/** A typed array whose numbers `setUniforms` reads like an array's. */
export type LayoutNumbers =
  | Float32Array
  | Float64Array
  | Int32Array
  | Uint32Array
  | Int16Array
  | Uint16Array
  | Int8Array
  | Uint8Array;

/** A read-only tuple of `N` numbers: a vector's components, a matrix's column-major numbers (up to 16). */
export type NumberTuple<N extends number, T extends readonly number[] = readonly []> = T['length'] extends N
  ? T
  : NumberTuple<N, readonly [...T, number]>;

/**
 * A value for a vector or matrix of `N` numbers (`Padded`: the padded column form a matrix also takes, e.g. 12 for a
 * mat3x3f): a tuple of exactly that many numbers, or a typed array (its length is checked at run time only).
 */
export type LayoutVector<N extends number, Padded extends number = N> =
  | NumberTuple<N>
  | NumberTuple<Padded>
  | LayoutNumbers;
