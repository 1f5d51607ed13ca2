// Shaders composed at build time (weft-gpu/vite), looked up by the key the compose cache gives a spec. No wesl here:
// a page that takes every shader from a table never links.
import { describeValue } from '../core/errors.js';
import type { ComposedShader, ComposeSpec } from './compose-shader.js';
import { ComposeError } from './errors.js';
import { canonicalBindingPolicy, resolveBindingPolicy } from './binding-policy.js';
import { canonicalConditions } from './conditions.js';
import { fnv1a64, stableStringify } from './hash.js';
import { vertexPullingFragmentId } from './vertex-pulling.js';

/** @internal The format tag of a precomposed table; a table of another format is refused. */
export const precomposedFormat = 'weft-precomposed/2';

/**
 * The weft version a table is built by and read with (package.json's `version`): a table built by another weft is
 * refused as a whole (`stale-precomposed-table`), since its shaders were composed from other fragments.
 * @internal
 */
export const precomposedWeftVersion = '0.1.0';

/** A composed shader as plain data: every field of `ComposedShader` but the source map (which is not data). */
export type PrecomposedShaderData = Omit<ComposedShader, 'sourceMap'>;

/** One precomposed variant: the name it was declared under, its shader, and the shader's integrity digest. */
export interface PrecomposedEntry {
  readonly name: string;
  /** FNV-1a 64 of the shader's canonical JSON: an entry edited after the build is refused. */
  readonly digest: string;
  readonly shader: PrecomposedShaderData;
}

/** Shaders composed at build time, by spec key (`composeSpecKey`). Plain data: `virtual:weft-variants` exports one. */
export interface PrecomposedShaders {
  readonly format: 'weft-precomposed/2';
  /** The weft version that built the table (`precomposedWeftVersion`). */
  readonly weft: string;
  readonly shaders: Readonly<Record<string, PrecomposedEntry>>;
}

/**
 * Where a compose cache finds its table; an engine holds one (see `usePrecomposedShaders`). `table` is a checked,
 * frozen table; `generation` counts its replacements, so a runtime that cached what it looked up knows to look again;
 * `refused`, when set, is thrown by every lookup (a table whose shader failed to compile on the device).
 */
export interface PrecomposedSource {
  table: PrecomposedShaders | null;
  generation?: number;
  refused?: Error | null;
}

/** The table key of a spec: FNV-1a 64 of the compose cache's canonical key (fragment digests, conditions, constants, layout). */
export function precomposedKeyOf(cacheKey: string): string {
  return fnv1a64(cacheKey);
}

/**
 * The plain data of a composed shader, for a table. Generic: every field but `sourceMap` is kept, so a field added to
 * ComposedShader later comes along; a value that is not JSON data (a function, a Map, a class instance, a non-finite
 * number) is refused, naming its path, rather than lost.
 * @throws {ComposeError} `not-serialisable` when a field holds something other than plain data
 */
export function makePrecomposedShaderData(composed: ComposedShader): PrecomposedShaderData {
  const { sourceMap: _sourceMap, ...data } = composed;
  const check = (value: unknown, path: string): void => {
    if (value === null || value === undefined || typeof value === 'string' || typeof value === 'boolean') return;
    if (typeof value === 'number') {
      if (Number.isFinite(value)) return;
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => check(v, `${path}[${i}]`));
      return;
    } else if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      for (const [k, v] of Object.entries(value)) check(v, `${path}.${k}`);
      return;
    }
    throw new ComposeError(
      'makePrecomposedShaderData',
      'not-serialisable',
      composed.fragments,
      `${path} = ${describeValue(value)} is not plain data (strings, finite numbers, booleans, null, arrays, plain objects): a precomposed table cannot carry it`,
    );
  };
  check(data, 'shader');
  return JSON.parse(JSON.stringify(data));
}

/** The key `composeShader` gives a shader's code and layouts (see composeUncached), under the spec's binding policy. */
function layoutKeyOf(shader: PrecomposedShaderData, spec: ComposeSpec): string {
  const policy = resolveBindingPolicy('composeShader', spec.bindings);
  return fnv1a64(
    stableStringify({
      code: shader.code,
      ...(shader.output === 'library' ? { output: 'library' } : {}),
      ...(policy.isDefault ? {} : { bindingPolicy: canonicalBindingPolicy(policy) }),
      vertexEntryPoint: shader.vertexEntryPoint,
      fragmentEntryPoint: shader.fragmentEntryPoint,
      bindGroups: shader.bindGroups.map((g) => g.entries),
      vertexBuffers: shader.vertexBuffers,
      targets: shader.targets.map((t) => [t.location, t.format]),
      features: shader.features.map((f) => f.feature),
    }),
  );
}

/**
 * Checks a (shape-checked) entry against the spec that looked it up: the fragments, conditions, constants, output
 * and vertex buffers the spec asks for, and a `key` that is its code and layouts' own (the device caches trust it).
 * @throws {ComposeError} `bad-precomposed-table` naming the entry, the field and what the spec expects
 */
function checkEntryAgainstSpec(api: string, key: string, entry: PrecomposedEntry, spec: ComposeSpec): void {
  const shader = entry.shader;
  const fail = (field: string, got: string, expected: string): never => {
    throw new ComposeError(
      api,
      'bad-precomposed-table',
      [...shader.fragments],
      `table.shaders[${JSON.stringify(key)}] (variant "${entry.name}").shader.${field} is ${got}, but the spec looked up under this key (${describeSpec(spec)}) expects ${expected}: the table does not match this weft's runtime; rebuild the page (vite build) or the table (makePrecomposedShaders)`,
    );
  };
  const list = (values: readonly string[]) => `[${values.join(', ')}]`;
  const ids = [
    ...spec.fragments.map((f) => String(f?.id)),
    ...(spec.vertexPulling !== undefined ? [vertexPullingFragmentId] : []),
  ].sort();
  const have = [...shader.fragments].sort();
  if (stableStringify(have) !== stableStringify(ids)) fail('fragments', list(have), list(ids));
  const conditions = canonicalConditions(spec.conditions);
  if (stableStringify(shader.conditions) !== stableStringify(conditions))
    fail('conditions', stableStringify(shader.conditions), stableStringify(conditions));
  const constants = spec.constants ?? {};
  if (stableStringify(shader.constants) !== stableStringify(constants))
    fail('constants', stableStringify(shader.constants), stableStringify(constants));
  const output = spec.output ?? 'module';
  if (shader.output !== output) fail('output', JSON.stringify(shader.output), JSON.stringify(output));
  const layout = spec.vertexLayout;
  for (const input of shader.vertexInputs) {
    if (input.location < 0) continue; // vertex-pulled: read from a storage buffer
    const buffer = shader.vertexBuffers[input.buffer];
    const attribute = [...buffer.attributes].find((a) => a.shaderLocation === input.location)!;
    const field = `vertexInputs "${input.semantic}"`;
    if (layout?.kind === 'buffers') {
      const index = shader.vertexBufferSources[input.buffer];
      const given = layout.buffers[index];
      const wanted = given?.attributes.find((a) => a.semantic === input.semantic);
      if (!given || !wanted)
        fail(field, `fed by vertex buffer ${index}`, `it in a buffer of the layout (${describeSpec(spec)})`);
      const got = `${attribute.format} at offset ${attribute.offset}, stride ${buffer.arrayStride}, per ${buffer.stepMode}`;
      const expected = `${wanted!.format} at offset ${wanted!.offset}, stride ${given!.arrayStride}, per ${given!.stepMode ?? 'vertex'}`;
      if (got !== expected) fail(field, got, expected);
    } else if (layout?.kind === 'tight' && layout.formats?.[input.semantic] !== undefined) {
      if (attribute.format !== layout.formats[input.semantic])
        fail(field, attribute.format, layout.formats[input.semantic]);
    }
  }
  const own = layoutKeyOf(shader, spec);
  if (shader.key !== own) fail('key', shader.key, `${own} (the key of its code and layouts)`);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function describeSpec(spec: ComposeSpec): string {
  const ids = Array.isArray(spec.fragments) ? spec.fragments.map((f) => f?.id).join(', ') : '?';
  const conditions = Object.keys(spec.conditions ?? {}).filter((c) => spec.conditions?.[c]);
  const layout = spec.vertexLayout?.kind === 'buffers' ? spec.vertexLayout.buffers : [];
  const buffers = layout.map((b) => b.attributes.map((a) => `${a.semantic}:${a.format}`).join('+')).join(', ');
  return `fragments [${ids}], conditions [${conditions.join(', ')}]${buffers ? `, vertex buffers [${buffers}]` : ''}`;
}

/**
 * The table's shader for this cache key (frozen, without a source map), or undefined when the table has none and the
 * linker can compose it. Without the linker a miss is an error that names the key, the spec and how to add it.
 * @throws {ComposeError} `not-precomposed` on a miss in a build without the linker
 * @internal
 */
export function findPrecomposedShader(
  api: string,
  table: PrecomposedShaders | null,
  cacheKey: string,
  spec: ComposeSpec,
  linkerAvailable: boolean,
): ComposedShader | undefined {
  const key = precomposedKeyOf(cacheKey);
  const entry = table && Object.hasOwn(table.shaders, key) ? table.shaders[key] : undefined;
  if (entry) {
    checkEntryAgainstSpec(api, key, entry, spec);
    return deepFreeze(structuredClone(entry.shader)) as ComposedShader;
  }
  if (linkerAvailable) return undefined;
  const ids = Array.isArray(spec.fragments) ? spec.fragments.map((f) => String(f?.id)) : [];
  const known = table ? Object.values(table.shaders).map((e) => e.name) : [];
  throw new ComposeError(
    api,
    'not-precomposed',
    ids,
    `no precomposed shader has key ${key} (${describeSpec(spec)}), and this page was built without the run-time linker (weft-gpu/vite). ` +
      (table
        ? `The table holds ${known.length ? known.join(', ') : 'no variants'}. `
        : 'No table was given to this engine: call usePrecomposedShaders(engine, precomposed) with the default export of virtual:weft-variants before drawing. ') +
      "Declare the variant in weftVariants({ variants: […] }) (a name from weft-gpu/variants, or a mesh with meshVariants(…)), or keep the linker for misses with weftVariants({ linker: 'keep' }).",
  );
}
