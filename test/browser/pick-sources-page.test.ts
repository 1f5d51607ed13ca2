// Billboards and splats picked in Chromium (SwiftShader): dynamic import of the contributors through a real bundler,
// and every pixel compared with the reference quads and splat covariances computed here in Node.
import type { Browser } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillboardSystem } from '../../entities/billboards/index.js';
import type { SplatMesh } from '../../entities/splats/index.js';
import { add, cameraBasis, pixelRay, scale, sub } from '../support/camera-rays.js';
import { nearest, splatCandidate, spriteCandidate } from '../support/entity-reference.js';
import { launchChromium, openPage, type OpenedPage, type PageServer, startPageServer } from './browser-rig';
import {
  cameraPosition,
  fovY,
  type PickSourcesPageResult,
  size,
  splatOptions,
  spritePositions,
} from './pages/pick-sources/scene.js';

const pagesRoot = fileURLToPath(new URL('./pages', import.meta.url));

describe('pick sources in Chromium', () => {
  let server: PageServer | undefined;
  let browser: Browser | undefined;
  let opened: OpenedPage;
  let result: PickSourcesPageResult;

  beforeAll(async () => {
    server = await startPageServer(pagesRoot);
    browser = await launchChromium();
    opened = await openPage(browser, `${server.url}pick-sources/index.html`);
    const handle = await opened.page.waitForFunction(() => window.__weftResult, undefined, { timeout: 60_000 });
    result = (await handle.jsonValue()) as PickSourcesPageResult;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('every pixel picks the sprite or splat the reference says, at the reference point', () => {
    if ('error' in result)
      throw new Error(`pick-sources page failed: ${result.error}; console: ${JSON.stringify(opened.consoleErrors)}`);
    // The reference entities: plain data in the same layout weft keeps (only the fields the reference reads).
    const sprites = {
      positions: spritePositions(),
      sizes: new Float32Array(24).map((_, i) => (i % 2 ? 0.7 : 0.9)),
      count: 12,
      orientation: 'axis',
      axis: [0, 1, 0],
    } as unknown as BillboardSystem;
    const options = splatOptions();
    const splats = {
      ...options,
      count: 2,
      worldMatrix: new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
      pickOpacityThreshold: 0.1,
    } as unknown as SplatMesh;
    const camera = cameraBasis(cameraPosition, [0, 0, 0], fovY, size.width, size.height);
    let compared = 0;
    const mismatches: string[] = [];
    const kinds = new Set<string>();
    for (const pick of result.picks) {
      const ray = pixelRay(camera, pick.x, pick.y, size.width, size.height);
      const truth = nearest([
        ...Array.from({ length: 12 }, (_, i) => spriteCandidate(sprites, camera, ray, i)),
        ...[0, 1].map((i) => splatCandidate(splats, ray, i)),
      ]);
      if (truth === 'unsure') continue;
      compared++;
      const expected = truth === 'miss' ? 'miss' : truth.name;
      kinds.add(expected.replace(/#\d+/, ''));
      if (pick.hit !== expected) mismatches.push(`(${pick.x}, ${pick.y}) ${pick.hit} ≠ ${expected}`);
      else if (truth !== 'miss') {
        const point = add(ray.origin, scale(ray.direction, truth.t));
        if (Math.hypot(...sub(pick.point!, point)) > 1e-3 * truth.t) mismatches.push(`(${pick.x}, ${pick.y}) point`);
      }
    }
    console.info(
      `[pick sources in Chromium] ${compared} pixels compared, ${mismatches.length} mismatches; adapter features: ${result.adapterFeatures.join(' ')}`,
    );
    expect(mismatches.slice(0, 5)).toEqual([]);
    expect([...kinds].sort()).toEqual(['miss', 'splat', 'sprite']);
    expect(result.picks.some((p) => p.hit === 'splat#1')).toBe(false);
  });

  it('logs no console, page or WebGPU errors', async () => {
    expect(opened.consoleErrors).toEqual([]);
    expect(opened.pageErrors).toEqual([]);
    expect(await opened.webgpuErrors()).toEqual([]);
  });
});
