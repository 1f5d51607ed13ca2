// The WGSL check without a GPU in Chromium: naga-wasm's browser entry instantiates its .wasm from next to the module
// (served by Vite), and a planted mistake maps to the fragment's own line as in Node.
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, type PageServer, readPageResultAsync, startPageServer } from './browser-rig';
import type { WgslCheckPageResult } from './pages/wgsl-check/main';

const pagesRoot = fileURLToPath(new URL('./pages', import.meta.url));
const TIMEOUT = 60_000;

describe('checkWgslAsync in Chromium', () => {
  let server: PageServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    server = await startPageServer(pagesRoot);
    browser = await launchChromium();
  }, TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  }, TIMEOUT);

  test(
    'a good shader gives no message; u32 times vec4f is reported at the fragment line',
    async () => {
      const result = await readPageResultAsync<WgslCheckPageResult>(
        browser!,
        `${server!.url}wgsl-check/index.html`,
        TIMEOUT,
      );
      expect(result.good).toEqual([]);
      expect(result.bad).toHaveLength(1);
      expect(result.bad[0]).toMatchObject({ fragmentId: 'page-helper', line: 3, column: 10, type: 'error' });
      expect(result.bad[0].lineText).toBe('  return c * 2u;');
      expect(result.bad[0].message).toMatch(/Multiply can't work with/);
      console.log(`naga in Chromium: a warm check of a small variant took ${result.warmMs.toFixed(2)} ms`);
    },
    TIMEOUT * 2,
  );
});
