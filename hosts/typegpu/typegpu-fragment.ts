// Fragment buffer bindings typed by TypeGPU data schemas: the schema's WGSL joins the fragment's source.
import tgpu from 'typegpu';
import type { AnyWgslData } from 'typegpu/data';
import { makeWgslBufferLayouts } from '../../composer/uniform-layout.js';
import type { BufferLayout, TypeLayout } from '../../composer/uniform-layout-types.js';
import { describeValue } from '../../core/errors.js';
import type { Fragment, FragmentBinding, StorageBinding, UniformBinding } from '../../fragments/fragment-types.js';
import { TypeGpuInteropError } from './typegpu-errors.js';
import { checkSchemaLayout, type TypeGpuSchema } from './typegpu-schema.js';

/** A uniform or storage binding whose WGSL type is a TypeGPU data schema instead of WGSL text. */
export type TypeGpuBufferBinding = (Omit<UniformBinding, 'type'> | Omit<StorageBinding, 'type'>) & {
  /** The binding's data: a `d.struct(…)` (named with `$name`, else after the binding), `d.arrayOf(…)`, `d.vec4f`, … */
  readonly schema: TypeGpuSchema;
};

/** A fragment whose buffer bindings may give a TypeGPU `schema` in place of a WGSL `type`. */
export interface TypeGpuFragment extends Omit<Fragment, 'bindings'> {
  bindings?: readonly (FragmentBinding | TypeGpuBufferBinding)[];
}

/** The WGSL of TypeGPU schemas: the type each one is written as, and the struct declarations they need. */
export interface TypeGpuWgsl {
  /** One WGSL type per schema, in order: `Light`, `array<Light, 4>`, `vec4f`. */
  readonly types: readonly string[];
  /** Every struct the types name, each declared once (empty when none is a struct). */
  readonly declarations: string;
}

/**
 * The WGSL TypeGPU writes for data schemas (through `tgpu.resolve`, so names and member attributes are TypeGPU's own).
 * `names` gives the WGSL name of an unnamed top-level struct (default `Schema0`, `Schema1`, …).
 * @throws {TypeGpuInteropError} `not-a-schema` when a value is not a TypeGPU data schema
 */
export function wgslOfTypeGpuSchemas(schemas: readonly TypeGpuSchema[], names: readonly string[] = []): TypeGpuWgsl {
  return resolveSchemas('wgslOfTypeGpuSchemas', schemas, names);
}

function resolveSchemas(api: string, schemas: readonly TypeGpuSchema[], names: readonly string[]): TypeGpuWgsl {
  const externals: Record<string, AnyWgslData> = {};
  schemas.forEach((schema, i) => {
    // TypeGPU's structs, vectors and matrices are functions (their value constructors) that carry `type`.
    const shaped = (typeof schema === 'object' && schema !== null) || typeof schema === 'function';
    if (!shaped || typeof (schema as { type?: unknown }).type !== 'string')
      throw new TypeGpuInteropError(
        api,
        'not-a-schema',
        `schema ${i} is ${describeValue(schema)}, not a TypeGPU data schema (d.f32, d.vec4f, d.struct({ … }), d.arrayOf(…), …)`,
      );
    externals[names[i] ?? `Schema${i}`] = schema as unknown as AnyWgslData;
  });
  const keys = Object.keys(externals);
  const template = keys.map((key, i) => `alias WeftSchemaType${i} = ${key};`).join('\n');
  let resolved: string;
  try {
    resolved = tgpu.resolve({ template, externals });
  } catch (error) {
    throw new TypeGpuInteropError(
      api,
      'not-a-schema',
      `TypeGPU could not resolve the schemas: ${(error as Error).message}`,
    );
  }
  const types = keys.map((_, i) => {
    const found = new RegExp(`alias WeftSchemaType${i} = ([^;]+);`).exec(resolved);
    if (!found) throw new TypeGpuInteropError(api, 'not-a-schema', `schema ${i} resolved to no WGSL type`);
    return found[1].trim();
  });
  const declarations = resolved.replace(/alias WeftSchemaType\d+ = [^;]+;/g, '').trim();
  return { types, declarations: declarations ? `${declarations}\n` : '' };
}

/**
 * A weft fragment from one whose buffer bindings may be typed by TypeGPU schemas: each such binding gets the WGSL type
 * TypeGPU writes for its schema, and the structs it needs are appended to the source (after it, so every line of your
 * source keeps its number in error messages). The schema is checked against the WGSL layout rules weft writes
 * uniforms by: a buffer written by TypeGPU with the same schema is read by the shader as TypeGPU laid it out.
 * @example
 * const Tint = d.struct({ color: d.vec4f, amount: d.f32 }).$name('Tint');
 * const tint = withTypeGpuSchemas({
 *   id: 'tint',
 *   source: 'import bindings::tint;\nfn tinted(c: vec4f) -> vec4f { return mix(c, tint.color, tint.amount); }',
 *   bindings: [{ kind: 'uniform', name: 'tint', role: 'material', visibility: ['fragment'], schema: Tint }],
 * });
 * @throws {TypeGpuInteropError} `bad-binding` (a schema on a texture or sampler, or beside a `type`), `not-a-schema`,
 *   `name-clash` (the source declares a struct of the same name), `unsupported-type` (not host-shareable in that
 *   address space), `layout-mismatch`
 */
export function withTypeGpuSchemas(fragment: TypeGpuFragment): Fragment {
  const api = 'withTypeGpuSchemas';
  const bindings = fragment.bindings ?? [];
  const typed: { index: number; binding: TypeGpuBufferBinding }[] = [];
  bindings.forEach((binding, index) => {
    if (!('schema' in binding)) return;
    const where = `fragment "${fragment.id}" binding ${describeValue(binding.name)}`;
    if (!['uniform', 'storage', 'read-only-storage'].includes(binding.kind))
      throw new TypeGpuInteropError(
        api,
        'bad-binding',
        `${where} is a ${describeValue(binding.kind)}; only uniform, storage and read-only-storage bindings take a schema`,
      );
    if ('type' in binding)
      throw new TypeGpuInteropError(api, 'bad-binding', `${where} gives both type and schema; give one`);
    typed.push({ index, binding: binding as TypeGpuBufferBinding });
  });
  if (typed.length === 0) return { ...fragment, bindings: bindings as readonly FragmentBinding[] };
  const names = typed.map(({ binding }) => upperFirst(binding.name));
  const wgsl = resolveSchemas(
    api,
    typed.map(({ binding }) => binding.schema),
    names,
  );
  for (const [, name] of wgsl.declarations.matchAll(/\bstruct\s+(\w+)/g))
    if (new RegExp(`\\b(struct|alias)\\s+${name}\\b`).test(fragment.source))
      throw new TypeGpuInteropError(
        api,
        'name-clash',
        `fragment "${fragment.id}": a schema's struct is named ${name}, and the fragment's source declares ${name} too; rename one ($name on the schema)`,
      );
  const out: FragmentBinding[] = bindings.map((binding) => binding as FragmentBinding);
  typed.forEach(({ index, binding }, i) => {
    const { schema, ...rest } = binding;
    const declared = { ...rest, type: wgsl.types[i] } as FragmentBinding;
    checkLayout(api, fragment.id, declared as UniformBinding | StorageBinding, wgsl.declarations, schema);
    out[index] = declared;
  });
  const source = fragment.source.endsWith('\n') ? fragment.source : `${fragment.source}\n`;
  return { ...fragment, source: `${source}${wgsl.declarations}`, bindings: out };
}

function checkLayout(
  api: string,
  fragmentId: string,
  binding: UniformBinding | StorageBinding,
  declarations: string,
  schema: TypeGpuSchema,
): void {
  const where = `fragment "${fragmentId}" binding "${binding.name}"`;
  const space = binding.kind === 'uniform' ? 'uniform' : binding.kind === 'storage' ? 'storage, read_write' : 'storage';
  let layout: BufferLayout;
  try {
    layout = makeWgslBufferLayouts(
      `${declarations}\n@group(0) @binding(0) var<${space}> weftSchemaProbe: ${binding.type};`,
    ).weftSchemaProbe;
  } catch (error) {
    throw new TypeGpuInteropError(
      api,
      'unsupported-type',
      `${where}: ${binding.type} is not host-shareable in a ${binding.kind} buffer (${(error as Error).message})`,
    );
  }
  if (binding.kind === 'uniform' && (layout.runtimeArray || holdsAtomic(layout.type)))
    throw new TypeGpuInteropError(
      api,
      'unsupported-type',
      `${where}: ${binding.type} holds ${layout.runtimeArray ? 'a runtime-sized array' : 'an atomic'}, which a uniform buffer cannot; use a storage binding`,
    );
  checkSchemaLayout(api, schema, layout.type, where);
}

function holdsAtomic(type: TypeLayout): boolean {
  if (type.kind === 'scalar') return type.atomic;
  if (type.kind === 'array') return holdsAtomic(type.element);
  return type.kind === 'struct' && type.fields.some((field) => holdsAtomic(field.type));
}

function upperFirst(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
