import { expect } from 'vitest';
import { ComposeError, type ComposedShader, type ComposeSpec, composeShader } from '../../../composer/index.js';
import type { Fragment } from '../../../fragments/index.js';

export { makeRandom as seededRandom } from '../../support/random.js';

/** A shuffled copy (Fisher–Yates). */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The spec with its fragments (and their object key order) shuffled. */
export function shuffleSpec(spec: ComposeSpec, random: () => number): ComposeSpec {
  const reorder = <T extends object>(o: T): T => Object.fromEntries(shuffled(Object.entries(o), random)) as T;
  return {
    ...spec,
    fragments: shuffled(spec.fragments, random).map(reorder),
    conditions: spec.conditions && reorder(spec.conditions),
  };
}

/** Everything of a composed shader that must be identical across processes (all but the source map). */
export function comparable(composed: ComposedShader): string {
  const { sourceMap: _sourceMap, ...data } = composed;
  return JSON.stringify(data);
}

/** The ComposeError `composeShader` throws for `spec`; fails the test when it throws something else or nothing. */
export function composeError(spec: ComposeSpec): ComposeError {
  try {
    composeShader(spec);
  } catch (error) {
    expect(error).toBeInstanceOf(ComposeError);
    return error as ComposeError;
  }
  throw new Error('composeShader accepted the spec');
}

/** A fragment stage that writes one vec4f colour output; `extra` adds or overrides keys (unknown ones too). */
export function surfaceFragment(extra: Record<string, unknown> = {}): Fragment {
  return {
    id: 'surface',
    source:
      'import io::{ FragmentInput, FragmentOutput };\nfn surface(input: FragmentInput) -> FragmentOutput {\n  var o: FragmentOutput;\n  o.color = vec4f(1.0);\n  return o;\n}\n',
    outputs: [{ name: 'color', type: 'vec4f' }],
    fills: [{ slot: 'fragmentStage', fn: 'surface' }],
    ...extra,
  } as Fragment;
}

/** A fragment stage whose colour is `fn(vec4f(1.0))`, imported from fragment `dependency` (which must export it). */
export function surfaceCalling(dependency: string, fn: string): Fragment {
  return {
    id: 'surface',
    source: `import io::{ FragmentInput, FragmentOutput };\nimport package::${dependency.replaceAll('-', '_')}::${fn};\nfn surface(input: FragmentInput) -> FragmentOutput {\n  var o: FragmentOutput;\n  o.color = ${fn}(vec4f(1.0));\n  return o;\n}\n`,
    outputs: [{ name: 'color', type: 'vec4f' }],
    fills: [{ slot: 'fragmentStage', fn: 'surface' }],
    dependencies: [dependency],
  };
}
