/**
 * The WGSL check without a GPU (naga as WebAssembly, composer/wgsl-check.ts) against Dawn's Tint, the compiler
 * `weft validate` has always used (a device on Dawn's null backend: Tint's front end, no driver).
 *   timing   — per registered variant, the median of checkWgslAsync after warm-up beside Dawn's createShaderModule +
 *              getCompilationInfo on the same code (each run's code differs by a trailing comment, so no cache hits)
 *   coverage — seeded mutations of the WGSL bodies of weft's fragments (identifier typos, wrong types and vector sizes,
 *              dropped semicolons and braces, wrong builtins, …), each composed into a variant that uses the fragment:
 *              caught while composing (wesl / the composer), by naga and Dawn, by Dawn only, by naga only, or by none;
 *              and whether naga's (and Dawn's) first error names the mutated fragment and line
 * Run: npx tsx bench/wgsl-check.ts [mutations=300] [seed=37] [--all] [--list]
 *   --all prints every variant's timing row; --list prints every mutation and its verdicts.
 */
import { compilationMessagesAsync, createShaderModuleScoped } from '../composer/compile-errors.js';
import { checkWgslAsync } from '../composer/wgsl-check.js';
import { requestValidationDeviceAsync } from '../cli/webgpu.js';
import {
  type ComposedShader,
  ComposeError,
  composeShader,
  type Fragment,
  listVariants,
  type MappedShaderMessage,
  makeComposeCache,
  makeWeftVariantRegistry,
  type VariantDefinition,
} from '../index.js';
import { makeRandom } from '../test/support/random.js';
import { wgslKeywords } from './wgsl-keywords.js';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const mutationCount = Number(args[0] ?? 300);
const seed = Number(args[1] ?? 37);
const printAll = process.argv.includes('--all');
const printList = process.argv.includes('--list');

const variants = listVariants(makeWeftVariantRegistry());
const cache = makeComposeCache();
const composed = new Map(variants.map((v) => [v.name, composeShader(v.spec(), cache)]));
const features = [...new Set([...composed.values()].flatMap((c) => c.features.map((f) => f.feature)))];
const webgpu = await import('webgpu');
// Keep `gpu` referenced to the end: once Dawn's instance is collected, getCompilationInfo never resolves.
const { gpu, device } = await requestValidationDeviceAsync('bench', webgpu, features);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

async function dawnMessagesAsync(shader: Pick<ComposedShader, 'code' | 'sourceMap'>): Promise<MappedShaderMessage[]> {
  const { module, scope } = createShaderModuleScoped(device, shader.code, 'bench');
  return compilationMessagesAsync(module, shader.code, shader.sourceMap, scope);
}

// ---- timing ----
let run = 0;
async function timeAsync(code: string, check: (code: string) => Promise<unknown>, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const unique = `${code}\n// run ${run++}\n`;
    const start = performance.now();
    await check(unique);
    if (i >= 3) times.push(performance.now() - start);
  }
  return median(times);
}

const dawnCompileAsync = async (code: string) => {
  const { module, scope } = createShaderModuleScoped(device, code, 'bench');
  const info = await module.getCompilationInfo();
  await scope;
  if (info.messages.some((m) => m.type === 'error')) throw new Error('a registered variant failed on Dawn');
};
await checkWgslAsync(composed.get(variants[0].name)!.code); // naga's instantiation is not part of a check
const rows: { name: string; lines: number; naga: number; dawn: number; falseAlarm: boolean }[] = [];
for (const v of variants) {
  const shader = composed.get(v.name)!;
  const falseAlarm = (await checkWgslAsync(shader)).length > 0;
  const naga = await timeAsync(shader.code, (code) => checkWgslAsync({ code, sourceMap: shader.sourceMap }), 21);
  const dawn = await timeAsync(shader.code, dawnCompileAsync, 21);
  rows.push({ name: v.name, lines: shader.code.split('\n').length, naga, dawn, falseAlarm });
}
const fmt = (ms: number) => ms.toFixed(2).padStart(7);
console.log(`# WGSL check timing: ${rows.length} registered variants, median of 21 runs after 3 warm-up runs (ms)`);
console.log(`naga ${(await import('naga-wasm')).nagaVersion} (naga-wasm), Dawn null backend (webgpu package)\n`);
const shown = printAll
  ? rows
  : rows.filter(
      (r) => ['standard', 'pick', 'standard-uvs-colors-thin-instances'].includes(r.name) || r === rows.at(-1),
    );
const slowest = [...rows].sort((a, b) => b.naga - a.naga)[0];
if (!shown.includes(slowest)) shown.push(slowest);
console.log('| variant | lines | naga | Dawn | Dawn / naga |\n|---|---:|---:|---:|---:|');
for (const r of shown)
  console.log(
    `| ${r.name}${r === slowest ? ' (slowest naga)' : ''} | ${r.lines} | ${fmt(r.naga)} | ${fmt(r.dawn)} | ${(r.dawn / r.naga).toFixed(1)}× |`,
  );
const nagaTimes = rows.map((r) => r.naga);
const dawnTimes = rows.map((r) => r.dawn);
console.log(
  `| median over variants | ${median(rows.map((r) => r.lines))} | ${fmt(median(nagaTimes))} | ${fmt(median(dawnTimes))} | ${(median(dawnTimes) / median(nagaTimes)).toFixed(1)}× |`,
);
console.log(`| p90 over variants | | ${fmt(quantile(nagaTimes, 0.9))} | ${fmt(quantile(dawnTimes, 0.9))} | |`);
const alarms = rows.filter((r) => r.falseAlarm).map((r) => r.name);
console.log(
  `\nnaga rejects ${alarms.length} of ${rows.length} registered variants${alarms.length ? `: ${alarms.join(', ')}` : ''}`,
);
console.log(
  `typical variant ≤ 5 ms: ${median(nagaTimes) <= 5 ? 'yes' : 'NO'} (median ${median(nagaTimes).toFixed(2)} ms)\n`,
);

// ---- coverage ----
interface Mutation {
  kind: string;
  fragment: string;
  variant: string;
  /** 1-based line of the fragment's source that was changed. */
  line: number;
  before: string;
  after: string;
}

type Random = () => number;
const pick = <T>(random: Random, xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];

const keywords = wgslKeywords;
const typeSwaps: Record<string, string[]> = {
  f32: ['u32', 'i32'],
  u32: ['f32', 'i32'],
  i32: ['u32', 'f32'],
  bool: ['u32'],
  vec2f: ['vec2u'],
  vec3f: ['vec3u', 'vec3i'],
  vec4f: ['vec4u', 'vec4i'],
  vec2u: ['vec2f'],
  vec3u: ['vec3f'],
  vec4u: ['vec4f'],
  vec2i: ['vec2u'],
  mat4x4f: ['mat3x3f', 'mat4x3f'],
  mat3x3f: ['mat4x4f'],
};
const builtinSwaps: Record<string, string[]> = {
  normalize: ['length'],
  length: ['normalize'],
  dot: ['cross'],
  cross: ['dot'],
  clamp: ['max'],
  max: ['clamp'],
  min: ['clamp'],
  mix: ['max'],
  select: ['mix'],
  abs: ['all'],
  sqrt: ['normalize'],
  floor: ['any'],
  textureSample: ['textureLoad'],
  textureLoad: ['textureSample'],
  transpose: ['determinant'],
  exp: ['dot'],
  sign: ['all'],
  fract: ['any'],
  pow: ['min'],
  bitcast: ['select'],
};
// Fragments read builtins as fields of their input struct (the composer writes the @builtin attributes).
const builtinInputSwaps: Record<string, string> = {
  position: 'vertexIndex',
  vertexIndex: 'position',
  instanceIndex: 'frontFacing',
  frontFacing: 'vertexIndex',
  primitiveIndex: 'position',
};

/** A site: an index into a fragment's source and the line it is on; comments and import lines are left alone. */
function sites(source: string, pattern: RegExp): { index: number; match: RegExpExecArray; line: number }[] {
  const found: { index: number; match: RegExpExecArray; line: number }[] = [];
  let offset = 0;
  source.split('\n').forEach((text, i) => {
    const code = text.replace(/\/\/.*$/, '');
    if (!/^\s*import\b/.test(code))
      for (const match of code.matchAll(new RegExp(pattern.source, 'g')))
        found.push({ index: offset + (match.index ?? 0), match: match as RegExpExecArray, line: i + 1 });
    offset += text.length + 1;
  });
  return found;
}

type Operator = (
  source: string,
  random: Random,
) => { source: string; line: number; before: string; after: string } | null;

function replaceAt(source: string, index: number, before: string, after: string, line: number) {
  return { source: source.slice(0, index) + after + source.slice(index + before.length), line, before, after };
}

const operators: Record<string, Operator> = {
  'identifier typo': (source, random) => {
    const candidates = sites(source, /(?<![@\w.])[A-Za-z_][A-Za-z0-9_]{2,}\b/).filter(
      (s) => !keywords.has(s.match[0]) && !(s.match[0] in typeSwaps) && !/^(vec|mat)\d/.test(s.match[0]),
    );
    if (!candidates.length) return null;
    const s = pick(random, candidates);
    const word = s.match[0];
    const at = 1 + Math.floor(random() * (word.length - 1));
    const typo =
      random() < 0.5
        ? word.slice(0, at) + word.slice(at + 1)
        : `${word.slice(0, at)}${word[at] === 'e' ? 'a' : 'e'}${word.slice(at + 1)}`;
    return typo === word ? null : replaceAt(source, s.index, word, typo, s.line);
  },
  'field typo': (source, random) => {
    const candidates = sites(source, /(?<=\w\)?\.)[a-z][A-Za-z0-9_]{3,}\b/);
    if (!candidates.length) return null;
    const s = pick(random, candidates);
    const word = s.match[0];
    return replaceAt(source, s.index, word, `${word.slice(0, -1)}${word.endsWith('s') ? '' : 's'}`, s.line);
  },
  'wrong type': (source, random) => {
    const candidates = sites(source, new RegExp(`\\b(${Object.keys(typeSwaps).join('|')})\\b`));
    if (!candidates.length) return null;
    const s = pick(random, candidates);
    return replaceAt(source, s.index, s.match[0], pick(random, typeSwaps[s.match[0]]), s.line);
  },
  'wrong vector size': (source, random) => {
    const candidates = sites(source, /\bvec[234](?=[fuih<(])/);
    if (!candidates.length) return null;
    const s = pick(random, candidates);
    const n = Number(s.match[0][3]);
    return replaceAt(source, s.index, s.match[0], `vec${n === 4 ? 3 : n + 1}`, s.line);
  },
  'missing semicolon': (source, random) => {
    const candidates = sites(source, /;\s*$/);
    if (!candidates.length) return null;
    const s = pick(random, candidates);
    return replaceAt(source, s.index, ';', '', s.line);
  },
  'missing brace': (source, random) => {
    const candidates = sites(source, /[{}]/);
    if (!candidates.length) return null;
    const s = pick(random, candidates);
    return replaceAt(source, s.index, s.match[0], '', s.line);
  },
  'wrong builtin function': (source, random) => {
    const candidates = sites(source, new RegExp(`\\b(${Object.keys(builtinSwaps).join('|')})(?=\\s*[(<])`));
    if (!candidates.length) return null;
    const s = pick(random, candidates);
    return replaceAt(source, s.index, s.match[0], pick(random, builtinSwaps[s.match[0]]), s.line);
  },
  'wrong builtin value': (source, random) => {
    const candidates = sites(source, new RegExp(`(?<=\\binput\\.)(${Object.keys(builtinInputSwaps).join('|')})\\b`));
    if (!candidates.length) return null;
    const s = pick(random, candidates);
    return replaceAt(source, s.index, s.match[0], builtinInputSwaps[s.match[0]], s.line);
  },
  'wrong swizzle': (source, random) => {
    const candidates = sites(source, /(?<=[\w)\]]\.)[xyzwrgba]{2,4}\b/);
    if (!candidates.length) return null;
    const s = pick(random, candidates);
    const next: Record<string, string> = { x: 'y', y: 'z', z: 'w', w: 'x', r: 'g', g: 'b', b: 'a', a: 'r' };
    const last = s.match[0].at(-1)!;
    return replaceAt(source, s.index, s.match[0], `${s.match[0].slice(0, -1)}${next[last]}`, s.line);
  },
  'wrong literal type': (source, random) => {
    const candidates = sites(source, /(?<![\w.])\d+\.\d+(?![\w.])/);
    if (!candidates.length) return null;
    const s = pick(random, candidates);
    return replaceAt(source, s.index, s.match[0], `${Math.trunc(Number(s.match[0]))}u`, s.line);
  },
  'dropped argument': (source, random) => {
    const candidates = sites(source, /,\s*[\w.]+\s*\)/);
    if (!candidates.length) return null;
    const s = pick(random, candidates);
    return replaceAt(source, s.index, s.match[0], ')', s.line);
  },
  'let for var': (source, random) => {
    const candidates = sites(source, /\bvar(?=\s+\w)/);
    if (!candidates.length) return null;
    const s = pick(random, candidates);
    return replaceAt(source, s.index, 'var', 'let', s.line);
  },
};

const byFragment = new Map<string, { fragment: Fragment; users: VariantDefinition[] }>();
for (const v of variants)
  for (const f of v.spec().fragments) {
    const entry = byFragment.get(f.id) ?? { fragment: f, users: [] };
    entry.users.push(v);
    byFragment.set(f.id, entry);
  }

const random = makeRandom(seed);
const mutations: Mutation[] = [];
const kinds = Object.keys(operators);
for (let attempts = 0; mutations.length < mutationCount && attempts < mutationCount * 20; attempts++) {
  const kind = pick(random, kinds);
  const { fragment, users } = pick(random, [...byFragment.values()]);
  const mutated = operators[kind](fragment.source, random);
  if (!mutated || mutated.source === fragment.source) continue;
  const variant = pick(random, users);
  const key = `${fragment.id}\n${mutated.source}`;
  if (mutations.some((m) => `${m.fragment}\n${m.after}` === key)) continue;
  mutations.push({
    kind,
    fragment: fragment.id,
    variant: variant.name,
    line: mutated.line,
    before: mutated.before,
    after: mutated.source,
  });
}

type Verdict = 'compose' | 'both' | 'gpu only' | 'naga only' | 'neither' | 'not linked';
const emptyRow = (): Record<Verdict, number> => ({
  compose: 0,
  both: 0,
  'gpu only': 0,
  'naga only': 0,
  neither: 0,
  'not linked': 0,
});

/**
 * The mutated fragment composed into the first variant (from the drawn one on) whose linked code it changes; null when
 * it changes none (the line sits under a false @if or in a function no variant calls). Compose errors propagate.
 */
function composeMutated(m: Mutation): ComposedShader | null {
  const users = byFragment.get(m.fragment)!.users;
  const first = users.findIndex((v) => v.name === m.variant);
  for (const variant of [...users.slice(first), ...users.slice(0, first)]) {
    const spec = variant.spec();
    const fragments = spec.fragments.map((f) => (f.id === m.fragment ? { ...f, source: m.after } : f));
    const shader = composeShader({ ...spec, fragments }, cache);
    if (shader.code !== composed.get(variant.name)!.code) {
      m.variant = variant.name;
      return shader;
    }
  }
  return null;
}
const tally = new Map<string, Record<Verdict, number>>();
const lineHits = {
  sameAsDawn: 0,
  compose: 0,
  composeNear: 0,
  composeCaught: 0,
  naga: 0,
  nagaNear: 0,
  nagaCaught: 0,
  dawn: 0,
  dawnNear: 0,
  dawnCaught: 0,
};
/**
 * Per kind: mutations caught before any GPU call (compose or naga); of them, those whose first error is on the mutated
 * line; and, for renames (typos), those whose error is on the mutated line or on a line that uses the renamed name: a
 * renamed declaration is an error only where the old name is still used, which is where any compiler reports it.
 */
const beforeGpuLines = new Map<string, { caught: number; right: number; rightOrUse: number }>();
const renameKinds = new Set(['identifier typo', 'field typo']);
const usesRenamedName = (m: Mutation, e: MappedShaderMessage | undefined) => {
  if (!e || !renameKinds.has(m.kind) || e.origin) return false;
  const line = byFragment.get(e.fragmentId)?.fragment.source.split('\n')[e.line - 1] ?? '';
  return new RegExp(`\\b${m.before}\\b`).test(line);
};
const countBeforeGpu = (m: Mutation, e: MappedShaderMessage | undefined, right: boolean) => {
  const entry = beforeGpuLines.get(m.kind) ?? { caught: 0, right: 0, rightOrUse: 0 };
  entry.caught++;
  entry.right += right ? 1 : 0;
  entry.rightOrUse += right || usesRenamedName(m, e) ? 1 : 0;
  beforeGpuLines.set(m.kind, entry);
};
const gpuOnly: string[] = [];
const nagaOnly: string[] = [];
const firstError = (ms: MappedShaderMessage[]) => ms.find((m) => m.type === 'error');
for (const m of mutations) {
  const at = (e: MappedShaderMessage | undefined, near: number) =>
    !!e && (e.fragmentId === m.fragment || e.origin === m.fragment) && Math.abs(e.line - m.line) <= near;
  let verdict: Verdict;
  let detail = '';
  try {
    const shader = composeMutated(m);
    if (!shader) {
      verdict = 'not linked';
      const row = tally.get(m.kind) ?? emptyRow();
      row[verdict]++;
      tally.set(m.kind, row);
      if (printList) console.log(`${verdict.padEnd(10)} ${m.kind} in ${m.fragment}:${m.line}`);
      continue;
    }
    const naga = firstError(await checkWgslAsync(shader));
    const dawn = firstError(await dawnMessagesAsync(shader));
    verdict = naga && dawn ? 'both' : dawn ? 'gpu only' : naga ? 'naga only' : 'neither';
    if (naga) {
      lineHits.nagaCaught++;
      lineHits.naga += at(naga, 0) ? 1 : 0;
      lineHits.nagaNear += at(naga, 1) ? 1 : 0;
      countBeforeGpu(m, naga, at(naga, 0));
    }
    if (naga && dawn && naga.fragmentId === dawn.fragmentId && naga.line === dawn.line) lineHits.sameAsDawn++;
    if (dawn) {
      lineHits.dawnCaught++;
      lineHits.dawn += at(dawn, 0) ? 1 : 0;
      lineHits.dawnNear += at(dawn, 1) ? 1 : 0;
    }
    const where = (e: MappedShaderMessage | undefined) => (e ? `${e.fragmentId}:${e.line}: ${e.message}` : '-');
    detail = `naga ${where(naga)} | dawn ${where(dawn)}`;
    const line = `${m.kind} in ${m.fragment}:${m.line} (${m.variant}) "${m.before}" | ${detail}`;
    if (verdict === 'gpu only') gpuOnly.push(line);
    if (verdict === 'naga only') nagaOnly.push(line);
  } catch (error) {
    if (!(error instanceof ComposeError)) throw error;
    verdict = 'compose';
    lineHits.composeCaught++;
    lineHits.compose += at(error.messages[0], 0) ? 1 : 0;
    lineHits.composeNear += at(error.messages[0], 1) ? 1 : 0;
    countBeforeGpu(m, error.messages[0], at(error.messages[0], 0));
    detail = `${error.code}: ${error.message.split('\n')[0]}`;
  }
  const row = tally.get(m.kind) ?? emptyRow();
  row[verdict]++;
  tally.set(m.kind, row);
  if (printList) console.log(`${verdict.padEnd(10)} ${m.kind} in ${m.fragment}:${m.line} (${m.variant}) | ${detail}`);
}
device.destroy();
void gpu;

console.log(
  `# WGSL body mutations: ${mutations.length}, seed ${seed}, ${byFragment.size} fragments, ${variants.length} variants`,
);
console.log(
  '"compose": wesl or the composer refused it (before any GPU); "naga + Dawn" … "neither": it composed into a',
);
console.log(
  'variant whose code it changes, and naga (no GPU) and Dawn (Tint) reported an error or not; "not linked": no',
);
console.log(
  'variant that uses the fragment links the mutated line (a false @if, an unused function), so no check sees it.\n',
);
console.log(
  '| mutation | n | compose | naga + Dawn | Dawn only | naga only | neither | not linked |\n|---|---:|---:|---:|---:|---:|---:|---:|',
);
const total = emptyRow();
for (const [kind, row] of tally) {
  const n = Object.values(row).reduce((a, b) => a + b, 0);
  console.log(
    `| ${kind} | ${n} | ${row.compose} | ${row.both} | ${row['gpu only']} | ${row['naga only']} | ${row.neither} | ${row['not linked']} |`,
  );
  for (const k of Object.keys(total) as Verdict[]) total[k] += row[k];
}
console.log(
  `| **all** | ${mutations.length} | ${total.compose} | ${total.both} | ${total['gpu only']} | ${total['naga only']} | ${total.neither} | ${total['not linked']} |`,
);
const gpuCaught = total.both + total['gpu only'];
const pct = (a: number, b: number) => `${b ? ((100 * a) / b).toFixed(1) : '-'} %`;
console.log(
  `\nOf the ${gpuCaught} composed mutations Dawn rejects, naga rejects ${total.both} (${pct(total.both, gpuCaught)}): before this check they reached the GPU.`,
);
const before = total.compose + total.both + total['naga only'];
const caughtAtAll = before + total['gpu only'];
console.log(
  `Caught before any GPU call: ${before} of ${caughtAtAll} mutations anyone catches (${pct(before, caughtAtAll)}); compose alone: ${total.compose} (${pct(total.compose, caughtAtAll)}).`,
);
console.log(
  `Compose error on the mutated fragment line: ${lineHits.compose}/${lineHits.composeCaught} (${pct(lineHits.compose, lineHits.composeCaught)}), within ±1 line ${pct(lineHits.composeNear, lineHits.composeCaught)}.`,
);
console.log(
  `First error on the mutated fragment line: naga ${lineHits.naga}/${lineHits.nagaCaught} (${pct(lineHits.naga, lineHits.nagaCaught)}), within ±1 line ${pct(lineHits.nagaNear, lineHits.nagaCaught)}; Dawn ${lineHits.dawn}/${lineHits.dawnCaught} (${pct(lineHits.dawn, lineHits.dawnCaught)}), within ±1 line ${pct(lineHits.dawnNear, lineHits.dawnCaught)}.`,
);
console.log(
  `naga's first error on the fragment line of Dawn's first error: ${lineHits.sameAsDawn}/${total.both} (${pct(lineHits.sameAsDawn, total.both)}) of the mutations both catch.`,
);
console.log(
  '\n| mutation | caught before GPU | first error on the mutated line | … or at a use of the renamed name |\n|---|---:|---:|---:|',
);
const all = { caught: 0, right: 0, rightOrUse: 0 };
for (const [kind, { caught, right, rightOrUse }] of beforeGpuLines) {
  const rename = renameKinds.has(kind);
  console.log(
    `| ${kind} | ${caught} | ${right} (${pct(right, caught)}) | ${rename ? `${rightOrUse} (${pct(rightOrUse, caught)})` : '-'} |`,
  );
  all.caught += caught;
  all.right += right;
  all.rightOrUse += rightOrUse;
}
console.log(
  `| **all** | ${all.caught} | ${all.right} (${pct(all.right, all.caught)}) | ${all.rightOrUse} (${pct(all.rightOrUse, all.caught)}) |`,
);
if (gpuOnly.length) console.log(`\nDawn only:\n${gpuOnly.map((l) => `  ${l}`).join('\n')}`);
if (nagaOnly.length) console.log(`\nnaga only:\n${nagaOnly.map((l) => `  ${l}`).join('\n')}`);
