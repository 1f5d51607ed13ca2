// Build-time composition: every variant a table holds equals what composeShader links at run time (code, key and
// every layout), a cache with the table answers without linking, and the errors of a miss and of bad tables.
import { describe, expect, test } from 'vitest';
import {
  composeShader,
  composeSpecKey,
  getComposeCounters,
  makeComposeCache,
} from '../../../composer/compose-shader.js';
import { ComposeError } from '../../../composer/errors.js';
import { checkPrecomposedShaders } from '../../../composer/precomposed-check.js';
import { findPrecomposedShader, makePrecomposedShaderData, precomposedKeyOf } from '../../../composer/precomposed.js';
import { makePrecomposedShaders } from '../../../composer/precomposed-table.js';
import { precomposedDigestOf } from '../../../composer/precomposed-check.js';
import { listVariants, makeVariantRegistry } from '../../../composer/variant-registry.js';
import { makeBoxData } from '../../../engine/primitives/box.js';
import { GeometryTextureType } from '../../../geometry/geometry-types.js';
import { registerMeshVariants } from '../../../variants/mesh-variants.js';
import { makeWeftVariantRegistry } from '../../../variants/weft-variants.js';

const weft = makeWeftVariantRegistry();
const mine = registerMeshVariants(makeVariantRegistry(), 'box', {
  data: makeBoxData(),
  passes: ['forward', 'forward-object-ids', 'pick', 'pick-detail'],
  geometry: [GeometryTextureType.WORLD_NORMAL, GeometryTextureType.VIEW_DEPTH],
});
const table = makePrecomposedShaders([{ registry: weft }, { registry: mine }]);

describe('a precomposed table', () => {
  test('holds one entry per distinct spec of weft registry and a mesh registry, keyed by the compose cache key', () => {
    const variants = [...listVariants(weft), ...listVariants(mine)];
    const keys = new Set(variants.map((v) => precomposedKeyOf(composeSpecKey(v.spec()))));
    expect(Object.keys(table.shaders).sort()).toEqual([...keys].sort());
    expect(keys.size).toBeGreaterThan(40);
  });

  test('every emitted variant equals run-time composeShader: code, key, entry points and every layout', () => {
    const variants = new Map([...listVariants(weft), ...listVariants(mine)].map((v) => [v.name, v]));
    for (const [key, entry] of Object.entries(table.shaders)) {
      const spec = variants.get(entry.name)!.spec();
      expect(precomposedKeyOf(composeSpecKey(spec)), entry.name).toBe(key);
      // A fresh compose (no cache), in this process: what a page without the plugin links.
      const { sourceMap, ...runTime } = composeShader(spec);
      expect(sourceMap, entry.name).toBeDefined();
      expect(entry.shader, entry.name).toStrictEqual(JSON.parse(JSON.stringify(runTime)));
      expect(entry.shader, entry.name).toEqual(runTime);
      expect(entry.shader.code, entry.name).toBe(runTime.code);
      expect(entry.shader.key, entry.name).toBe(runTime.key);
    }
  });

  test('survives a JSON round trip (what virtual:weft-variants ships) unchanged', () => {
    expect(JSON.parse(JSON.stringify(table))).toStrictEqual(table);
  });

  test('is deterministic: a second build gives the same table', () => {
    const again = makePrecomposedShaders([{ registry: makeWeftVariantRegistry() }, { registry: mine }]);
    expect(JSON.stringify(again)).toBe(JSON.stringify(table));
  });
});

describe('a compose cache with a precomposed table', () => {
  test('answers every table spec without linking, with the run-time result (frozen, no source map)', () => {
    const cache = makeComposeCache({ precomposed: { table } });
    for (const variant of listVariants(mine)) {
      const composed = composeShader(variant.spec(), cache);
      const { sourceMap: _s, ...runTime } = composeShader(variant.spec());
      expect(composed, variant.name).toEqual(runTime);
      expect(composed.sourceMap).toBeUndefined();
      expect(Object.isFrozen(composed.bindGroups)).toBe(true);
    }
    expect(getComposeCounters(cache).links).toBe(0);
    // A second compose of a spec is a cache hit (the table is read once per spec).
    composeShader(listVariants(mine)[0].spec(), cache);
    expect(getComposeCounters(cache).hits).toBe(1);
  });

  test('links a spec the table lacks when the linker is there (the default build)', () => {
    const cache = makeComposeCache({ precomposed: { table: makePrecomposedShaders([]) } });
    const composed = composeShader(listVariants(mine)[0].spec(), cache);
    expect(composed.sourceMap).toBeDefined();
    expect(getComposeCounters(cache).links).toBe(1);
  });

  test('a miss without the linker is a not-precomposed ComposeError naming the key, the spec and how to add it', () => {
    const spec = listVariants(mine)[0].spec();
    const key = precomposedKeyOf(composeSpecKey(spec));
    const small = makePrecomposedShaders([{ registry: weft, names: ['pick'] }]);
    const error = (() => {
      try {
        findPrecomposedShader('composeShader', small, composeSpecKey(spec), spec, false);
      } catch (e) {
        return e as ComposeError;
      }
      throw new Error('no error');
    })();
    expect(error).toBeInstanceOf(ComposeError);
    expect(error.code).toBe('not-precomposed');
    expect(error.message).toContain(key);
    expect(error.message).toContain('The table holds pick.');
    expect(error.message).toMatch(/weftVariants\(\{ variants/);
    expect(error.message).toContain('position:float32x3');
    expect(error.fragmentIds).toEqual(spec.fragments.map((f) => f.id));
    expect(() => findPrecomposedShader('composeShader', null, composeSpecKey(spec), spec, false)).toThrow(
      /No table was given to this engine: call usePrecomposedShaders/,
    );
  });

  test('composeSpecKey refuses a spec without a fragments array (typed, naming the value)', () => {
    expect(() => composeSpecKey({ fragments: 'x' } as never)).toThrow(
      /composeSpecKey: spec.fragments "x" must be an array of fragments/,
    );
    expect(() => composeSpecKey({ fragments: 'x' } as never)).toThrow(ComposeError);
  });

  test('bad tables are refused naming what is wrong', () => {
    const check = (value: unknown) => () => checkPrecomposedShaders('usePrecomposedShaders', value);
    expect(check(null)).toThrow(/usePrecomposedShaders: table null is not an object/);
    expect(check({ format: 'other', shaders: {} })).toThrow(/table format "other" is not "weft-precomposed\/2"/);
    expect(check({ ...table, shaders: { a: { name: 'x' } } })).toThrow(/shaders\["a"\]/);
    // A table of another format or weft version is refused as a whole, saying to rebuild.
    for (const stale of [
      { ...table, format: 'weft-precomposed/1' },
      { ...table, weft: '0.0.9' },
    ]) {
      const error = (() => {
        try {
          check(stale)();
        } catch (e) {
          return e as ComposeError;
        }
        throw new Error('no error');
      })();
      expect(error.code).toBe('stale-precomposed-table');
      expect(error.message).toMatch(/rebuild the page/);
    }
    // Every entry weft makes passes; the result is a frozen copy, so edits of the caller's table change nothing.
    const checked = checkPrecomposedShaders('t', table);
    expect(checked).not.toBe(table);
    expect(checked).toEqual(table);
    expect(Object.isFrozen(Object.values(checked.shaders)[0].shader.bindGroups)).toBe(true);
  });

  test('an entry is refused naming the entry, the field and what was expected', () => {
    const [key, entry] = Object.entries(table.shaders).find(([, e]) => e.name === 'box-forward')!;
    const edit = (change: (shader: Record<string, unknown>) => void, reseal = true) => {
      const shader = structuredClone(entry.shader) as unknown as Record<string, unknown>;
      change(shader);
      const digest = reseal ? precomposedDigestOf(shader) : entry.digest;
      return () =>
        checkPrecomposedShaders('usePrecomposedShaders', {
          ...table,
          shaders: { [key]: { ...entry, digest, shader } },
        });
    };
    const at = `table.shaders["${key}"] (variant "box-forward")`;
    expect(edit((s) => (s.code = `${s.code} `), false)).toThrow(`${at}.digest`);
    expect(edit((s) => delete s.vertexBuffers)).toThrow(`${at}.shader.vertexBuffers is undefined, expected an array`);
    expect(edit((s) => (s.bindGroups = {}))).toThrow(`${at}.shader.bindGroups`);
    expect(edit((s) => (s.vertexEntryPoint = 'main'))).toThrow(
      /vertexEntryPoint is "main", expected a function the code declares @vertex/,
    );
    expect(edit((s) => ((s.bindGroups as { entries: { binding: number }[] }[])[1].entries[0].binding = 5))).toThrow(
      /bindGroups\[1\]/,
    );
    expect(edit((s) => ((s.vertexInputs as { format: string }[])[0].format = 'uint32x3'))).toThrow(/vertexInputs\[0\]/);
    expect(edit((s) => (s.targets = []))).toThrow(/targets/);
  });

  test('a lookup refuses an entry that is not the spec it is keyed by, or whose key is not its own', () => {
    const variants = listVariants(mine);
    const forward = variants.find((v) => v.name === 'box-forward')!.spec();
    const pick = variants.find((v) => v.name === 'box-pick')!.spec();
    const key = precomposedKeyOf(composeSpecKey(forward));
    const pickEntry = table.shaders[precomposedKeyOf(composeSpecKey(pick))];
    const moved = { ...table, shaders: { [key]: pickEntry } };
    expect(() => findPrecomposedShader('composeShader', moved, composeSpecKey(forward), forward, false)).toThrow(
      /\(variant "box-pick"\)\.shader\.fragments is .* expects/,
    );
    const entry = table.shaders[key];
    const rekeyed = { ...entry, shader: { ...entry.shader, key: '0123456789abcdef' } };
    expect(() =>
      findPrecomposedShader(
        'composeShader',
        { ...table, shaders: { [key]: rekeyed } },
        composeSpecKey(forward),
        forward,
        false,
      ),
    ).toThrow(/shader\.key is 0123456789abcdef, .* expects [0-9a-f]{16} \(the key of its code and layouts\)/);
  });

  test('a field that is not plain data is refused at build time, naming its path', () => {
    const composed = composeShader(listVariants(mine)[0].spec());
    const odd = { ...composed, extra: { when: new Date(0) } };
    expect(() => makePrecomposedShaderData(odd)).toThrow(/shader\.extra\.when = .* is not plain data/);
    expect(() => makePrecomposedShaderData({ ...composed, nan: Number.NaN } as never)).toThrow(/shader\.nan/);
  });
});
