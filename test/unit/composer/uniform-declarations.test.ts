// `weft types`: the values types generated from composed buffer layouts, the CLI command that writes them, and the
// run-time errors for the same mistakes (an unknown binding or field names the nearest valid one and lists them all).
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { runWeftCliAsync } from '../../../cli/run.js';
import {
  composeVariant,
  getBufferLayout,
  LayoutError,
  makeVariantRegistry,
  makeWgslBufferLayouts,
  setUniforms,
} from '../../../composer/index.js';
import { makeWeftVariantRegistry } from '../../../variants/index.js';
import { formatUniformDeclarations, formatValueType } from '../../../composer/uniform-layout-declarations.js';
import { weftVariants } from '../../../vite/weft-variants-plugin.js';
import { registerVariants } from './fixtures/typed-variants.js';

const layouts = makeWgslBufferLayouts(`
  struct Inner { a: vec2f, b: atomic<u32> }
  struct U {
    s: f32, i: i32, v3: vec3f, v4: vec4<i32>, m3: mat3x3f, m4: mat4x4f, m2: mat2x2f, m23: mat2x3f,
    vs: array<vec4f, 2>, inner: Inner, inners: array<Inner, 2>,
  }
  @group(0) @binding(0) var<uniform> u: U;
  @group(0) @binding(1) var<storage, read_write> items: array<Inner>;
  @group(0) @binding(2) var<storage, read> floats: array<f32>;
  @group(0) @binding(3) var<storage, read> pairs: array<array<f32, 2>, 3>;
`);

describe('formatValueType: the TypeScript type of what setUniforms takes', () => {
  test('scalars are numbers; vectors and matrices tuples of their numbers (matrices also padded), or typed arrays', () => {
    const field = (name: string) => {
      const type = layouts.u.type;
      if (type.kind !== 'struct') throw new Error('U is a struct');
      return formatValueType(type.fields.find((f) => f.name === name)!.type);
    };
    expect(field('s')).toBe('number');
    expect(field('i')).toBe('number');
    expect(field('v3')).toBe('LayoutVector<3>');
    expect(field('v4')).toBe('LayoutVector<4>');
    // mat3x3f: 3 columns of 3, each column 16 bytes apart, so 12 numbers padded.
    expect(field('m3')).toBe('LayoutVector<9, 12>');
    expect(field('m4')).toBe('LayoutVector<16>');
    // mat2x2f: columns 8 bytes apart, no padding.
    expect(field('m2')).toBe('LayoutVector<4>');
    // mat2x3f: 2 columns of 3 numbers, 16 bytes apart.
    expect(field('m23')).toBe('LayoutVector<6, 8>');
    expect(field('vs')).toBe('readonly LayoutVector<4>[] | readonly number[] | LayoutNumbers');
    expect(field('inner')).toBe('{\n  readonly a?: LayoutVector<2>;\n  readonly b?: number;\n}');
    expect(field('inners')).toBe('readonly {\n  readonly a?: LayoutVector<2>;\n  readonly b?: number;\n}[]');
  });

  test('runtime-sized and nested arrays; a struct nests with its indentation', () => {
    expect(formatValueType(layouts.floats.type)).toBe('readonly number[] | LayoutNumbers');
    expect(formatValueType(layouts.pairs.type)).toBe(
      'readonly (readonly number[] | LayoutNumbers)[] | readonly number[] | LayoutNumbers',
    );
    expect(formatValueType(layouts.items.type, 2)).toBe(
      'readonly {\n      readonly a?: LayoutVector<2>;\n      readonly b?: number;\n    }[]',
    );
  });
});

describe('formatUniformDeclarations', () => {
  const registry = makeVariantRegistry();
  registerVariants(registry);
  const tint = { name: 'typed-tint', composed: composeVariant(registry, 'typed-tint') };
  const other = { name: 'a-storage', composed: { bufferLayouts: { items: layouts.items, floats: layouts.floats } } };

  test('augments WeftUniforms with every variant and binding, sorted, the same bytes whatever the input order', () => {
    const text = formatUniformDeclarations([tint, other]);
    expect(formatUniformDeclarations([other, tint])).toBe(text);
    expect(text).toContain("import type { LayoutNumbers, LayoutVector } from 'weft-gpu/composer';\n");
    expect(text).toContain("declare module 'weft-gpu/composer' {\n  interface WeftUniforms {\n");
    expect(text.indexOf("readonly 'a-storage': {")).toBeLessThan(text.indexOf("readonly 'typed-tint': {"));
    expect(text.indexOf('readonly floats:')).toBeLessThan(text.indexOf('readonly items:'));
    expect(text).toContain(
      [
        '      /** uniform TintParams */',
        '      readonly tintParams: {',
        '        readonly color?: LayoutVector<4>;',
        '        readonly basis?: LayoutVector<9, 12>;',
        '        readonly count?: number;',
        '        readonly lights?: readonly {',
        '          readonly color?: LayoutVector<3>;',
        '          readonly intensity?: number;',
        '        }[];',
        '        readonly weights?: readonly LayoutVector<4>[] | readonly number[] | LayoutNumbers;',
        '      };',
        '    };',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    expect(formatUniformDeclarations([tint], 'weft-gpu')).toContain("declare module 'weft-gpu' {");
  });

  test('a variant without buffer bindings is an empty entry; no variants, an empty interface', () => {
    expect(formatUniformDeclarations([{ name: 'bare', composed: { bufferLayouts: {} } }])).toContain(
      "  interface WeftUniforms {\n    readonly 'bare': {\n    };\n  }\n",
    );
    expect(formatUniformDeclarations([])).toContain('  interface WeftUniforms {\n  }\n');
  });
});

describe('weft types', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'weft-types-'));
  const fixture = fileURLToPath(new URL('./fixtures/typed-variants.ts', import.meta.url));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const cli = async (args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line) => void out.push(String(line)));
    const error = vi.spyOn(console, 'error').mockImplementation((line) => void err.push(String(line)));
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((text) => {
      out.push(String(text));
      return true;
    });
    try {
      return { code: await runWeftCliAsync(args), stdout: out.join('\n'), stderr: err.join('\n') };
    } finally {
      log.mockRestore();
      error.mockRestore();
      write.mockRestore();
    }
  };

  test("writes the declarations of weft's variants and a --registry module's to a file, or prints them", async () => {
    const file = join(scratch, 'weft-uniforms.d.ts');
    const written = await cli(['types', file, '--registry', fixture]);
    expect(written.stderr).toBe('');
    expect(written.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(written.stdout).toMatch(/^wrote the uniform types of \d+ variant\(s\) to .*weft-uniforms\.d\.ts$/);
    expect(text).toContain("    readonly 'typed-tint': {\n");
    expect(text).toContain('      readonly tintParams: {\n        readonly color?: LayoutVector<4>;\n');
    // weft's own pick variant writes its draw uniforms through setUniforms-shaped layouts too.
    expect(text).toContain("    readonly 'pick': {\n");
    expect(text).toMatch(/readonly world\?: LayoutVector<16>;/);
    const printed = await cli(['types', '--registry', fixture]);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe(text);
  });

  test('a bad command line exits 2 with the usage line', async () => {
    const twoFiles = await cli(['types', 'a.d.ts', 'b.d.ts']);
    expect(twoFiles.code).toBe(2);
    expect(twoFiles.stderr).toContain('weft types: one output file; got a.d.ts, b.d.ts');
    expect(twoFiles.stderr).toContain('usage: weft types [file.d.ts] [options]');
    const notTs = await cli(['types', 'uniforms.json']);
    expect(notTs.code).toBe(2);
    expect(notTs.stderr).toContain('must end in .d.ts');
    const help = await cli(['types', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('WeftUniforms');
  });
});

describe('weftVariants({ types })', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'weft-types-vite-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  test("writes the declared variants' declarations at build start, and leaves an unchanged file alone", async () => {
    const registry = makeVariantRegistry();
    registerVariants(registry);
    const file = join(scratch, 'weft-uniforms.d.ts');
    await weftVariants({ variants: ['pick'], registry, types: file }).buildStart();
    const expected = formatUniformDeclarations([
      { name: 'pick', composed: composeVariant(makeWeftVariantRegistry(), 'pick') },
      { name: 'typed-tint', composed: composeVariant(registry, 'typed-tint') },
    ]);
    expect(readFileSync(file, 'utf8')).toBe(expected);
    const written = statSync(file).mtimeMs;
    await new Promise((done) => setTimeout(done, 20));
    await weftVariants({ variants: ['pick'], registry, types: file }).buildStart();
    expect(statSync(file).mtimeMs).toBe(written);
    writeFileSync(file, 'stale');
    await weftVariants({ variants: ['pick'], registry, types: file }).buildStart();
    expect(readFileSync(file, 'utf8')).toBe(expected);
    expect(() => weftVariants({ types: 'uniforms.json' })).toThrow(
      'weftVariants: types "uniforms.json" is not a path ending in .d.ts',
    );
  });
});

describe('run-time errors for the mistakes the types catch', () => {
  const registry = makeVariantRegistry();
  registerVariants(registry);
  const composed = composeVariant(registry, 'typed-tint');

  test('an unknown binding names the variant, the nearest binding and all of them', () => {
    expect(getBufferLayout(composed, 'tintParams')).toBe(composed.bufferLayouts.tintParams);
    const names = Object.keys(composed.bufferLayouts).sort().join(', ');
    let caught: unknown;
    try {
      // Untyped here: WeftUniforms has no entries in weft's own program.
      (getBufferLayout as (c: unknown, v: string, b: string) => unknown)(composed, 'typed-tint', 'tintParam');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LayoutError);
    expect((caught as LayoutError).code).toBe('unknown-binding');
    expect((caught as Error).message).toBe(
      `getBufferLayout: variant "typed-tint" has no buffer binding "tintParam" (did you mean "tintParams"?); its buffer bindings: ${names}`,
    );
    expect(() => getBufferLayout(composed, 'zzz')).toThrow(
      `getBufferLayout: the shader has no buffer binding "zzz"; its buffer bindings: ${names}`,
    );
  });

  test('a misspelled field or a wrong-length value names the binding and the field', () => {
    const layout = getBufferLayout(composed, 'tintParams');
    const buffer = new ArrayBuffer(layout.minBindingSize);
    expect(() => setUniforms(layout, buffer, { colr: [1, 0, 0, 1] })).toThrow(
      'setUniforms: binding "tintParams" (TintParams) has no field "colr" (did you mean "color"?); its fields: color, basis, count, lights, weights',
    );
    expect(() => setUniforms(layout, buffer, { color: [1, 0, 0] })).toThrow(
      'setUniforms: binding "tintParams" field color is vec4f: expected 4 numbers, got array(3)',
    );
    expect(() => setUniforms(layout, buffer, { lights: [{ colour: [1, 1, 1] }, {}] })).toThrow(
      'binding "tintParams" field lights[0] (Light) has no field "colour" (did you mean "color"?); its fields: color, intensity',
    );
    expect(new Uint8Array(buffer).every((b) => b === 0)).toBe(true);
  });
});
