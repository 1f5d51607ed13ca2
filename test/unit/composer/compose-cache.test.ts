import { describe, expect, test } from 'vitest';
import { composeShader, getComposeCounters, makeComposeCache } from '../../../index.js';
import { composePickShader } from '../../../picking/gpu/pick-shader.js';
import { composeStandardMaterial } from '../../../engine/render/forward-shader.js';
import { makePickFragments, makeStandardMaterialFragments } from '../../../fragments/index.js';

describe('compose cache', () => {
  test('a hit returns the same frozen result without linking or parsing', () => {
    const cache = makeComposeCache();
    const fragments = makeStandardMaterialFragments();
    const first = composeStandardMaterial(
      { normals: true, uvs: false, colors: true, thinInstances: false },
      { cache, fragments },
    );
    const before = getComposeCounters(cache);
    // 6 fragments (thin-instances is only imported by dead @if branches, so never parsed) + bindings, io, slots, root.
    expect(before).toEqual({ composes: 1, hits: 0, links: 1, parses: 10 });
    const again = composeStandardMaterial(
      { normals: true, uvs: false, colors: true, thinInstances: false },
      { cache, fragments: [...fragments].reverse() },
    );
    expect(again).toBe(first);
    expect(getComposeCounters(cache)).toEqual({ composes: 2, hits: 1, links: 1, parses: 10 });
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.bindGroups[0].entries[0])).toBe(true);
  });

  test('equal fragments made by separate factory calls hit too (fragments are keyed by content)', () => {
    const cache = makeComposeCache();
    composePickShader({ thinInstances: true, primitiveDetail: false }, { cache });
    composePickShader({ thinInstances: true, primitiveDetail: false }, { cache });
    expect(getComposeCounters(cache)).toMatchObject({ hits: 1, links: 1 });
  });

  test('a warm re-compose with other conditions re-links but parses only the generated modules that changed', () => {
    const cache = makeComposeCache();
    const fragments = makeStandardMaterialFragments();
    composeShader({ fragments, conditions: { normals: true } }, cache);
    const parsed = getComposeCounters(cache).parses;
    composeShader({ fragments, conditions: { normals: true, uvs: true } }, cache);
    const after = getComposeCounters(cache);
    expect(after.links).toBe(2);
    // io and the root module change (uv input), bindings / slots / constants do not; no fragment is re-parsed.
    expect(after.parses - parsed).toBeLessThanOrEqual(2);
  });

  test('a changed fragment source is a miss, and the result holds the new code', () => {
    const cache = makeComposeCache();
    const fragments = makePickFragments();
    const a = composeShader({ fragments }, cache);
    const edited = fragments.map((f) =>
      f.id === 'pick-output' ? { ...f, source: f.source.replace('255.0) / 255.0', '255.0) * (1.0 / 255.0)') } : f,
    );
    const b = composeShader({ fragments: edited }, cache);
    expect(b).not.toBe(a);
    expect(b.key).not.toBe(a.key);
    expect(b.code).toContain('* (1.0 / 255.0)');
  });

  test('results are bounded by maxResults (least recently used dropped first)', () => {
    const cache = makeComposeCache({ maxResults: 2 });
    const fragments = makeStandardMaterialFragments();
    const compose = (normals: boolean, uvs: boolean) =>
      composeShader({ fragments, conditions: { normals, uvs } }, cache);
    compose(false, false);
    compose(true, false);
    compose(false, false);
    compose(false, true);
    expect(cache.results.size).toBe(2);
    compose(false, false);
    expect(getComposeCounters(cache)).toMatchObject({ hits: 2, links: 3 });
    compose(true, false);
    expect(getComposeCounters(cache).links).toBe(4);
  });

  test('a mesh-style buffer description keys by layout only, not by the bytes it carries', () => {
    const cache = makeComposeCache();
    const fragments = makeStandardMaterialFragments();
    const buffers = (fill: number) => [
      {
        bytes: new Uint8Array(1 << 16).fill(fill),
        arrayStride: 12,
        attributes: [{ semantic: 'position', offset: 0, format: 'float32x3' as const }],
      },
    ];
    const a = composeShader({ fragments, vertexLayout: { kind: 'buffers', buffers: buffers(1) } }, cache);
    const b = composeShader({ fragments, vertexLayout: { kind: 'buffers', buffers: buffers(2) } }, cache);
    expect(b).toBe(a);
    expect(getComposeCounters(cache).links).toBe(1);
  });

  test('without a cache every call links afresh and still returns identical output', () => {
    const fragments = makeStandardMaterialFragments();
    const a = composeShader({ fragments, conditions: { colors: true } });
    const b = composeShader({ fragments, conditions: { colors: true } });
    expect(b).not.toBe(a);
    expect(b.code).toBe(a.code);
    expect(b.key).toBe(a.key);
  });
});
