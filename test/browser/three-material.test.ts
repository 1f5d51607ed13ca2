// createThreeMaterial in Chromium: a weft surface drawn by three.js's own vertex pipeline (object matrix, instance
// matrix, bone) renders like weft's own rendering of the same pose, and uniform updates compile nothing.
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparePixels } from '../support/host-render';
import { launchChromium, type PageServer, readPageResultAsync, startPageServer } from './browser-rig';

const pagesRoot = fileURLToPath(new URL('./pages', import.meta.url));
/** Max channel difference allowed (of 255) and the share of non-edge pixels that must be within it. */
const tolerance = 2;
const minShare = 0.999;

interface Counts {
  modules: number;
  pipelines: number;
}
interface PageResult {
  size: number;
  weft: number[];
  moved: number[];
  instanced: number[];
  skinned: number[];
  retinted: number[];
  again: number[];
  counts: { afterFirst: Counts; afterKinds: Counts; afterUpdates: Counts; afterSecond: Counts };
  errors: string[];
  three: string;
}

describe('weft-gpu/three: a weft surface as a three.js material (Chromium, SwiftShader)', () => {
  let server: PageServer | undefined;
  let browser: Browser | undefined;
  let result: PageResult;

  beforeAll(async () => {
    server = await startPageServer(pagesRoot);
    browser = await launchChromium();
    result = await readPageResultAsync<PageResult>(browser, `${server.url}three-material/index.html`, 120_000);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const pose of ['moved', 'instanced', 'skinned', 'again'] as const)
    it(`${pose}: renders like weft's own rendering of the same pose, pixel by pixel`, () => {
      const diff = comparePixels(Uint8Array.from(result.weft), Uint8Array.from(result[pose]), result.size, tolerance);
      console.info(
        `[three material ${pose}] r${result.three}: ${diff.within}/${diff.compared} non-edge pixels within ${tolerance}/255 (${((100 * diff.within) / diff.compared).toFixed(3)} %), max ${diff.maxDiff}; all pixels ${diff.allWithin}/${diff.pixels}, max ${diff.allMaxDiff}`,
      );
      expect(diff.compared).toBeGreaterThan(diff.pixels * 0.8);
      expect(diff.within / diff.compared).toBeGreaterThanOrEqual(minShare);
      // The torus was drawn (not just the clear colour).
      const pixels = Uint8Array.from(result[pose]);
      let covered = 0;
      for (let i = 0; i < pixels.length; i += 4) if (pixels[i] !== pixels[0] || pixels[i + 2] !== pixels[2]) covered++;
      expect(covered).toBeGreaterThan(diff.pixels * 0.15);
    });

  it('a uniform set by name changes the picture and compiles nothing; a second material of the same surface compiles nothing', () => {
    const { afterFirst, afterKinds, afterUpdates, afterSecond } = result.counts;
    console.info(`[three material compiles] ${JSON.stringify(result.counts)}`);
    expect(afterFirst.modules).toBeGreaterThan(0);
    const retint = comparePixels(
      Uint8Array.from(result.weft),
      Uint8Array.from(result.retinted),
      result.size,
      tolerance,
    );
    expect(retint.maxDiff).toBeGreaterThan(60);
    expect(retint.within / retint.compared).toBeLessThan(0.9);
    expect(afterUpdates).toEqual(afterKinds);
    expect(afterSecond).toEqual(afterUpdates);
  });

  it('a misspelt binding or field, or a value of the wrong length, is a typed error listing what is allowed', () => {
    expect(result.errors).toEqual([
      expect.stringMatching(
        /^ThreeMaterialError: setThreeMaterialUniforms: bandParams \(BandParams\) has no field "tnt"; its fields: tint, bandColor, band$/,
      ),
      expect.stringMatching(
        /^ThreeMaterialError: setThreeMaterialUniforms: the surface has no uniform binding "bandParms"; its bindings: .*bandParams/,
      ),
      expect.stringMatching(
        /^ThreeMaterialError: setThreeMaterialUniforms: bandParams\.tint array\(3\) must be 4 finite numbers \(WGSL vec4f\)$/,
      ),
    ]);
  });
});
