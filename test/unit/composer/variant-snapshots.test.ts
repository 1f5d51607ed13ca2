import { describe, expect, test } from 'vitest';
import {
  composeShader,
  describeComposedShader,
  formatShaderSnapshot,
  listVariants,
  makeComposeCache,
  makeVariantRegistry,
  makeWeftVariantRegistry,
  registerVariant,
  WeftError,
} from '../../../index.js';
import { makeStandardMaterialFragments } from '../../../fragments/index.js';

const cache = makeComposeCache();

describe('variant snapshots', () => {
  for (const variant of listVariants(makeWeftVariantRegistry())) {
    test(`${variant.name}.wgsl`, async () => {
      const composed = composeShader(variant.spec(), cache);
      const snapshot = `// ${variant.name}: ${variant.description}\n${formatShaderSnapshot(composed)}`;
      await expect(snapshot).toMatchFileSnapshot(`./__snapshots__/${variant.name}.wgsl`);
    });
  }
});

describe('variant registry', () => {
  test('is a value: registering into one registry leaves others untouched', () => {
    const a = makeVariantRegistry();
    registerVariant(a, {
      name: 'mine',
      description: 'x',
      spec: () => ({ fragments: makeStandardMaterialFragments() }),
    });
    expect(listVariants(a).map((v) => v.name)).toEqual(['mine']);
    expect(listVariants(makeVariantRegistry())).toEqual([]);
    const weft = listVariants(makeWeftVariantRegistry()).map((v) => v.name);
    expect(weft).not.toContain('mine');
    expect(listVariants(makeWeftVariantRegistry()).map((v) => v.name)).toEqual(weft);
    // 16 standard-material, 4 + 4 vertex-index pick, 16 + 1 vertex-index pick-rule and 10 + 3 vertex-index + 6
    // compatibility-device (textures) deformation variants at least (later features add theirs).
    expect(weft.filter((n) => /^(standard|pick)/.test(n) && !n.includes('deform'))).toHaveLength(41);
    expect(weft.filter((n) => n.includes('deform'))).toHaveLength(19);
    expect(weft.filter((n) => n.includes('deform') && n.endsWith('-textures'))).toHaveLength(6);
  });

  test('rejects duplicate and non-kebab names', () => {
    const registry = makeWeftVariantRegistry();
    expect(() => registerVariant(registry, { name: 'pick', description: '', spec: () => ({ fragments: [] }) })).toThrow(
      'registerVariant: variant "pick" is already registered; names are unique',
    );
    expect(() =>
      registerVariant(registry, { name: 'Pick Me', description: '', spec: () => ({ fragments: [] }) }),
    ).toThrow(WeftError);
  });
});

describe('formatShaderSnapshot', () => {
  const composed = composeShader(
    listVariants(makeWeftVariantRegistry())
      .find((v) => v.name === 'pick')!
      .spec(),
    cache,
  );
  const text = formatShaderSnapshot(composed);

  test('is the linked code plus comment lines only, and deterministic', () => {
    const headerLines = describeComposedShader(composed).split('\n').length;
    const codeLines = text
      .split('\n')
      .slice(headerLines)
      .filter((line) => !/^\/\/ ── (fragment|generated) \S+ ──$/.test(line));
    expect(codeLines.join('\n')).toBe(composed.code);
    expect(formatShaderSnapshot(composeShader(listVariants(makeWeftVariantRegistry())[0]!.spec()))).toBe(
      formatShaderSnapshot(composeShader(listVariants(makeWeftVariantRegistry())[0]!.spec())),
    );
  });

  test('has the layouts with stage names and a marker where each fragment begins', () => {
    expect(text.startsWith(`// key ${composed.key}\n`)).toBe(true);
    expect(text).toContain('"visibility":"vertex|fragment"');
    expect(text).not.toMatch(/"visibility":\d/);
    expect(describeComposedShader(composed)).toContain('"visibility":"vertex|fragment"');
    for (const id of ['standard-vertex', 'draw-uniforms', 'scene-uniforms', 'pick-output'])
      expect(text).toContain(`// ── fragment ${id} ──\n`);
    expect(text).toContain('// ── generated weft:bindings ──\n');
    // A marker sits right before the first line of its fragment's code.
    expect(text).toContain('// ── fragment standard-vertex ──\nfn standardVertex(');
  });
});
