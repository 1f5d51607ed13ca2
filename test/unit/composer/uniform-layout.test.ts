import { describe, expect, test } from 'vitest';
import {
  bufferLayoutByteSize,
  composeShader,
  composeVariant,
  getLayoutField,
  LayoutError,
  listVariants,
  makeLayoutWordOffsets,
  makeWgslBufferLayouts,
  makeWgslStructLayout,
  setUniforms,
  type StructLayout,
} from '../../../composer/index.js';
import { makeStandardMaterialFragments } from '../../../fragments/index.js';
import { makeWeftVariantRegistry } from '../../../variants/index.js';

/** Offsets written as [name, offset, size, align] rows: the numbers are the WGSL spec's own worked examples. */
type Row = [string, number, number, number];
const rows = (layout: StructLayout): Row[] => layout.fields.map((f) => [f.name, f.offset, f.size, f.align]);

const specExample = `
struct A { u: f32, v: f32, w: vec2<f32>, x: f32 }
struct B {
  a: vec2<f32>,
  b: vec3<f32>,
  c: f32,
  d: f32,
  e: A,
  f: vec3<f32>,
  g: array<A, 3>, // element stride 24
  h: i32
}
@group(0) @binding(0) var<storage, read_write> storage_buffer: B;
`;

const specExampleAttributes = `
struct A { u: f32, v: f32, w: vec2<f32>, @size(16) x: f32 }
struct B {
  a: vec2<f32>,
  b: vec3<f32>,
  c: f32,
  d: f32,
  @align(16) e: A,
  f: vec3<f32>,
  g: array<A, 3>,
  h: i32
}
@group(0) @binding(0) var<storage, read_write> storage_buffer: B;
`;

describe('makeWgslBufferLayouts: the WGSL alignment and size rules', () => {
  test("the spec's struct example (implicit padding, nested struct, array of structs)", () => {
    const layout = makeWgslBufferLayouts(specExample).storage_buffer;
    const b = layout.type as StructLayout;
    expect([b.align, b.size]).toEqual([16, 160]);
    expect(rows(b)).toEqual([
      ['a', 0, 8, 8],
      ['b', 16, 12, 16],
      ['c', 28, 4, 4],
      ['d', 32, 4, 4],
      ['e', 40, 24, 8],
      ['f', 64, 12, 16],
      ['g', 80, 72, 8],
      ['h', 152, 4, 4],
    ]);
    const a = b.fields[4].type as StructLayout;
    expect([a.align, a.size]).toEqual([8, 24]);
    expect(rows(a)).toEqual([
      ['u', 0, 4, 4],
      ['v', 4, 4, 4],
      ['w', 8, 8, 8],
      ['x', 16, 4, 4],
    ]);
    expect(b.fields[6].type).toMatchObject({ kind: 'array', length: 3, stride: 24 });
    expect(layout).toMatchObject({ group: 0, binding: 0, addressSpace: 'storage', access: 'read_write' });
    expect(layout.minBindingSize).toBe(160);
  });

  test("the spec's @size / @align example", () => {
    const b = makeWgslBufferLayouts(specExampleAttributes).storage_buffer.type as StructLayout;
    expect([b.align, b.size]).toEqual([16, 208]);
    expect(rows(b).map((r) => r[1])).toEqual([0, 16, 28, 32, 48, 80, 96, 192]);
    expect(b.fields[4]).toMatchObject({ size: 32, align: 16 });
    expect(b.fields[6].type).toMatchObject({ stride: 32, size: 96 });
  });

  test('matrices pad their columns; vec3 arrays have stride 16; f16 halves the sizes', () => {
    const layouts = makeWgslBufferLayouts(`
      enable f16;
      const N = 5u;
      alias Mat = mat3x3f;
      struct S { m3: Mat, m2: mat2x2<f32>, m42: mat4x2f, v: array<vec3f, N>, h: vec3h, hm: mat3x3h, s: f16 }
      @group(2) @binding(3) var<uniform> s: S;
    `);
    const s = layouts.s.type as StructLayout;
    expect(rows(s)).toEqual([
      ['m3', 0, 48, 16],
      ['m2', 48, 16, 8],
      ['m42', 64, 32, 8],
      ['v', 96, 80, 16],
      ['h', 176, 6, 8],
      ['hm', 184, 24, 8],
      ['s', 208, 2, 2],
    ]);
    expect(s.size).toBe(224);
    expect(s.fields[0].type).toMatchObject({ kind: 'matrix', columns: 3, rows: 3, columnStride: 16 });
    expect(layouts.s).toMatchObject({ group: 2, binding: 3, addressSpace: 'uniform', access: null });
  });

  test('runtime-sized arrays: minimum binding size counts one element, bufferLayoutByteSize counts n', () => {
    const layouts = makeWgslBufferLayouts(`
      struct Item { p: vec3f, w: f32, extra: vec2f }
      struct Tail { count: u32, items: array<Item> }
      @group(0) @binding(0) var<storage, read> items: array<Item>;
      @group(0) @binding(1) var<storage, read_write> tail: Tail;
      @group(0) @binding(2) var<storage> counts: array<atomic<u32>>;
    `);
    expect(layouts.items.runtimeArray).toEqual({ offset: 0, stride: 32 });
    expect(layouts.items.minBindingSize).toBe(32);
    expect(bufferLayoutByteSize(layouts.items, 10)).toBe(320);
    expect(layouts.tail.runtimeArray).toEqual({ offset: 16, stride: 32 });
    expect(layouts.tail.minBindingSize).toBe(48);
    expect(bufferLayoutByteSize(layouts.tail, 0)).toBe(16);
    expect(bufferLayoutByteSize(layouts.tail, 3)).toBe(112);
    expect(layouts.counts).toMatchObject({ access: 'read', minBindingSize: 4 });
    expect(() => bufferLayoutByteSize(layouts.tail, -1)).toThrow(LayoutError);
  });

  test('only uniform / storage vars, in (group, binding) order; comments and function bodies are skipped', () => {
    const layouts = makeWgslBufferLayouts(`
      /* struct Fake { a: f32 } /* nested */ still a comment */
      struct U { a: f32 } // var<uniform> commented: U;
      @group(1) @binding(0) var<uniform> second: U;
      @group(0) @binding(4) var<uniform> first: U;
      @group(0) @binding(0) var tex: texture_2d<f32>;
      var<private> p: f32 = 1.0;
      fn f() -> f32 { var<function> local: U; let x = array<f32, 2>(1.0, 2.0); return local.a + x[0]; }
    `);
    expect(Object.keys(layouts)).toEqual(['first', 'second']);
  });

  test('refuses what cannot be laid out, naming the variable', () => {
    const cases: [string, RegExp][] = [
      ['@group(0) @binding(0) var<uniform> u: Missing;', /var<uniform> u: type "Missing" is not declared/],
      ['@group(0) @binding(0) var<uniform> u: array<f32>;', /runtime-sized where only the last member/],
      ['struct S { a: array<f32>, b: f32 } @group(0) @binding(0) var<storage> u: S;', /runtime-sized/],
      [
        'override K = 3u; @group(0) @binding(0) var<storage> u: array<f32, K>;',
        /array length "K" must be a positive integer/,
      ],
      ['@group(0) @binding(0) var<uniform> u: bool;', /"bool" is not declared/],
    ];
    for (const [code, message] of cases) {
      expect(() => makeWgslBufferLayouts(code)).toThrow(message);
      expect(() => makeWgslBufferLayouts(code)).toThrow(LayoutError);
    }
  });
});

describe('ComposedShader.bufferLayouts', () => {
  test('every registered variant carries a layout for each buffer binding, sized as the fragments declare', () => {
    const registry = makeWeftVariantRegistry();
    let buffers = 0;
    for (const variant of listVariants(registry)) {
      const shader = composeVariant(registry, variant.name);
      const names = shader.bindGroups.flatMap((g) =>
        g.bindings.filter((b) => b.kind === 'uniform' || b.kind.endsWith('storage')).map((b) => b.name),
      );
      expect(Object.keys(shader.bufferLayouts).sort()).toEqual([...names].sort());
      for (const group of shader.bindGroups)
        for (const binding of group.bindings) {
          const layout = shader.bufferLayouts[binding.name];
          if (!layout) continue;
          buffers++;
          expect([layout.group, layout.binding]).toEqual([group.group, binding.binding]);
          const entry = group.entries.find((e) => e.binding === binding.binding);
          const min = entry?.buffer?.minBindingSize;
          if (min) expect(layout.minBindingSize).toBe(min);
        }
      expect(Object.isFrozen(shader.bufferLayouts)).toBe(true);
    }
    expect(buffers).toBeGreaterThan(100);
  });

  test('deterministic: the same spec gives deep-equal layouts', () => {
    const a = composeShader({ fragments: makeStandardMaterialFragments() });
    const b = composeShader({ fragments: [...makeStandardMaterialFragments()].reverse() });
    expect(a.key).toBe(b.key);
    expect(JSON.stringify(a.bufferLayouts)).toBe(JSON.stringify(b.bufferLayouts));
    expect(rows(a.bufferLayouts.draw.type as StructLayout)).toEqual([
      ['world', 0, 64, 16],
      ['normalMatrix', 64, 64, 16],
      ['baseColor', 128, 16, 16],
      ['flags', 144, 16, 16],
    ]);
  });
});

describe('setUniforms / getLayoutField', () => {
  const layouts = makeWgslBufferLayouts(`
    struct Light { color: vec3f, intensity: f32 }
    struct U { tint: vec4f, world: mat4x4f, basis: mat3x3f, count: u32, bias: i32, lights: array<Light, 2>, weights: array<vec4f, 2> }
    @group(0) @binding(0) var<uniform> u: U;
  `);
  const u = layouts.u;

  test('writes fields by name at their offsets, little-endian; fields not named keep their bytes', () => {
    const buffer = new ArrayBuffer(u.minBindingSize);
    const f = new Float32Array(buffer);
    const w = new Uint32Array(buffer);
    f.fill(-7);
    const world = Array.from({ length: 16 }, (_, i) => i + 1);
    setUniforms(u, buffer, { tint: [1, 0, 0, 1], world, count: 3, bias: -2 });
    expect([...f.slice(0, 4)]).toEqual([1, 0, 0, 1]);
    expect([...f.slice(4, 20)]).toEqual(world);
    expect(f[20]).toBe(-7); // basis untouched
    expect(w[32]).toBe(3);
    expect(new Int32Array(buffer)[33]).toBe(-2);
  });

  test('mat3x3f takes 9 numbers or the padded 12; arrays take elements or flat numbers; nested structs by name', () => {
    const buffer = new ArrayBuffer(u.minBindingSize);
    const f = new Float32Array(buffer);
    setUniforms(u, buffer, { basis: [1, 2, 3, 4, 5, 6, 7, 8, 9] });
    expect([...f.slice(20, 32)]).toEqual([1, 2, 3, 0, 4, 5, 6, 0, 7, 8, 9, 0]);
    setUniforms(u, buffer, { basis: new Float32Array([9, 8, 7, 0, 6, 5, 4, 0, 3, 2, 1, 0]) });
    expect([...f.slice(20, 32)]).toEqual([9, 8, 7, 0, 6, 5, 4, 0, 3, 2, 1, 0]);
    setUniforms(u, buffer, { lights: [{ color: [1, 2, 3], intensity: 4 }, { intensity: 8 }] });
    expect([...f.slice(36, 44)]).toEqual([1, 2, 3, 4, 0, 0, 0, 8]);
    setUniforms(u, buffer, { weights: [1, 2, 3, 4, 5, 6, 7, 8] });
    expect([...f.slice(44, 52)]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(getLayoutField(u, 'lights[1].intensity')).toMatchObject({ offset: 172, type: { wgsl: 'f32' } });
    expect(getLayoutField(u, 'weights[1]').offset).toBe(192);
  });

  test('a byteOffset writes into a slot; typed arrays and DataViews are targets too', () => {
    const buffer = new ArrayBuffer(256 + u.minBindingSize);
    setUniforms(u, new DataView(buffer), { count: 5 }, 256);
    expect(new Uint32Array(buffer)[64 + 32]).toBe(5);
    const view = new Uint8Array(buffer, 256);
    setUniforms(u, view, { count: 6 });
    expect(new Uint32Array(buffer)[64 + 32]).toBe(6);
  });

  test('bad input is a LayoutError naming the field and what it takes; nothing is written', () => {
    const buffer = new ArrayBuffer(u.minBindingSize);
    const bytes = new Uint8Array(buffer);
    const cases: [unknown, string, string][] = [
      [
        { tnit: [1, 0, 0, 1] },
        'unknown-field',
        'setUniforms: binding "u" (U) has no field "tnit" (did you mean "tint"?); its fields: tint, world, basis, count, bias, lights, weights',
      ],
      [
        { tint: [1, 0, 0] },
        'bad-value',
        'setUniforms: binding "u" field tint is vec4f: expected 4 numbers, got array(3)',
      ],
      [
        { basis: [1, 2, 3] },
        'bad-value',
        'field basis is mat3x3f: expected 9 numbers (column-major) or 12 (columns padded to 16 bytes)',
      ],
      [{ count: -1 }, 'bad-value', 'count is u32: expected an integer in 0..4294967295, got -1'],
      [{ bias: 1.5 }, 'bad-value', 'bias is i32: expected an integer in -2147483648..2147483647, got 1.5'],
      [
        { lights: [{ colour: [1, 1, 1] }] },
        'bad-value',
        'lights is array<Light, 2>: expected an array of 2 Light values',
      ],
      [
        { lights: [{ colour: [1, 1, 1] }, {}] },
        'unknown-field',
        'binding "u" field lights[0] (Light) has no field "colour" (did you mean "color"?); its fields: color, intensity',
      ],
      [
        { weights: [1, 2, 3] },
        'bad-value',
        'weights is array<vec4f, 2>: expected an array of 2 vec4f values or 8 numbers flat',
      ],
      [{ tint: [1, 0, 0, 1], count: 'x' }, 'bad-value', 'count is u32'],
      [{ world: [1, 2, 3] }, 'bad-value', 'binding "u" field world is mat4x4f: expected 16 numbers (column-major)'],
      [{ zzz: 1 }, 'unknown-field', 'binding "u" (U) has no field "zzz"; its fields: tint,'],
    ];
    for (const [values, code, message] of cases) {
      let caught: unknown;
      try {
        setUniforms(u, buffer, values as never);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(LayoutError);
      expect((caught as LayoutError).code).toBe(code);
      expect((caught as Error).message).toContain(message);
    }
    expect(bytes.every((b) => b === 0)).toBe(true);
    expect(() => setUniforms(u, new ArrayBuffer(16), { count: 1 })).toThrow(
      'setUniforms: binding "u" field count ends at byte 132 but the target holds 16 bytes',
    );
    expect(() => getLayoutField(u, 'lights[2]')).toThrow('"lights[2]": lights is array<Light, 2>; indices are 0..1');
    expect(() => getLayoutField(u, 'tint.x')).toThrow('tint (vec4f) has no field "x"; its fields: (none)');
    // A bare type layout has no binding to name.
    expect(() => setUniforms(u.type, buffer, { tnit: [1, 0, 0, 1] })).toThrow(
      'setUniforms: the value (U) has no field "tnit" (did you mean "tint"?)',
    );
  });

  test('makeLayoutWordOffsets resolves paths once into word indices; makeWgslStructLayout reads a fragment source', () => {
    expect(makeLayoutWordOffsets(u, ['count', 'lights[1].intensity', 'weights[1]'])).toEqual({
      count: 32,
      'lights[1].intensity': 43,
      'weights[1]': 48,
    });
    const half = makeWgslBufferLayouts(
      'enable f16; struct H { a: f16, b: f16 } @group(0) @binding(0) var<uniform> h: H;',
    ).h;
    expect(() => makeLayoutWordOffsets(half, ['b'])).toThrow('b starts at byte 2, not on a 4-byte word');
    const fragmentSource =
      'import bindings::x;\n@if(a) import package::y::Z;\nstruct P { id: u32, tint: vec3f }\nfn f() {}';
    expect(rows(makeWgslStructLayout(fragmentSource, 'P'))).toEqual([
      ['id', 0, 4, 4],
      ['tint', 16, 12, 16],
    ]);
    expect(() => makeWgslStructLayout(fragmentSource, 'Q')).toThrow('struct "Q" is not declared; the code declares: P');
  });

  test('a runtime-sized storage array takes any count that fits', () => {
    const items = makeWgslBufferLayouts(`
      struct Item { p: vec3f, id: u32 }
      @group(0) @binding(0) var<storage, read> items: array<Item>;
    `).items;
    const buffer = new ArrayBuffer(bufferLayoutByteSize(items, 3));
    setUniforms(items, buffer, [{ p: [1, 2, 3], id: 7 }, { id: 8 }, { id: 9 }]);
    expect([...new Uint32Array(buffer)].filter((_, i) => i % 4 === 3)).toEqual([7, 8, 9]);
    expect(() => setUniforms(items, buffer, [{}, {}, {}, {}])).toThrow(/ends at byte 64 but the target holds 48 bytes/);
  });
});

describe('the runtimes write through the same layouts the shaders link', () => {
  test('each struct a runtime lays out from its fragment equals the composed variants’ binding layout', async () => {
    const { getEngineUniformLayouts } = await import('../../../engine/uniform-layouts.js');
    const fragments = await import('../../../fragments/index.js');
    const { contributorViewByteSize } = await import('../../../fragments/contributor-view.js');
    const { blitUniformsByteSize } = await import('../../../fragments/geometry-blit.js');
    const { geometryDrawUniformsByteSize } = await import('../../../fragments/geometry-draw-uniforms.js');
    const { geometrySceneUniformsByteSize } = await import('../../../fragments/geometry-scene-uniforms.js');
    const { velocityUniformsByteSize } = await import('../../../fragments/geometry-velocity.js');
    const { pickFrameUniformsByteSize } = await import('../../../fragments/pick-discard.js');
    const { scene, draw } = getEngineUniformLayouts();
    const registry = makeWeftVariantRegistry();
    const byType = new Map<string, string>();
    for (const variant of listVariants(registry))
      for (const layout of Object.values(composeVariant(registry, variant.name).bufferLayouts)) {
        const json = JSON.stringify(layout.type);
        expect(byType.get(layout.type.wgsl) ?? json, `${layout.type.wgsl} is laid out the same in every variant`).toBe(
          json,
        );
        byType.set(layout.type.wgsl, json);
      }
    expect(byType.get('SceneUniforms')).toBe(JSON.stringify(scene));
    expect(byType.get('DrawUniforms')).toBe(JSON.stringify(draw));
    // The byte sizes the fragments export (and declare as minBindingSize) agree with the WGSL rules.
    const sizes: Record<string, number> = {
      SceneUniforms: fragments.sceneUniformsByteSize,
      DrawUniforms: fragments.drawUniformsByteSize,
      PickUniforms: fragments.pickUniformsByteSize,
      ContributorView: contributorViewByteSize,
      BlitUniforms: blitUniformsByteSize,
      GeometryDrawUniforms: geometryDrawUniformsByteSize,
      GeometrySceneUniforms: geometrySceneUniformsByteSize,
      VelocityUniforms: velocityUniformsByteSize,
      PickFrameUniforms: pickFrameUniformsByteSize,
    };
    for (const [name, size] of Object.entries(sizes)) expect(JSON.parse(byType.get(name)!).size, name).toBe(size);
  });
});
