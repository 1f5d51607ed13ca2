// Triangle detail in Chromium (SwiftShader, no primitive-index): every pixel's faceId, barycentrics, point, normal
// and UV against three.js + three-mesh-bvh rays built here in Node, in float64, from the camera's parameters.
import type { Browser } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cameraBasis, pixelRay } from '../support/camera-rays.js';
import { castReferenceRay, createReferenceScene } from '../support/reference-raycast.js';
import { launchChromium, openPage, type OpenedPage, type PageServer, startPageServer } from './browser-rig';
import { cameraPosition, type DetailPageResult, detailMeshes, fovY, size } from './pages/detail/scene.js';

const pagesRoot = fileURLToPath(new URL('./pages', import.meta.url));

describe('triangle detail in Chromium', () => {
  let server: PageServer | undefined;
  let browser: Browser | undefined;
  let opened: OpenedPage;
  let result: DetailPageResult;

  beforeAll(async () => {
    server = await startPageServer(pagesRoot);
    browser = await launchChromium();
    opened = await openPage(browser, `${server.url}detail/index.html`);
    const handle = await opened.page.waitForFunction(() => window.__weftResult, undefined, { timeout: 90_000 });
    result = (await handle.jsonValue()) as DetailPageResult;
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('turns detail on through the vertex-index path where the adapter lacks primitive-index', () => {
    if ('error' in result)
      throw new Error(`detail page failed: ${result.error}; console: ${JSON.stringify(opened.consoleErrors)}`);
    expect(result.enabled).toBe(true);
    expect(result.method).toBe(result.adapterFeatures.includes('primitive-index') ? 'primitive-index' : 'vertex-index');
    console.info(`[detail page] method ${result.method}; adapter features: ${result.adapterFeatures.join(' ')}`);
  });

  it('agrees with a float64 three-mesh-bvh ray cast at every stable pixel: identity, face, point, bu/bv, normal, UV', () => {
    if ('error' in result) throw new Error(result.error);
    const meshes = detailMeshes();
    const reference = createReferenceScene(
      meshes.map((m, id) => ({
        id,
        positions: m.data.positions!,
        indices: m.data.indices ?? null,
        normals: m.data.normals ?? null,
        uvs: m.data.uvs ?? null,
        worldMatrix: m.world,
        thinInstances: m.thinInstances ?? null,
      })),
    );
    const [width, height] = size;
    const camera = cameraBasis(cameraPosition, [0, 0, 0], fovY, width, height);
    const f = { compared: 0, identity: 0, face: 0, point: 0, bary: 0, normal: 0, uv: 0, misses: 0, missAgree: 0 };
    const seen = new Set<string>();
    const worst = { point: 0, bary: 0 };
    for (const pick of result.picks) {
      const cast = (dx: number, dy: number) => {
        const ray = pixelRay(camera, pick.x + dx, pick.y + dy, width, height);
        return castReferenceRay(reference, ray.origin, ray.direction);
      };
      const truth = cast(0, 0);
      const stable = [
        [-0.05, 0],
        [0.05, 0],
        [0, -0.05],
        [0, 0.05],
      ].every(([dx, dy]) => {
        const near = cast(dx, dy);
        return near?.meshId === truth?.meshId && near?.faceId === truth?.faceId;
      });
      if (!stable) continue;
      if (!truth) {
        f.misses++;
        if (pick.mesh === null) f.missAgree++;
        continue;
      }
      f.compared++;
      seen.add(pick.mesh ?? 'miss');
      if (pick.mesh === meshes[truth.meshId].name && pick.instance === truth.thinInstanceIndex) f.identity++;
      if (pick.faceId === truth.faceId) f.face++;
      const pointError =
        Math.max(...(pick.point ?? [Infinity]).map((c, i) => Math.abs(c - truth.point[i]))) / truth.distance;
      worst.point = Math.max(worst.point, pointError);
      worst.bary = Math.max(worst.bary, Math.abs(pick.bu - truth.bu), Math.abs(pick.bv - truth.bv));
      if (pointError <= 1e-5) f.point++;
      if (Math.abs(pick.bu - truth.bu) <= 1e-4 && Math.abs(pick.bv - truth.bv) <= 1e-4) f.bary++;
      const n = pick.normal;
      const t = truth.normalWorld!;
      if (n && Math.acos(Math.min(1, n[0] * t[0] + n[1] * t[1] + n[2] * t[2])) <= (0.01 * Math.PI) / 180) f.normal++;
      if (
        pick.uv &&
        truth.uv &&
        Math.abs(pick.uv[0] - truth.uv[0]) <= 1e-4 &&
        Math.abs(pick.uv[1] - truth.uv[1]) <= 1e-4
      )
        f.uv++;
    }
    console.info('[detail page]', f, worst);
    expect([...seen].sort()).toEqual(['boxes', 'flat', 'sphere16', 'sphere32']);
    expect(f.compared).toBeGreaterThan(1000);
    for (const key of ['identity', 'face', 'point', 'bary', 'normal', 'uv'] as const)
      expect(f[key] / f.compared, key).toBeGreaterThanOrEqual(0.999);
    expect(f.missAgree).toBe(f.misses);
  });

  it('logs no console, page or WebGPU errors', async () => {
    expect(opened.consoleErrors).toEqual([]);
    expect(opened.pageErrors).toEqual([]);
    expect(await opened.webgpuErrors()).toEqual([]);
  });
});
