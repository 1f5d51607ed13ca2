import { describe, expect, test } from 'vitest';
import {
  composeShader,
  describeComposedShader,
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
      const header = `// ${variant.name}: ${variant.description}\n${describeComposedShader(composed).replace(/^/gm, '// ')}\n`;
      await expect(header + composed.code).toMatchFileSnapshot(`./__snapshots__/${variant.name}.wgsl`);
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
    // 16 standard-material, 4 pick, 16 pick-rule and 10 deformation variants at least (later features add theirs).
    expect(weft.filter((n) => /^(standard|pick)/.test(n) && !n.includes('deform'))).toHaveLength(36);
    expect(weft.filter((n) => n.includes('deform'))).toHaveLength(10);
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
