// A weft-composed material (standard vertex + a custom surface with its own uniform) inside real host engines in
// Chromium, compared pixel by pixel with weft's own rendering of the same mesh, camera and material.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparePixels } from '../support/host-render';
import { launchChromium, openPage, type PageServer, repoRoot, startPageServer } from './browser-rig';
import type { HostPageResult } from './pages/host-result';

const pagesRoot = fileURLToPath(new URL('./pages', import.meta.url));
/** Max channel difference allowed (of 255) and the share of non-edge pixels that must be within it. */
const tolerance = 2;
const minShare = 0.999;

function savePng(name: string, size: number, pixels: number[]): void {
  const png = new PNG({ width: size, height: size });
  png.data.set(pixels);
  mkdirSync(join(repoRoot, 'test-results', 'browser'), { recursive: true });
  writeFileSync(join(repoRoot, 'test-results', 'browser', `${name}.png`), PNG.sync.write(png));
}

describe('weft materials in host engines (Chromium, SwiftShader)', () => {
  let server: PageServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    server = await startPageServer(pagesRoot);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const engine of ['three', 'babylon']) {
    it(`${engine}: renders the material like weft, pixel by pixel`, async () => {
      const opened = await openPage(browser!, `${server!.url}host-${engine}/index.html`);
      const handle = await opened.page.waitForFunction(() => window.__weftResult, undefined, { timeout: 90_000 });
      const result = (await handle.jsonValue()) as HostPageResult;
      if ('error' in result)
        throw new Error(`${engine} page failed: ${result.error}; console: ${JSON.stringify(opened.consoleErrors)}`);
      savePng(`host-${engine}-weft`, result.size, result.weft);
      savePng(`host-${engine}-host`, result.size, result.host);
      const diff = comparePixels(Uint8Array.from(result.weft), Uint8Array.from(result.host), result.size, tolerance);
      console.info(
        `[host ${engine}] ${JSON.stringify(result.versions)} ${result.notes.join('; ')}: ${diff.within}/${diff.compared} non-edge pixels within ${tolerance}/255 (${((100 * diff.within) / diff.compared).toFixed(3)} %), max difference ${diff.maxDiff}, ${diff.edgeExcluded} edge pixels excluded of ${diff.pixels}; all pixels: ${diff.allWithin}/${diff.pixels} within, max ${diff.allMaxDiff}`,
      );
      // The host drew the torus (not just its clear colour): a good share of its pixels differ from the corner's.
      const host = Uint8Array.from(result.host);
      let covered = 0;
      for (let i = 0; i < host.length; i += 4) if (host[i] !== host[0] || host[i + 2] !== host[2]) covered++;
      expect(covered).toBeGreaterThan(diff.pixels * 0.15);
      expect(diff.compared).toBeGreaterThan(diff.pixels * 0.8);
      // The host's own camera, configured as the recipe says, is weft's convention (float32 rounding apart).
      expect(result.cameraDrift).toBeLessThan(1e-6);
      expect(diff.within / diff.compared).toBeGreaterThanOrEqual(minShare);
      expect(opened.consoleErrors).toEqual([]);
      expect(opened.pageErrors).toEqual([]);
      expect(await opened.webgpuErrors()).toEqual([]);
      await opened.page.close();
    }, 150_000);
  }
});
