// Live fragment edits end to end: a Vite dev server with weftLiveReload() serves a page (written to a temp folder) that
// draws four columns with three composed shaders; the test edits the page's `.wgsl` file and fragment module on disk
// and reads the columns back in Chromium. A good edit swaps only the pipelines of the shaders that use the fragment,
// without a reload; a broken one shows the mapped error (overlay + console) and the last good pipeline keeps drawing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { build, createServer, type Plugin, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weftLiveReload } from '../../vite/weft-live-reload-plugin.js';
import { launchChromium, openPage, type OpenedPage, repoRoot } from './browser-rig';

const TIMEOUT = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'weft-live-'));

/** The band fragment's WGSL (a file of its own); `color` is its output, `extra` a line to break. */
const bandWgsl = (color: string, extra = '') => `import io::{ FragmentInput, FragmentOutput };

fn bandColor(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  output.color = vec4f(${color}, 1.0);${extra}
  return output;
}
`;
/** The line of `extra` in bandWgsl (1-based). */
const extraLine = 5;

/** A fragment module (every export a fragment) with its WGSL inline. */
const tintModule = (color: string) => `export const tint = {
  id: 'tint',
  source: \`import io::{ FragmentInput, FragmentOutput };
fn tintColor(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  output.color = vec4f(${color}, 1.0);
  return output;
}\`,
  outputs: [{ name: 'color', type: 'vec4f' }],
  fills: [{ slot: 'fragmentStage', fn: 'tintColor' }],
};
`;

const bandModule = `import source from './band.wgsl?raw';
export const band = {
  id: 'band',
  source,
  outputs: [{ name: 'color', type: 'vec4f' }],
  fills: [{ slot: 'fragmentStage', fn: 'bandColor' }],
};
`;

// Four 16-pixel columns: shader A (band) with two pipeline states, shader A2 (band, another vertex stage), shader B
// (tint). Each frame reads row 32 back; a change of colour is logged with Date.now().
const mainTs = `import {
  acquireRenderPipeline,
  composeShader,
  getComposerCounters,
} from ${JSON.stringify(join(repoRoot, 'composer/index.ts'))};
import { band } from './band.ts';
import { tint } from './tint.fragment.ts';

const vertex = (id, z) => ({
  id,
  source: \`import io::{ VertexInput, VertexOutput };
fn fullscreen(input: VertexInput) -> VertexOutput {
  var output: VertexOutput;
  let corner = vec2f(f32((input.vertexIndex << 1u) & 2u), f32(input.vertexIndex & 2u));
  output.position = vec4f(corner * 2.0 - 1.0, \${z}, 1.0);
  return output;
}\`,
  fills: [{ slot: 'vertexStage', fn: 'fullscreen' }],
});

window.__token = Math.random();
window.__changes = [];
window.__swaps = [];
window.__errors = [];
addEventListener('weft:fragment-swap', (e) => window.__swaps.push({ at: Date.now(), ...e.detail }));
addEventListener('weft:fragment-error', (e) => window.__errors.push({ at: Date.now(), ...e.detail }));

const adapter = await navigator.gpu.requestAdapter();
const device = await adapter.requestDevice();
device.addEventListener('uncapturederror', (e) => window.__weftErrors.push(e.error.message));
const format = navigator.gpu.getPreferredCanvasFormat();
const context = document.querySelector('canvas').getContext('webgpu');
context.configure({ device, format, usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC, alphaMode: 'opaque' });
const targets = [{ format }];
const a = composeShader({ fragments: [vertex('fullscreen', '0.0'), band] });
const a2 = composeShader({ fragments: [vertex('fullscreen-far', '0.5'), band] });
const b = composeShader({ fragments: [vertex('fullscreen', '0.0'), tint] });
const leases = [
  acquireRenderPipeline(device, a, { targets }),
  acquireRenderPipeline(device, a, { targets, primitive: { frontFace: 'cw' } }),
  acquireRenderPipeline(device, a2, { targets }),
  acquireRenderPipeline(device, b, { targets }),
];
const firstB = leases[3].pipeline;
window.__state = () => ({
  modulesCompiled: getComposerCounters(device).modulesCompiled,
  liveModules: getComposerCounters(device).liveModules,
  bUnchanged: leases[3].pipeline === firstB,
});
const readback = device.createBuffer({ size: 256, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
let mapping = false;
let last = '';
const bgra = format.startsWith('bgra');
function frame() {
  const texture = context.getCurrentTexture();
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ view: texture.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }],
  });
  leases.forEach((lease, i) => {
    pass.setViewport(i * 16, 0, 16, 64, 0, 1);
    pass.setPipeline(lease.pipeline);
    pass.draw(3);
  });
  pass.end();
  const read = !mapping;
  if (read) encoder.copyTextureToBuffer({ texture, origin: [0, 32] }, { buffer: readback, bytesPerRow: 256 }, [64, 1]);
  device.queue.submit([encoder.finish()]);
  if (read) {
    mapping = true;
    readback.mapAsync(GPUMapMode.READ).then(() => {
      const bytes = new Uint8Array(readback.getMappedRange());
      const columns = [8, 24, 40, 56].map((x) => {
        const p = bytes.subarray(x * 4, x * 4 + 4);
        return bgra ? [p[2], p[1], p[0]] : [p[0], p[1], p[2]];
      });
      readback.unmap();
      mapping = false;
      const key = JSON.stringify(columns);
      if (key !== last) window.__changes.push({ at: Date.now(), columns });
      last = key;
      window.__frames = (window.__frames ?? 0) + 1;
    });
  }
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
`;

const html = `<!doctype html><html><body><canvas width="64" height="64"></canvas>
<script type="module" src="./main.ts"></script></body></html>`;

type Rgb = [number, number, number];
interface Change {
  at: number;
  columns: Rgb[];
}
interface Swap {
  at: number;
  file: string;
  fragmentIds: string[];
  variants: number;
  pipelines: number;
  ms: number;
}
interface ErrorReport {
  at: number;
  file: string;
  message: string;
  messages: { fragmentId: string; line: number; column: number; type: string }[];
}
interface PageState {
  token: number;
  timeOrigin: number;
  changes: Change[];
  swaps: Swap[];
  errors: ErrorReport[];
  frames: number;
  modulesCompiled: number;
  liveModules: number;
  bUnchanged: boolean;
}

const red: Rgb = [255, 0, 0];
const green: Rgb = [0, 255, 0];
const blue: Rgb = [0, 0, 255];
const yellow: Rgb = [255, 255, 0];
const magenta: Rgb = [255, 0, 255];

describe('live fragment edits (Vite dev server + weftLiveReload(), Chromium)', () => {
  let server: ViteDevServer | undefined;
  let browser: Browser | undefined;
  let opened: OpenedPage;
  const consoleInfo: string[] = [];
  const timings: string[] = [];

  const state = (): Promise<PageState> =>
    opened.page.evaluate(() => {
      const w = window as unknown as Record<string, unknown> & { __state: () => object };
      return {
        token: w.__token,
        timeOrigin: performance.timeOrigin,
        changes: w.__changes,
        swaps: w.__swaps,
        errors: w.__errors,
        frames: w.__frames ?? 0,
        ...w.__state(),
      } as PageState;
    });

  /** Writes a page file and waits until the page's columns read `want` (null: any column may differ). */
  async function editAsync(file: string, text: string, want: Rgb[]): Promise<{ ms: number; page: PageState }> {
    const before = await state();
    const written = Date.now();
    writeFileSync(join(dir, file), text);
    await opened.page.waitForFunction(
      ([n, w]) => {
        const changes = (window as unknown as { __changes: Change[] }).__changes;
        return changes.length > n && JSON.stringify(changes[changes.length - 1].columns) === w;
      },
      [before.changes.length, JSON.stringify(want)] as const,
      { timeout: TIMEOUT, polling: 20 },
    );
    const page = await state();
    const change = page.changes.find(
      (c, i) => i >= before.changes.length && JSON.stringify(c.columns) === JSON.stringify(want),
    );
    return { ms: change!.at - written, page };
  }

  beforeAll(async () => {
    writeFileSync(join(dir, 'index.html'), html);
    writeFileSync(join(dir, 'main.ts'), mainTs);
    writeFileSync(join(dir, 'band.ts'), bandModule);
    writeFileSync(join(dir, 'band.wgsl'), bandWgsl('1.0, 0.0, 0.0'));
    writeFileSync(join(dir, 'tint.fragment.ts'), tintModule('0.0, 0.0, 1.0'));
    server = await createServer({
      configFile: false,
      envDir: false,
      root: dir,
      logLevel: 'warn',
      clearScreen: false,
      appType: 'mpa',
      plugins: [weftLiveReload() as unknown as Plugin],
      optimizeDeps: { noDiscovery: true, include: [] },
      server: { host: '127.0.0.1', port: 0, fs: { strict: true, allow: [dir, repoRoot] } },
    });
    await server.listen();
    const { port } = server.httpServer!.address() as AddressInfo;
    browser = await launchChromium();
    opened = await openPage(browser, `http://127.0.0.1:${port}/index.html`);
    opened.page.on('console', (m) => {
      if (m.type() === 'info') consoleInfo.push(m.text());
      if (process.env.LIVE_DEBUG) console.log('PAGE', m.type(), m.text().slice(0, 300));
    });
    await opened.page.waitForFunction(
      () => ((window as unknown as { __frames?: number }).__frames ?? 0) > 2,
      undefined,
      {
        timeout: TIMEOUT,
      },
    );
  }, TIMEOUT * 2);

  afterAll(async () => {
    if (timings.length) console.info(`[live reload] file write → new frame (this machine)\n${timings.join('\n')}`);
    await browser?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  }, TIMEOUT);

  it('draws the first versions', async () => {
    const page = await state();
    expect(page.changes.at(-1)?.columns).toEqual([red, red, red, blue]);
  });

  it('a saved .wgsl edit swaps only the shaders using it, without a reload, in ≤ 1 s', async () => {
    const before = await state();
    const { ms, page } = await editAsync('band.wgsl', bandWgsl('0.0, 1.0, 0.0'), [green, green, green, blue]);
    timings.push(`  band.wgsl red → green        ${ms} ms (swap ${Math.round(page.swaps.at(-1)!.ms)} ms)`);
    expect(page.token, 'the same page (no reload)').toBe(before.token);
    expect(page.timeOrigin).toBe(before.timeOrigin);
    expect(page.swaps).toHaveLength(1);
    // Shaders A and A2 use band (A drawn with two states: 3 pipelines); B does not and keeps its pipeline.
    expect(page.swaps[0]).toMatchObject({ fragmentIds: ['band'], variants: 2, pipelines: 3 });
    expect(page.swaps[0].file).toBe(join(dir, 'band.wgsl'));
    expect(page.modulesCompiled - before.modulesCompiled, 'modules compiled by the edit').toBe(2);
    expect(page.liveModules, 'the old modules were released').toBe(before.liveModules);
    expect(page.bUnchanged).toBe(true);
    expect(ms).toBeLessThanOrEqual(1000);
  });

  /** Writes a broken band.wgsl and waits for the page's error report, then for 6 more frames. */
  async function breakAsync(extra: string): Promise<{ report: ErrorReport; page: PageState; before: PageState }> {
    const before = await state();
    writeFileSync(join(dir, 'band.wgsl'), bandWgsl('1.0, 0.0, 1.0', extra));
    await opened.page.waitForFunction(
      (n) => (window as unknown as { __errors: unknown[] }).__errors.length > n,
      before.errors.length,
      { timeout: TIMEOUT },
    );
    const framesAtError = (await state()).frames;
    await opened.page.waitForFunction(
      (n) => ((window as unknown as { __frames: number }).__frames ?? 0) > n + 5,
      framesAtError,
      { timeout: TIMEOUT },
    );
    const page = await state();
    return { report: page.errors.at(-1)!, page, before };
  }

  const overlayText = async () =>
    (
      await opened.page.waitForFunction(
        () => document.querySelector('vite-error-overlay')?.shadowRoot?.textContent ?? '',
        undefined,
        { timeout: TIMEOUT },
      )
    ).jsonValue();

  it('a broken edit (an unknown name: refused by the linker) is reported at its file line; the last good pipeline keeps drawing', async () => {
    const { report, page, before } = await breakAsync('\n  output.color += missingValue;');
    const first = report.messages.find((m) => m.type === 'error')!;
    expect(first).toMatchObject({ fragmentId: 'band', line: extraLine + 1 });
    expect(report.message).toContain('missingValue');
    expect(page.changes.at(-1)?.columns, 'still the last good colours').toEqual([green, green, green, blue]);
    expect(page.swaps).toHaveLength(before.swaps.length);
    expect(page.token).toBe(before.token);
    // Vite's overlay names the file and line; the console has the mapped message.
    expect(await overlayText()).toContain(`band.wgsl:${extraLine + 1}:`);
    expect(opened.consoleErrors.some((e) => e.includes(`band:${extraLine + 1}:`))).toBe(true);
    expect(await opened.webgpuErrors(), 'no device error escaped').toEqual([]);
  });

  it('a broken edit the device refuses (a type error) is reported at its file line; the last good pipeline keeps drawing', async () => {
    const { report, page, before } = await breakAsync('\n  let wrong: f32 = vec2f(1.0);');
    expect(report.message).toMatch(/ShaderCompileError|failed to compile/);
    const first = report.messages.find((m) => m.type === 'error')!;
    expect(first).toMatchObject({ fragmentId: 'band', line: extraLine + 1 });
    expect(page.changes.at(-1)?.columns).toEqual([green, green, green, blue]);
    expect(page.swaps).toHaveLength(before.swaps.length);
    expect(page.token).toBe(before.token);
    expect(page.liveModules, 'the failed modules were given back').toBe(before.liveModules);
    expect(await overlayText()).toContain(`band.wgsl:${extraLine + 1}:`);
    expect(await opened.webgpuErrors(), 'no device error escaped').toEqual([]);
  });

  it('the fix swaps in again', async () => {
    const before = await state();
    const { ms, page } = await editAsync('band.wgsl', bandWgsl('1.0, 1.0, 0.0'), [yellow, yellow, yellow, blue]);
    timings.push(`  band.wgsl fixed → yellow     ${ms} ms (swap ${Math.round(page.swaps.at(-1)!.ms)} ms)`);
    expect(page.token).toBe(before.token);
    expect(page.swaps.at(-1)).toMatchObject({ fragmentIds: ['band'], variants: 2, pipelines: 3 });
    expect(page.bUnchanged).toBe(true);
    expect(
      await opened.page.evaluate(() => document.querySelector('vite-error-overlay') === null),
      'the overlay is gone',
    ).toBe(true);
  });

  it('a saved fragment module swaps its fragment', async () => {
    const before = await state();
    const { ms, page } = await editAsync('tint.fragment.ts', tintModule('1.0, 0.0, 1.0'), [
      yellow,
      yellow,
      yellow,
      magenta,
    ]);
    timings.push(`  tint.fragment.ts → magenta   ${ms} ms (swap ${Math.round(page.swaps.at(-1)!.ms)} ms)`);
    expect(page.token).toBe(before.token);
    expect(page.swaps.at(-1)).toMatchObject({ fragmentIds: ['tint'], variants: 1, pipelines: 1 });
    expect(page.modulesCompiled - before.modulesCompiled).toBe(1);
    expect(consoleInfo.some((m) => m.includes('tint swapped in 1 shader(s), 1 pipeline(s)'))).toBe(true);
    expect(opened.pageErrors).toEqual([]);
    expect(await opened.webgpuErrors()).toEqual([]);
  });

  it('a production build holds none of it', async () => {
    const output = await build({
      root: dir,
      configFile: false,
      logLevel: 'error',
      plugins: [weftLiveReload() as unknown as Plugin],
      build: { write: false, rolldownOptions: { input: join(dir, 'index.html') } },
    });
    const code = (Array.isArray(output) ? output : [output])
      .flatMap((o) => ('output' in o ? o.output : []))
      .map((c) => (c.type === 'chunk' ? c.code : ''))
      .join('\n');
    expect(code.includes('fn bandColor'), 'the page is in the build').toBe(true);
    // The composer's swap (its messages) and the hot-edit glue are not: only a null check per compose remains.
    const markers = [
      'live fragments are off',
      'the edit changes the bindings',
      'no live pipeline uses',
      'import.meta.hot',
    ];
    expect(markers.filter((m) => code.includes(m))).toEqual([]);
  });
});
