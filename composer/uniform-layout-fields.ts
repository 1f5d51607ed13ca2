import { describeValue } from '../core/errors.js';
import { LayoutError } from './layout-errors.js';
import { nearestName } from './fragment-checks.js';
import type { BufferLayout, TypeLayout, WeftUniforms } from './uniform-layout-types.js';
import { fieldNames, typeOf } from './uniform-layout-writer.js';

/** A field found by path: its absolute byte offset in the buffer and its type. */
export interface LayoutFieldLocation {
  readonly path: string;
  readonly offset: number;
  readonly type: TypeLayout;
}

/** What `getBufferLayout` reads: a composed shader, or anything with its `bufferLayouts`. */
export interface ComposedBufferLayouts {
  readonly bufferLayouts: Readonly<Record<string, BufferLayout>>;
}

/**
 * The buffer layout of one binding of a composed shader (`composed.bufferLayouts[name]`), by its name in the
 * fragment's `bindings`. Unlike the plain lookup, a name the shader does not have is an error that lists the names it
 * has, instead of an `undefined` that fails later.
 *
 * `getBufferLayout(composed, variant, binding)` is the same lookup for a shader of a registered variant that
 * `weft types` declared in `WeftUniforms`: the binding name is checked by TypeScript and the layout comes typed, so
 * `setUniforms` refuses a misspelled field or a wrong-length vector at compile time. The variant name is not checked
 * against the shader at run time (a composed shader does not know its variant); errors name it.
 * @throws {LayoutError} `unknown-binding` naming `name`, the nearest binding and the shader's buffer bindings
 */
export function getBufferLayout<
  Variant extends keyof WeftUniforms & string,
  Binding extends keyof WeftUniforms[Variant] & string,
>(composed: ComposedBufferLayouts, variant: Variant, binding: Binding): BufferLayout<WeftUniforms[Variant][Binding]>;
export function getBufferLayout(composed: ComposedBufferLayouts, name: string): BufferLayout;
export function getBufferLayout(composed: ComposedBufferLayouts, ...names: [string] | [string, string]): BufferLayout {
  const api = 'getBufferLayout';
  const name = names.length === 2 ? names[1] : names[0];
  const owner = names.length === 2 ? `variant ${describeValue(names[0])}` : 'the shader';
  const layouts = composed?.bufferLayouts;
  if (layouts === null || typeof layouts !== 'object')
    throw new LayoutError(
      api,
      'not-a-layout',
      '',
      `composed ${describeValue(composed)} has no bufferLayouts; pass the result of composeShader`,
    );
  if (typeof name === 'string' && Object.hasOwn(layouts, name)) return layouts[name]!;
  const bindingNames = Object.keys(layouts).sort();
  const near = typeof name === 'string' ? nearestName(name, bindingNames) : undefined;
  throw new LayoutError(
    api,
    'unknown-binding',
    '',
    `${owner} has no buffer binding ${describeValue(name)}${near ? ` (did you mean "${near}"?)` : ''}; its buffer bindings: ${bindingNames.length ? bindingNames.join(', ') : '(none)'}`,
  );
}

/** `name`, `a.b[2].c`, or `[3].x` on an array buffer. */
const fieldPath = /^([A-Za-z_]\w*|\[\d+\])(\.[A-Za-z_]\w*|\[\d+\])*$/;

/**
 * Finds a field by path (`world`, `lights[2].color`, `[3]` for an element of an array buffer) and returns its byte
 * offset from the start of the buffer and its type. Resolve once, then write typed arrays at `offset / 4` on a hot path.
 * @throws {LayoutError} `unknown-field` naming the part of the path that is not there and what is
 */
export function getLayoutField(layout: BufferLayout | TypeLayout, path: string): LayoutFieldLocation {
  const apiName = 'getLayoutField';
  let type = typeOf(layout, apiName);
  let offset = 0;
  let walked = '';
  const parts = typeof path === 'string' && fieldPath.test(path) ? path.match(/[A-Za-z_]\w*|\[\d+\]/g) : null;
  if (!parts)
    throw new LayoutError(
      apiName,
      'unknown-field',
      String(path),
      `path ${describeValue(path)} is not a field path like "a.b[2].c"`,
    );
  for (const part of parts) {
    if (part.startsWith('[')) {
      const index = Number(part.slice(1, -1));
      if (
        type.kind !== 'array' ||
        !Number.isSafeInteger(index) ||
        index < 0 ||
        (type.length !== null && index >= type.length)
      )
        throw new LayoutError(
          apiName,
          'unknown-field',
          walked + part,
          `${describeValue(path)}: ${walked || 'the buffer'} is ${type.wgsl}; ${type.kind === 'array' ? `indices are 0..${type.length === null ? 'n' : type.length - 1}` : 'it has no elements'}`,
        );
      offset += index * type.stride;
      type = type.element;
      walked += part;
      continue;
    }
    const field = type.kind === 'struct' ? type.fields.find((f) => f.name === part) : undefined;
    if (!field)
      throw new LayoutError(
        apiName,
        'unknown-field',
        walked ? `${walked}.${part}` : part,
        `${describeValue(path)}: ${walked || 'the buffer'} (${type.wgsl}) has no field "${part}"; its fields: ${fieldNames(type)}`,
      );
    offset += field.offset;
    type = field.type;
    walked = walked ? `${walked}.${part}` : part;
  }
  return { path, offset, type };
}

/**
 * Resolves field paths once into 4-byte word indices (for `Float32Array` / `Uint32Array` views of the buffer), so a
 * per-frame writer sets typed arrays at fixed indices and looks nothing up: `const at = makeLayoutWordOffsets(layout,
 * ['world', 'tint']); floats.set(world, at.world)`.
 * @throws {LayoutError} `unknown-field` for a path the layout does not have; `bad-value` for a field not on a 4-byte boundary (f16)
 */
export function makeLayoutWordOffsets<const Path extends string>(
  layout: BufferLayout | TypeLayout,
  paths: readonly Path[],
): Readonly<Record<Path, number>> {
  const offsets = {} as Record<Path, number>;
  for (const path of paths) {
    const { offset } = getLayoutField(layout, path);
    if (offset % 4 !== 0)
      throw new LayoutError(
        'makeLayoutWordOffsets',
        'bad-value',
        path,
        `${path} starts at byte ${offset}, not on a 4-byte word; write it with setUniforms`,
      );
    offsets[path] = offset / 4;
  }
  return Object.freeze(offsets);
}
