// TypeGPU writes, the device reads: buffers written by TypeGPU's typed buffers (schemas from weft layouts, and a
// fragment binding typed by a TypeGPU schema) are read back scalar by scalar through the WGSL weft composed.
import tgpu, { d } from 'typegpu';
import { describe, expect } from 'vitest';
import { composeShader, type LayoutValue, makeWgslBufferLayouts, type TypeLayout } from '../../../composer/index.js';
import { makeStandardVertexFragments } from '../../../fragments/index.js';
import { type TypeGpuSchema, toTypeGpuSchema, withTypeGpuSchemas } from '../../../hosts/typegpu/index.js';
import { surfaceCalling } from '../../unit/composer/composer-test-helpers.js';
import { gpuTest } from '../../support/gpu.js';
import {
  roundTrip,
  runtimeElements,
  storageTraps,
  structDeclarationsOf,
  uniformTraps,
  variantBufferLayouts,
} from './layout-readback.js';

type Data = Parameters<typeof d.sizeOf>[0];
const suffix = { f32: 'f', i32: 'i', u32: 'u', f16: 'h' } as const;

/** weft's value (vectors and matrices as numbers, arrays maybe flat) in TypeGPU's form (d.vec3f, d.mat3x3f, …). */
function toTypeGpuValue(type: TypeLayout, value: LayoutValue): unknown {
  const numbers = (v: LayoutValue) => Array.from(v as ArrayLike<number>);
  switch (type.kind) {
    case 'scalar':
      return value;
    case 'vector': {
      const make = (d as unknown as Record<string, (...n: number[]) => unknown>)[
        `vec${type.components}${suffix[type.scalar]}`
      ];
      return make(...numbers(value));
    }
    case 'matrix': {
      let flat = numbers(value);
      // The padded column form (4 numbers per column of a 3-row matrix): drop the padding.
      if (type.rows === 3 && flat.length === type.columns * 4) flat = flat.filter((_, i) => i % 4 !== 3);
      const make = (d as unknown as Record<string, (...n: number[]) => unknown>)[`mat${type.columns}x${type.rows}f`];
      return make(...flat);
    }
    case 'array': {
      const items = value as readonly LayoutValue[];
      if (type.element.kind === 'scalar' || typeof items[0] !== 'number') {
        return items.map((item) => toTypeGpuValue(type.element, item));
      }
      // All numbers flat: regroup them per element (matrices unpadded, as weft's flat form writes them).
      const perElement = scalarCount(type.element);
      const out: unknown[] = [];
      for (let at = 0; at < items.length; at += perElement)
        out.push(toTypeGpuValue(type.element, regroup(type.element, items.slice(at, at + perElement) as number[])));
      return out;
    }
    case 'struct': {
      const out: Record<string, unknown> = {};
      const fields = value as Record<string, LayoutValue>;
      for (const field of type.fields) out[field.name] = toTypeGpuValue(field.type, fields[field.name]);
      return out;
    }
  }
}

function scalarCount(type: TypeLayout): number {
  if (type.kind === 'vector') return type.components;
  if (type.kind === 'matrix') return type.columns * type.rows;
  if (type.kind === 'array') return (type.length ?? 0) * scalarCount(type.element);
  return 1;
}

/** Flat numbers of one array element back into weft's nested form for that element. */
function regroup(type: TypeLayout, flat: number[]): LayoutValue {
  if (type.kind !== 'array') return flat;
  const per = scalarCount(type.element);
  return Array.from({ length: type.length ?? 0 }, (_, i) => regroup(type.element, flat.slice(i * per, (i + 1) * per)));
}

/** A writer for `roundTrip`: TypeGPU's typed buffer of `schema`, initialised with the values. */
function writeWithTypeGpu(
  root: Awaited<ReturnType<typeof tgpu.initFromDevice>>,
  schema: TypeGpuSchema,
  type: TypeLayout,
) {
  return (values: LayoutValue, usage: GPUBufferUsageFlags): GPUBuffer => {
    const buffer = root.createBuffer(schema as unknown as Data, toTypeGpuValue(type, values) as never);
    const usable = usage === GPUBufferUsage.UNIFORM ? buffer.$usage('uniform') : buffer.$usage('storage');
    return root.unwrap(usable);
  };
}

describe('weft-gpu/typegpu on the device', () => {
  gpuTest(
    'TypeGPU writes every uniform and storage layout of every weft variant as the shaders read it',
    async ({ engine }) => {
      const root = tgpu.initFromDevice({ device: engine.device });
      const seen = variantBufferLayouts();
      expect(seen.size).toBeGreaterThanOrEqual(15);
      for (const [key, { declarations, layout }] of seen) {
        const schema = toTypeGpuSchema(layout, layout.runtimeArray ? { runtimeLength: runtimeElements } : {});
        await roundTrip(
          engine.device,
          declarations,
          layout,
          `typegpu ${key}`,
          writeWithTypeGpu(root, schema, layout.type),
        );
      }
    },
  );

  gpuTest(
    'the alignment traps: @align, @size, vec3 padding, nested structs and arrays, a runtime-sized tail',
    async ({ engine }) => {
      const root = tgpu.initFromDevice({ device: engine.device });
      // TypeGPU 0.12 has square f32 matrices only: the traps' mat3x4f, mat4x3f and mat3x2f are left out here (the
      // unit test checks they are refused by name).
      const squareOnly = storageTraps.replace(/\s*m34: mat3x4f, m43: mat4x3f, m32: mat3x2f,/, '');
      expect(squareOnly).not.toContain('mat3x4f');
      const storage = makeWgslBufferLayouts(
        `${squareOnly}\n@group(0) @binding(0) var<storage, read> input: Traps;`,
      ).input;
      const uniform = makeWgslBufferLayouts(`${uniformTraps}\n@group(0) @binding(0) var<uniform> input: Frame;`).input;
      for (const [layout, declarations] of [
        [storage, squareOnly],
        [uniform, uniformTraps],
      ] as const) {
        const schema = toTypeGpuSchema(layout, layout.runtimeArray ? { runtimeLength: runtimeElements } : {});
        await roundTrip(
          engine.device,
          declarations,
          layout,
          `traps ${layout.type.wgsl}`,
          writeWithTypeGpu(root, schema, layout.type),
        );
      }
    },
  );

  gpuTest(
    'a fragment binding typed by a TypeGPU schema: TypeGPU writes it, the composed shader reads it',
    async ({ engine }) => {
      const root = tgpu.initFromDevice({ device: engine.device });
      const Light = d.struct({ direction: d.vec3f, intensity: d.f32, tint: d.vec3f }).$name('Light');
      const Tint = d
        .struct({
          color: d.vec4f,
          amount: d.f32,
          basis: d.mat3x3f,
          lights: d.arrayOf(Light, 3),
          flags: d.vec3u,
          scale: d.align(32, d.f32),
          last: d.size(24, d.vec2i),
        })
        .$name('Tint');
      const tint = withTypeGpuSchemas({
        id: 'tint',
        source:
          'import bindings::tint;\nfn tinted(c: vec4f) -> vec4f {\n  return mix(c, tint.color, tint.amount) + vec4f(tint.lights[2].tint * tint.scale, 0.0);\n}\n',
        bindings: [{ kind: 'uniform', name: 'tint', role: 'material', visibility: ['fragment'], schema: Tint }],
      });
      const surface = surfaceCalling('tint', 'tinted');
      const composed = composeShader({ fragments: [...makeStandardVertexFragments(), tint, surface] });
      const layout = composed.bufferLayouts.tint;
      expect(layout.type.kind).toBe('struct');
      expect(layout.type.size).toBe(d.sizeOf(Tint));
      // The composed shader compiles on the device with the schema's structs in it.
      const module = engine.device.createShaderModule({ code: composed.code });
      const errors = (await module.getCompilationInfo()).messages.filter((m) => m.type === 'error');
      expect(errors.map((m) => m.message)).toEqual([]);
      await roundTrip(
        engine.device,
        structDeclarationsOf(composed.code),
        layout,
        'schema-typed binding',
        writeWithTypeGpu(root, Tint as unknown as TypeGpuSchema, layout.type),
      );
    },
  );
});
