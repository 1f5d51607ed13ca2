// An engine on the host's device and canvas context in Chromium: adopted, lost by the host, handed a new device.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, type OpenedPage, type PageServer, repoRoot, startPageServer } from './browser-rig';
import { boxRgb, clearRgb } from './pages/engine/expected';
import type { HostDevicePageResult } from './pages/host-device/expected';

const pagesRoot = fileURLToPath(new URL('./pages', import.meta.url));
const near = (a: readonly number[], b: readonly number[], tolerance = 2) =>
  a.every((c, i) => Math.abs(c - b[i]) <= tolerance);

describe('engine on the host’s device and canvas context (Chromium, SwiftShader)', () => {
  let server: PageServer | undefined;
  let browser: Browser | undefined;
  let opened: OpenedPage;
  let result: HostDevicePageResult;

  beforeAll(async () => {
    server = await startPageServer(pagesRoot);
    browser = await launchChromium();
    opened = await openPage(browser, `${server.url}host-device/index.html`);
    const handle = await opened.page.waitForFunction(() => window.__weftResult, undefined, { timeout: 60_000 });
    result = (await handle.jsonValue()) as HostDevicePageResult;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('draws on the adopted context, refuses frames while the host’s device is lost, draws again on the new one', () => {
    if ('error' in result)
      throw new Error(`host-device page failed: ${result.error}; console: ${JSON.stringify(opened.consoleErrors)}`);
    expect(result.backing).toEqual([160, 120]);
    expect(result.owner).toBe('host');
    expect(result.refused).toBe('device-lost');
    expect(result.sameDevice).toBe(true);
    for (const frame of [result.before, result.after]) {
      expect(near(frame.centre, boxRgb), `centre ${frame.centre}`).toBe(true);
      expect(near(frame.corner, clearRgb), `corner ${frame.corner}`).toBe(true);
    }
  });

  it('presents the frame drawn on the replacement device', async () => {
    const shot = await opened.page.locator('#gpu').screenshot();
    mkdirSync(join(repoRoot, 'test-results', 'browser'), { recursive: true });
    writeFileSync(join(repoRoot, 'test-results', 'browser', 'host-device.png'), shot);
    const png = PNG.sync.read(shot);
    const at = (x: number, y: number) => [...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3)];
    expect(near(at(png.width >> 1, png.height >> 1), boxRgb), `centre ${at(png.width >> 1, png.height >> 1)}`).toBe(
      true,
    );
    expect(near(at(1, 1), clearRgb), `corner ${at(1, 1)}`).toBe(true);
  });

  it('logs no console, page or WebGPU errors', async () => {
    expect(opened.consoleErrors).toEqual([]);
    expect(opened.pageErrors).toEqual([]);
    expect(await opened.webgpuErrors()).toEqual([]);
  });
});
