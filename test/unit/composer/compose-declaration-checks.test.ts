import { describe, expect, test } from 'vitest';
import {
  type ComposeSpec,
  composeShader,
  listVariants,
  makeComposeCache,
  makeWeftVariantRegistry,
} from '../../../index.js';
import { type Fragment, makeStandardVertexFragments } from '../../../fragments/index.js';
import { nearestName, typoDistance } from '../../../composer/fragment-checks.js';
import { composeError, surfaceFragment } from './composer-test-helpers.js';

const surface = surfaceFragment;

const fragmentKeyList =
  'id, source, imports, bindings, vertexInputs, varyings, builtins, outputs, requires, provides, fills, dependencies';

describe('unknown keys are refused, naming the fragment, the key path and the nearest declared key', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'a fragment key',
      { fill: [{ slot: 'fragmentStage', fn: 'surface' }] },
      `fill is not a key of a fragment (did you mean \`fills\`?); keys: ${fragmentKeyList}`,
    ],
    [
      'a slot fill key',
      { fills: [{ slot: 'fragmentStage', fnn: 'surface' }] },
      'fills[0].fnn is not a key of a slot fill (did you mean `fn`?); keys: slot, fn',
    ],
    [
      'a uniform binding key',
      {
        bindings: [{ name: 'tint', kind: 'uniform', typ: 'vec4f', role: 'material', visibility: ['fragment'] }],
      },
      'bindings[0].typ is not a key of a uniform binding (did you mean `type`?); keys: name, role, visibility, when, kind, type, hasDynamicOffset, minBindingSize',
    ],
    [
      'a key of another binding kind',
      {
        bindings: [
          {
            name: 'tint',
            kind: 'uniform',
            type: 'vec4f',
            role: 'material',
            visibility: ['fragment'],
            sampleType: 'float',
          },
        ],
      },
      'bindings[0].sampleType is not a key of a uniform binding; keys: name, role, visibility, when, kind, type, hasDynamicOffset, minBindingSize',
    ],
    [
      'a texture binding key',
      {
        bindings: [
          {
            name: 'tex',
            kind: 'texture',
            smapleType: 'float',
            viewDimension: '2d',
            role: 'material',
            visibility: ['fragment'],
          },
        ],
      },
      'bindings[0].smapleType is not a key of a texture binding (did you mean `sampleType`?); keys: name, role, visibility, when, kind, sampleType, viewDimension, multisampled',
    ],
    [
      'a binding whose kind is misspelt',
      { bindings: [{ name: 'tint', knd: 'uniform', type: 'vec4f', role: 'material', visibility: ['fragment'] }] },
      'bindings[0].knd is not a key of a binding (did you mean `kind`?)',
    ],
    [
      'a vertex input key',
      { vertexInputs: [{ semantic: 'uv', fromat: 'float32x2' }] },
      'vertexInputs[0].fromat is not a key of a vertex input (did you mean `format`?); keys: semantic, format, type, stepMode, when',
    ],
    [
      'a varying key',
      { varyings: [{ name: 'v', type: 'f32', interpolaton: 'linear' }] },
      'varyings[0].interpolaton is not a key of a varying (did you mean `interpolation`?); keys: name, type, interpolation, sampling, when',
    ],
    [
      'a builtin key',
      { builtins: [{ bultin: 'front_facing' }] },
      'builtins[0].bultin is not a key of a builtin (did you mean `builtin`?); keys: builtin, when',
    ],
    [
      'an output key',
      { outputs: [{ name: 'color', type: 'vec4f', formt: 'rgba8unorm' }] },
      'outputs[0].formt is not a key of an output (did you mean `format`?); keys: name, type, format, builtin, when',
    ],
    [
      'a feature requirement key',
      { requires: [{ feture: 'primitive-index' }] },
      'requires[0].feture is not a key of a feature requirement (did you mean `feature`?); keys: feature, when',
    ],
    [
      'a slot declaration key',
      { provides: [{ name: 'tint', params: [], retuns: 'vec4f', required: true }] },
      'provides[0].retuns is not a key of a slot declaration (did you mean `returns`?); keys: name, params, returns, required, default, combine',
    ],
    [
      'a slot param key',
      { provides: [{ name: 'tint', params: [{ name: 'x', tpye: 'f32' }], combine: 'all' }] },
      'provides[0].params[0].tpye is not a key of a slot param (did you mean `type`?); keys: name, type',
    ],
  ];
  for (const [what, extra, expected] of cases) {
    test(what, () => {
      const e = composeError({ fragments: [...makeStandardVertexFragments(), surface(extra)] });
      expect(e.code).toBe('unknown-key');
      expect(e.fragmentIds).toEqual(['surface']);
      expect(e.message).toContain(`composeShader: fragment "surface": ${expected}`);
    });
  }

  test('a key with no close declared key gets no suggestion; a fragment without an id is named by position', () => {
    const e = composeError({ fragments: [...makeStandardVertexFragments(), surface({ label: 'mine' })] });
    expect(e.message).toBe(
      `composeShader: fragment "surface": label is not a key of a fragment; keys: ${fragmentKeyList}`,
    );
    const noId = composeError({
      fragments: [...makeStandardVertexFragments(), { idd: 'surface', source: '' } as unknown as Fragment],
    });
    expect(noId.fragmentIds).toEqual([]);
    expect(noId.message).toContain(
      'fragment at position 4 (no id): idd is not a key of a fragment (did you mean `id`?)',
    );
  });

  test('a key set to undefined is still a typo', () => {
    const e = composeError({ fragments: [...makeStandardVertexFragments(), surface({ dependecies: undefined })] });
    expect(e.message).toContain('dependecies is not a key of a fragment (did you mean `dependencies`?)');
  });

  test('each fragment object is checked once, and again when a top-level field is added or replaced', () => {
    const mine = surface();
    const cache = makeComposeCache({ maxResults: 0 });
    const spec = { fragments: [...makeStandardVertexFragments(), mine] };
    composeShader(spec, cache);
    // A nested in-place edit after the first check is not seen (the digest does not see it either) ...
    (mine.fills![0] as unknown as Record<string, unknown>).fnn = 'x';
    expect(() => composeShader(spec, cache)).not.toThrow();
    // ... but replacing the field or adding a key is.
    (mine as { fills: unknown }).fills = [{ slot: 'fragmentStage', fn: 'surface', fnn: 'x' }];
    expect(() => composeShader(spec, cache)).toThrow('fills[0].fnn is not a key of a slot fill');
    (mine as { fills: unknown }).fills = [{ slot: 'fragmentStage', fn: 'surface' }];
    (mine as unknown as Record<string, unknown>).provide = [];
    expect(() => composeShader(spec, cache)).toThrow('provide is not a key of a fragment (did you mean `provides`?)');
  });

  test('the suggestion is the nearest key by Damerau–Levenshtein distance, within a third of the letters', () => {
    expect(typoDistance('fnn', 'fn')).toBe(1);
    expect(typoDistance('fills', 'flils')).toBe(1); // a swap of neighbours is one edit
    expect(typoDistance('kitten', 'sitting')).toBe(3);
    expect(nearestName('Fils', ['fills', 'fn'])).toBe('fills');
    expect(nearestName('colour', ['color', 'format'])).toBe('color');
    expect(nearestName('label', ['name', 'type'])).toBeUndefined();
  });
});

/** A fragment filling `adjustWorldPosition` (provider: standard-vertex) with `header`, written at line 4. */
const adjust = (header: string, fn = 'lift', extra: Partial<Fragment> = {}): Fragment => ({
  id: 'adjust',
  source: `import io::VertexInput;\n\n// Lifts every vertex.\n${header} {\n  return vec3f(0.0);\n}\n`,
  fills: [{ slot: 'adjustWorldPosition', fn }],
  ...extra,
});
const withAdjust = (fragment: Fragment): ComposeSpec => ({
  fragments: [...makeStandardVertexFragments(), surface(), fragment],
});
const expected = 'expected fn(input: VertexInput, world: mat4x4f, worldPosition: vec3f) -> vec3f';

describe('slot fillers are checked against the slot signature before linking, at the filler line', () => {
  test('a filler whose header matches (any spelling of the same types) composes', () => {
    for (const header of [
      'fn lift(input: VertexInput, world: mat4x4f, worldPosition: vec3f) -> vec3f',
      'fn lift(input: io::VertexInput, w: mat4x4<f32>, p: vec3< f32 >) -> vec3<f32>',
      'fn lift(\n  input: VertexInput, // the vertex\n  world: mat4x4f,\n  worldPosition: vec3f,\n) -> vec3f',
    ])
      expect(() => composeShader(withAdjust(adjust(header)))).not.toThrow();
    const aliased = adjust('fn lift(input: VertexInput, world: Matrix, worldPosition: vec3f) -> vec3f');
    expect(() =>
      composeShader(withAdjust({ ...aliased, source: aliased.source.replace('\n\n', '\nalias Matrix = mat4x4f;\n') })),
    ).not.toThrow();
  });

  test('the wrong number of parameters', () => {
    const e = composeError(withAdjust(adjust('fn lift(input: VertexInput, worldPosition: vec3f) -> vec3f')));
    expect(e.code).toBe('slot-signature');
    // The filler and the provider disagree: both are named.
    expect(e.fragmentIds).toEqual(['adjust', 'standard-vertex']);
    expect(e.message).toBe(
      `composeShader: fragment "adjust": fn lift (line 4) fills slot "adjustWorldPosition" (declared by fragment "standard-vertex") but takes 2 parameter(s) where the slot passes 3: ${expected}, found fn(input: VertexInput, worldPosition: vec3f) -> vec3f`,
    );
    expect(e.messages).toHaveLength(1);
    expect(e.messages[0]).toMatchObject({
      fragmentId: 'adjust',
      line: 4,
      column: 1,
      type: 'error',
      lineText: 'fn lift(input: VertexInput, worldPosition: vec3f) -> vec3f {',
    });
  });

  test('a parameter of the wrong type', () => {
    const e = composeError(
      withAdjust(adjust('fn lift(input: VertexInput, world: mat4x4f, worldPosition: vec4f) -> vec3f')),
    );
    expect(e.code).toBe('slot-signature');
    expect(e.message).toContain(
      'fn lift (line 4) fills slot "adjustWorldPosition" (declared by fragment "standard-vertex") but its parameter 3 (worldPosition) is vec4f where the slot passes vec3f',
    );
    const io = composeError(
      withAdjust(adjust('fn lift(input: io::VertexOutput, world: mat4x4f, worldPosition: vec3f) -> vec3f')),
    );
    expect(io.message).toContain('its parameter 1 (input) is io::VertexOutput where the slot passes VertexInput');
  });

  test('the wrong return type, or a missing one', () => {
    const wrong = composeError(
      withAdjust(adjust('fn lift(input: VertexInput, world: mat4x4f, worldPosition: vec3f) -> vec4<f32>')),
    );
    expect(wrong.message).toContain('returns vec4<f32> where the slot returns vec3f');
    expect(wrong.messages[0].line).toBe(4);
    const none = composeError(withAdjust(adjust('fn lift(input: VertexInput, world: mat4x4f, worldPosition: vec3f)')));
    expect(none.message).toContain('returns nothing where the slot returns vec3f');
  });

  test('a filler of a combine "all" slot returns nothing', () => {
    const varyings: Fragment = {
      id: 'extra-varyings',
      source:
        'import io::{ VertexInput, VertexOutput };\nfn writeExtra(input: VertexInput, output: ptr<function, VertexOutput>) -> f32 {\n  return 1.0;\n}\n',
      fills: [{ slot: 'vertexVaryings', fn: 'writeExtra' }],
    };
    const e = composeError({ fragments: [...makeStandardVertexFragments(), surface(), varyings] });
    expect(e.message).toContain(
      'fn writeExtra (line 2) fills slot "vertexVaryings" (declared by fragment "standard-vertex") but returns f32 where the slot returns nothing (the value would be dropped)',
    );
    const ok = { ...varyings, source: varyings.source.replace(' -> f32', '').replace('return 1.0;', '') };
    expect(() => composeShader({ fragments: [...makeStandardVertexFragments(), surface(), ok] })).not.toThrow();
  });

  test('a filler function that the source does not declare names the nearest one and its line', () => {
    const e = composeError(
      withAdjust(adjust('fn lift(input: VertexInput, world: mat4x4f, worldPosition: vec3f) -> vec3f', 'lfit')),
    );
    expect(e.code).toBe('slot-signature');
    expect(e.message).toBe(
      'composeShader: fragment "adjust": fn lfit (line 4) fills slot "adjustWorldPosition" (declared by fragment "standard-vertex"), but its source declares no function lfit (did you mean `lift`, line 4?)',
    );
    expect(e.messages[0]).toMatchObject({ fragmentId: 'adjust', line: 4 });
  });

  test('a stage filler is checked against the generated io structs', () => {
    const e = composeError({
      fragments: [
        ...makeStandardVertexFragments(),
        surface({
          source: surface().source.replace('fn surface(input: FragmentInput)', 'fn surface(input: VertexOutput)'),
        }),
      ],
    });
    expect(e.message).toContain(
      'fn surface (line 2) fills slot "fragmentStage" (declared by the composer) but its parameter 1 (input) is VertexOutput where the slot passes FragmentInput',
    );
  });

  test('of a function declared under @if / @else, the declaration the conditions keep is checked', () => {
    const good =
      'fn lift(input: VertexInput, world: mat4x4f, worldPosition: vec3f) -> vec3f {\n  return worldPosition;\n}';
    const bad = 'fn lift(input: VertexInput, world: mat4x4f, worldPosition: vec3f) -> vec4f {\n  return vec4f(0.0);\n}';
    const twoWays = (first: string, second: string): Fragment => ({
      id: 'adjust',
      source: `import io::VertexInput;\n@if(raised)\n${first}\n@else\n${second}\n`,
      fills: [{ slot: 'adjustWorldPosition', fn: 'lift' }],
    });
    const spec = (fragment: Fragment, raised: boolean): ComposeSpec => ({
      ...withAdjust(fragment),
      conditions: { raised },
    });
    // The wrong declaration is the @else one: fine while `raised` keeps the first, refused at its line otherwise.
    expect(() => composeShader(spec(twoWays(good, bad), true))).not.toThrow();
    const e = composeError(spec(twoWays(good, bad), false));
    expect(e.message).toContain('fn lift (line 7) fills slot "adjustWorldPosition"');
    expect(e.message).toContain('returns vec4f where the slot returns vec3f');
    expect(composeError(spec(twoWays(bad, good), true)).messages[0].line).toBe(3);
    // A parameter under @if counts only where its condition holds.
    const optional: Fragment = {
      id: 'adjust',
      source:
        'import io::VertexInput;\nfn lift(input: VertexInput, world: mat4x4f, @if(extra) extra: f32, worldPosition: vec3f) -> vec3f {\n  return worldPosition;\n}\n',
      fills: [{ slot: 'adjustWorldPosition', fn: 'lift' }],
    };
    expect(() => composeShader(spec(optional, false))).not.toThrow();
    expect(composeError({ ...spec(optional, false), conditions: { extra: true } }).message).toContain(
      'takes 4 parameter(s) where the slot passes 3',
    );
  });

  test("a slot's declared param type is checked against its default function, at the provider's line", () => {
    const [scene, draw, thin, standard] = makeStandardVertexFragments();
    const provides = standard.provides!.map((slot) =>
      slot.name === 'adjustWorldPosition'
        ? { ...slot, params: slot.params.map((p) => (p.name === 'world' ? { ...p, type: 'mat3x3f' } : p)) }
        : slot,
    );
    const e = composeError({ fragments: [scene, draw, thin, { ...standard, provides }, surface()] });
    const line = standard.source.split('\n').findIndex((l) => l.startsWith('fn keepWorldPosition')) + 1;
    expect(e.fragmentIds).toEqual(['standard-vertex']);
    expect(e.message).toContain(
      `fn keepWorldPosition (line ${line}) is the default of slot "adjustWorldPosition" but its parameter 2 (world) is mat4x4f where the slot passes mat3x3f`,
    );
    expect(e.messages[0]).toMatchObject({ fragmentId: 'standard-vertex', line });
  });
});

describe("a buffer binding's type names only structs its fragment declares", () => {
  test('a misspelt struct declaration is refused at its own line, naming the binding and the type', () => {
    const [scene, draw, thin, standard] = makeStandardVertexFragments();
    const line = draw.source.split('\n').findIndex((l) => /^struct DrawUniforms\b/.test(l)) + 1;
    expect(line).toBeGreaterThan(0);
    const misspelt = { ...draw, source: draw.source.replace('struct DrawUniforms', 'struct DrawUnifroms') };
    const e = composeError({ fragments: [scene, misspelt, thin, standard, surface()] });
    expect(e.code).toBe('invalid-fragment');
    expect(e.fragmentIds).toEqual(['draw-uniforms']);
    expect(e.message).toContain(
      `fragment "draw-uniforms" binding "draw": type "DrawUniforms" names DrawUniforms, which the fragment's source does not declare (did you mean \`DrawUnifroms\`, line ${line}?)`,
    );
    expect(e.messages[0]).toMatchObject({ fragmentId: 'draw-uniforms', line });
  });

  test('a type naming nothing close gets no line, and lists what the source declares', () => {
    const holderWith = (type: string): Fragment => ({
      id: 'holder',
      source: 'struct Light { color: vec3f }\nalias Lights = array<Light, 4>;\n',
      bindings: [{ name: 'extra', kind: 'uniform', type, role: 'extra', visibility: ['fragment'] }],
    });
    const holder = holderWith('array<Material, 2>');
    const e = composeError({ fragments: [...makeStandardVertexFragments(), holder, surface()] });
    expect(e.message).toContain(
      "names Material, which the fragment's source does not declare; it declares: Light, Lights",
    );
    expect(e.messages).toEqual([]);
    // Declared structs, aliases and predeclared types compose.
    for (const type of ['Light', 'Lights', 'array<Light, 2>', 'vec4f', 'array<vec4f, 3>'])
      composeShader({
        fragments: [...makeStandardVertexFragments(), holderWith(type), surface()],
      });
  });
});

describe('no false alarms', () => {
  test('every registered variant composes', () => {
    const variants = listVariants(makeWeftVariantRegistry());
    expect(variants.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const variant of variants) {
      try {
        composeShader(variant.spec());
      } catch (error) {
        failures.push(`${variant.name}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
