/**
 * Compose benchmark: a typical pick variant (standard vertex stage + thin instances + pick ids).
 *   cold  — a fresh compose cache per call: parse every module, link
 *   warm  — one cache without results (parsed modules reused), conditions changing every call: link only
 *   hit   — one cache with results, same spec: no link at all (asserted with the link counter)
 *   layouts — makeWgslBufferLayouts on the linked code alone: the part of every miss that lays out its buffers
 * Run: npx tsx bench/compose.ts [iterations]
 */
import { composeShader, getComposeCounters, makeComposeCache, makeWgslBufferLayouts } from '../index.js';
import { type PickVariant, pickSpec } from '../picking/gpu/pick-shader.js';
import { makePickFragments } from '../fragments/index.js';

const iterations = Number(process.argv[2] ?? 300);
const fragments = makePickFragments();
const typical: PickVariant = { thinInstances: true, primitiveDetail: false };
const variants: PickVariant[] = [false, true].flatMap((primitiveDetail) =>
  [false, true].map((thinInstances) => ({ thinInstances, primitiveDetail })),
);

function measure(run: (i: number) => void): number[] {
  for (let i = 0; i < Math.min(50, iterations); i++) run(i); // warm the JIT
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    run(i);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

const cold = measure(() => composeShader(pickSpec(typical, { fragments }), makeComposeCache()));

const warmCache = makeComposeCache({ maxResults: 0 });
const warmBefore = getComposeCounters(warmCache);
const warm = measure((i) => composeShader(pickSpec(variants[i % variants.length], { fragments }), warmCache));
const warmAfter = getComposeCounters(warmCache);

const hitCache = makeComposeCache();
const reference = composeShader(pickSpec(typical, { fragments }), hitCache);
const hitBefore = getComposeCounters(hitCache);
const hit = measure(() => {
  if (composeShader(pickSpec(typical, { fragments }), hitCache) !== reference)
    throw new Error('cache hit returned another result');
});
const hitAfter = getComposeCounters(hitCache);

// The buffer layouts a compose miss computes from the linked code (part of the warm and cold rows above).
const layouts = measure(() => makeWgslBufferLayouts(reference.code));

const median = (t: number[]) => t[Math.floor(t.length / 2)];
const mean = (t: number[]) => t.reduce((a, b) => a + b, 0) / t.length;
const p95 = (t: number[]) => t[Math.floor(t.length * 0.95)];
const rows = [
  ['cold compose (fresh cache)', cold, `parses ${makeComposeCacheParses()}/call`],
  [
    'warm re-compose (parsed modules, 4 condition sets)',
    warm,
    `links +${warmAfter.links - warmBefore.links}, parses +${warmAfter.parses - warmBefore.parses}`,
  ],
  ['cache hit (same spec)', hit, `links +${hitAfter.links - hitBefore.links}, hits +${hitAfter.hits - hitBefore.hits}`],
  ['  of which: buffer layouts of the linked code', layouts, `${reference.code.length} chars of WGSL`],
] as const;

function makeComposeCacheParses(): number {
  const cache = makeComposeCache();
  composeShader(pickSpec(typical, { fragments }), cache);
  return getComposeCounters(cache).parses;
}

const coldMedian = median(cold);
console.log(
  `compose benchmark: pick variant ${JSON.stringify(typical)}, ${iterations} iterations each (times in ms)\n`,
);
console.log(
  [
    'case'.padEnd(52),
    'median'.padStart(9),
    'mean'.padStart(9),
    'p95'.padStart(9),
    'cold/this'.padStart(10),
    '  counters',
  ].join(''),
);
for (const [name, times, note] of rows) {
  console.log(
    [
      name.padEnd(52),
      median(times).toFixed(4).padStart(9),
      mean(times).toFixed(4).padStart(9),
      p95(times).toFixed(4).padStart(9),
      `${(coldMedian / median(times)).toFixed(1)}×`.padStart(10),
      `  ${note}`,
    ].join(''),
  );
}
if (hitAfter.links !== hitBefore.links) {
  console.error(`FAIL: cache hits linked ${hitAfter.links - hitBefore.links} time(s); a hit must not re-link`);
  process.exit(1);
}
if (warmAfter.links - warmBefore.links !== iterations + Math.min(50, iterations)) {
  console.error('FAIL: the warm case did not link on every call');
  process.exit(1);
}
console.log('\nok: cache hits did not link');
