import { describe, expect, test } from 'vitest';
import { ComposeError, type ComposeSpec, composeShader, WeftError } from '../../../composer/index.js';
import { makePickFragments, makeStandardVertexFragments, type Fragment } from '../../../fragments/index.js';

/** Composes and returns the ComposeError it must throw. */
function composeError(spec: ComposeSpec): ComposeError {
  try {
    composeShader(spec);
  } catch (error) {
    expect(error).toBeInstanceOf(ComposeError);
    expect(error).toBeInstanceOf(WeftError);
    return error as ComposeError;
  }
  throw new Error('composeShader did not throw');
}

const plain = (id: string, extra: Partial<Fragment> = {}): Fragment => ({
  id,
  source: `fn ${id.replaceAll('-', '_')}_fn() {}\n`,
  ...extra,
});
const surface = (id = 'surface', extra: Partial<Fragment> = {}): Fragment => ({
  id,
  source:
    'import io::{ FragmentInput, FragmentOutput };\nfn surface(input: FragmentInput) -> FragmentOutput {\n  var o: FragmentOutput;\n  o.color = vec4f(1.0);\n  return o;\n}\n',
  outputs: [{ name: 'color', type: 'vec4f' }],
  fills: [{ slot: 'fragmentStage', fn: 'surface' }],
  ...extra,
});
const vertex = makeStandardVertexFragments;

describe('composeShader errors name the API, the fragments, the bad value and what is allowed', () => {
  test('duplicate fragment id', () => {
    const e = composeError({ fragments: [...vertex(), plain('extra'), plain('extra')] });
    expect(e.code).toBe('duplicate-fragment');
    expect(e.fragmentIds).toEqual(['extra']);
    expect(e.message).toBe(
      'composeShader: fragment id "extra" is given twice (positions 4 and 5); each fragment id must be unique',
    );
  });

  test('two ids that map to one wesl module', () => {
    const e = composeError({ fragments: [...vertex(), plain('my-part'), plain('my_part')] });
    expect(e.code).toBe('duplicate-fragment');
    expect(e.message).toBe(
      'composeShader: fragments "my-part" and "my_part" both map to the wesl module package::my_part; rename one',
    );
  });

  test('a frag_depth output must be f32 and single', () => {
    const depth = (id: string, type = 'f32') =>
      plain(id, { outputs: [{ name: `${id}Depth`, type, builtin: 'frag_depth' }] });
    const wrongType = composeError({ fragments: [...vertex(), surface(), depth('deep', 'vec2f')] });
    expect(wrongType.code).toBe('invalid-fragment');
    expect(wrongType.message).toBe(
      'composeShader: fragment "deep" output "deepDepth" is frag_depth with type "vec2f"; frag_depth is f32',
    );
    const twice = composeError({ fragments: [...vertex(), surface(), depth('one'), depth('two')] });
    expect(twice.code).toBe('interface-clash');
    expect(twice.fragmentIds).toEqual(['one', 'two']);
    // A valid one is a builtin member of FragmentOutput, not a colour target.
    const composed = composeShader({ fragments: [...vertex(), surface(), depth('one')] });
    expect(composed.targets.map((t) => t.name)).toEqual(['color']);
    expect(composed.code).toContain('@builtin(frag_depth) oneDepth: f32');
  });

  test('unknown dependency', () => {
    const e = composeError({ fragments: [...vertex(), plain('needy', { dependencies: ['nowhere'] })] });
    expect(e.code).toBe('unknown-dependency');
    expect(e.fragmentIds).toEqual(['needy']);
    expect(e.message).toBe(
      'composeShader: fragment "needy" depends on "nowhere", which is not among the composed fragments: draw-uniforms, needy, scene-uniforms, standard-vertex, thin-instances',
    );
  });

  test('dependency cycle prints the path', () => {
    const e = composeError({
      fragments: [
        ...vertex(),
        plain('c', { dependencies: ['a'] }),
        plain('a', { dependencies: ['b'] }),
        plain('b', { dependencies: ['c'] }),
        plain('d', { dependencies: ['a'] }),
      ],
    });
    expect(e.code).toBe('dependency-cycle');
    expect(e.fragmentIds).toEqual(['a', 'b', 'c']);
    expect(e.message).toBe(
      'composeShader: fragment dependencies form a cycle: a → b → c → a; a fragment cannot depend on itself through others',
    );
  });

  test('a fragment depending on itself is a cycle too', () => {
    expect(
      composeError({ fragments: [...vertex(), plain('selfish', { dependencies: ['selfish'] })] }).message,
    ).toContain('cycle: selfish → selfish');
  });

  test('unfilled required slot', () => {
    const provider = plain('discard-hook', {
      provides: [{ name: 'pickDiscard', params: [{ name: 'p', type: 'vec3f' }], returns: 'bool', required: true }],
    });
    const e = composeError({ fragments: [...vertex(), provider] });
    expect(e.code).toBe('missing-slot');
    expect(e.fragmentIds).toEqual(['discard-hook']);
    expect(e.message).toBe(
      'composeShader: required slot "pickDiscard" (provided by fragment "discard-hook") has no filler; add a fragment with fills: [{ slot: "pickDiscard", fn: … }] and signature fn(p: vec3f) -> bool',
    );
  });

  test('no vertex stage is a missing slot', () => {
    const e = composeError({ fragments: [plain('lonely')] });
    expect(e.code).toBe('missing-slot');
    expect(e.message).toContain('required slot "vertexStage" (the vertex entry point) has no filler');
  });

  test('filling a slot nobody provides', () => {
    const e = composeError({
      fragments: [...vertex(), plain('filler', { fills: [{ slot: 'adjustWorld', fn: 'f' }] })],
    });
    expect(e.code).toBe('unknown-slot');
    expect(e.message).toBe(
      'composeShader: fragment "filler" fills slot "adjustWorld", which no composed fragment provides; slots: adjustWorldPosition, deformVertex, fragmentStage, vertexStage, vertexVaryings',
    );
  });

  test('two fillers of a one-filler slot', () => {
    const e = composeError({
      fragments: [
        ...vertex(),
        surface('surface-a'),
        surface('surface-b', { outputs: [{ name: 'shade', type: 'vec4f' }] }),
      ],
    });
    expect(e.code).toBe('slot-conflict');
    expect(e.fragmentIds).toEqual(['surface-a', 'surface-b']);
    expect(e.message).toContain(
      'slot "fragmentStage" takes one filler but fragments "surface-a", "surface-b" all fill it',
    );
  });

  test('same binding name with different types', () => {
    const other = plain('other-scene', {
      bindings: [
        { name: 'scene', kind: 'read-only-storage', type: 'array<vec4f>', role: 'scene', visibility: ['vertex'] },
      ],
    });
    const e = composeError({ fragments: [...vertex(), other] });
    expect(e.code).toBe('binding-clash');
    expect(e.fragmentIds).toEqual(['other-scene', 'scene-uniforms']);
    expect(e.message).toBe(
      'composeShader: binding "scene" is declared by fragment "other-scene" as read-only-storage array<vec4f> in role scene ' +
        'and by fragment "scene-uniforms" as uniform package::scene_uniforms::SceneUniforms in role scene; fragments share a binding only when kind, type and role are identical ' +
        '(a struct type is identical only when it comes from the same fragment): rename one or move it into a shared dependency',
    );
  });

  test('same binding name with a same-named struct from another fragment', () => {
    const other = {
      ...plain('my-scene'),
      source: 'struct SceneUniforms { x: vec4f }\n',
      bindings: [
        {
          name: 'scene',
          kind: 'uniform' as const,
          type: 'SceneUniforms',
          role: 'scene' as const,
          visibility: ['vertex' as const],
        },
      ],
    };
    const e = composeError({ fragments: [...vertex(), other] });
    expect(e.code).toBe('binding-clash');
    expect(e.message).toContain('as uniform package::my_scene::SceneUniforms in role scene');
  });

  test('a vertex format the attribute cannot be read as', () => {
    const e = composeError({ fragments: vertex(), vertexLayout: { kind: 'tight', formats: { position: 'uint8x4' } } });
    expect(e.code).toBe('vertex-format');
    expect(e.fragmentIds).toEqual(['standard-vertex']);
    expect(e.message).toBe(
      'composeShader: vertex input "position" (vec3f, read by fragment "standard-vertex") cannot be read as "uint8x4" (vertexLayout.formats): ' +
        'a uint format cannot feed vec3f (float components); allowed: float, unorm and snorm formats (any component count: missing components read as 0, 0, 0, 1)',
    );
  });

  test('a float semantic never takes an integer format (nor a joint index a float one), naming what fits', () => {
    const normals = plain('normals', { vertexInputs: [{ semantic: 'normal', format: 'uint32x3' }] });
    const e = composeError({ fragments: [...vertex(), normals] });
    expect(e.code).toBe('vertex-format');
    expect(e.fragmentIds).toEqual(['normals']);
    expect(e.message).toContain(
      'fragment "normals" vertex input "normal" is declared vec3u (format "uint32x3"), but "normal" is a float semantic: declare a float, unorm or snorm format',
    );
    const joints = plain('joints', { vertexInputs: [{ semantic: 'joints', format: 'float32x4' }] });
    expect(composeError({ fragments: [...vertex(), joints] }).message).toContain('"joints" is a uint semantic');
    // A semantic of your own takes any kind.
    const own = plain('own', { vertexInputs: [{ semantic: 'myIds', format: 'uint32x2' }] });
    expect(() => composeShader({ fragments: [...vertex(), own] })).not.toThrow();
  });

  test('a float format into an integer input, from a caller buffer', () => {
    const ids = plain('ids', { vertexInputs: [{ semantic: 'joints', format: 'uint16x4' }] });
    const e = composeError({
      fragments: [...vertex(), ids],
      vertexLayout: {
        kind: 'buffers',
        buffers: [
          {
            arrayStride: 20,
            attributes: [
              { semantic: 'position', offset: 0, format: 'float32x3' },
              { semantic: 'joints', offset: 12, format: 'unorm16x4' },
            ],
          },
        ],
      },
    });
    expect(e.code).toBe('vertex-format');
    expect(e.message).toContain(
      'vertex input "joints" (vec4u, read by fragment "ids") cannot be read as "unorm16x4" (vertexLayout.buffers[0]): a float format cannot feed vec4u (uint components); allowed: uint8…uint32 formats',
    );
  });

  test('an instance input fed from a per-vertex buffer', () => {
    const e = composeError({
      fragments: vertex(),
      conditions: { thinInstances: true },
      vertexLayout: {
        kind: 'buffers',
        buffers: [
          { arrayStride: 12, attributes: [{ semantic: 'position', offset: 0, format: 'float32x3' }] },
          {
            arrayStride: 64,
            attributes: [0, 1, 2, 3].map((i) => ({
              semantic: `instance${i}`,
              offset: i * 16,
              format: 'float32x4' as const,
            })),
          },
        ],
      },
    });
    expect(e.code).toBe('vertex-format');
    expect(e.message).toContain(
      'vertex input "instance0" advances per instance but vertexLayout.buffers[1] steps per vertex',
    );
  });

  test('an input the caller buffers do not hold', () => {
    const e = composeError({
      fragments: vertex(),
      conditions: { normals: true },
      vertexLayout: {
        kind: 'buffers',
        buffers: [{ arrayStride: 12, attributes: [{ semantic: 'position', offset: 0, format: 'float32x3' }] }],
      },
    });
    expect(e.code).toBe('missing-vertex-input');
    expect(e.message).toBe(
      'composeShader: vertexLayout.buffers does not hold "normal" (read by "standard-vertex"); every input the fragments read needs an attribute',
    );
  });

  test('a required device feature the device lacks', () => {
    const e = composeError({
      fragments: makePickFragments(),
      conditions: { primitiveDetail: true },
      deviceFeatures: new Set(['float32-filterable']),
    });
    expect(e.code).toBe('missing-feature');
    expect(e.fragmentIds).toEqual(['pick-output']);
    expect(e.message).toBe(
      'composeShader: fragment "pick-output" requires device feature "primitive-index", which the device lacks; request it in requestDevice({ requiredFeatures }) ' +
        'on an adapter that has it, or compose without the fragment (device features: float32-filterable)',
    );
    expect(() =>
      composeShader({
        fragments: makePickFragments(),
        conditions: { primitiveDetail: false },
        deviceFeatures: new Set(),
      }),
    ).not.toThrow();
  });

  test('integer varying without flat interpolation', () => {
    const e = composeError({
      fragments: [...vertex(), plain('ids', { varyings: [{ name: 'objectId', type: 'u32' }] })],
    });
    expect(e.code).toBe('invalid-fragment');
    expect(e.message).toBe(
      'composeShader: fragment "ids" varying "objectId" is u32 with interpolation undefined; integer varyings must use interpolation "flat"',
    );
  });

  test('a fragment that hard-codes an index is refused', () => {
    const e = composeError({
      fragments: [
        ...vertex(),
        plain('rogue', {
          source: '// @binding(9) in a comment is fine\n@group(0) @binding(3) var<uniform> x: vec4f;\n',
        }),
      ],
    });
    expect(e.code).toBe('invalid-fragment');
    expect(e.message).toBe(
      'composeShader: fragment "rogue" writes @group(…) at line 2; the composer assigns every @group, @binding and @location: declare the resource in `bindings` ' +
        '(or the attribute in `vertexInputs` / `varyings` / `outputs`) and import it from bindings:: or io::',
    );
  });

  test('a malformed when expression names the fragment', () => {
    const e = composeError({
      fragments: [
        ...vertex(),
        plain('odd', { vertexInputs: [{ semantic: 'uv2', format: 'float32x2', when: 'a &&' }] }),
      ],
    });
    expect(e.message).toBe(
      'composeShader: fragment "odd": condition "a &&": ends early; use names, !, &&, || and parentheses',
    );
  });

  test('wesl parse errors point into the fragment source', () => {
    const broken = {
      ...surface(),
      source: surface().source.replace('o.color = vec4f(1.0);', 'o.color = vec4f(1.0) *;'),
    };
    const e = composeError({ fragments: [...vertex(), broken] });
    expect(e.code).toBe('link-error');
    expect(e.fragmentIds).toEqual(['surface']);
    expect(e.messages).toEqual([
      {
        fragmentId: 'surface',
        line: 4,
        column: 25,
        type: 'error',
        message: 'Expected expression after binary operator',
        lineText: '  o.color = vec4f(1.0) *;',
      },
    ]);
    expect(e.message).toBe(
      `composeShader: surface:4:25: Expected expression after binary operator\n    o.color = vec4f(1.0) *;\n  ${' '.repeat(24)}^`,
    );
  });

  test('unresolved names point into the fragment source', () => {
    const broken = { ...surface(), source: surface().source.replace('vec4f(1.0)', 'tint(1.0)') };
    const e = composeError({ fragments: [...vertex(), broken] });
    expect(e.messages[0]).toMatchObject({
      fragmentId: 'surface',
      line: 4,
      column: 13,
      message: "unresolved identifier 'tint'",
    });
  });

  test('a filler function that does not exist is refused before linking, naming the filler', () => {
    const e = composeError({
      fragments: [...vertex(), surface('surface', { fills: [{ slot: 'fragmentStage', fn: 'nope' }] })],
    });
    expect(e.code).toBe('slot-signature');
    expect(e.fragmentIds).toEqual(['surface']);
    expect(e.message).toBe(
      'composeShader: fragment "surface": fn nope fills slot "fragmentStage" (declared by the composer), but its source declares no function nope',
    );
  });

  test('imports the composer supplies keep line 1 of the source at line 1 in every error', () => {
    const { source } = surface();
    const bare = {
      ...surface(),
      source: source.slice(source.indexOf('\n') + 1),
      imports: ['io::{ FragmentInput, FragmentOutput }'],
    };
    expect(composeShader({ fragments: [...vertex(), bare] }).code).toBe(
      composeShader({ fragments: [...vertex(), surface()] }).code,
    );
    const unresolved = composeError({
      fragments: [...vertex(), { ...bare, source: bare.source.replace('vec4f(1.0)', 'tint(1.0)') }],
    });
    expect(unresolved.messages[0]).toMatchObject({
      fragmentId: 'surface',
      line: 3,
      column: 13,
      lineText: '  o.color = tint(1.0);',
    });
    const parse = composeError({
      fragments: [
        ...vertex(),
        { ...bare, source: bare.source.replace('o.color = vec4f(1.0);', 'o.color = vec4f(1.0) *;') },
      ],
    });
    expect(parse.messages[0]).toMatchObject({ fragmentId: 'surface', line: 3, column: 25 });
    const badImport = composeError({ fragments: [...vertex(), { ...bare, imports: ['io::{ FragmentInput'] }] });
    expect(badImport.code).toBe('link-error');
    expect(badImport.messages[0]).toMatchObject({ fragmentId: 'weft:surface/imports', line: 1, origin: 'surface' });
    expect(composeError({ fragments: [...vertex(), { ...bare, imports: [42] as never }] }).message).toContain(
      'fragment "surface" has imports array(1); expected an array of import paths',
    );
  });
});
