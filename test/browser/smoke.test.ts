// Browser smoke test: Debian Chromium renders with raw WebGPU on SwiftShader and presents the canvas.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, repoRoot, startPageServer, type OpenedPage, type PageServer } from './browser-rig';
import { CANVAS_SIZE, CLEAR_RGB, TRIANGLE_RGB } from './pages/smoke/colours';
import type { SmokeResult } from './pages/smoke/main';

const pagesRoot = fileURLToPath(new URL('./pages', import.meta.url));
const artefactDir = join(repoRoot, 'test-results', 'browser');
const TIMEOUT = 60_000;

/** Asserts that `actual` (RGB or RGBA) matches `expected` RGB within `tolerance` per channel. */
function expectRgb(actual: ArrayLike<number>, expected: readonly number[], tolerance: number, what: string): void {
  const rgb = [actual[0], actual[1], actual[2]];
  const off = rgb.some((c, i) => Math.abs(c - expected[i]) > tolerance);
  expect(off, `${what}: got rgb(${rgb.join(', ')}), want rgb(${expected.join(', ')}) ±${tolerance}`).toBe(false);
}

describe('browser smoke (Chromium + WebGPU on SwiftShader)', () => {
  let server: PageServer | undefined;
  let browser: Browser | undefined;
  let opened: OpenedPage;
  let result: SmokeResult;

  beforeAll(async () => {
    server = await startPageServer(pagesRoot);
    browser = await launchChromium();
    opened = await openPage(browser, `${server.url}smoke/index.html`);
    const { page, consoleErrors, pageErrors } = opened;
    const handle = await page
      .waitForFunction(() => window.__weftResult, undefined, { timeout: TIMEOUT })
      .catch((e: Error) => {
        throw new Error(
          `smoke page never set __weftResult (${e.message}); console errors: ${JSON.stringify(consoleErrors)}; page errors: ${JSON.stringify(pageErrors)}`,
        );
      });
    result = (await handle.jsonValue()) as SmokeResult;
  }, TIMEOUT * 2);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  }, TIMEOUT);

  it('gets a WebGPU adapter and reads back the rendered colours', () => {
    if ('error' in result) throw new Error(`smoke page failed (no usable WebGPU adapter?): ${result.error}`);
    console.info(`[browser smoke] adapter ${JSON.stringify(result.adapterInfo)}; canvas ${result.canvasFormat}`);
    console.info(`[browser smoke] features: ${result.features.join(' ')}`);
    expect(result.adapterInfo.vendor + result.adapterInfo.architecture + result.adapterInfo.description).not.toBe('');
    expectRgb(result.pixelLeft, TRIANGLE_RGB, 1, 'read-back left pixel');
    expectRgb(result.pixelRight, CLEAR_RGB, 1, 'read-back right pixel');
    expect(result.pixelLeft[3]).toBe(255);
    expect(result.pixelRight[3]).toBe(255);
  });

  it(
    'presents the canvas (screenshot shows the triangle and the clear colour)',
    async () => {
      const shot = await opened.page.locator('#gpu').screenshot({ timeout: TIMEOUT });
      mkdirSync(artefactDir, { recursive: true });
      writeFileSync(join(artefactDir, 'smoke.png'), shot);
      const png = PNG.sync.read(shot);
      expect([png.width, png.height]).toEqual([CANVAS_SIZE, CANVAS_SIZE]);
      const half = CANVAS_SIZE / 2;
      const wrong: string[] = [];
      for (let y = 0; y < png.height; y++) {
        for (let x = 0; x < png.width; x++) {
          const rgb = [...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3)];
          const want = x < half ? TRIANGLE_RGB : CLEAR_RGB;
          if (rgb.some((c, i) => Math.abs(c - want[i]) > 2)) wrong.push(`(${x}, ${y}) rgb(${rgb.join(', ')})`);
        }
      }
      expect(
        wrong.length,
        `screenshot pixels off (left half should be rgb(${TRIANGLE_RGB.join(', ')}), right rgb(${CLEAR_RGB.join(', ')})): ${wrong.slice(0, 8).join('; ')}`,
      ).toBe(0);
    },
    TIMEOUT,
  );

  it('logs no console, page or WebGPU errors', async () => {
    expect(opened.consoleErrors, 'console errors').toEqual([]);
    expect(opened.pageErrors, 'page errors').toEqual([]);
    expect(await opened.webgpuErrors(), 'WebGPU errors').toEqual([]);
  });
});
