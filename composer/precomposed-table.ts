// Building a precomposed table: compose registered variants with the linker and keep their results as data, by key.
// Runs at build time (weft-gpu/vite) or in a test; the page only reads the table (precomposed.ts).
import { type ComposeCache, composeShader, composeSpecKey, makeComposeCache } from './compose-shader.js';
import {
  makePrecomposedShaderData,
  type PrecomposedEntry,
  type PrecomposedShaders,
  precomposedFormat,
  precomposedKeyOf,
  precomposedWeftVersion,
} from './precomposed.js';
import { precomposedDigestOf } from './precomposed-check.js';
import { getVariant, listVariants, type VariantRegistry } from './variant-registry.js';

/** Which variants of a registry to compose: all of them, or these names. */
export interface PrecomposeSelection {
  registry: VariantRegistry;
  /** Default: every variant of the registry. */
  names?: readonly string[];
}

/**
 * Composes the selected variants and returns them as a precomposed table, keyed like the compose cache keys their
 * specs. Two names whose specs are equal share one entry (the first name). Deterministic: the same selections give
 * the same table.
 * @throws {WeftError} when a name is not in its registry
 * @throws {ComposeError} when a variant does not compose, or its result is not plain data
 */
export function makePrecomposedShaders(
  selections: readonly PrecomposeSelection[],
  cache: ComposeCache = makeComposeCache(),
): PrecomposedShaders {
  const shaders: Record<string, PrecomposedEntry> = {};
  for (const { registry, names } of selections) {
    const variants = names ? names.map((name) => getVariant(registry, name)) : listVariants(registry);
    for (const variant of variants) {
      const spec = variant.spec();
      const key = precomposedKeyOf(composeSpecKey(spec, cache));
      if (shaders[key]) continue;
      const shader = makePrecomposedShaderData(composeShader(spec, cache));
      shaders[key] = { name: variant.name, digest: precomposedDigestOf(shader), shader };
    }
  }
  const sorted: Record<string, PrecomposedEntry> = {};
  for (const key of Object.keys(shaders).sort()) sorted[key] = shaders[key];
  return { format: precomposedFormat, weft: precomposedWeftVersion, shaders: sorted };
}
