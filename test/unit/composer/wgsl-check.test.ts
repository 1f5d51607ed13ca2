// The WGSL check without a GPU (naga as WebAssembly): no false alarm on weft's variants, and a planted mistake is
// reported at the fragment's own line like a device message. Dawn's verdict on the same code is test/gpu's business.
import { describe, expect, test } from 'vitest';
import {
  checkComposedShaderAsync,
  checkWgslAsync,
  type ComposeSpec,
  composeShader,
  listVariants,
  makeComposeCache,
  ShaderCompileError,
} from '../../../composer/index.js';
import { type Fragment, makeStandardVertexFragments } from '../../../fragments/index.js';
import { makeWeftVariantRegistry } from '../../../variants/index.js';

/** A helper fragment whose body is `body`, called by a surface that fills the fragment stage. */
function specWith(body: string): ComposeSpec {
  const helper: Fragment = { id: 'tint-helper', source: `fn shade(c: vec4f) -> vec4f {\n${body}\n}\n` };
  const surface: Fragment = {
    id: 'surface',
    source:
      'import io::{ FragmentInput, FragmentOutput };\nimport package::tint_helper::shade;\nfn surface(input: FragmentInput) -> FragmentOutput {\n  var o: FragmentOutput;\n  o.color = shade(input.color);\n  return o;\n}\n',
    dependencies: ['tint-helper'],
    outputs: [{ name: 'color', type: 'vec4f' }],
    fills: [{ slot: 'fragmentStage', fn: 'surface' }],
  };
  return { fragments: [...makeStandardVertexFragments(), helper, surface], conditions: { colors: true } };
}

/** Where `needle` starts in the helper's source: its 1-based line and column (line 1 is the signature). */
function helperPosition(body: string, needle: string): { line: number; column: number } {
  const lines = `fn shade(c: vec4f) -> vec4f {\n${body}`.split('\n');
  const line = lines.findIndex((l) => l.includes(needle));
  return { line: line + 1, column: lines[line].indexOf(needle) + 1 };
}

describe('checkWgslAsync (naga, no GPU)', () => {
  test('every registered variant passes: no false alarm', async () => {
    const cache = makeComposeCache();
    const variants = listVariants(makeWeftVariantRegistry());
    expect(variants.length).toBeGreaterThanOrEqual(36);
    const rejected: string[] = [];
    for (const variant of variants) {
      const messages = await checkWgslAsync(composeShader(variant.spec(), cache));
      if (messages.length) rejected.push(`${variant.name}: ${JSON.stringify(messages)}`);
    }
    expect(rejected).toEqual([]);
  }, 60_000);

  test.each([
    // A validation error: naga's headline names only the function; the message and position are the expression's.
    { mistake: 'type mismatch', body: '  return c * 2u;', at: 'c * 2u', message: /Multiply can't work with/ },
    {
      mistake: 'unknown swizzle',
      body: '  let v = c.xyz;\n  return vec4f(v.w, v);',
      at: 'w, v',
      message: /field accessor `w`/,
    },
    // naga's first label points at the parameter, its second at the call: the call is the mistake.
    {
      mistake: 'extra argument',
      body: '  let k = 2.0;\n  return normalize(c, c);',
      at: 'normalize',
      message: /too many arguments passed to `normalize`/,
    },
    {
      mistake: 'wrong declared type',
      body: '  let k: vec3f = c;\n  return c;',
      at: 'k:',
      message: /vec3<f32>.*vec4<f32>/,
    },
  ])('$mistake: one error at the fragment line and column', async ({ body, at, message }) => {
    const spec = specWith(body);
    const messages = await checkWgslAsync(composeShader(spec));
    const lineText = `fn shade(c: vec4f) -> vec4f {\n${body}`.split('\n')[helperPosition(body, at).line - 1];
    expect(messages).toEqual([
      { fragmentId: 'tint-helper', ...helperPosition(body, at), type: 'error', message: expect.any(String), lineText },
    ]);
    expect(messages[0].message).toMatch(message);
  });

  test('plain WGSL: positions stay in the code, under weft:code', async () => {
    const code = 'fn f() -> f32 {\n  return 1.0;\n}\n\nfn g() -> f32 {\n  return f() + h;\n}\n';
    const messages = await checkWgslAsync(code);
    expect(messages).toEqual([
      {
        fragmentId: 'weft:code',
        line: 6,
        column: code.split('\n')[5].indexOf('h;') + 1,
        type: 'error',
        message: 'no definition in scope for identifier: `h`',
        lineText: '  return f() + h;',
      },
    ]);
    expect(await checkWgslAsync('fn f() -> f32 { return 1.0; }')).toEqual([]);
  });

  test('checkComposedShaderAsync resolves to a good shader and throws ShaderCompileError for a bad one', async () => {
    const good = composeShader(specWith('  return c;'));
    await expect(checkComposedShaderAsync(good)).resolves.toBe(good);
    const bad = composeShader(specWith('  return c * 2u;'));
    const error = await checkComposedShaderAsync(bad, { label: 'planted' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ShaderCompileError);
    const e = error as ShaderCompileError;
    expect(e.code).toBe('shader-compile');
    expect(e.messages).toEqual(await checkWgslAsync(bad));
    expect(e.message).toMatch(
      /^checkComposedShaderAsync: shader "planted" failed to compile with 1 error\(s\):\ntint-helper:2:10: /,
    );
  });
});
