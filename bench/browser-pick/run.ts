// weft vs Babylon.js in Chromium (SwiftShader WebGPU), side by side in one page at 640×480: GPU picks (single,
// 64-point, 191×120 marquee) on 1 – 10 000 boxes and 10 000 thin instances, each library's floor, and each
// library's G-buffer frame against its own forward frame. Ratios of medians of interleaved rounds after warm-up.
// Run: npm run bench:browser [-- rounds]   (or npx tsx bench/browser-pick/run.ts [rounds]; default 10, ~3 min).
// BENCH_SCENES=1,100,1000,10000,10000t picks scenes; BENCH_STEP_TIMEOUT_MS (150 000) bounds every step, and a step
// past it fails naming the step and where the page was; BENCH_DEBUG=1 echoes the page's console.
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchBenchChromium, startBenchPageServer } from '../real-gpu/bench-chromium.js';
import { median } from '../bench-timing.js';
import {
  type GbufferRound,
  type PageInfo,
  type PickAnswers,
  type PickRound,
  type PickSceneSpec,
  points,
} from './shared.js';
import { printGbufferTable, printPickTables, printProfileTable, type PickRow } from './tables.js';

const rounds = Math.max(3, Number(process.argv[2] ?? 10));
const warmUp = 2;
const allScenes: (PickSceneSpec & { label: string })[] = [
  { count: 1, thin: false, label: '1 mesh' },
  { count: 100, thin: false, label: '100 meshes' },
  { count: 1000, thin: false, label: '1 000 meshes' },
  { count: 10000, thin: false, label: '10 000 meshes' },
  { count: 10000, thin: true, label: '10 000 thin inst.' },
];
/** BENCH_SCENES=1,10000t runs only those scenes (t: thin instances); the default is all of them. */
const only = process.env.BENCH_SCENES?.split(',');
const scenes = only ? allScenes.filter((s) => only.includes(`${s.count}${s.thin ? 't' : ''}`)) : allScenes;

/** Babylon.js needs a few seconds per pick on 10 000 separate meshes here: fewer rounds keep the run in budget. */
const roundsFor = (spec: PickSceneSpec) =>
  spec.count >= 10000 && !spec.thin ? Math.max(3, Math.ceil(rounds / 2)) : rounds;

function medians<T extends object>(samples: T[]): Record<keyof T, number> {
  const keys = Object.keys(samples[0]) as (keyof T)[];
  return Object.fromEntries(keys.map((k) => [k, median(samples.map((s) => s[k] as number))])) as Record<
    keyof T,
    number
  >;
}

/** No single step (one set-up, one round, the answers) may take longer: a stuck await fails loudly instead. */
const stepTimeoutMs = Number(process.env.BENCH_STEP_TIMEOUT_MS ?? 150_000);

/** Calls window.__bench[step](arg) in the page; past the step timeout, fails naming the step and where the page is. */
async function call<T>(page: Page, step: string, arg?: unknown): Promise<T> {
  const work = page.evaluate(
    async ([name, value]) => {
      const bench = window.__bench as unknown as Record<string, (v: unknown) => Promise<unknown>>;
      return bench[name as string](value);
    },
    [step, arg] as const,
  ) as Promise<T>;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(async () => {
      const inside = await page
        .evaluate(() => window.__bench?.step() ?? 'page not loaded')
        .catch((error: Error) => `unknown (${error.message})`);
      reject(
        new Error(
          `bench:browser: step "${step}(${JSON.stringify(arg ?? '')})" did not finish within ${stepTimeoutMs / 1000} s; the page was in: ${inside}`,
        ),
      );
    }, stepTimeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const root = fileURLToPath(new URL('.', import.meta.url));
  const server = await startBenchPageServer(root);
  const browser = await launchBenchChromium(server.url);
  try {
    const context = await browser.newContext({ viewport: { width: 660, height: 980 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.stack ?? error.message));
    page.on('console', (message) => {
      if (process.env.BENCH_DEBUG) console.log(`[page] ${message.text()}`);
      if (message.type() === 'error' || message.type() === 'warning') pageErrors.push(message.text());
    });
    await page.goto(`${server.url}index.html`, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__bench !== undefined, undefined, { timeout: 180_000 });
    const info = await call<PageInfo>(page, 'init');
    console.log(
      `Chromium ${browser.version()}, adapter: ${info.adapter}; Babylon.js ${info.babylonVersion}; page clock: ${info.isolated ? 'cross-origin isolated (~5 µs)' : 'not isolated (100 µs steps)'}; ${info.collects ? 'a GC and a 2 ms pause before each timed step' : 'no gc() in the page: steps may pay for earlier garbage'}`,
    );
    console.log(
      `${rounds} interleaved rounds per scene after ${warmUp} warm-up rounds (10 000 separate meshes: ${roundsFor(allScenes[3])})`,
    );

    const rows: PickRow[] = [];
    for (const spec of scenes) {
      const setup = await call<{ weftMs: number; babylonMs: number }>(page, 'setupPick', spec);
      for (let r = 0; r < warmUp; r++) await call<PickRound>(page, 'pickRound', r);
      const samples: PickRound[] = [];
      for (let r = 0; r < roundsFor(spec); r++) samples.push(await call<PickRound>(page, 'pickRound', r));
      const answers = await call<PickAnswers>(page, 'pickAnswers');
      const profile = await call<PickRow['profile']>(page, 'profile');
      rows.push({ label: spec.label, m: medians(samples), answers, setup, profile });
      console.log(
        `  ${spec.label}: set up weft ${setup.weftMs.toFixed(0)} ms, Babylon.js ${setup.babylonMs.toFixed(0)} ms; ${samples.length} rounds done (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
    }
    printPickTables(rows, points.length);
    printProfileTable(rows);

    await call(page, 'setupGbuffer');
    for (let r = 0; r < warmUp + 3; r++) await call<GbufferRound>(page, 'gbufferRound', r);
    const gbuffer: GbufferRound[] = [];
    for (let r = 0; r < 2 * rounds; r++) gbuffer.push(await call<GbufferRound>(page, 'gbufferRound', r));
    printGbufferTable(medians(gbuffer), info, gbuffer.length);

    const errors = [...(await call<string[]>(page, 'errors')), ...pageErrors];
    console.log(`\nWebGPU / page errors and warnings: ${errors.length ? `\n  ${errors.join('\n  ')}` : 'none'}`);
    console.log(`total ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
