// The editor page built to static files (`vite build demo/web`, as `npm run build:demo` does) runs in Chromium:
// it starts without errors and a click selects.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, type OpenedPage } from '../browser-rig';
import { api, clickAt, editorRoot, editorTimeout, idle, project } from './editor-harness';

describe('editor page: static build', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'weft-editor-build-'));
  let server: PreviewServer | undefined;
  let browser: Browser | undefined;
  let opened: OpenedPage;

  beforeAll(async () => {
    const configFile = join(editorRoot, 'vite.config.ts');
    // As `vite build` from the command line: vitest's NODE_ENV=test would otherwise make a non-production build.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ configFile, mode: 'production', logLevel: 'error', build: { outDir, emptyOutDir: true } });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    // Vite's preview server: the built files as they are, no transforms.
    server = await preview({
      configFile,
      logLevel: 'error',
      build: { outDir },
      preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
    });
    const url = server.resolvedUrls?.local[0];
    if (!url) throw new Error('the preview server reported no URL');
    browser = await launchChromium();
    opened = await openPage(browser, `${url}index.html`);
    await opened.page.setViewportSize({ width: 1140, height: 640 });
    await opened.page.waitForFunction(
      () => window.__editor !== undefined || window.__editorFailed !== undefined,
      undefined,
      { timeout: 120_000 },
    );
  }, editorTimeout);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(outDir, { recursive: true, force: true });
  }, editorTimeout);

  it('emits index.html and hashed assets only', () => {
    expect(readdirSync(outDir).sort()).toEqual(['assets', 'index.html']);
    expect(readdirSync(join(outDir, 'assets')).every((f) => /-[\w-]{8}\.(js|css)$/.test(f))).toBe(true);
  });

  it('starts without errors and selects on click', async () => {
    const { page } = opened;
    expect(await page.evaluate(() => window.__editorFailed)).toBeUndefined();
    await idle(page);
    const camera = await api(page, (e) => e.camera());
    const sphere = (await api(page, (e) => e.objects())).find((o) => o.name === 'sphere')!;
    const at = project(camera, sphere.origin);
    await clickAt(page, camera, at.x, at.y);
    expect(await api(page, (e) => e.selection())).toEqual(['sphere']);
    expect(opened.consoleErrors).toEqual([]);
    expect(opened.pageErrors).toEqual([]);
    expect(await opened.webgpuErrors()).toEqual([]);
  });
});
