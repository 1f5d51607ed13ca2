import { describe, expect, test } from 'vitest';
import { type ComposeSpec, composeShader, getComposeCounters, makeComposeCache } from '../../../composer/index.js';
import type { Fragment } from '../../../fragments/fragment-types.js';
import { makeStandardMaterialFragments } from '../../../fragments/index.js';
import { composeError } from './composer-test-helpers.js';

/** The standard material with its surface replaced by one writing `color` (type/format given) from constant SCALE. */
function specWith(output: { type: string; format?: unknown }, constants?: Record<string, unknown>): ComposeSpec {
  const fragments = makeStandardMaterialFragments().filter((f) => f.id !== 'standard-surface');
  const value = output.type.startsWith('vec4') ? `${output.type}(1)` : `${output.type}(1)`;
  const surface = {
    id: 'checked-surface',
    outputs: [{ name: 'color', ...output }],
    fills: [{ slot: 'fragmentStage', fn: 'surface' }],
    source: `import io::{ FragmentInput, FragmentOutput };\nimport constants::SCALE;\nfn surface(input: FragmentInput) -> FragmentOutput {\n  var o: FragmentOutput;\n  o.color = ${value} * ${output.type}(SCALE);\n  return o;\n}\n`,
  } as Fragment;
  return { fragments: [...fragments, surface], constants: (constants ?? { SCALE: 2 }) as ComposeSpec['constants'] };
}

describe('compose cache: in-place edits of fragments (issue #16 finding 11)', () => {
  test("editing a fragment's source in place re-composes; unchanged fragments still hit", () => {
    const cache = makeComposeCache();
    const fragments = makeStandardMaterialFragments();
    const first = composeShader({ fragments, conditions: { normals: true } }, cache);
    const surface = fragments.find((f) => f.id === 'standard-surface')!;
    (surface as { source: string }).source = surface.source.replace('return albedo;', 'return albedo * 0.5;');
    const edited = composeShader({ fragments, conditions: { normals: true } }, cache);
    expect(edited.code).toContain('albedo * 0.5');
    expect(edited.key).not.toBe(first.key);
    // The same as a compose without any cache.
    expect(edited.code).toBe(composeShader({ fragments, conditions: { normals: true } }).code);
    const hits = getComposeCounters(cache).hits;
    expect(composeShader({ fragments, conditions: { normals: true } }, cache)).toBe(edited);
    expect(getComposeCounters(cache).hits).toBe(hits + 1);
  });

  test('replacing any other field of a fragment in place re-composes too', () => {
    const cache = makeComposeCache();
    const fragments = makeStandardMaterialFragments();
    const first = composeShader({ fragments }, cache);
    expect(first.targets[0].format).toBeNull();
    const surface = fragments.find((f) => f.id === 'standard-surface')!;
    (surface as { outputs: unknown }).outputs = [{ name: 'color', type: 'vec4f', format: 'rgba16float' }];
    expect(composeShader({ fragments }, cache).targets[0].format).toBe('rgba16float');
  });
});

describe('compose-time checks of output formats and constants (issue #16 finding 13)', () => {
  test('an output format that is not a colour format of the output type is refused naming fragment, output and allowed formats', () => {
    for (const [type, format, allowed] of [
      ['vec4f', 'depth24plus', 'rgba8unorm'],
      ['vec4f', 42, 'rgba8unorm'],
      ['vec4f', 'rgba32uint', 'rgba16float'],
      ['vec4u', 'rgba8unorm', 'rgba32uint'],
      ['vec4i', 'r32uint', 'r32sint'],
      ['f32', 'rgba8unorm', 'r32float'],
    ] as const) {
      const error = composeError(specWith({ type, format }));
      expect(error.code).toBe('output-format');
      expect(error.fragmentIds).toEqual(['checked-surface']);
      expect(error.message).toContain('"checked-surface"');
      expect(error.message).toContain('"color"');
      expect(error.message).toContain(String(format));
      expect(error.message).toContain(allowed);
    }
    // The next compose gives the right answer.
    for (const [type, format] of [
      ['vec4f', 'rgba8unorm'],
      ['vec4u', 'rgba32uint'],
      ['vec2i', 'rg32sint'],
      ['f32', 'r32float'],
      ['vec4f', 'r32float'],
    ] as const) {
      expect(composeShader(specWith({ type, format })).targets[0].format).toBe(format);
    }
  });

  test('string constants must be WGSL literals (numbers, booleans); anything else is refused at compose time', () => {
    for (const value of [
      '1.5 + x',
      'f32(1)',
      '2; }',
      '1e',
      '0x',
      'True',
      '1.5.2',
      '4294967296u',
      '-2147483649i',
      'abc',
      '0.5h',
      '-',
      '',
    ]) {
      const error = composeError(specWith({ type: 'vec4f' }, { SCALE: value }));
      expect(error.code).toBe('invalid-spec');
      expect(error.message).toContain('SCALE');
      expect(error.message).toContain(JSON.stringify(value));
    }
    expect(composeError(specWith({ type: 'vec4f' }, { SCALE: 1e20 })).code).toBe('invalid-spec');
    for (const value of [
      '2',
      '-3',
      '1.5',
      '.5',
      '2.',
      '1e3',
      '1.5e-3f',
      '3f',
      '7u',
      '-7i',
      '0x1F',
      '0x1Fu',
      '0x1.8p1',
    ]) {
      expect(composeShader(specWith({ type: 'vec4f' }, { SCALE: value })).code).toContain(`const SCALE = ${value};`);
    }
    expect(composeShader(specWith({ type: 'vec4f' }, { SCALE: 2.5 })).code).toContain('const SCALE = 2.5;');
  });

  test('boolean string constants are accepted', () => {
    const fragments = makeStandardMaterialFragments();
    const composed = composeShader({ fragments, constants: { FLAG: 'true', OTHER: 'false' } });
    expect(composed.constants).toEqual({ FLAG: 'true', OTHER: 'false' });
  });
});
