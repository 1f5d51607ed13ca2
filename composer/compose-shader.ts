import type { Fragment } from '../fragments/fragment-types.js';
import { type BindingPolicy, canonicalBindingPolicy, resolveBindingPolicy } from './binding-policy.js';
import { assignBindings, type ComposedBindGroup } from './bindings.js';
import { canonicalConditions, type Conditions } from './conditions.js';
import { describeValue } from '../core/errors.js';
import { checkOptionKeys } from '../core/options.js';
import { ComposeError } from './errors.js';
import { checkDeviceFeatures, type ComposedFeature, collectFeatures, enableOfFeature } from './features.js';
import { orderFragments } from './fragment-graph.js';
import { type GeneratedModule, makeModuleWriter } from './generated-module.js';
import { fnv1a64, stableStringify } from './hash.js';
import { getLiveRecord, liveSpec } from './live-hooks.js';
import { type LinkRegistry, type LinkResult, linkerAvailable, linkFragments, makeLinkRegistry } from './link.js';
import { findPrecomposedShader, type PrecomposedSource } from './precomposed.js';
import type { OutputMode } from './output-mode.js';
import { type ComposedSlot, resolveSlots, type StageFunction } from './slots.js';
import { assignStageIo, type ComposedTarget, type ComposedVarying } from './stage-io.js';
import {
  assignVertexInputs,
  canonicalVertexLayout,
  type ComposedVertexInput,
  type VertexLayoutSpec,
} from './vertex-layout.js';
import { applyVertexPulling, type VertexPullingSpec, vertexPullingFragmentId } from './vertex-pulling.js';
import { isWgslIdentifier } from './wgsl-names.js';
import { makeLibraryResourceLayouts, makeWgslBufferLayouts } from './uniform-layout.js';
import type { BufferLayout } from './uniform-layout-types.js';

const api = 'composeShader';

/** What to compose: the fragments (any order) and the inputs that select a variant. */
export interface ComposeSpec {
  fragments: readonly Fragment[];
  /** wesl `@if` conditions, also used by the fragments' `when` fields. Part of the key. */
  conditions?: Conditions;
  /**
   * Values fragments read with `import constants::NAME;` (`const NAME = value;`). Part of the key. A number is written
   * as JavaScript prints it (finite; integers within ±2^63); a string must be one WGSL literal (see `isWgslLiteralText`:
   * true/false, an optionally negated integer or float literal) — anything else is refused at compose time.
   */
  constants?: Readonly<Record<string, number | string>>;
  /** Default `{ kind: 'tight' }`. */
  vertexLayout?: VertexLayoutSpec;
  /** Where each role's `@group` goes and the first `@binding` (see `BindingPolicy`). Part of the key when not the default. */
  bindings?: BindingPolicy;
  /**
   * `'module'` (default): one WGSL module with `@vertex`/`@fragment` entry points and `@group/@binding` declarations.
   * `'library'`: the linked structs and functions only, for a host that owns its entry points and bindings: no entry
   * points, no `@group/@binding`, no `enable` (see `features`), stage I/O structs without `@location/@builtin`. The
   * stage functions `weftVertex(input, …resources)` / `weftFragment(input, …resources)` take each uniform the stage
   * reads as a value, in `stageResources` order. Part of the key.
   */
  output?: ComposeOutput;
  /** When given (e.g. `device.features`), a required feature the device lacks is a `missing-feature` error. Not part of the key. */
  /**
   * Reads the per-vertex inputs from read-only storage buffers (the caller binds each vertex buffer as
   * `pulledVertices<i>` and the index buffer as `pulledIndices`) and draws NON-indexed: `input.vertexIndex` is the
   * mesh vertex an indexed draw would run, `input.drawVertexIndex` the draw's own (`/ 3` = triangle). Part of the key.
   */
  vertexPulling?: VertexPullingSpec;
  deviceFeatures?: {
    /** Whether the device has `feature` (a `GPUSupportedFeatures` or any `Set<string>` fits). */
    has(feature: string): boolean;
  };
}

/** What `composeShader` emits: a whole module or a library of functions (see `ComposeSpec.output`). */
export type ComposeOutput = 'module' | 'library';

/** Maps device diagnostics of a composed shader back to fragment sources (opaque; see compile-errors.ts). */
export type ComposedSourceMap = Pick<LinkResult, 'linked' | 'sources'>;

/** The result of `composeShader`: one WGSL module holding both entry points, plus everything a pipeline needs. Frozen. */
export interface ComposedShader {
  /** FNV-1a 64 (hex) of the code and every layout below: equal keys mean interchangeable shaders. */
  key: string;
  code: string;
  /** `'library'`: `code` has no entry points; call `vertexEntryPoint` / `fragmentEntryPoint` from your own. */
  output: ComposeOutput;
  /** In a library, the name of the vertex stage function (`weftVertex`). */
  vertexEntryPoint: string;
  /** null when no fragment fills `fragmentStage` (e.g. a depth-only pass). In a library: `weftFragment`. */
  fragmentEntryPoint: string | null;
  /** In a library: the binding names each stage function takes after `input`, in order. null for a module. */
  stageResources: { readonly vertex: readonly string[]; readonly fragment: readonly string[] } | null;
  /** Index = @group (also in a library, where it says which role is where); a role absent from the variant leaves an empty group (entries: []) below the last used one. */
  bindGroups: readonly ComposedBindGroup[];
  vertexInputs: readonly ComposedVertexInput[];
  /**
   * Ready for `vertex.buffers`; slot i is fed by the caller's buffer `vertexBufferSources[i]`. Frozen like the rest;
   * typed as a plain array because TypeScript 7's own WebGPU types take `vertex.buffers` as a mutable array.
   */
  vertexBuffers: GPUVertexBufferLayout[];
  vertexBufferSources: readonly number[];
  varyings: readonly ComposedVarying[];
  /** Colour outputs by location: `fragment.targets[i]` should use `targets[i].format`. */
  targets: readonly ComposedTarget[];
  features: readonly ComposedFeature[];
  slots: readonly ComposedSlot[];
  /** Fragment ids in composition order (dependencies first, ties by id). */
  fragments: readonly string[];
  /** The true conditions, sorted. */
  conditions: Readonly<Record<string, boolean>>;
  constants: Readonly<Record<string, number | string>>;
  /**
   * The struct layout of every uniform / storage binding, by binding name (offsets, sizes, alignments, strides per the
   * WGSL rules): write them with `setUniforms`. Derived from `code`, so not a separate part of the key. For a library
   * (`output: 'library'`) these are the stage resources' structs the host fills and passes to `weftVertex` /
   * `weftFragment` (same offsets as the module's; `group` / `binding` null, as the library declares none).
   */
  bufferLayouts: Readonly<Record<string, BufferLayout>>;
  /** Absent for a shader taken from a precomposed table: device messages then point into `code` (`weft:code`). */
  sourceMap?: ComposedSourceMap;
}

/** Counters of a compose cache: how often `composeShader` ran, hit, linked, parsed. */
export interface ComposeCounters {
  composes: number;
  hits: number;
  links: number;
  parses: number;
}

/** Results by canonical spec, plus the parsed-module registry used by misses. Make one per app (or per test). */
export interface ComposeCache {
  readonly registry: LinkRegistry;
  readonly results: Map<string, ComposedShader>;
  /** Digests this cache computed, by fragment (informational: digests are memoised per fragment object, see composeShader). */
  readonly digests: WeakMap<Fragment, string>;
  readonly maxResults: number;
  readonly counters: { composes: number; hits: number };
  /** Build-time shaders looked up on a miss, before linking (see `usePrecomposedShaders`). */
  readonly precomposed: PrecomposedSource | null;
  /** The table generation `results` were looked up in: a new generation clears them. */
  readonly seen: { generation: number };
}

/** Makes a compose cache. `maxResults: 0` keeps only parsed modules (every compose re-links). */
export function makeComposeCache(
  options: { maxResults?: number; maxModules?: number; precomposed?: PrecomposedSource | null } = {},
): ComposeCache {
  checkOptionKeys(
    'makeComposeCache',
    options,
    ['maxResults', 'maxModules', 'precomposed'],
    (api, message) => new ComposeError(api, 'bad-option', [], message),
  );
  return {
    registry: makeLinkRegistry(options.maxModules ?? 512),
    results: new Map(),
    digests: new WeakMap(),
    maxResults: options.maxResults ?? 256,
    counters: { composes: 0, hits: 0 },
    precomposed: options.precomposed ?? null,
    seen: { generation: options.precomposed?.generation ?? 0 },
  };
}

/** A snapshot of the cache's counters (links and parses come from its registry). */
export function getComposeCounters(cache: ComposeCache): ComposeCounters {
  return { ...cache.counters, links: cache.registry.counters.links, parses: cache.registry.counters.parses };
}

/** A fragment's digest and the top-level field values it was computed from (compared by identity on every compose). */
interface FragmentMemo {
  keys: string[];
  values: unknown[];
  digest: string;
}

let fragmentMemoMap: WeakMap<object, FragmentMemo> | undefined;

// Created on first use: a module-level `new WeakMap()` would be a side effect at import.
function fragmentMemos(): WeakMap<object, FragmentMemo> {
  fragmentMemoMap ??= new WeakMap();
  return fragmentMemoMap;
}

function sameFields(memo: FragmentMemo, fragment: Fragment): boolean {
  let i = 0;
  for (const key in fragment) {
    if (memo.keys[i] !== key || memo.values[i] !== (fragment as unknown as Record<string, unknown>)[key]) return false;
    i++;
  }
  return i === memo.keys.length;
}

/**
 * A fragment's content digest (`id:fnv1a64(stableStringify(fragment))`), memoised per fragment object together with
 * its top-level field values. Each compose re-checks those values by identity (a few pointer compares, no hashing),
 * so editing `source` — or replacing any other field (`outputs`, `bindings`, …) — in place re-digests and misses.
 * Nested in-place edits (`fragment.outputs[0].format = …`) are not seen: replace the field or the fragment instead.
 */
function fragmentDigest(cache: ComposeCache, fragment: Fragment): string {
  if (!fragment || typeof fragment !== 'object')
    return `${String((fragment as Fragment)?.id)}:${fnv1a64(stableStringify(fragment))}`;
  const memo = fragmentMemos().get(fragment);
  if (memo && sameFields(memo, fragment)) return memo.digest;
  const record = fragment as unknown as Record<string, unknown>;
  const keys: string[] = [];
  for (const key in fragment) keys.push(key);
  const digest = `${String(fragment.id)}:${fnv1a64(stableStringify(fragment))}`;
  fragmentMemos().set(fragment, { keys, values: keys.map((k) => record[k]), digest });
  cache.digests.set(fragment, digest);
  return digest;
}

const i64Max = 2n ** 63n - 1n;

/**
 * True when `text` is a WGSL literal a constant may hold, optionally negated: `true`/`false`; a decimal or hex integer
 * (`7`, `0x1F`, with an `i`/`u` suffix in the i32/u32 range, unsuffixed in the i64 range); a decimal float (`1.5`,
 * `.5`, `2.`, `1e3`, `1.5e-3`, optional `f`); a hex float (`0x1.8p1`, optional `f`). No `h` suffix (it needs
 * `enable f16`; an abstract float converts to f16), no expressions, calls or names: those belong in a fragment, where
 * the device reports them at their line.
 */
function isWgslLiteralText(text: string): boolean {
  if (text === 'true' || text === 'false') return true;
  const negative = text.startsWith('-');
  const body = negative ? text.slice(1) : text;
  const int = /^(0|[1-9][0-9]*|0[xX][0-9a-fA-F]+)([iu]?)$/.exec(body);
  if (int) {
    const value = BigInt(negative ? `-${int[1]}` : int[1]);
    if (int[2] === 'u') return !negative && value <= 0xffffffffn;
    if (int[2] === 'i') return value >= -(2n ** 31n) && value <= 2n ** 31n - 1n;
    return value >= -i64Max - 1n && value <= i64Max;
  }
  return (
    /^(([0-9]*\.[0-9]+|[0-9]+\.[0-9]*)([eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+)f?$/.test(body) ||
    /^(0|[1-9][0-9]*)f$/.test(body) ||
    /^0[xX](([0-9a-fA-F]*\.[0-9a-fA-F]+|[0-9a-fA-F]+\.[0-9a-fA-F]*)([pP][+-]?[0-9]+f?)?|[0-9a-fA-F]+[pP][+-]?[0-9]+f?)$/.test(
      body,
    )
  );
}

/** A number a constant may hold: finite, and when written as an integer, in WGSL's abstract-int (i64) range. */
function isConstantNumber(value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const text = String(value);
  return !/^-?[0-9]+$/.test(text) || isWgslLiteralText(text);
}

function checkSpec(spec: ComposeSpec): void {
  if (!spec || typeof spec !== 'object')
    throw new ComposeError(api, 'invalid-spec', [], `spec ${describeValue(spec)} must be an object with fragments`);
  if (spec.output !== undefined && spec.output !== 'module' && spec.output !== 'library')
    throw new ComposeError(
      api,
      'invalid-spec',
      [],
      `output ${describeValue(spec.output)} must be "module" or "library"`,
    );
  resolveBindingPolicy(api, spec.bindings);
  for (const [name, value] of Object.entries(spec.conditions ?? {})) {
    if (!isWgslIdentifier(name) || typeof value !== 'boolean')
      throw new ComposeError(
        api,
        'invalid-spec',
        [],
        `condition ${describeValue(name)} = ${describeValue(value)}: conditions map WGSL identifiers to booleans`,
      );
  }
  for (const [name, value] of Object.entries(spec.constants ?? {})) {
    const ok =
      (typeof value === 'number' && isConstantNumber(value)) || (typeof value === 'string' && isWgslLiteralText(value));
    if (!isWgslIdentifier(name) || !ok)
      throw new ComposeError(
        api,
        'invalid-spec',
        [],
        `constant ${describeValue(name)} = ${describeValue(value)}: constants map WGSL identifiers to finite numbers (integers within ±2^63) or strings holding one WGSL literal: true, false, an optionally negated integer (7, 0x1F, 7u, -7i) or float (1.5, .5, 1e3, 1.5e-3f, 0x1.8p1)`,
      );
  }
}

function constantsModule(constants: Readonly<Record<string, number | string>>): GeneratedModule {
  const w = makeModuleWriter('constants');
  for (const name of Object.keys(constants).sort()) w.line(`const ${name} = ${constants[name]};`);
  return w.done();
}

type StageResources = { vertex: ComposedBindGroup['bindings']; fragment: ComposedBindGroup['bindings'] };

/** Resources per stage of a library: the bindings the stage sees, by group then binding. */
function stageResourcesOf(groups: readonly ComposedBindGroup[]): StageResources {
  const of = (bit: number) =>
    groups.flatMap((g) => g.bindings.filter((_b, i) => (g.entries[i].visibility & bit) !== 0));
  return { vertex: of(1), fragment: of(2) };
}

/** The library's stage functions: copy each resource value into its private global, then run the stage. */
function libraryRootModule(
  vertex: StageFunction,
  fragment: StageFunction | null,
  hasOutputs: boolean,
  resources: StageResources,
): GeneratedModule {
  const w = makeModuleWriter('weft_main');
  const stage = (name: string, input: string, output: string, fn: StageFunction, list: StageResources['vertex']) => {
    const params = [`input: io::${input}`, ...list.map((b) => `${b.name}Value: ${b.wgslType}`)];
    w.line(`fn ${name}(${params.join(', ')})${output ? ` -> io::${output}` : ''} {`);
    for (const b of list) w.line(`  bindings::${b.name} = ${b.name}Value;`, b.fragments[0]);
    w.line(`  ${output ? 'return ' : ''}${fn.path}(input);`, fn.fragment);
    w.line('}');
  };
  stage('weftVertex', 'VertexInput', 'VertexOutput', vertex, resources.vertex);
  if (fragment) {
    w.line('');
    stage('weftFragment', 'FragmentInput', hasOutputs ? 'FragmentOutput' : '', fragment, resources.fragment);
  }
  return w.done();
}

function rootModule(
  features: readonly ComposedFeature[],
  vertex: StageFunction,
  fragment: StageFunction | null,
  hasOutputs: boolean,
  mode: OutputMode,
): GeneratedModule {
  const w = makeModuleWriter('weft_main');
  const enables = [...new Set(features.map((f) => enableOfFeature[f.feature]).filter(Boolean))].sort();
  if (enables.length) {
    w.line(`enable ${enables.join(', ')};`);
    w.line('');
  }
  w.line('@vertex');
  if (mode.pulled) {
    const pull = `package::${vertexPullingFragmentId.replaceAll('-', '_')}`;
    w.line('fn vertexMain(pulled: io::PulledVertexInput) -> io::VertexOutput {');
    w.line(`  return ${vertex.path}(${pull}::pullVertexInput(pulled));`, vertex.fragment);
  } else {
    w.line('fn vertexMain(input: io::VertexInput) -> io::VertexOutput {');
    w.line(`  return ${vertex.path}(input);`, vertex.fragment);
  }
  w.line('}');
  if (fragment) {
    w.line('');
    w.line('@fragment');
    w.line(`fn fragmentMain(input: io::FragmentInput)${hasOutputs ? ' -> io::FragmentOutput' : ''} {`);
    w.line(`  ${hasOutputs ? 'return ' : ''}${fragment.path}(input);`, fragment.fragment);
    w.line('}');
  }
  return w.done();
}

/** Without the linker (and without a key to report), the stand-in's linkFragments says why. */
function linkFragmentsMissing(spec: ComposeSpec): never {
  return linkFragments(
    api,
    makeLinkRegistry(0),
    spec.fragments ?? [],
    [],
    { name: 'weft_main', text: '' } as GeneratedModule,
    {},
  ) as never;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function composeUncached(spec: ComposeSpec, registry: LinkRegistry): ComposedShader {
  const conditions = canonicalConditions(spec.conditions);
  const constants: Record<string, number | string> = {};
  for (const name of Object.keys(spec.constants ?? {}).sort()) constants[name] = spec.constants![name];
  const { ordered: given } = orderFragments(api, spec.fragments);
  const library = spec.output === 'library';
  const policy = resolveBindingPolicy(api, spec.bindings);
  let vertex = assignVertexInputs(api, given, conditions, spec.vertexLayout ?? { kind: 'tight' });
  let ordered = given;
  if (spec.vertexPulling !== undefined) {
    const pulling = applyVertexPulling(api, vertex, spec.vertexPulling);
    vertex = pulling.layout;
    // Composer-made (it holds no @location): appended after the graph's own checks, which it needs none of.
    ordered = [...given, pulling.fragment];
  }
  const mode: OutputMode = { library, pulled: spec.vertexPulling !== undefined };
  const bindings = assignBindings(api, ordered, conditions, policy, library ? 'private' : 'binding');
  const io = assignStageIo(api, ordered, conditions, vertex.inputs, mode);
  const slots = resolveSlots(api, ordered, io.targets.length > 0, conditions);
  const features = collectFeatures(api, ordered, conditions, io.builtins);
  const resources = library ? stageResourcesOf(bindings.groups) : null;
  const root = resources
    ? libraryRootModule(slots.vertexStage, slots.fragmentStage, io.targets.length > 0, resources)
    : rootModule(features, slots.vertexStage, slots.fragmentStage, io.targets.length > 0, mode);
  const generated = [bindings.module, io.module, slots.module, constantsModule(constants)];
  const linked = linkFragments(api, registry, ordered, generated, root, conditions);
  const layout = {
    code: linked.code,
    ...(library ? { output: 'library' } : {}),
    ...(policy.isDefault ? {} : { bindingPolicy: canonicalBindingPolicy(policy) }),
    vertexEntryPoint: library ? 'weftVertex' : 'vertexMain',
    fragmentEntryPoint: slots.fragmentStage ? (library ? 'weftFragment' : 'fragmentMain') : null,
    bindGroups: bindings.groups.map((g) => g.entries),
    vertexBuffers: vertex.buffers,
    targets: io.targets.map((t) => [t.location, t.format]),
    features: features.map((f) => f.feature),
  };
  const composed: ComposedShader = {
    key: fnv1a64(stableStringify(layout)),
    code: linked.code,
    output: library ? 'library' : 'module',
    vertexEntryPoint: layout.vertexEntryPoint,
    fragmentEntryPoint: layout.fragmentEntryPoint,
    stageResources: resources
      ? {
          vertex: resources.vertex.map((b) => b.name),
          fragment: slots.fragmentStage ? resources.fragment.map((b) => b.name) : [],
        }
      : null,
    bindGroups: bindings.groups,
    vertexInputs: vertex.inputs,
    vertexBuffers: vertex.buffers,
    vertexBufferSources: vertex.sources,
    varyings: io.varyings,
    targets: io.targets,
    features,
    slots: slots.slots,
    fragments: ordered.map((f) => f.id),
    conditions,
    constants,
    // A library's resources are values the host fills: their layouts are what it needs most.
    bufferLayouts: resources
      ? makeLibraryResourceLayouts(
          linked.code,
          bindings.groups.flatMap((g) => g.bindings.map((b) => b.name)),
        )
      : makeWgslBufferLayouts(linked.code, { skipInvalid: true }),
    sourceMap: { linked: linked.linked, sources: linked.sources },
  };
  const { sourceMap, ...data } = composed;
  deepFreeze(data);
  return Object.freeze({ ...data, sourceMap }) as ComposedShader;
}

/**
 * The compose cache's key of a spec: fragment digests (sorted), the true conditions, constants and the canonical
 * vertex layout. A precomposed table is keyed by its hash (`precomposedKeyOf`).
 * @throws {ComposeError} `invalid-spec` when the spec has no fragments array or bad conditions or constants
 */
export function composeSpecKey(spec: ComposeSpec, cache: ComposeCache = makeComposeCache({ maxResults: 0 })): string {
  checkSpec(spec);
  if (!Array.isArray(spec.fragments))
    throw new ComposeError(
      'composeSpecKey',
      'invalid-spec',
      [],
      `spec.fragments ${describeValue(spec.fragments)} must be an array of fragments`,
    );
  return specKey(spec, cache);
}

function specKey(spec: ComposeSpec, cache: ComposeCache): string {
  return stableStringify({
    fragments: spec.fragments.map((f) => fragmentDigest(cache, f)).sort(),
    conditions: canonicalConditions(spec.conditions),
    constants: spec.constants ?? {},
    vertexLayout: canonicalVertexLayout(spec.vertexLayout),
    vertexPulling: spec.vertexPulling ?? null,
    ...(spec.output === 'library' ? { output: 'library' } : {}),
    ...(spec.bindings !== undefined ? { bindings: spec.bindings } : {}),
  });
}

/**
 * Links the fragments into one WGSL module (wesl 0.7.31, synchronous) and returns code, layouts and a key.
 * Pure: the same spec gives byte-identical output in any process and any fragment order. With a cache, a spec
 * seen before returns the earlier result without linking; parsed modules are reused across specs. Fragments are keyed
 * by content: a digest memoised per fragment object and re-made when any top-level field (`source`, `outputs`, …) is
 * no longer the same value, so a fragment edited in place by assignment is composed afresh (nested in-place edits,
 * e.g. `outputs[0].format = …`, are not detected: assign a new array or use a new fragment object). A cache made with
 * a precomposed table (`makeComposeCache({ precomposed })`) answers a miss from the table before linking; in a build
 * without the linker (weft-gpu/vite) a spec the table lacks is a `not-precomposed` ComposeError naming its key.
 * @throws {ComposeError} when the fragments or spec are invalid: duplicate id, unknown dependency, cycle, slot or binding clash, bad vertex format, missing feature, link error (`fragmentIds` names the fragments)
 * A buffer binding whose type cannot be laid out (not host-shareable: invalid WGSL) has no entry in `bufferLayouts`;
 * the device reports it when the module compiles, at the fragment's own line.
 */
export function composeShader(
  spec: ComposeSpec,
  cache: ComposeCache = makeComposeCache({ maxResults: 0 }),
): ComposedShader {
  checkSpec(spec);
  const live = getLiveRecord();
  if (live) spec = liveSpec(live, spec);
  cache.counters.composes++;
  let composed: ComposedShader | undefined;
  let key: string | null = null;
  const source = cache.precomposed;
  const table = source?.table ?? null;
  if (source) {
    if (source.refused) throw source.refused;
    // A replaced or removed table evicts what this cache looked up in the old one.
    if (cache.seen.generation !== (source.generation ?? 0)) {
      cache.results.clear();
      cache.seen.generation = source.generation ?? 0;
    }
  }
  if ((cache.maxResults > 0 || table || !linkerAvailable) && Array.isArray(spec.fragments)) {
    key = specKey(spec, cache);
    composed = cache.results.get(key);
    if (composed) {
      cache.counters.hits++;
      cache.results.delete(key);
      cache.results.set(key, composed);
    }
  }
  if (!composed) {
    composed = key !== null ? findPrecomposedShader(api, table, key, spec, linkerAvailable) : undefined;
    // A constant of the linker module: a build without the linker drops composeUncached and every step it calls.
    if (!composed) composed = linkerAvailable ? composeUncached(spec, cache.registry) : linkFragmentsMissing(spec);
    if (key !== null && cache.maxResults > 0) {
      cache.results.set(key, composed);
      if (cache.results.size > cache.maxResults) cache.results.delete(cache.results.keys().next().value!);
    }
  }
  if (spec.deviceFeatures) checkDeviceFeatures(api, composed.features, spec.deviceFeatures);
  live?.specs.set(composed, spec);
  return composed;
}
