// Build-time composition end to end: the same render + pick + G-buffer page built twice with Vite — composing at run
// time, and with the weftVariants() plugin — then run in Chromium. The plugin build holds no wesl and no linker, is
// smaller by at least wesl's own size (measured in this run), and renders, picks and fills the G-buffer the same.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { build, type Plugin } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVariantRegistry } from '../../composer/variant-registry.js';
import { makeBoxData } from '../../engine/primitives/box.js';
import { GeometryTextureType } from '../../geometry/geometry-types.js';
import { registerMeshVariants } from '../../variants/mesh-variants.js';
import { weftVariants } from '../../vite/weft-variants-plugin.js';
import { launchChromium, openPage, type OpenedPage } from './browser-rig';
import type { PrecomposedPageResult } from './pages/precomposed/scene';

const pageRoot = fileURLToPath(new URL('./pages/precomposed', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'weft-precomposed-'));

/** Strings only wesl's code holds (checked below against a bundle of wesl alone) and one of the composer's link.ts. */
const weslMarkers = ['weslLocation', 'requires initialization', '(with current conditions)'];
const linkModuleMarker = 'wesl could not link the fragments';
/** A message of the composer's fragment graph: absent when the build drops composeUncached with the linker. */
const composerMarker = 'fragment dependencies form a cycle';

interface BuiltPage {
  dir: string;
  code: string;
  gzip: number;
  bytes: number;
}

/** Builds one page of pages/precomposed (or a bare entry) with Vite into its own folder. */
async function buildPage(name: string, input: string, plugins: Plugin[]): Promise<BuiltPage> {
  const dir = join(scratch, name);
  const output = await build({
    root: pageRoot,
    configFile: false,
    logLevel: 'error',
    base: './',
    plugins,
    build: { outDir: dir, emptyOutDir: true, rolldownOptions: { input } },
  });
  const chunks = (Array.isArray(output) ? output : [output])
    .flatMap((o) => ('output' in o ? o.output : []))
    .filter((c) => c.fileName.endsWith('.js'))
    .map((c) => (c.type === 'chunk' ? c.code : String(c.source)));
  return {
    dir,
    code: chunks.join('\n'),
    bytes: chunks.reduce((sum, c) => sum + Buffer.byteLength(c), 0),
    gzip: chunks.reduce((sum, c) => sum + gzipSync(c).length, 0),
  };
}

/** Serves built folders under /<name>/ on 127.0.0.1. */
async function serve(pages: Record<string, string>): Promise<{ url: string; server: Server }> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };
  const server = createServer((request, response) => {
    const [, name, ...rest] = (request.url ?? '/').split('?')[0].split('/');
    try {
      const file = join(pages[name], ...rest);
      response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
      response.end(readFileSync(file));
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

describe('build-time composition (Vite + weftVariants(), Chromium)', () => {
  let runTime: BuiltPage;
  let buildTime: BuiltPage;
  let weslOnly: BuiltPage;
  let browser: Browser | undefined;
  let server: Server | undefined;
  const opened: Record<string, OpenedPage> = {};
  const results: Record<string, PrecomposedPageResult> = {};

  beforeAll(async () => {
    // The page's meshes: one box, drawn by the forward frame, the pick pass (basic and detailed) and a G-buffer.
    const registry = registerMeshVariants(makeVariantRegistry(), 'box', {
      data: makeBoxData(),
      passes: ['forward', 'pick', 'pick-detail'],
      geometry: [GeometryTextureType.WORLD_NORMAL],
    });
    runTime = await buildPage('run-time', join(pageRoot, 'run-time.html'), []);
    buildTime = await buildPage('build-time', join(pageRoot, 'build-time.html'), [
      weftVariants({ registry }) as unknown as Plugin,
    ]);
    // wesl alone, with the imports link.ts makes: the size the plugin must save at least.
    weslOnly = await buildPage('wesl-only', join(pageRoot, 'wesl-only.ts'), []);
    const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`.padStart(9);
    console.info(
      [
        '[build-time composition] page sizes (all JS chunks, this run)',
        `  page                         JS      gzip`,
        `  run-time composition  ${kB(runTime.bytes)} ${kB(runTime.gzip)}`,
        `  weftVariants() plugin ${kB(buildTime.bytes)} ${kB(buildTime.gzip)}`,
        `  wesl alone            ${kB(weslOnly.bytes)} ${kB(weslOnly.gzip)}`,
        `  saved by the plugin   ${kB(runTime.bytes - buildTime.bytes)} ${kB(runTime.gzip - buildTime.gzip)}`,
      ].join('\n'),
    );
    const served = await serve({ 'run-time': runTime.dir, 'build-time': buildTime.dir });
    server = served.server;
    browser = await launchChromium();
    for (const name of ['run-time', 'build-time']) {
      opened[name] = await openPage(browser, `${served.url}${name}/${name}.html`);
      const handle = await opened[name].page
        .waitForFunction(() => window.__weftResult, undefined, { timeout: 60_000 })
        .catch((error: Error) => {
          throw new Error(`${name} page set no result: ${error.message}; ${JSON.stringify(opened[name])}`);
        });
      results[name] = (await handle.jsonValue()) as PrecomposedPageResult;
    }
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('the plugin build holds no wesl code, no composer link module and no compose steps; the run-time build holds them', () => {
    const has = (page: BuiltPage, markers: readonly string[]) => markers.filter((m) => page.code.includes(m));
    const markers = [...weslMarkers, linkModuleMarker, composerMarker];
    expect(has(weslOnly, weslMarkers), "wesl's own strings").toEqual(weslMarkers);
    expect(has(runTime, markers), 'in the run-time page').toEqual(markers);
    expect(has(buildTime, markers), 'in the plugin page').toEqual([]);
  });

  it("the plugin page is smaller (gzip) than the run-time page by at least wesl's own size", () => {
    expect(runTime.gzip - buildTime.gzip).toBeGreaterThanOrEqual(weslOnly.gzip);
  });

  it('renders, picks and fills the G-buffer exactly as the run-time composed page', () => {
    const [a, b] = [results['run-time'], results['build-time']];
    if ('error' in a) throw new Error(`run-time page failed: ${a.error}`);
    if ('error' in b) throw new Error(`plugin page failed: ${b.error}`);
    expect(b.frame).toEqual(a.frame);
    expect(b.picks).toEqual(a.picks);
    expect(b.worldNormal).toEqual(a.worldNormal);
    expect(b.detailed).toBe(a.detailed);
    // The scene is not empty: the centre is the box, a corner is the clear colour, and a pick names the box.
    expect(a.picks[0]).toMatchObject({ hit: true, name: 'box' });
    expect(a.picks[3]).toMatchObject({ hit: false, name: null });
    expect(a.frame[0]).not.toEqual(a.frame[3]);
    expect(
      a.worldNormal.some((byte) => byte !== 0),
      'the G-buffer texel under the box is written',
    ).toBe(true);
  });

  it('a mesh the page did not declare is a typed not-precomposed error in the plugin page, and composes at run time', () => {
    const [a, b] = [results['run-time'], results['build-time']];
    if ('error' in a || 'error' in b) throw new Error('a page failed (see above)');
    expect(a.missError).toBe('none');
    expect(b.missError).toMatch(
      /^ComposeError not-precomposed: composeShader: no precomposed shader has key [0-9a-f]{16}/,
    );
    expect(b.missError).toMatch(/The table holds [^.]*box-forward/);
    expect(b.missError).toContain('color:float32x4');
  });

  it('logs no console, page or WebGPU errors', async () => {
    for (const name of ['run-time', 'build-time']) {
      expect(opened[name].consoleErrors, name).toEqual([]);
      expect(opened[name].pageErrors, name).toEqual([]);
      expect(await opened[name].webgpuErrors(), name).toEqual([]);
    }
  });
});
