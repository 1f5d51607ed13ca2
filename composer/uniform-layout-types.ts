// The layout of host-shareable WGSL types as plain data: what `makeWgslBufferLayouts` returns.

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

/** The layout of one module-scope `var<uniform>` or `var<storage>` of a WGSL module: what a host writes into its buffer. */
export interface BufferLayout {
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
}
