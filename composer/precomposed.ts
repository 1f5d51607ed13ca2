// Shaders composed at build time (weft-gpu/vite), looked up by the key the compose cache gives a spec. No wesl here:
// a page that takes every shader from a table never links.
import { describeValue } from '../core/errors.js';
import type { ComposedShader, ComposeSpec } from './compose-shader.js';
import { ComposeError } from './errors.js';
import { fnv1a64 } from './hash.js';

/** @internal The format tag of a precomposed table; a table of another format is refused. */
export const precomposedFormat = 'weft-precomposed/1';

/** A composed shader as plain data: every field of `ComposedShader` but the source map (which is not data). */
export type PrecomposedShaderData = Omit<ComposedShader, 'sourceMap'>;

/** One precomposed variant: the name it was declared under and its shader. */
export interface PrecomposedEntry {
  readonly name: string;
  readonly shader: PrecomposedShaderData;
}

/** Shaders composed at build time, by spec key (`composeSpecKey`). Plain data: `virtual:weft-variants` exports one. */
export interface PrecomposedShaders {
  readonly format: 'weft-precomposed/1';
  readonly shaders: Readonly<Record<string, PrecomposedEntry>>;
}

/** Where a compose cache finds its table; an engine holds one and sets `table` (see `usePrecomposedShaders`). */
export interface PrecomposedSource {
  table: PrecomposedShaders | null;
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

/**
 * Checks that `table` is a precomposed table (format tag and entry shape) and returns it.
 * @throws {ComposeError} `bad-precomposed-table` naming what is wrong
 * @internal
 */
export function checkPrecomposedShaders(api: string, table: unknown): PrecomposedShaders {
  const bad = (what: string) =>
    new ComposeError(
      api,
      'bad-precomposed-table',
      [],
      `${what}; pass the default export of 'virtual:weft-variants' (the weftVariants() plugin of weft-gpu/vite)`,
    );
  const record = table as Partial<PrecomposedShaders> | null;
  if (!record || typeof record !== 'object') throw bad(`table ${describeValue(table)} is not an object`);
  if (record.format !== precomposedFormat)
    throw bad(`table format ${describeValue(record.format)} is not ${JSON.stringify(precomposedFormat)}`);
  if (!record.shaders || typeof record.shaders !== 'object') throw bad('table.shaders is not an object');
  for (const [key, entry] of Object.entries(record.shaders))
    if (typeof entry?.name !== 'string' || typeof entry.shader?.code !== 'string')
      throw bad(`table.shaders[${JSON.stringify(key)}] is not { name, shader }`);
  return record as PrecomposedShaders;
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
  const entry = table?.shaders[key];
  if (entry) return deepFreeze(structuredClone(entry.shader)) as ComposedShader;
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
