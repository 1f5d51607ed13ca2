// Issue 15's acceptance in Chromium (SwiftShader): the Dawn suite's scene variants, picked on the fallback detail paths
// with pickAsync and pickManyAsync on two devices — a core one ('auto' resolves to vertex-index: SwiftShader has no
// primitive-index) and a compatibility-mode one (issue 36: Chromium offers `featureLevel: 'compatibility'`; its device
// has no vertex-stage storage, so 'auto' resolves to expanded-vertices) — judged in the page against float64 three.js +
// three-mesh-bvh rays on pixels ≥ 0.05 px from every projected edge. Same bars and table as
// test/gpu/picking/acceptance-suite.test.ts; fewer seeds and a smaller viewport to keep the run short.
import type { Browser } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCEPTANCE_VARIANTS } from '../support/acceptance-scenes.js';
import { formatAcceptanceTable, type Tally, tallyFailures } from '../support/acceptance-tally.js';
import { launchChromium, openPage, type OpenedPage, type PageServer, startPageServer } from './browser-rig';
import type { AcceptanceDeviceKind, AcceptancePage, VariantRun } from './pages/acceptance/shared.js';

const pagesRoot = fileURLToPath(new URL('./pages', import.meta.url));
const SEEDS = [201, 202];
const SIZE: [number, number] = [64, 48]; // the page's canvas CSS size at devicePixelRatio 1
/** Judged hits per path and variant, over both seeds (the Dawn suite asks 2000 of 3 × 80×60 px). */
const MIN_HITS = 1000;

const detailFields = { face: true, point: true, barycentric: true, uv: true, normal: true, faceNormal: true };

/** The page's two runs: a core device ('auto' → vertex-index) and a compatibility-mode one ('auto' → expanded-vertices). */
const DEVICES: { kind: AcceptanceDeviceKind; method: string }[] = [
  { kind: 'core', method: 'vertex-index' },
  { kind: 'compatibility', method: 'expanded-vertices' },
];

for (const { kind, method } of DEVICES)
  describe(`acceptance in Chromium on a ${kind} device: detail picks on the ${method} path, against float64 rays and three-mesh-bvh`, () => {
    let server: PageServer | undefined;
    let browser: Browser | undefined;
    let opened: OpenedPage;
    let ready:
      | Pick<AcceptancePage, 'device' | 'vertexStorageBuffers' | 'deviceFeatures' | 'size' | 'variants'>
      | { error: string };
    const runs: VariantRun[] = [];

    beforeAll(async () => {
      server = await startPageServer(pagesRoot, ['bunny']);
      browser = await launchChromium();
      opened = await openPage(browser, `${server.url}acceptance/index.html?device=${kind}`);
      const handle = await opened.page.waitForFunction(() => window.__weftResult, undefined, { timeout: 60_000 });
      ready = (await handle.jsonValue()) as typeof ready;
    }, 90_000);

    it('runs on a device without primitive-index, at the stated viewport', () => {
      if ('error' in ready)
        throw new Error(`acceptance page failed: ${ready.error}; console: ${JSON.stringify(opened.consoleErrors)}`);
      expect(ready.device).toBe(kind);
      expect(ready.deviceFeatures).not.toContain('primitive-index');
      // Chromium's compatibility-mode device has no storage buffers in the vertex stage; a core one has some.
      if (kind === 'compatibility') expect(ready.vertexStorageBuffers).toBe(0);
      else expect(ready.vertexStorageBuffers ?? 1).toBeGreaterThan(0);
      expect(ready.size).toEqual(SIZE);
      expect(ready.variants).toEqual(ACCEPTANCE_VARIANTS.map((v) => v.name));
    });
    ACCEPTANCE_VARIANTS.forEach((variant, index) => {
      it(`${variant.name}: ${variant.description}`, async () => {
        if ('error' in ready) throw new Error(ready.error);
        const run = await opened.page.evaluate(
          ([i, seeds]) =>
            (window as unknown as { __weftAcceptance: AcceptancePage }).__weftAcceptance.runVariant(i, seeds),
          [index, SEEDS] as [number, number[]],
        );
        runs.push(run);
        console.info(
          `[acceptance page, ${kind}] ${variant.name}: scenes + reference ${(run.referenceMs / 1000).toFixed(1)} s, picks ${(run.pickMs / 1000).toFixed(1)} s`,
        );
        expect(run.enabled).toEqual(SEEDS.map(() => true));
        expect(run.methods).toEqual(SEEDS.map(() => method));
        for (const row of run.tallies) {
          expect(row.hits, `${row.path}: enough judged hits`).toBeGreaterThan(MIN_HITS);
          expect(tallyFailures(row), `${row.path} on ${row.variant}; first: ${row.firstFailures.join('; ')}`).toEqual(
            [],
          );
        }
      }, 120_000);
    });

    it('logs no console, page or WebGPU errors', async () => {
      expect(opened.consoleErrors).toEqual([]);
      expect(opened.pageErrors).toEqual([]);
      expect(await opened.webgpuErrors()).toEqual([]);
    });

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      const tallies: Tally[] = runs.flatMap((r) => r.tallies);
      console.log(
        `[acceptance page] Chromium/SwiftShader, ${kind} device, detail method 'auto' → ${method}; ${SEEDS.length} seeds (${SEEDS.join(', ')}) × ${SIZE.join('×')} px per variant\n${formatAcceptanceTable(
          tallies,
          () => detailFields,
          (t) => tallyFailures(t).length === 0,
        )}`,
      );
    });
  });
