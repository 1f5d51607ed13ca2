/**
 * Seeded mutations of weft's registered variants: how many mistakes `composeShader` refuses before any GPU call,
 * and whether the refusal names the right fragment and place (source line, or key path for a declaration key).
 *
 * Each mutation kind is a function from (fragment, rng) to a mutated fragment plus what a good error should name; a
 * kind returns null where it does not apply to a fragment. Add kinds (e.g. typos inside WGSL bodies) to `kinds`.
 * Mutants that compose are checked by naga (`checkWgslAsync`, no GPU): an error there is caught before the GPU too. With
 * --gpu, the rest are compiled on Dawn: an error there is "GPU only", none is "missed".
 *
 * Run: npx tsx bench/compose-mutations.ts [mutations=500] [--seed=1] [--gpu]  (WEFT_MUTATION_SAMPLES=n lists up to n misses; 40)
 */
import {
  ComposeError,
  type ComposedShader,
  type ComposeSpec,
  checkWgslAsync,
  composeShader,
  makeComposeCache,
} from '../composer/index.js';
import type { Fragment, SlotDecl } from '../fragments/fragment-types.js';
import { listVariants, makeWeftVariantRegistry } from '../index.js';
import { makeRandom } from '../test/support/random.js';
import { printTable } from './bench-timing.js';
import { wgslKeywords } from './wgsl-keywords.js';

type Rng = () => number;

/** What a good error for a mutant names: the fragment, and the source line (or, for a declaration, a text). */
interface Expected {
  fragmentId: string;
  /** 1-based line in the fragment's source, or null when the mistake is in the declaration (plain data). */
  line: number | null;
  /** Text the message must contain to point at the place, when `line` is null (e.g. the key path `fills[0].fnn`). */
  text?: string;
  /**
   * For a renamed identifier: its old name. A line that still uses it (in any fragment) is a right place too: renaming a
   * declaration is an error only where the old name is used, and that is where every compiler reports it.
   */
  renamed?: string;
}

interface Mutant {
  fragment: Fragment;
  expected: Expected;
  what: string;
}

interface MutationKind {
  name: string;
  mutate(fragment: Fragment, rng: Rng): Mutant | null;
}

const pick = <T>(items: readonly T[], rng: Rng): T => items[Math.floor(rng() * items.length)];

/** One keyboard slip: swap two neighbours, drop, double or replace a letter. Never returns the word itself. */
function typo(word: string, rng: Rng): string {
  for (;;) {
    const i = Math.floor(rng() * word.length);
    const slip = Math.floor(rng() * 4);
    let out = word;
    if (slip === 0 && i + 1 < word.length) out = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    else if (slip === 1 && word.length > 2) out = word.slice(0, i) + word.slice(i + 1);
    else if (slip === 2) out = word.slice(0, i + 1) + word.slice(i);
    else if (slip === 3) out = word.slice(0, i) + pick([...'abcdefghijklmnopqrstuvwxyz'], rng) + word.slice(i + 1);
    if (out !== word) return out;
  }
}

/** Every declaration key of a fragment as a path of property names / indices (top level, list items, slot params). */
function keyPaths(fragment: Fragment): (string | number)[][] {
  const paths: (string | number)[][] = [];
  const record = fragment as unknown as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    paths.push([key]);
    const list = record[key];
    if (!Array.isArray(list) || key === 'imports' || key === 'dependencies') continue;
    list.forEach((item, i) => {
      if (!item || typeof item !== 'object') return;
      for (const k of Object.keys(item)) {
        paths.push([key, i, k]);
        const params = (item as { params?: unknown }).params;
        if (k === 'params' && Array.isArray(params))
          params.forEach((p, j) => {
            for (const pk of Object.keys(p)) paths.push([key, i, k, j, pk]);
          });
      }
    });
  }
  return paths;
}

/** A copy of `value` with the key at `path` renamed (copies only along the path; the rest is shared). */
function renameKey(value: unknown, path: readonly (string | number)[], to: string): unknown {
  if (Array.isArray(value)) return value.map((v, i) => (i === path[0] ? renameKey(v, path.slice(1), to) : v));
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) {
    if (k !== path[0]) out[k] = v;
    else if (path.length === 1) out[to] = v;
    else out[k] = renameKey(v, path.slice(1), to);
  }
  return out;
}

function pathText(path: readonly (string | number)[], last: string): string {
  return [...path.slice(0, -1), last].map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');
}

/** A function header found by a plain regex (independent of the composer's own reader). */
interface Header {
  start: number;
  line: number;
  paramsStart: number;
  paramsEnd: number;
  /** Offset of the text between `)` and `{`. */
  tailStart: number;
  tailEnd: number;
}

function findHeader(source: string, fn: string): Header | null {
  const m = new RegExp(`(^|[^\\w])fn\\s+${fn}\\s*\\(`, 'm').exec(source);
  if (!m) return null;
  const start = m.index + m[1].length;
  const paramsStart = m.index + m[0].length;
  let depth = 1;
  let i = paramsStart;
  for (; depth > 0 && i < source.length; i++) depth += source[i] === '(' ? 1 : source[i] === ')' ? -1 : 0;
  const tailEnd = source.indexOf('{', i);
  return {
    start,
    line: source.slice(0, start).split('\n').length,
    paramsStart,
    paramsEnd: i - 1,
    tailStart: i,
    tailEnd,
  };
}

/** A different type a careless author might write instead of `type`. */
function otherType(type: string, rng: Rng): string {
  const t = type.trim();
  const ptr = /^ptr\s*<\s*function\s*,\s*(.+)>$/.exec(t);
  if (ptr) return ptr[1].trim(); // the pointer forgotten
  const swaps: Record<string, string[]> = {
    f32: ['u32', 'i32', 'vec2f'],
    u32: ['i32', 'f32'],
    i32: ['u32', 'f32'],
    bool: ['u32', 'f32'],
    vec2f: ['vec3f', 'vec2u'],
    vec3f: ['vec4f', 'vec2f', 'vec3u'],
    vec4f: ['vec3f', 'vec4u'],
    vec4u: ['vec4f', 'vec3u'],
    mat4x4f: ['mat3x3f', 'mat4x3f'],
    VertexInput: ['VertexOutput', 'FragmentInput'],
    VertexOutput: ['VertexInput', 'FragmentInput'],
    FragmentInput: ['VertexOutput', 'FragmentOutput'],
    FragmentOutput: ['FragmentInput', 'vec4f'],
  };
  return pick(swaps[t] ?? ['vec4f', 'f32'], rng);
}

const declarationKeyTypo: MutationKind = {
  name: 'typo in a declaration key',
  mutate(fragment, rng) {
    const path = pick(keyPaths(fragment), rng);
    const key = path[path.length - 1] as string;
    const to = typo(key, rng);
    return {
      fragment: renameKey(fragment, path, to) as Fragment,
      // A misspelt `id` leaves a fragment without one: the message names it by position.
      expected: { fragmentId: key === 'id' ? '' : fragment.id, line: null, text: `${pathText(path, to)} is not a key` },
      what: `${pathText(path, key)} → ${to}`,
    };
  },
};

const fillFnTypo: MutationKind = {
  name: "typo in a slot fill's fn",
  mutate(fragment, rng) {
    const fills = fragment.fills ?? [];
    if (!fills.length) return null;
    const i = Math.floor(rng() * fills.length);
    const header = findHeader(fragment.source, fills[i].fn);
    if (!header) return null;
    let to = typo(fills[i].fn, rng);
    while (findHeader(fragment.source, to)) to = typo(fills[i].fn, rng); // a typo that names another function is not one
    return {
      fragment: { ...fragment, fills: fills.map((f, j) => (j === i ? { ...f, fn: to } : f)) },
      expected: { fragmentId: fragment.id, line: header.line },
      what: `fills[${i}].fn ${fills[i].fn} → ${to}`,
    };
  },
};

/** Splits a parameter list at top-level commas, keeping offsets. */
function paramRanges(source: string, from: number, to: number): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  let depth = 0;
  let start = from;
  for (let i = from; i <= to; i++) {
    const c = source[i];
    if (i === to || (c === ',' && depth === 0)) {
      if (source.slice(start, i).trim()) ranges.push({ start, end: i });
      start = i + 1;
    } else if (c === '<' || c === '(') depth++;
    else if (c === '>' || c === ')') depth--;
  }
  return ranges;
}

const fillerParamType: MutationKind = {
  name: 'wrong param type in a filler',
  mutate(fragment, rng) {
    const fills = (fragment.fills ?? []).filter((f) => findHeader(fragment.source, f.fn));
    if (!fills.length) return null;
    const fill = pick(fills, rng);
    const h = findHeader(fragment.source, fill.fn)!;
    const params = paramRanges(fragment.source, h.paramsStart, h.paramsEnd);
    if (!params.length) return null;
    const p = pick(params, rng);
    const text = fragment.source.slice(p.start, p.end);
    const colon = text.indexOf(':');
    const type = text.slice(colon + 1).replace(/\/\/[^\n]*/g, '');
    const to = otherType(type, rng);
    const source = `${fragment.source.slice(0, p.start + colon + 1)} ${to}${fragment.source.slice(p.end)}`;
    return {
      fragment: { ...fragment, source },
      expected: { fragmentId: fragment.id, line: h.line },
      what: `${fill.fn}(${text.slice(0, colon).trim()}: ${type.trim()} → ${to})`,
    };
  },
};

const fillerReturnType: MutationKind = {
  name: 'wrong return type in a filler',
  mutate(fragment, rng) {
    const fills = (fragment.fills ?? []).filter((f) => findHeader(fragment.source, f.fn));
    if (!fills.length) return null;
    const fill = pick(fills, rng);
    const h = findHeader(fragment.source, fill.fn)!;
    const tail = fragment.source.slice(h.tailStart, h.tailEnd);
    const arrow = /->\s*(.+?)\s*$/s.exec(tail);
    let to: string;
    if (!arrow) to = ' -> f32 ';
    else if (rng() < 0.3) to = ' ';
    else to = ` -> ${otherType(arrow[1], rng)} `;
    const source = fragment.source.slice(0, h.tailStart) + to + fragment.source.slice(h.tailEnd);
    return {
      fragment: { ...fragment, source },
      expected: { fragmentId: fragment.id, line: h.line },
      what: `${fill.fn} ${arrow ? `-> ${arrow[1]}` : '(no return)'} →${to.trimEnd() || ' (no return)'}`,
    };
  },
};

const slotParamType: MutationKind = {
  name: 'wrong param/return type in a slot declaration',
  mutate(fragment, rng) {
    const provides = fragment.provides ?? [];
    const slots = provides.filter((s) => s.params.length || s.returns);
    if (!slots.length) return null;
    const slot = pick(slots, rng);
    const useReturn = slot.returns !== undefined && (!slot.params.length || rng() < 0.3);
    let changed: SlotDecl;
    let what: string;
    if (useReturn) {
      changed = { ...slot, returns: otherType(slot.returns!, rng) };
      what = `${slot.name} returns ${slot.returns} → ${changed.returns}`;
    } else {
      const j = Math.floor(rng() * slot.params.length);
      const to = otherType(slot.params[j].type, rng);
      changed = { ...slot, params: slot.params.map((p, k) => (k === j ? { ...p, type: to } : p)) };
      what = `${slot.name}.params[${j}] ${slot.params[j].type} → ${to}`;
    }
    return {
      fragment: { ...fragment, provides: provides.map((s) => (s === slot ? changed : s)) },
      expected: { fragmentId: fragment.id, line: null, text: `slot "${slot.name}"` },
      what,
    };
  },
};

/** Keywords, wesl path roots, and scalar and builtin names a typo would turn into another error class. */
const wgslWords = new Set([...wgslKeywords, 'package', 'bindings', 'io', 'f32', 'u32', 'i32', 'f16', 'bool', 'select']);

const wgslIdentifierTypo: MutationKind = {
  name: 'typo in a WGSL identifier',
  mutate(fragment, rng) {
    const sites: { index: number; word: string }[] = [];
    for (const m of fragment.source.matchAll(/(?<![@\w.:])[A-Za-z_][A-Za-z0-9_]{2,}\b/g))
      if (
        !wgslWords.has(m[0]) &&
        !/^(vec|mat|texture)\d?/.test(m[0]) &&
        !/^\s*\/\//.test(lineAt(fragment.source, m.index))
      )
        sites.push({ index: m.index, word: m[0] });
    if (!sites.length) return null;
    const site = pick(sites, rng);
    let to = typo(site.word, rng);
    // A typo that spells another name of the source is not one.
    while (new RegExp(`\\b${to}\\b`).test(fragment.source)) to = typo(site.word, rng);
    const source = fragment.source.slice(0, site.index) + to + fragment.source.slice(site.index + site.word.length);
    const line = fragment.source.slice(0, site.index).split('\n').length;
    return {
      fragment: { ...fragment, source },
      expected: { fragmentId: fragment.id, line, renamed: site.word },
      what: `${fragment.id}:${line} ${site.word} → ${to}`,
    };
  },
};

function lineAt(source: string, index: number): string {
  return source.slice(source.lastIndexOf('\n', index - 1) + 1, index);
}

/** The mutation kinds; each run draws them in turn. */
const kinds: readonly MutationKind[] = [
  declarationKeyTypo,
  fillFnTypo,
  fillerParamType,
  fillerReturnType,
  slotParamType,
  wgslIdentifierTypo,
];

/** Whether a message's line is a right place for `expected`: the expected line, or a use of a renamed name. */
function atRightPlace(
  m: { fragmentId: string; line: number; origin?: string },
  expected: Expected,
  sources: ReadonlyMap<string, string>,
): boolean {
  if (m.fragmentId === expected.fragmentId && (expected.line === null || m.line === expected.line)) return true;
  if (!expected.renamed || m.origin) return false;
  const line = sources.get(m.fragmentId)?.split('\n')[m.line - 1] ?? '';
  return new RegExp(`\\b${expected.renamed}\\b`).test(line);
}

/** `no-effect`: the mutant composes to the very code of the unmutated variant (e.g. it edits an inactive `@if` branch). */
type Outcome =
  | 'named'
  | 'caught-elsewhere'
  | 'caught-unplaced'
  | 'wgsl-named'
  | 'wgsl-unplaced'
  | 'no-effect'
  | 'gpu-only'
  | 'missed'
  | 'crash';

/** What naga's check (no GPU) says of a mutant that composed: caught at the expected fragment (and line), elsewhere, or not. */
async function classifyWgsl(
  composed: ComposedShader,
  expected: Expected,
  sources: ReadonlyMap<string, string>,
): Promise<Outcome | null> {
  const errors = (await checkWgslAsync(composed)).filter((m) => m.type === 'error');
  if (!errors.length) return null;
  return errors.some((m) => atRightPlace(m, expected, sources)) ? 'wgsl-named' : 'wgsl-unplaced';
}

function classify(error: unknown, expected: Expected, sources: ReadonlyMap<string, string>): Outcome {
  if (!(error instanceof ComposeError)) return 'crash';
  if (expected.renamed && error.messages.length)
    return error.messages.some((m) => atRightPlace(m, expected, sources)) ? 'named' : 'caught-unplaced';
  const named = expected.fragmentId
    ? error.fragmentIds.includes(expected.fragmentId)
    : error.fragmentIds.length === 0 && error.message.includes('fragment at position');
  if (!named) return 'caught-elsewhere';
  const placed =
    expected.line === null
      ? error.message.includes(expected.text ?? '')
      : error.messages.some((m) => m.fragmentId === expected.fragmentId && m.line === expected.line);
  return placed ? 'named' : 'caught-unplaced';
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const count = Number(args.find((a) => /^\d+$/.test(a)) ?? 500);
  const seed = Number(args.find((a) => a.startsWith('--seed='))?.slice(7) ?? 1);
  const useGpu = args.includes('--gpu');
  const rng = makeRandom(seed);
  const variants = listVariants(makeWeftVariantRegistry());
  const cache = makeComposeCache({ maxResults: 64 });
  let device: GPUDevice | null = null;
  // Kept referenced for the whole run: dropping Dawn's GPU object tears Dawn down under the device.
  let gpu: GPU | null = null;
  if (useGpu) {
    const { createBenchGpu } = await import('./bench-gpu.js');
    gpu = createBenchGpu();
    const adapter = await gpu.requestAdapter();
    if (!adapter) throw new Error('--gpu: Dawn gave no adapter');
    device = await adapter.requestDevice({ requiredFeatures: [...adapter.features] as GPUFeatureName[] });
  }
  const tally = new Map<string, Record<Outcome | 'total', number>>();
  const codes = new Map<string, number>();
  const samples: string[] = [];
  for (let n = 0; n < count; n++) {
    const kind = kinds[n % kinds.length];
    let mutant: Mutant | null = null;
    let spec: ComposeSpec | null = null;
    let original = '';
    let sources = new Map<string, string>();
    for (let tries = 0; !mutant && tries < 100; tries++) {
      spec = pick(variants, rng).spec();
      sources = new Map(spec.fragments.map((f) => [f.id, f.source]));
      original = composeShader(spec, cache).code;
      const index = Math.floor(rng() * spec.fragments.length);
      mutant = kind.mutate(spec.fragments[index], rng);
      if (mutant) spec = { ...spec, fragments: spec.fragments.map((f, i) => (i === index ? mutant!.fragment : f)) };
    }
    if (!mutant || !spec) throw new Error(`kind "${kind.name}" applies to no fragment of any variant`);
    const row = tally.get(kind.name) ?? {
      total: 0,
      named: 0,
      'caught-elsewhere': 0,
      'caught-unplaced': 0,
      'wgsl-named': 0,
      'wgsl-unplaced': 0,
      'no-effect': 0,
      'gpu-only': 0,
      missed: 0,
      crash: 0,
    };
    tally.set(kind.name, row);
    row.total++;
    let outcome: Outcome;
    try {
      const composed = composeShader(spec, cache);
      outcome = composed.code === original ? 'no-effect' : 'missed';
      if (outcome === 'missed') outcome = (await classifyWgsl(composed, mutant.expected, sources)) ?? 'missed';
      if (device && outcome === 'missed') {
        device.pushErrorScope('validation');
        const module = device.createShaderModule({ code: composed.code });
        const info = await module.getCompilationInfo();
        const scoped = await device.popErrorScope();
        if (scoped || info.messages.some((m) => m.type === 'error')) outcome = 'gpu-only';
      }
    } catch (error) {
      outcome = classify(error, mutant.expected, sources);
      if (error instanceof ComposeError) codes.set(error.code, (codes.get(error.code) ?? 0) + 1);
    }
    row[outcome]++;
    if (
      outcome !== 'named' &&
      outcome !== 'wgsl-named' &&
      samples.length < Number(process.env.WEFT_MUTATION_SAMPLES ?? 40)
    )
      samples.push(`  [${outcome}] ${kind.name}: ${mutant.what}`);
  }
  device?.destroy();
  gpu = null;
  console.log(
    `compose mutations: ${count} seeded mutations (seed ${seed}) of ${variants.length} registered variants${useGpu ? ', uncaught ones compiled on Dawn' : ''}\n`,
  );
  const rows = [...tally].map(([name, r]) => {
    const caught = r.named + r['caught-elsewhere'] + r['caught-unplaced'] + r['wgsl-named'] + r['wgsl-unplaced'];
    return [
      name,
      String(r.total),
      `${caught} (${((100 * caught) / r.total).toFixed(1)} %)`,
      String(r.named + r['wgsl-named']),
      String(r['caught-unplaced'] + r['caught-elsewhere'] + r['wgsl-unplaced']),
      String(r['wgsl-named'] + r['wgsl-unplaced']),
      String(r['no-effect']),
      useGpu ? String(r['gpu-only']) : '-',
      String(r.missed),
      String(r.crash),
    ];
  });
  const sum = (k: Outcome | 'total') => [...tally.values()].reduce((a, r) => a + r[k], 0);
  const caughtAll =
    sum('named') + sum('caught-elsewhere') + sum('caught-unplaced') + sum('wgsl-named') + sum('wgsl-unplaced');
  rows.push([
    'all',
    String(sum('total')),
    `${caughtAll} (${((100 * caughtAll) / sum('total')).toFixed(1)} %)`,
    String(sum('named') + sum('wgsl-named')),
    String(sum('caught-unplaced') + sum('caught-elsewhere') + sum('wgsl-unplaced')),
    String(sum('wgsl-named') + sum('wgsl-unplaced')),
    String(sum('no-effect')),
    useGpu ? String(sum('gpu-only')) : '-',
    String(sum('missed')),
    String(sum('crash')),
  ]);
  printTable(
    [
      'mutation kind',
      'mutations',
      'caught before GPU',
      'right fragment+place',
      'caught, wrong place',
      'of them by naga',
      'no effect',
      'GPU only',
      useGpu ? 'missed' : 'not caught',
      'crash',
    ],
    rows,
  );
  console.log(
    `\nComposeError codes: ${[...codes]
      .sort((a, b) => b[1] - a[1])
      .map(([c, k]) => `${c} ${k}`)
      .join(', ')}`,
  );
  if (samples.length) console.log(`\nnot caught at the right place (first ${samples.length}):\n${samples.join('\n')}`);
}

await main();
