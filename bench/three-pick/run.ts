// weft-gpu/three in Chromium (SwiftShader WebGPU), 640×480: a warm pick through the adapter against weft's own pick of
// the same geometry as a weft scene (same device), three.js's Raycaster through the same pixel, and the floor (submit
// + mapAsync of 256 B), on 1 – 10 000 boxes, 10 000 instances and a 50 000-triangle posed SkinnedMesh. Medians of
// interleaved rounds after warm-up; each round also checks that the adapter and Raycaster agree on the hit.
// Run: npm run bench:three [-- rounds]   (default 10; BENCH_CPU_PROFILE=path writes a V8 CPU profile of adapter picks
// alone per scene, path-<scene>.cpuprofile; bench/three-pick/profile-summary.ts summarises one; BENCH_THREE_GAP=1 prints
// the adapter pick beside weft's own and its parts, interleaved, and the bytes an adapter pick and a Raycaster cast
// allocate, sampled by V8 with garbage included).
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchBenchChromium, startBenchPageServer, writePageCpuProfile } from '../real-gpu/bench-chromium.js';
import { median } from '../bench-timing.js';
import type { ThreeRound, ThreeSceneSpec } from './page.js';

const rounds = Math.max(3, Number(process.argv[2] ?? 10));
const warmUp = 2;
const profiledPicks = Number(process.env.BENCH_CPU_PROFILE_PICKS ?? 40);
const scenes: (ThreeSceneSpec & { label: string })[] = [
  { kind: 'meshes', count: 1, label: '1 mesh' },
  { kind: 'meshes', count: 100, label: '100 meshes' },
  { kind: 'meshes', count: 1000, label: '1 000 meshes' },
  { kind: 'meshes', count: 10000, label: '10 000 meshes' },
  { kind: 'instances', count: 10000, label: '10 000 instances' },
  { kind: 'skinned', count: 1, label: 'skinned, 50 k triangles' },
];

async function main(): Promise<void> {
  const root = fileURLToPath(new URL('.', import.meta.url));
  const server = await startBenchPageServer(root);
  const browser = await launchBenchChromium(server.url);
  try {
    const context = await browser.newContext({ viewport: { width: 660, height: 500 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.stack ?? error.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${server.url}index.html`, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__threeBench !== undefined, undefined, { timeout: 180_000 });
    const call = <T>(step: string, arg?: unknown) =>
      page.evaluate(([s, a]) => window.__threeBench![s as string](a), [step, arg] as const) as Promise<T>;
    const info = await call<{ three: string; features: string }>('init');
    console.log(`Chromium ${browser.version()}, three.js r${info.three}; device features: ${info.features}`);
    console.log(`${rounds} interleaved rounds per scene after ${warmUp} warm-up rounds; medians in ms\n`);
    const lines: string[] = [];
    const adapterByCount = new Map<number, number>();
    for (const spec of scenes) {
      const made = await call<{ bytes: number; buffers: number; hit: boolean }>('setup', spec);
      // The JIT first: V8 optimises a function once it has run long enough, so the first scene's picks (1 mesh, a short
      // walk) ran unoptimised code through two warm-up rounds (H100: 0.80 ms for the pick part against 0.44 at 100).
      await call('adapterOnly', 200);
      for (let r = 0; r < warmUp; r++) await call('round', r);
      const samples: (ThreeRound & { agree: boolean })[] = [];
      for (let r = 0; r < rounds; r++) samples.push(await call('round', r));
      const m = (k: keyof ThreeRound) => median(samples.map((s) => s[k]));
      const agree = samples.filter((s) => s.agree).length;
      const weft = spec.kind === 'skinned' ? '—' : m('weft').toFixed(2);
      const ratio = spec.kind === 'skinned' ? '—' : `${(m('adapter') / m('weft')).toFixed(2)}×`;
      // No adapter pick can take less than the reads of the scene it must trust, nor than the readback floor.
      const least = Math.max(m('reads'), m('floor'));
      const leastRatio = spec.kind === 'skinned' ? '—' : `${(least / m('weft')).toFixed(2)}×`;
      if (spec.kind === 'meshes') adapterByCount.set(spec.count, m('adapter'));
      lines.push(
        `| ${spec.label} | ${m('adapter').toFixed(2)} | ${weft} | ${ratio} | ${m('reads').toFixed(2)} | ${leastRatio} | ${m('raycaster').toFixed(2)} | ${(m('raycaster') / m('adapter')).toFixed(1)}× | ${m('floor').toFixed(2)} | ${(m('adapter') / m('floor')).toFixed(2)}× | ${agree}/${samples.length} | ${(made.bytes / 1024).toFixed(0)} KiB in ${made.buffers} buffers |`,
      );
      console.log(`  ${spec.label}: done; adapter stages (ms): ${JSON.stringify(await call('profile'))}`);
      if (process.env.BENCH_THREE_GAP) {
        console.log(`  where the adapter's time goes (medians, ms): ${JSON.stringify(await call('gap', 30))}`);
        const picks = 40;
        const adapter = await sampleAllocations(page, () => call('adapterOnly', picks), picks);
        const raycaster = await sampleAllocations(page, () => call('raycastOnly', picks), picks);
        console.log(`  allocated per adapter pick: ${adapter}\n  allocated per Raycaster cast: ${raycaster}`);
        // Rounds without one of their other steps, interleaved variant by variant: the adapter pick's median in each.
        const variants = ['full', 'no-raycaster', 'no-own', 'same-pixel'] as const;
        const times: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v, []]));
        for (let r = 0; r < 16; r++)
          for (const variant of variants)
            times[variant].push((await call<ThreeRound>('roundVariant', [r, variant])).adapter);
        const medians = variants.map((v) => `${v} ${median(times[v]).toFixed(2)}`).join(', ');
        console.log(`  adapter pick in rounds without one step (medians of 16, ms): ${medians}`);
      }
      const profilePath = process.env.BENCH_CPU_PROFILE;
      if (profilePath) {
        const file = `${profilePath}-${spec.kind}-${spec.count}.cpuprofile`;
        await writePageCpuProfile(page, file, () => call('adapterOnly', profiledPicks), 50);
        console.log(`  CPU profile of ${profiledPicks} adapter picks: ${file}`);
      }
    }
    console.log(
      '\n| scene | weft-gpu/three pick | weft own scene pick | adapter ÷ own | reads | least ÷ own | Raycaster | Raycaster ÷ adapter | floor | adapter ÷ floor | answers agree | picker allocated (first pick) |\n|---|---|---|---|---|---|---|---|---|---|---|---|',
    );
    console.log(lines.join('\n'));
    console.log(
      "reads: what a correct pick reads of the three.js scene each call; least ÷ own: the larger of reads and floor over weft's own pick, the least any adapter that reads the scene could reach.",
    );
    const one = adapterByCount.get(1);
    const many = adapterByCount.get(10000);
    if (one && many) console.log(`adapter pick among 10 000 meshes ÷ among 1 mesh: ${(many / one).toFixed(2)}×`);
    console.log(`\npage errors: ${errors.length ? errors.join('\n  ') : 'none'}`);
  } finally {
    await browser.close();
    await server.close();
  }
}

interface SamplingNode {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children: SamplingNode[];
}

/**
 * The bytes `work` allocates per call (`calls` of them), garbage included, as V8's sampling heap profiler sees them
 * (one sample per 256 B on average): the total and the functions that allocate most.
 */
async function sampleAllocations(page: Page, work: () => Promise<unknown>, calls: number): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await work();
  const { profile } = (await cdp.send('HeapProfiler.stopSampling')) as unknown as { profile: { head: SamplingNode } };
  await cdp.detach();
  const bySite = new Map<string, number>();
  let total = 0;
  const visit = (node: SamplingNode) => {
    if (node.selfSize > 0) {
      const file = node.callFrame.url.split('/').pop() || '(native)';
      const site = `${node.callFrame.functionName || '(anonymous)'} ${file}`;
      bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) visit(child);
  };
  visit(profile.head);
  const top = [...bySite.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([site, bytes]) => `${site} ${(bytes / calls / 1024).toFixed(1)} KiB`);
  return `${(total / calls / 1024).toFixed(1)} KiB (${top.join('; ')})`;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
