// weft-gpu/babylon in Chromium (SwiftShader WebGPU): every pixel of seeded random Babylon.js scenes against Babylon.js's
// own CPU pick (scene.pickWithRay, rays built in float64 from the camera's parameters) and three-mesh-bvh for the
// skinned and morphed meshes; then box, concurrency, clip-plane, typed-error and device-loss checks; and picks made
// before Babylon.js drew a frame (meshes moved in place, no material yet, the picking list on multi-point and box
// picks). The page is test/browser/pages/babylon-picker/.
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, type PageServer, startPageServer } from './browser-rig';
import type { Tally } from './pages/babylon-picker/main';

const pagesRoot = fileURLToPath(new URL('./pages', import.meta.url));

function formatTable(tallies: Tally[]): string {
  const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(3)} %` : 'n/a');
  const rows = tallies.map(
    (t) =>
      `| ${t.variant} | ${t.interior}/${t.pixels} | ${t.hits} (${t.deformedHits} three-mesh-bvh) | ${pct(t.identity, t.interior)} | ${pct(t.face, t.interior)} | ${pct(t.point, t.hits)} (max ${t.maxPoint.toExponential(1)}) | ${pct(t.barycentric, t.hits)} (max ${t.maxBarycentric.toExponential(1)}) | ${pct(t.normal, t.normalCompared)} of ${t.normalCompared} (max ${t.maxNormalDegrees.toExponential(1)}°) |`,
  );
  return [
    '| scene | interior pixels | hits | identity | faceId | point ≤ 1e-5·d | bu/bv ≤ 1e-4 | getNormal ≤ 0.01° |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

describe('weft-gpu/babylon picker (Chromium, SwiftShader)', () => {
  let server: PageServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    server = await startPageServer(pagesRoot, ['three', 'three-mesh-bvh']);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('agrees with Babylon.js CPU picks and three-mesh-bvh on every interior pixel; box, concurrency, clip planes, errors', async () => {
    const opened = await openPage(browser!, `${server!.url}babylon-picker/index.html`);
    const handle = await opened.page.waitForFunction(() => window.__weftResult, undefined, {
      timeout: 400_000,
      polling: 500,
    });
    const result = (await handle.jsonValue()) as
      | { error: string }
      | { babylon: string; tallies: Tally[]; checks: Record<string, unknown> };
    if ('error' in result)
      throw new Error(`page failed: ${result.error}; console: ${JSON.stringify(opened.consoleErrors)}`);
    console.info(`[babylon picker] Babylon.js ${result.babylon}\n${formatTable(result.tallies)}`);
    console.info(`[babylon picker] checks ${JSON.stringify(result.checks, null, 1)}`);
    for (const t of result.tallies) {
      if (t.failures.length) console.info(`[babylon picker] ${t.variant} failures:\n  ${t.failures.join('\n  ')}`);
      expect(t.hits).toBeGreaterThan(t.interior * 0.15);
      expect(t.deformedHits).toBeGreaterThan(20);
      expect(t.hiddenPicked).toBe(0);
      expect(t.identity / t.interior).toBeGreaterThanOrEqual(0.999);
      expect(t.face / t.interior).toBeGreaterThanOrEqual(0.999);
      expect(t.point / t.hits).toBeGreaterThanOrEqual(0.999);
      expect(t.barycentric / t.hits).toBeGreaterThanOrEqual(0.999);
      expect(t.normal / t.normalCompared).toBeGreaterThanOrEqual(0.999);
    }
    const c = result.checks;
    for (const [key, value] of Object.entries(c))
      if (
        key.endsWith("= the pixels' meshes") ||
        key.endsWith('concurrent picks agree') ||
        key.endsWith('picks after errors') ||
        key.startsWith('before the first frame') ||
        key.startsWith('shared geometry')
      )
        expect([key, value]).toEqual([key, true]);
    // Picks before Babylon.js drew a frame (meshes moved in place, no material yet, a picking list): both handedness.
    expect(Object.keys(c).filter((key) => key.startsWith('before the first frame'))).toHaveLength(8);
    // Clones sharing one Geometry, picked after their geometry, sub-meshes, materials, sides, culling and thin
    // instances changed between two picks.
    expect(Object.keys(c).filter((key) => key.startsWith('shared geometry'))).toHaveLength(13);
    expect(String(c['sub-mesh replaced in the same array: typed error'])).toMatch(
      /^unsupported: multiPickBabylonAsync: mesh "clone2": its sub-meshes do not cover/,
    );
    expect(String(c['single sub-mesh edited in place: typed error'])).toMatch(
      /^unsupported: multiPickBabylonAsync: mesh "clone3": its sub-meshes do not cover/,
    );
    // Each variant: a pick after a steady one is drawn ahead of its walk and stands (one pass); after a move it is drawn
    // again (two passes) and the moved mesh is not answered.
    const ahead = Object.keys(c).filter((key) => key.endsWith('pick ahead of the walk'));
    expect(ahead).toHaveLength(2);
    for (const key of ahead)
      expect([key, c[key]]).toEqual([
        key,
        {
          stillSame: true,
          stillPasses: 1,
          movedMeshAnswered: false,
          movedPasses: 2,
          boxStillHasMesh: true,
          boxMovedHasMesh: false,
          boxMovedPasses: 2,
        },
      ]);
    expect(c['clip plane: no picked point on the clipped side']).toBe(true);
    expect(c['clip plane: pixels where a surface behind the plane is picked instead']).toBeGreaterThan(0);
    expect(c['material clip planes: no picked point on the clipped side']).toBe(true);
    expect(c['material clip planes: pixels where a surface behind the plane is picked instead']).toBeGreaterThan(0);
    expect(c['clip planes removed: picks as before']).toBe(true);
    expect(String(c['lines mesh: typed error'])).toMatch(/^unsupported: pickBabylonAsync: mesh "guide" is a LinesMesh/);
    expect(c['bad option: typed error']).toBe('bad-option');
    expect(c['outside the frame: weft PickError']).toBe('out-of-range');
    expect(c['after dispose: typed error']).toBe('disposed');
    expect(String(c['device lost: typed error'])).toMatch(/^device-lost: .*createBabylonPickerAsync/);
    expect(opened.pageErrors).toEqual([]);
    expect(await opened.webgpuErrors()).toEqual([]);
    await opened.page.close();
  }, 600_000);
});
