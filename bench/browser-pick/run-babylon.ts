// weft-gpu/babylon vs Babylon.js's GPUPicker on the same Babylon.js scene (one WebGPUEngine, SwiftShader in Chromium):
// single pick, 64-point multiPickAsync, 191×120 boxPickAsync, each right after a presented frame, beside the floor
// (submit + mapAsync of 256 B on that device) and the bare reads of the scene a correct pick makes, timed alike. Both
// libraries' answers are compared first (and with Babylon.js's CPU scene.pick); then medians of interleaved rounds. Run: npm run bench:babylon [-- rounds]   (BENCH_SCENES=1000,10000 picks scenes; t: thin instances;
// BENCH_CPU_PROFILE=path writes a CPU profile of weft's requests per scene; BENCH_STAGES=1 prints where each of weft's
// requests spends its time, the adapter's and weft's own pickManyAsync side by side, with pick detail on and off;
// BENCH_SAMPLES=1 prints every round's times; BENCH_LATENCY=1 where the map wait after a frame comes from)
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchBenchChromium, startBenchPageServer, writePageCpuProfile } from '../real-gpu/bench-chromium.js';
import { median } from '../bench-timing.js';
import type { BabylonBenchAnswers, BabylonBenchRound } from './babylon-page.js';
import type { StageProfile } from './profile.js';
import type { PickSceneSpec } from './shared.js';

const rounds = Math.max(3, Number(process.argv[2] ?? 7));
const allScenes: (PickSceneSpec & { label: string })[] = [
  { count: 1000, thin: false, label: '1 000 meshes' },
  { count: 10000, thin: false, label: '10 000 meshes' },
  { count: 10000, thin: true, label: '10 000 thin inst.' },
];
const only = process.env.BENCH_SCENES?.split(',');
const scenes = only ? allScenes.filter((s) => only.includes(`${s.count}${s.thin ? 't' : ''}`)) : allScenes;

async function call<T>(page: Page, step: string, arg?: unknown): Promise<T> {
  return page.evaluate(
    async ([name, value]) => {
      const bench = (window as unknown as { __babylonBench: Record<string, (v: unknown) => Promise<unknown>> })
        .__babylonBench;
      return bench[name as string](value);
    },
    [step, arg] as const,
  ) as Promise<T>;
}

const agree = (a: string[], b: string[]) => a.filter((k, i) => k === b[i]).length;

async function main(): Promise<void> {
  const root = fileURLToPath(new URL('.', import.meta.url));
  const server = await startBenchPageServer(root);
  const browser = await launchBenchChromium(server.url);
  try {
    const page = await (await browser.newContext({ viewport: { width: 660, height: 500 } })).newPage();
    page.on('pageerror', (e) => console.log(`[page error] ${e.message}`));
    await page.goto(`${server.url}babylon.html`, { waitUntil: 'load' });
    await page.waitForFunction(() => '__babylonBench' in window, undefined, { timeout: 180_000 });
    const info = await call<{ babylonVersion: string; isolated: boolean; collects: boolean }>(page, 'init');
    console.log(
      `Chromium ${browser.version()}; Babylon.js ${info.babylonVersion}; ${rounds} interleaved rounds after 2 warm-up; page clock ${info.isolated ? 'cross-origin isolated (~5 µs)' : 'not isolated (100 µs steps)'}; ${info.collects ? 'a GC before each timed request' : 'no gc() in the page'}`,
    );
    const rows: string[] = [];
    for (const spec of scenes) {
      const setup = await call<{ weftMs: number; gpuPickerMs: number; ownedBytes: number }>(page, 'setup', spec);
      const a = await call<BabylonBenchAnswers>(page, 'answers');
      const w = a.weft;
      const g = a.gpuPicker;
      console.log(
        `${spec.label}: set-up + first pick weft ${setup.weftMs.toFixed(0)} ms, GPUPicker ${setup.gpuPickerMs.toFixed(0)} ms; picker-owned bytes ${setup.ownedBytes}`,
      );
      console.log(
        `  answers: centre weft ${w.centre} / GPUPicker ${g.centre}; 64 points: weft = CPU scene.pick ${agree(w.many, g.ray)}/64, weft = GPUPicker ${agree(w.many, g.many)}/64, GPUPicker = CPU scene.pick ${agree(g.many, g.ray)}/64 (GPUPicker at the mirrored y = scene.pick: ${agree(g.mirrored, g.ray)}/64); box: weft ${w.box.length} meshes, GPUPicker ${g.rect.length}, same set ${JSON.stringify(w.box) === JSON.stringify(g.rect)}`,
      );
      if (agree(w.many, g.ray) !== 64) throw new Error(`weft disagrees with Babylon.js's CPU pick on ${spec.label}`);
      for (let r = 0; r < 2; r++) await call(page, 'round', r);
      const samples: BabylonBenchRound[] = [];
      for (let r = 0; r < rounds; r++) samples.push(await call<BabylonBenchRound>(page, 'round', r));
      if (process.env.BENCH_SAMPLES)
        for (const key of Object.keys(samples[0]) as (keyof BabylonBenchRound)[])
          console.log(`  ${key} by round: ${samples.map((s) => s[key].toFixed(2)).join(' ')}`);
      if (process.env.BENCH_STAGES) {
        const stages = await call<Record<string, StageProfile>>(page, 'stages');
        console.log('  | request | JS to submit | submit → map | map wait | decode | total | submits |');
        console.log('  | --- | --- | --- | --- | --- | --- | --- |');
        for (const [name, s] of Object.entries(stages))
          console.log(
            `  | ${name} | ${[s.js, s.submitToMap, s.mapWait, s.decode, s.total].map((v) => v.toFixed(2)).join(' | ')} | ${s.submits} |`,
          );
      }
      if (process.env.BENCH_LATENCY)
        for (const [name, ms] of Object.entries(await call<Record<string, number>>(page, 'latency')))
          console.log(`  latency: ${name} ${ms.toFixed(2)} ms`);
      const profilePath = process.env.BENCH_CPU_PROFILE;
      if (profilePath) {
        const file = `${profilePath}-${spec.count}${spec.thin ? 't' : ''}.cpuprofile`;
        await writePageCpuProfile(page, file, () => call(page, 'weftOnly', 20));
        console.log(`  CPU profile of 20 × (pick, 64 points, box) by weft: ${file}`);
      }
      const m = Object.fromEntries(
        Object.keys(samples[0]).map((k) => [k, median(samples.map((s) => s[k as keyof BabylonBenchRound]))]),
      ) as unknown as BabylonBenchRound;
      const resynced = samples.reduce((sum, s) => sum + s.weftResynced, 0);
      console.log(`  weft requests whose walk changed the synced scene: ${resynced} of ${3 * rounds}`);
      const f = (v: number) => v.toFixed(2);
      const x = (a: number, b: number) => `${(a / b).toFixed(1)}×`;
      // A pick waits for a readback and reads the scene it must trust: GPUPicker's time over the larger of the two is
      // the speed-up of a picker that cost no more than that.
      const least = Math.max(m.floor, m.reads);
      rows.push(
        `| ${spec.label} | ${f(m.floor)} | ${f(m.reads)} | ${f(m.weftPick)} | ${f(m.gpuPickerPick)} | **${x(m.gpuPickerPick, m.weftPick)}** (${x(m.gpuPickerPick, least)}) | ${f(m.weftMulti)} | ${f(m.gpuPickerMulti)} | **${x(m.gpuPickerMulti, m.weftMulti)}** (${x(m.gpuPickerMulti, least)}) | ${f(m.weftBox)} | ${f(m.gpuPickerBox)} | **${x(m.gpuPickerBox, m.weftBox)}** (${x(m.gpuPickerBox, least)}) |`,
      );
    }
    console.log(
      '\nEach request right after a presented Babylon.js frame. floor: submit + map of 256 B; reads: the bare reads of every mesh a correct pick makes. Speed-up (in brackets: GPUPicker ÷ the larger of floor and reads, the speed-up of a pick that cost no more than those).',
    );
    console.log(
      '\n| median ms | floor | reads | weft pick | GPUPicker pick | speed-up | weft 64 pts | GPUPicker 64 pts | speed-up | weft box 191×120 | GPUPicker box | speed-up |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const row of rows) console.log(row);
    const errors = await call<string[]>(page, 'errors');
    console.log(`\nWebGPU errors: ${errors.length ? errors.join('; ') : 'none'}`);
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
