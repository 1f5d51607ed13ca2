import type { ComposedShader, ComposeSpec } from '../../../composer/index.js';

/** Deterministic PRNG (mulberry32) for shuffles that differ per seed but repeat per seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
  return { ...spec, fragments: shuffled(spec.fragments, random).map(reorder), conditions: spec.conditions && reorder(spec.conditions) };
}

/** Everything of a composed shader that must be identical across processes (all but the source map). */
export function comparable(composed: ComposedShader): string {
  const { sourceMap: _sourceMap, ...data } = composed;
  return JSON.stringify(data);
}
