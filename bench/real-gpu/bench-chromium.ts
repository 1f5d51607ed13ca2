// Where the Chromium benchmarks get their browser and pages. By default: test/browser/browser-rig.ts (Debian's
// Chromium on SwiftShader, Vite's dev server). On a machine without node_modules (the device machines):
//   WEFT_BENCH_PAGES  a folder built by bench/real-gpu/build-pages.ts, served as static files;
//   WEFT_CHROMIUM     a Chromium binary, launched with the switches that let WebGPU reach a real GPU through Vulkan
//                     (WEFT_CHROMIUM_ARGS adds switches, separated by spaces, to try others without repacking);
//   WEFT_BENCH_ADAPTER a case-insensitive pattern the page's WebGPU adapter must match, checked before any bench
//                      (with WEFT_CHROMIUM set it defaults to 'nvidia'; set it empty to measure any adapter).
// browser-rig.ts is loaded only when needed: it imports Vite, which that machine does not have.
import { createReadStream, existsSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, extname, join, normalize, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

/** The page server a benchmark talks to (same shape as browser-rig's). */
export interface BenchPageServer {
  /** Base URL with a trailing slash. */
  url: string;
  close(): Promise<void>;
}

/**
 * Chromium switches for WebGPU on a real GPU in a headless machine with no display: Dawn and ANGLE on Vulkan, no
 * Vulkan surface (there is no window system), no GPU sandbox (it would hide the driver's device nodes).
 */
export const realGpuChromiumArgs: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu-sandbox',
  '--enable-unsafe-webgpu',
  '--ignore-gpu-blocklist',
  '--enable-features=Vulkan',
  '--use-angle=vulkan',
  '--use-vulkan=native',
  '--disable-vulkan-surface',
  '--disable-vulkan-fallback-to-gl-for-testing',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  // Containers often have a small /dev/shm; Chromium's renderers crash when it fills.
  '--disable-dev-shm-usage',
  // The device machine has no network; resolving nothing here too makes a page that fetches from a CDN fail alike.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

/**
 * Headers that make a bench page cross-origin isolated: its `performance.now()` then ticks in ~5 µs, not Chromium's
 * 100 µs, which would round a 0.3 ms pick to 0.3 or 0.4. Every file a bench page loads is same-origin.
 */
export const crossOriginIsolationHeaders: Readonly<Record<string, string>> = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
};

/** Serves the files under `root` on 127.0.0.1 (free port), cross-origin isolated; nothing outside `root` is reachable. */
export async function startStaticServer(root: string): Promise<BenchPageServer> {
  const base = resolve(root);
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const file = normalize(join(base, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(`${base}/`) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end(`not found: ${path}`);
      return;
    }
    response.writeHead(200, {
      'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
      ...crossOriginIsolationHeaders,
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', done);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/**
 * The pages of the bench folder `pagesRoot` (bench/three-pick or bench/browser-pick): the built copy under
 * WEFT_BENCH_PAGES when that is set, else Vite's dev server over the sources.
 */
export async function startBenchPageServer(pagesRoot: string): Promise<BenchPageServer> {
  const built = process.env.WEFT_BENCH_PAGES;
  if (built) {
    const folder = join(built, basename(resolve(pagesRoot)));
    if (!existsSync(join(folder, 'index.html')))
      throw new Error(`WEFT_BENCH_PAGES: ${folder} holds no index.html; run bench/real-gpu/build-pages.ts first`);
    return startStaticServer(folder);
  }
  const rig = await import('../../test/browser/browser-rig.js');
  return rig.startPageServer(pagesRoot, [], crossOriginIsolationHeaders);
}

/** What `navigator.gpu.requestAdapter()` gave a page, as one line (vendor, architecture, device, description). */
export async function describePageAdapterAsync(browser: Browser, url: string): Promise<string> {
  const page = await browser.newPage();
  try {
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    return await page.evaluate(async () => {
      if (!('gpu' in navigator)) return '(navigator.gpu is missing: WebGPU is off in this Chromium)';
      const adapter = await navigator.gpu.requestAdapter();
      if (!adapter) return '(navigator.gpu.requestAdapter() gave null: no WebGPU adapter)';
      const info = adapter.info;
      const parts = [info.vendor, info.architecture, info.device, info.description].filter((part) => part);
      return `${parts.join(' | ') || '(the adapter reports nothing about itself)'}; fallback adapter: ${info.isFallbackAdapter}`;
    });
  } finally {
    await page.close();
  }
}

/**
 * Switches every bench Chromium gets: `gc()` in pages, so a bench can collect before each timed step and no step pays
 * for the garbage of the one before it (the other library's, in a side-by-side round).
 */
export const benchPageArgs: readonly string[] = ['--js-flags=--expose-gc'];

/** realGpuChromiumArgs, benchPageArgs and the switches in WEFT_CHROMIUM_ARGS. */
export function benchChromiumArgs(): string[] {
  const extra = process.env.WEFT_CHROMIUM_ARGS?.split(' ').filter((arg) => arg) ?? [];
  return [...realGpuChromiumArgs, ...benchPageArgs, ...extra];
}

/**
 * Launches the benchmark's Chromium: WEFT_CHROMIUM's binary on the real GPU, else browser-rig's SwiftShader one. With
 * WEFT_CHROMIUM set, prints the adapter a page at `pageUrl` gets and throws unless it matches WEFT_BENCH_ADAPTER, so no
 * table is measured on a software adapter by mistake.
 */
export async function launchBenchChromium(pageUrl: string): Promise<Browser> {
  const executablePath = process.env.WEFT_CHROMIUM;
  if (!executablePath) {
    const rig = await import('../../test/browser/browser-rig.js');
    return rig.launchChromium(benchPageArgs);
  }
  const browser = await chromium.launch({ executablePath, headless: true, args: benchChromiumArgs() });
  try {
    const described = await describePageAdapterAsync(browser, pageUrl);
    console.log(`Chromium ${browser.version()} WebGPU adapter: ${described}`);
    const wanted = process.env.WEFT_BENCH_ADAPTER ?? 'nvidia';
    if (wanted && !new RegExp(wanted, 'i').test(described))
      throw new Error(`WEFT_BENCH_ADAPTER is /${wanted}/i but Chromium gave "${described}"; refusing to measure it`);
  } catch (error) {
    await browser.close();
    throw error;
  }
  return browser;
}

/**
 * Runs `work` (steps on `page`) under V8's sampling profiler and writes the profile to `file` (open it in Chrome
 * DevTools' Performance panel): the benches' `BENCH_CPU_PROFILE` option.
 */
export async function writePageCpuProfile(
  page: Page,
  file: string,
  work: () => Promise<unknown>,
  samplingMicros = 100,
): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: samplingMicros });
  await cdp.send('Profiler.start');
  await work();
  const { profile } = await cdp.send('Profiler.stop');
  writeFileSync(file, JSON.stringify(profile));
  await cdp.detach();
}
