// Browser test rig: a Vite dev server for test pages, Debian's Chromium with WebGPU on
// (DESIGN.md §7), and pages that record console, page and WebGPU errors.
import { existsSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createServer, type Plugin } from 'vite';

/** Absolute path of the repository root (two folders above this file). */
export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Where Debian's `chromium` package installs its launcher. */
export const chromiumPath = '/usr/bin/chromium';

/** The Chromium switches of DESIGN.md §7 (Playwright adds a fresh temporary --user-data-dir). */
export const chromiumArgs: readonly string[] = [
  '--enable-unsafe-webgpu',
  '--ignore-gpu-blocklist',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-angle=swiftshader',
  '--use-gl=angle',
  '--no-sandbox',
  '--disable-gpu-sandbox',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

export interface PageServer {
  /** Base URL with a trailing slash, e.g. `http://127.0.0.1:41234/`. */
  url: string;
  close(): Promise<void>;
}

export interface OpenedPage {
  page: Page;
  /** Text of every `console.error` message, in order. */
  consoleErrors: string[];
  /** Messages of uncaught exceptions and unhandled rejections in the page. */
  pageErrors: string[];
  /** Messages the page pushed into `window.__weftErrors` (e.g. from `device.onuncapturederror`). */
  webgpuErrors(): Promise<string[]>;
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** Resolves `/engine/index.ts`-style absolute imports to the repo root when the page root lacks them. */
function repoFallback(root: string): Plugin {
  return {
    name: 'weft-repo-fallback',
    enforce: 'pre',
    resolveId(source) {
      if (!source.startsWith('/') || source.startsWith('/@') || source.startsWith(`${repoRoot}/`)) return null;
      const path = source.split(/[?#]/)[0];
      if (isFile(join(root, path))) return null;
      const inRepo = join(repoRoot, path);
      return isFile(inRepo) ? inRepo + source.slice(path.length) : null;
    },
  };
}

/**
 * Starts a Vite dev server on 127.0.0.1 (free port) serving the pages under `root`. `prebundle` names CommonJS
 * packages a page imports (e.g. `bunny`), which the dev server must convert to ES modules first; `headers` go on
 * every response (the benches' cross-origin isolation).
 */
export async function startPageServer(
  root: string,
  prebundle: readonly string[] = [],
  headers: Readonly<Record<string, string>> = {},
): Promise<PageServer> {
  const pagesRoot = resolve(root);
  const cacheDir = mkdtempSync(join(repoRoot, 'node_modules', '.vite-pages-'));
  const server = await createServer({
    configFile: false,
    envDir: false,
    root: pagesRoot,
    logLevel: 'warn',
    clearScreen: false,
    appType: 'mpa',
    plugins: [repoFallback(pagesRoot)],
    // A cache folder per server, removed with it: test files run side by side, and servers sharing one folder rewrite
    // each other's pre-bundled packages (a page then fails to fetch a `bunny.js` another server's optimiser replaced).
    cacheDir,
    optimizeDeps: { noDiscovery: true, include: [...prebundle] },
    server: {
      host: '127.0.0.1',
      port: 0,
      strictPort: false,
      hmr: false,
      watch: null,
      headers: { ...headers },
      // node_modules may be a link out of the checkout (a git worktree's); a page fetches files there too (.wasm).
      fs: { strict: true, allow: [pagesRoot, repoRoot, realpathSync(join(repoRoot, 'node_modules'))] },
    },
  });
  await server.listen();
  const address = server.httpServer?.address() as AddressInfo | null;
  if (!address || typeof address === 'string') {
    await server.close();
    rmSync(cacheDir, { recursive: true, force: true });
    throw new Error('Vite dev server did not report a TCP address');
  }
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: async () => {
      await server.close();
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

/** Launches headless Debian Chromium with WebGPU on SwiftShader and a fresh temporary profile. */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `${chromiumPath} is missing: install Debian's \`chromium\` package (apt-get install chromium); ` +
        "the repo's `npm test` bootstrap installs it.",
    );
  }
  // chromium.launch() always passes its own fresh `--user-data-dir` (a mkdtemp'd
  // playwright_chromiumdev_profile-* folder, deleted on close) and rejects one in `args`.
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: [...chromiumArgs, ...extraArgs] });
}

/** Opens `url` in a new context, recording console errors, page errors and `window.__weftErrors`. */
export async function openPage(browser: Browser, url: string): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport: { width: 320, height: 240 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(error.stack ?? error.message));
  page.on('close', () => void context.close().catch(() => undefined));
  await page.addInitScript(() => {
    (window as unknown as { __weftErrors: string[] }).__weftErrors = [];
  });
  await page.goto(url, { waitUntil: 'load' });
  const webgpuErrors = (): Promise<string[]> =>
    page.evaluate(() => [...((window as unknown as { __weftErrors?: string[] }).__weftErrors ?? [])]);
  return { page, consoleErrors, pageErrors, webgpuErrors };
}

/**
 * Opens `url`, waits until the page publishes `window.__weftResult` and returns it, then closes the page. Throws when
 * the page published `{ error }` (with its console errors), raised an uncaught error, or reported a WebGPU error.
 */
export async function readPageResultAsync<T>(browser: Browser, url: string, timeout: number): Promise<T> {
  const opened = await openPage(browser, url);
  try {
    const handle = await opened.page.waitForFunction(
      () => (window as unknown as { __weftResult?: unknown }).__weftResult,
      undefined,
      { timeout },
    );
    const result = (await handle.jsonValue()) as T | { error: string };
    if (result && typeof result === 'object' && 'error' in result)
      throw new Error(`page failed: ${result.error}; console: ${JSON.stringify(opened.consoleErrors)}`);
    const webgpuErrors = await opened.webgpuErrors();
    if (opened.pageErrors.length || webgpuErrors.length)
      throw new Error(
        `${url}: page errors ${JSON.stringify(opened.pageErrors)}, WebGPU errors ${JSON.stringify(webgpuErrors)}`,
      );
    return result as T;
  } finally {
    await opened.page.close();
  }
}
