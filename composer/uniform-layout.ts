import { LayoutError } from './layout-errors.js';
import type {
  BufferLayout,
  FieldLayout,
  LayoutScalar,
  MatrixLayout,
  ScalarLayout,
  StructLayout,
  TypeLayout,
  VectorLayout,
} from './uniform-layout-types.js';
import { parseWgslDeclarations, type WgslTypeExpr } from './wgsl-declarations.js';

const api = 'makeWgslBufferLayouts';

const roundUp = (k: number, n: number): number => Math.ceil(n / k) * k;

const scalarSize: Record<LayoutScalar, number> = { f32: 4, i32: 4, u32: 4, f16: 2 };
const shorthandScalar: Record<string, LayoutScalar> = { f: 'f32', i: 'i32', u: 'u32', h: 'f16' };
const scalarSuffix: Record<LayoutScalar, string> = { f32: 'f', i32: 'i', u32: 'u', f16: 'h' };

function scalarLayout(scalar: LayoutScalar, atomic = false): ScalarLayout {
  const size = scalarSize[scalar];
  return { kind: 'scalar', wgsl: atomic ? `atomic<${scalar}>` : scalar, scalar, atomic, align: size, size };
}

function vectorLayout(scalar: LayoutScalar, components: 2 | 3 | 4): VectorLayout {
  const s = scalarSize[scalar];
  return {
    kind: 'vector',
    wgsl: `vec${components}${scalarSuffix[scalar]}`,
    scalar,
    components,
    align: (components === 2 ? 2 : 4) * s,
    size: components * s,
  };
}

function matrixLayout(scalar: LayoutScalar, columns: 2 | 3 | 4, rows: 2 | 3 | 4): MatrixLayout {
  const column = vectorLayout(scalar, rows);
  const columnStride = roundUp(column.align, column.size);
  return {
    kind: 'matrix',
    wgsl: `mat${columns}x${rows}${scalarSuffix[scalar]}`,
    scalar,
    columns,
    rows,
    columnStride,
    align: column.align,
    size: columns * columnStride,
  };
}

interface LayoutContext {
  structs: ReadonlyMap<string, readonly { name: string; type: WgslTypeExpr; align?: string; size?: string }[]>;
  aliases: ReadonlyMap<string, WgslTypeExpr>;
  constants: ReadonlyMap<string, string>;
  /** Struct layouts made so far (each struct once). */
  done: Map<string, StructLayout>;
  /** Structs being laid out (a recursive struct is not constructible in WGSL, but its text could be). */
  active: Set<string>;
  where: string;
}

function constantInteger(context: LayoutContext, text: string, what: string): number {
  let value = text;
  for (let hops = 0; /^[A-Za-z_]\w*$/.test(value) && hops < 8; hops++) {
    const next = context.constants.get(value);
    if (next === undefined) break;
    value = next;
  }
  const match = /^(0[xX][0-9a-fA-F]+|[0-9]+)[iu]?$/.exec(value);
  const n = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new LayoutError(
      api,
      'bad-wgsl',
      context.where,
      `${context.where}: ${what} ${JSON.stringify(text)} must be a positive integer literal or a const holding one`,
    );
  return n;
}

const isScalarName = (name: string): boolean => name === 'f32' || name === 'i32' || name === 'u32' || name === 'f16';

function layoutOf(context: LayoutContext, type: WgslTypeExpr, runtimeAllowed: boolean): TypeLayout {
  const { name, args } = type;
  const bad = (why: string): never => {
    throw new LayoutError(
      api,
      'bad-wgsl',
      context.where,
      `${context.where}: type ${JSON.stringify(printType(type))} ${why}`,
    );
  };
  if (isScalarName(name) && !args.length) return scalarLayout(name as LayoutScalar);
  if (name === 'atomic') {
    const inner = args[0];
    if (args.length !== 1 || typeof inner === 'string' || (inner.name !== 'u32' && inner.name !== 'i32'))
      bad('is not atomic<u32> or atomic<i32>');
    return scalarLayout((inner as WgslTypeExpr).name as LayoutScalar, true);
  }
  let m = /^vec([234])([fiuh])?$/.exec(name);
  if (m) {
    const scalar = m[2] ? shorthandScalar[m[2]] : scalarOf(args, bad);
    if (m[2] && args.length) bad('takes no template argument');
    return vectorLayout(scalar, Number(m[1]) as 2 | 3 | 4);
  }
  m = /^mat([234])x([234])([fh])?$/.exec(name);
  if (m) {
    const scalar = m[3] ? shorthandScalar[m[3]] : scalarOf(args, bad);
    if (m[3] && args.length) bad('takes no template argument');
    if (scalar !== 'f32' && scalar !== 'f16') bad('must hold f32 or f16');
    return matrixLayout(scalar, Number(m[1]) as 2 | 3 | 4, Number(m[2]) as 2 | 3 | 4);
  }
  if (name === 'array') {
    const [elementType, count] = args;
    if (!elementType || typeof elementType === 'string' || args.length > 2) bad('is not array<E> or array<E, N>');
    const element = layoutOf(context, elementType as WgslTypeExpr, false);
    if (element.kind === 'array' && element.length === null) bad('nests a runtime-sized array');
    const stride = roundUp(element.align, element.size);
    if (count === undefined) {
      if (!runtimeAllowed) bad('is runtime-sized where only the last member of a storage buffer may be');
      return {
        kind: 'array',
        wgsl: `array<${element.wgsl}>`,
        element,
        length: null,
        stride,
        align: element.align,
        size: 0,
      };
    }
    if (typeof count !== 'string') bad('has a type where its element count should be');
    const length = constantInteger(context, count as string, 'array length');
    return {
      kind: 'array',
      wgsl: `array<${element.wgsl}, ${length}>`,
      element,
      length,
      stride,
      align: element.align,
      size: length * stride,
    };
  }
  if (args.length) bad('is not a host-shareable type (scalar, vector, matrix, array, atomic or struct)');
  const alias = context.aliases.get(name);
  if (alias) return layoutOf(context, alias, runtimeAllowed);
  const members = context.structs.get(name);
  if (!members) return bad('is not declared in the module (nor a host-shareable built-in type)');
  return structLayout(context, name, members, runtimeAllowed);
}

function scalarOf(args: WgslTypeExpr['args'], bad: (why: string) => never): LayoutScalar {
  const inner = args[0];
  if (args.length !== 1 || typeof inner === 'string' || inner.args.length || !isScalarName(inner.name))
    return bad('needs one scalar type argument (f32, i32, u32 or f16)');
  return inner.name as LayoutScalar;
}

function structLayout(
  context: LayoutContext,
  name: string,
  members: readonly { name: string; type: WgslTypeExpr; align?: string; size?: string }[],
  runtimeAllowed: boolean,
): StructLayout {
  const known = context.done.get(name);
  if (known && (runtimeAllowed || !hasRuntimeArray(known))) return known;
  if (context.active.has(name))
    throw new LayoutError(api, 'bad-wgsl', context.where, `${context.where}: struct ${name} contains itself`);
  context.active.add(name);
  const fields: FieldLayout[] = [];
  let end = 0;
  let align = 1;
  members.forEach((member, i) => {
    const type = layoutOf(context, member.type, runtimeAllowed && i === members.length - 1);
    const fieldAlign = member.align
      ? constantInteger(context, member.align, `@align of ${name}.${member.name}`)
      : type.align;
    const fieldSize = member.size
      ? constantInteger(context, member.size, `@size of ${name}.${member.name}`)
      : type.size;
    const offset = roundUp(fieldAlign, end);
    fields.push({ name: member.name, offset, size: fieldSize, align: fieldAlign, type });
    end = offset + fieldSize;
    align = Math.max(align, fieldAlign);
  });
  context.active.delete(name);
  const layout: StructLayout = { kind: 'struct', wgsl: name, name, fields, align, size: roundUp(align, end) };
  context.done.set(name, layout);
  return layout;
}

function hasRuntimeArray(type: TypeLayout): boolean {
  if (type.kind === 'array') return type.length === null;
  if (type.kind === 'struct')
    return type.fields.length > 0 && hasRuntimeArray(type.fields[type.fields.length - 1].type);
  return false;
}

function runtimeArrayOf(type: TypeLayout, base: number): { offset: number; stride: number } | null {
  if (type.kind === 'array') return type.length === null ? { offset: base, stride: type.stride } : null;
  if (type.kind !== 'struct' || !type.fields.length) return null;
  const last = type.fields[type.fields.length - 1];
  return runtimeArrayOf(last.type, base + last.offset);
}

function printType(type: WgslTypeExpr | string): string {
  if (typeof type === 'string') return type;
  return type.args.length ? `${type.name}<${type.args.map(printType).join(', ')}>` : type.name;
}

/**
 * The buffer layouts of a WGSL module: one per module-scope `var<uniform>` / `var<storage>`, keyed by variable name, in
 * (group, binding, name) order. Offsets, sizes, alignments and strides follow the WGSL spec's alignment and size rules
 * (`@align` / `@size` honoured; a runtime-sized array as the last member of a storage buffer). Pure: the same code gives
 * deep-equal layouts. Every composed shader carries its own (`ComposedShader.bufferLayouts`).
 * With `skipInvalid`, a buffer whose type cannot be laid out is left out instead (the composer's choice: such a module
 * is invalid WGSL, and the device's compile error names the fragment, line and column better than a layout error).
 * @throws {LayoutError} `bad-wgsl` when a buffer's type is not declared or not host-shareable, or an array length is not a constant integer
 */
export function makeWgslBufferLayouts(
  code: string,
  options: { skipInvalid?: boolean } = {},
): Readonly<Record<string, BufferLayout>> {
  return layOutBuffers(code, options.skipInvalid === true, null);
}

/**
 * The composer's layouts of a library output's stage resources: the module-scope `var<private>` values the host fills
 * (library resources are uniform buffers only), in the order given (the bindings' group, binding order). The module
 * declares no `@group/@binding`, so both are null; `ComposedShader.bindGroups` says where the compose would put them.
 * Not public: `makeWgslBufferLayouts` is the user's entry.
 * @internal
 */
export function makeLibraryResourceLayouts(
  code: string,
  resources: readonly string[],
): Readonly<Record<string, BufferLayout>> {
  return layOutBuffers(code, true, resources);
}

function layOutBuffers(
  code: string,
  skipInvalid: boolean,
  resources: readonly string[] | null,
): Readonly<Record<string, BufferLayout>> {
  const declarations = parseWgslDeclarations(code);
  const context: LayoutContext = {
    structs: declarations.structs,
    aliases: declarations.aliases,
    constants: declarations.constants,
    done: new Map(),
    active: new Set(),
    where: '',
  };
  const vars = resources
    ? resources.flatMap((name) => declarations.vars.filter((v) => v.name === name && v.addressSpace === 'private'))
    : declarations.vars
        .filter((v) => v.addressSpace === 'uniform' || v.addressSpace === 'storage')
        .sort(
          (a, b) =>
            (a.group ?? -1) - (b.group ?? -1) || (a.binding ?? -1) - (b.binding ?? -1) || (a.name < b.name ? -1 : 1),
        );
  const layouts: Record<string, BufferLayout> = {};
  for (const v of vars) {
    const storage = v.addressSpace === 'storage';
    context.where = `var<${storage ? 'storage' : 'uniform'}> ${v.name}`;
    let type: ReturnType<typeof layoutOf>;
    try {
      type = layoutOf(context, v.type, storage);
    } catch (error) {
      if (skipInvalid && error instanceof LayoutError) continue;
      throw error;
    }
    const runtimeArray = runtimeArrayOf(type, 0);
    layouts[v.name] = {
      name: v.name,
      group: v.group,
      binding: v.binding,
      addressSpace: storage ? 'storage' : 'uniform',
      access: storage ? (v.access === 'read_write' ? 'read_write' : 'read') : null,
      type,
      minBindingSize: runtimeArray ? roundUp(type.align, runtimeArray.offset + runtimeArray.stride) : type.size,
      runtimeArray,
    };
  }
  return layouts;
}

/**
 * Bytes a buffer of `layout` needs to hold `runtimeLength` elements of its runtime-sized array (ignored without
 * one): roundUp(AlignOf(T), offset + runtimeLength × stride).
 * @throws {LayoutError} `bad-value` when `runtimeLength` is not a non-negative integer
 */
export function bufferLayoutByteSize(layout: BufferLayout, runtimeLength = 0): number {
  if (!Number.isSafeInteger(runtimeLength) || runtimeLength < 0)
    throw new LayoutError(
      'bufferLayoutByteSize',
      'bad-value',
      '',
      `runtimeLength ${String(runtimeLength)} must be a non-negative integer`,
    );
  if (!layout.runtimeArray) return layout.type.size;
  return roundUp(layout.type.align, layout.runtimeArray.offset + runtimeLength * layout.runtimeArray.stride);
}

/**
 * The layout of struct `structName` declared in `code` (WGSL, or a fragment's WESL source: imports and conditions
 * around it are skipped; members under `@if` are not resolved, so lay out the composed code for those). What a runtime
 * reads its field offsets from before any shader is composed.
 * @throws {LayoutError} `bad-wgsl` when the struct is not declared in `code` or holds a type that cannot be laid out
 */
export function makeWgslStructLayout(code: string, structName: string): StructLayout {
  const declarations = parseWgslDeclarations(code);
  const members = declarations.structs.get(structName);
  if (!members)
    throw new LayoutError(
      'makeWgslStructLayout',
      'bad-wgsl',
      structName,
      `struct ${JSON.stringify(structName)} is not declared; the code declares: ${[...declarations.structs.keys()].sort().join(', ') || '(no struct)'}`,
    );
  const context: LayoutContext = {
    structs: declarations.structs,
    aliases: declarations.aliases,
    constants: declarations.constants,
    done: new Map(),
    active: new Set(),
    where: `struct ${structName}`,
  };
  return structLayout(context, structName, members, true);
}
