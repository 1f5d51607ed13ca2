// weft-gpu/typegpu without a device: layouts to schemas and back through TypeGPU's own WGSL, and every refusal.
import tgpu, { d } from 'typegpu';
import { describe, expect, test } from 'vitest';
import {
  type BufferLayout,
  composeShader,
  composeVariant,
  listVariants,
  makeWgslBufferLayouts,
  type TypeLayout,
} from '../../../composer/index.js';
import { makeStandardVertexFragments } from '../../../fragments/index.js';
import {
  type TypeGpuFragment,
  TypeGpuInteropError,
  toTypeGpuSchema,
  wgslOfTypeGpuSchemas,
  withTypeGpuSchemas,
} from '../../../hosts/typegpu/index.js';
import { makeWeftVariantRegistry } from '../../../variants/index.js';
import { surfaceCalling } from './composer-test-helpers.js';

/** Every scalar slot of a type as `path offset size align`, names left out (TypeGPU may name structs its own way). */
function placements(type: TypeLayout, path = '', base = 0, out: string[] = []): string[] {
  out.push(`${path || '.'} ${type.kind} @${base} size ${type.size} align ${type.align}`);
  if (type.kind === 'array') {
    out.push(`${path}[] stride ${type.stride} length ${type.length}`);
    placements(type.element, `${path}[]`, base, out);
  }
  if (type.kind === 'struct')
    for (const field of type.fields)
      placements(field.type, `${path}.${field.name}`, base + field.offset, out).push(
        `${path}.${field.name} slot ${field.size}/${field.align}`,
      );
  return out;
}

function interopError(run: () => unknown): TypeGpuInteropError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeGpuInteropError);
    return error as TypeGpuInteropError;
  }
  throw new Error('accepted');
}

const space = (layout: BufferLayout) =>
  layout.addressSpace === 'uniform' ? 'uniform' : `storage, ${layout.access === 'read_write' ? 'read_write' : 'read'}`;

describe('toTypeGpuSchema', () => {
  test('every buffer layout of every weft variant: TypeGPU writes the same layout back as WGSL', () => {
    const registry = makeWeftVariantRegistry();
    let layouts = 0;
    for (const variant of listVariants(registry)) {
      const shader = composeVariant(registry, variant.name);
      for (const layout of Object.values(shader.bufferLayouts)) {
        const schema = toTypeGpuSchema(layout);
        // TypeGPU's own WGSL for the schema, laid out again by weft: an independent writer of the same type.
        const wgsl = wgslOfTypeGpuSchemas([schema]);
        const again = makeWgslBufferLayouts(
          `${wgsl.declarations}\n@group(0) @binding(0) var<${space(layout)}> probe: ${wgsl.types[0]};`,
        ).probe;
        expect(placements(again.type), `${variant.name}.${layout.name}`).toEqual(placements(layout.type));
        if (!layout.runtimeArray) expect(d.sizeOf(schema as never)).toBe(layout.type.size);
        layouts++;
      }
    }
    expect(layouts).toBeGreaterThan(100);
  });

  test('@align, @size, vec3 padding, nested arrays and a runtime-sized tail sized by runtimeLength', () => {
    const code = `
struct Inner { a: vec3f, b: f32, c: vec2i }
struct Data { f: f32, v: vec3f, after: f32, @align(32) aligned: vec3u, @size(20) sized: f32, grid: array<array<vec3f, 2>, 2>, inner: Inner, tail: array<Inner> }
@group(0) @binding(0) var<storage, read> data: Data;`;
    const layout = makeWgslBufferLayouts(code).data;
    const schema = toTypeGpuSchema(layout, { runtimeLength: 5 });
    expect(layout.runtimeArray).not.toBeNull();
    // Five tail elements after the fixed part, as the WGSL rules size a buffer of five.
    expect(d.sizeOf(schema as never)).toBe(layout.runtimeArray!.offset + 5 * layout.runtimeArray!.stride);
    const wgsl = wgslOfTypeGpuSchemas([schema]);
    expect(wgsl.declarations).toContain('@align(32) aligned: vec3u');
    expect(wgsl.declarations).toContain('@size(20) sized: f32');
    expect(wgsl.declarations).toContain('tail: array<Inner, 5>');
  });

  test('types TypeGPU 0.12 has no schema for are refused by path; bad options are typed errors', () => {
    const nonSquare = makeWgslBufferLayouts(
      'struct S { a: f32, basis: mat3x4f }\n@group(0) @binding(0) var<uniform> s: S;',
    ).s;
    const error = interopError(() => toTypeGpuSchema(nonSquare));
    expect(error.code).toBe('unsupported-type');
    expect(error.message).toBe(
      'toTypeGpuSchema: s.basis is mat3x4f; TypeGPU 0.12 has matrix schemas for mat2x2f, mat3x3f and mat4x4f only',
    );
    const square = makeWgslBufferLayouts(
      'struct S { a: f32, basis: mat3x3f }\n@group(0) @binding(0) var<uniform> s: S;',
    ).s;
    for (const runtimeLength of [0, -1, 1.5, Number.NaN])
      expect(interopError(() => toTypeGpuSchema(square, { runtimeLength })).code).toBe('not-a-schema');
    // The refusals leave nothing behind: the next call converts.
    expect(d.sizeOf(toTypeGpuSchema(square) as never)).toBe(square.type.size);
  });
});

describe('withTypeGpuSchemas', () => {
  const Light = d.struct({ direction: d.vec3f, intensity: d.f32 }).$name('Light');
  const Tint = d.struct({ color: d.vec4f, amount: d.f32, lights: d.arrayOf(Light, 2) }).$name('Tint');
  const source = 'import bindings::tint;\nfn tinted(c: vec4f) -> vec4f {\n  return mix(c, tint.color, tint.amount);\n}';
  const fragment = (extra: Partial<TypeGpuFragment> = {}): TypeGpuFragment => ({
    id: 'tint',
    source,
    bindings: [{ kind: 'uniform', name: 'tint', role: 'material', visibility: ['fragment'], schema: Tint }],
    ...extra,
  });

  test('the schema becomes the binding type; its structs follow the source, which keeps every line number', () => {
    const made = withTypeGpuSchemas(fragment());
    expect(made.bindings).toEqual([
      { kind: 'uniform', name: 'tint', role: 'material', visibility: ['fragment'], type: 'Tint' },
    ]);
    expect(made.source.startsWith(`${source}\n`)).toBe(true);
    expect(made.source.slice(source.length)).toBe(`\n${tgpu.resolve([Tint])}\n`);
    // Deterministic: the same fragment gives byte-identical output, so shader snapshots stay stable.
    expect(withTypeGpuSchemas(fragment())).toEqual(made);
    const surface = surfaceCalling('tint', 'tinted');
    const composed = composeShader({ fragments: [...makeStandardVertexFragments(), made, surface] });
    const layout = composed.bufferLayouts.tint;
    expect(layout.type.size).toBe(d.sizeOf(Tint));
    expect(layout.type.kind === 'struct' && layout.type.fields.map((f) => [f.name, f.offset])).toEqual([
      ['color', 0],
      ['amount', 16],
      ['lights', 32],
    ]);
    // The composed layout and the user's schema place a nested member at the same byte.
    const lights = layout.type.kind === 'struct' ? layout.type.fields[2].type : null;
    const light = lights?.kind === 'array' ? lights.element : null;
    const intensity = light?.kind === 'struct' ? light.fields[1].offset : Number.NaN;
    expect(d.memoryLayoutOf(Tint, (t) => t.lights[1].intensity).offset).toBe(
      32 + (lights?.kind === 'array' ? lights.stride : Number.NaN) + intensity,
    );
  });

  test('an unnamed struct takes the binding name; plain bindings pass through untouched', () => {
    const plain = {
      kind: 'uniform' as const,
      name: 'plain',
      role: 'material' as const,
      visibility: ['fragment' as const],
      type: 'vec4f',
    };
    const made = withTypeGpuSchemas(
      fragment({
        bindings: [
          plain,
          {
            kind: 'read-only-storage',
            name: 'points',
            role: 'extra',
            visibility: ['vertex'],
            schema: d.arrayOf(d.vec4f, 0),
          },
          {
            kind: 'uniform',
            name: 'params',
            role: 'material',
            visibility: ['fragment'],
            schema: d.struct({ x: d.f32 }),
          },
        ],
      }),
    );
    expect(made.bindings?.map((b) => ('type' in b ? b.type : null))).toEqual(['vec4f', 'array<vec4f>', 'Params']);
    expect(made.bindings?.[0]).toBe(plain);
  });

  test('refusals name the fragment, the binding and what is allowed, and leave the next call working', () => {
    const binding = { name: 'data', role: 'material', visibility: ['fragment'] } as const;
    const cases: [TypeGpuFragment['bindings'], string, RegExp][] = [
      [
        [{ ...binding, kind: 'texture', schema: d.f32 } as never],
        'bad-binding',
        /binding "data" is a "texture"; only uniform, storage and read-only-storage/,
      ],
      [
        [{ ...binding, kind: 'uniform', type: 'f32', schema: d.f32 } as never],
        'bad-binding',
        /gives both type and schema/,
      ],
      [
        [{ ...binding, kind: 'uniform', schema: 5 } as never],
        'not-a-schema',
        /schema 0 is 5, not a TypeGPU data schema/,
      ],
      [
        [{ ...binding, kind: 'uniform', schema: d.struct({ a: d.arrayOf(d.f32, 0) }) }],
        'unsupported-type',
        /runtime-sized/,
      ],
      [
        [{ ...binding, kind: 'uniform', schema: d.struct({ n: d.atomic(d.u32) }) }],
        'unsupported-type',
        /not host-shareable in a uniform buffer|atomic/,
      ],
      [[{ ...binding, kind: 'uniform', schema: d.struct({ on: d.bool }) }], 'unsupported-type', /bool/],
    ];
    for (const [bindings, code, message] of cases) {
      const error = interopError(() => withTypeGpuSchemas(fragment({ bindings })));
      expect(error.code, String(message)).toBe(code);
      expect(error.message).toMatch(message);
      expect(error.message).toMatch(/^withTypeGpuSchemas: /);
    }
    const clash = interopError(() => withTypeGpuSchemas(fragment({ source: `${source}\nstruct Light { x: f32 }` })));
    expect(clash.code).toBe('name-clash');
    expect(clash.message).toContain("a schema's struct is named Light, and the fragment's source declares Light too");
    expect(withTypeGpuSchemas(fragment()).bindings?.[0]).toMatchObject({ type: 'Tint' });
  });
});
