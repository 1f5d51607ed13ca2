import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import {
  composeShader,
  getComposeCounters,
  listVariants,
  makeComposeCache,
  makeWeftVariantRegistry,
} from '../../../index.js';
import { makeStandardMaterialFragments } from '../../../fragments/index.js';
import { comparable, seededRandom, shuffled, shuffleSpec } from './composer-test-helpers.js';

const run = promisify(execFile);
const script = fileURLToPath(new URL('./print-composed.ts', import.meta.url));
const variants = listVariants(makeWeftVariantRegistry());

async function composeInChild(seed: number): Promise<Record<string, string>> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', script, String(seed)], { maxBuffer: 64 << 20 });
  return JSON.parse(stdout);
}

describe('composeShader determinism', () => {
  test('two processes with different fragment orders produce identical code, layouts and keys for every variant', async () => {
    const [a, b] = await Promise.all([composeInChild(1), composeInChild(2)]);
    const here = Object.fromEntries(variants.map((v) => [v.name, comparable(composeShader(v.spec()))]));
    expect(Object.keys(a)).toEqual(variants.map((v) => v.name));
    for (const v of variants) {
      expect(a[v.name], v.name).toBe(here[v.name]);
      expect(b[v.name], v.name).toBe(here[v.name]);
    }
  });

  test('shuffling fragments and condition keys never changes the output', () => {
    const random = seededRandom(7);
    for (const v of variants) {
      const reference = comparable(composeShader(v.spec()));
      for (let i = 0; i < 5; i++)
        expect(comparable(composeShader(shuffleSpec(v.spec(), random))), v.name).toBe(reference);
    }
  });

  test('a warm cache linking variants in any order gives exactly the cold results', () => {
    const cold = new Map(variants.map((v) => [v.name, comparable(composeShader(v.spec()))]));
    const cache = makeComposeCache({ maxResults: 0 });
    for (const v of shuffled([...variants, ...variants], seededRandom(3)))
      expect(comparable(composeShader(v.spec(), cache)), v.name).toBe(cold.get(v.name));
    expect(getComposeCounters(cache).links).toBe(variants.length * 2);
  });

  test('conditions and constants are inputs to the key; device features and fragment order are not', () => {
    const fragments = makeStandardMaterialFragments();
    const base = composeShader({ fragments, conditions: { normals: true } });
    expect(composeShader({ fragments: [...fragments].reverse(), conditions: { normals: true, uvs: false } }).key).toBe(
      base.key,
    );
    expect(composeShader({ fragments, conditions: { normals: true }, deviceFeatures: new Set<string>() }).key).toBe(
      base.key,
    );
    expect(composeShader({ fragments, conditions: { normals: false } }).key).not.toBe(base.key);
    const reader = {
      id: 'reads-constant',
      source: 'import constants::SCALE;\nfn scaled(x: f32) -> f32 { return x * SCALE; }\n',
    };
    const surface = {
      id: 'const-surface',
      dependencies: ['reads-constant'],
      outputs: [{ name: 'color', type: 'vec4f' }],
      fills: [{ slot: 'fragmentStage', fn: 'surface' }],
      source:
        'import io::{ FragmentInput, FragmentOutput };\nimport package::reads_constant::scaled;\nfn surface(input: FragmentInput) -> FragmentOutput {\n  var o: FragmentOutput;\n  o.color = vec4f(scaled(input.uv.x));\n  return o;\n}\n',
    };
    const withConstant = (scale: number) =>
      composeShader({
        fragments: [...fragments.filter((f) => f.id !== 'standard-surface'), reader, surface],
        constants: { SCALE: scale },
      });
    expect(withConstant(2).key).not.toBe(withConstant(3).key);
    expect(withConstant(2).code).toContain('const SCALE = 2;');
    expect(withConstant(2).key).toBe(withConstant(2).key);
  });
});
