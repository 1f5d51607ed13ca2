// The engine on a real canvas in Chromium: explicit device-pixel ratio, read-back and presented pixels.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, type OpenedPage, type PageServer, repoRoot, startPageServer } from './browser-rig';
import { boxRgb, clearRgb, type EnginePageResult } from './pages/engine/expected';

const pagesRoot = fileURLToPath(new URL('./pages', import.meta.url));
const near = (a: readonly number[], b: readonly number[], tolerance = 2) =>
  a.every((c, i) => Math.abs(c - b[i]) <= tolerance);

describe('engine on a browser canvas (Chromium, SwiftShader)', () => {
  let server: PageServer | undefined;
  let browser: Browser | undefined;
  let opened: OpenedPage;
  let result: EnginePageResult;

  beforeAll(async () => {
    server = await startPageServer(pagesRoot);
    browser = await launchChromium();
    opened = await openPage(browser, `${server.url}engine/index.html`);
    const handle = await opened.page.waitForFunction(() => window.__weftResult, undefined, { timeout: 60_000 });
    result = (await handle.jsonValue()) as EnginePageResult;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('sizes the backing store by the device-pixel ratio and reads back the box and the clear colour', () => {
    if ('error' in result)
      throw new Error(`engine page failed: ${result.error}; console: ${JSON.stringify(opened.consoleErrors)}`);
    expect(result.backing).toEqual([160, 120]);
    expect(result.centre).toEqual(expect.any(Array));
    expect(near(result.centre, boxRgb), `centre ${result.centre}`).toBe(true);
    expect(near(result.corner, clearRgb), `corner ${result.corner}`).toBe(true);
    // The engine asks for primitive-index only where the adapter offers it.
    expect(result.features.includes('primitive-index')).toBe(result.adapterFeatures.includes('primitive-index'));
    console.info(`[engine page] ${result.format}, adapter features: ${result.adapterFeatures.join(' ')}`);
  });

  it('presents the frame: the screenshot shows the box in the middle on the clear colour', async () => {
    const shot = await opened.page.locator('#gpu').screenshot();
    mkdirSync(join(repoRoot, 'test-results', 'browser'), { recursive: true });
    writeFileSync(join(repoRoot, 'test-results', 'browser', 'engine.png'), shot);
    const png = PNG.sync.read(shot);
    const at = (x: number, y: number) => [...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3)];
    expect(
      near(at(png.width >> 1, png.height >> 1), boxRgb),
      `screenshot centre ${at(png.width >> 1, png.height >> 1)}`,
    ).toBe(true);
    expect(near(at(1, 1), clearRgb), `screenshot corner ${at(1, 1)}`).toBe(true);
  });

  it('logs no console, page or WebGPU errors', async () => {
    expect(opened.consoleErrors).toEqual([]);
    expect(opened.pageErrors).toEqual([]);
    expect(await opened.webgpuErrors()).toEqual([]);
  });
});
