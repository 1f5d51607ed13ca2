// weft-gpu/three in Chromium against three.js's own Raycaster (test/browser/pages/three-picker/main.ts builds the
// scenes, casts the reference rays and measures; this file judges and prints the accuracy table).
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type PageServer, readPageResultAsync, startPageServer } from './browser-rig';

const pagesRoot = fileURLToPath(new URL('./pages', import.meta.url));

interface Row {
  config: string;
  samples: number;
  interior: number;
  identity: number;
  face: number;
  maxPointOverDistance: number;
  maxDistanceError: number;
  maxBarycoord: number;
  maxUv: number;
  maxNormalDegrees: number;
  byObject: Record<string, number>;
  failures: string[];
}

interface PageResult {
  three: string;
  rows: Row[];
  marquee: {
    weftKeys: string[];
    inside: string[];
    border: string[];
    concurrent: string[];
    alone: string;
    batchedError: string;
    afterError: string;
    before: string;
    movedAway: string;
    instanceMoved: number[];
    clipError: string;
    skinnedName: string;
    meshEdited: string[];
  };
}

describe('weft-gpu/three picks three.js scenes exactly (Chromium, SwiftShader)', () => {
  let server: PageServer | undefined;
  let browser: Browser | undefined;
  let result: PageResult;

  beforeAll(async () => {
    server = await startPageServer(pagesRoot);
    browser = await launchChromium();
    result = await readPageResultAsync<PageResult>(browser, `${server.url}three-picker/index.html`, 240_000);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('agrees with Raycaster at ≥ 99.9 % of interior samples: identity, instance, face, point, barycentrics, UV, normal', () => {
    const table = result.rows.map(
      (r) =>
        `| ${r.config} | ${r.interior}/${r.samples} | ${((100 * r.identity) / r.interior).toFixed(2)} % | ${((100 * r.face) / r.interior).toFixed(2)} % | ${r.maxPointOverDistance.toExponential(1)} | ${r.maxDistanceError.toExponential(1)} | ${r.maxBarycoord.toExponential(1)} | ${r.maxUv.toExponential(1)} | ${r.maxNormalDegrees.toFixed(4)}° | ${Object.entries(
          r.byObject,
        )
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')} |`,
    );
    console.info(
      `[three picker] three.js r${result.three}\n| camera, depth | interior / samples | identity | face | point err / distance | distance err | barycoord | uv | normal | hits by object |\n|---|---|---|---|---|---|---|---|---|---|\n${table.join('\n')}\n${result.rows.flatMap((r) => r.failures.slice(0, 5)).join('\n')}`,
    );
    for (const row of result.rows) {
      expect(row.interior, row.config).toBeGreaterThan(row.samples * 0.8);
      expect(row.identity / row.interior, row.config).toBeGreaterThanOrEqual(0.999);
      expect(row.face / row.interior, row.config).toBeGreaterThanOrEqual(0.999);
      expect(row.maxPointOverDistance, row.config).toBeLessThanOrEqual(1e-5);
      expect(row.maxDistanceError, row.config).toBeLessThanOrEqual(1e-5);
      expect(row.maxBarycoord, row.config).toBeLessThanOrEqual(1e-4);
      expect(row.maxUv, row.config).toBeLessThanOrEqual(1e-4);
      expect(row.maxNormalDegrees, row.config).toBeLessThanOrEqual(0.01);
      // Every kind of object was met (not a scene of misses).
      // The clipped scene has no skinned or morphed mesh (clipping and deformation do not mix in one pick yet).
      const kinds = row.config === 'perspective, ClippingGroup' ? ['instanced'] : ['instanced', 'skinned', 'morphed'];
      for (const kind of kinds) expect(row.byObject[kind] ?? 0, `${row.config}: ${kind}`).toBeGreaterThan(3);
      expect(Object.keys(row.byObject).filter((k) => k.startsWith('mesh')).length, row.config).toBeGreaterThan(3);
      expect(row.byObject.hidden ?? 0).toBe(0);
      expect(row.byObject.layer2 ?? 0).toBe(0);
    }
  });

  it('marquee: every object and instance seen at a pixel centre of the rectangle, nothing from outside it', () => {
    const m = result.marquee;
    console.info(`[three marquee] weft ${m.weftKeys.join(', ')}; reference inside ${m.inside.join(', ')}`);
    for (const key of m.inside) expect(m.weftKeys).toContain(key);
    for (const key of m.weftKeys) expect([...m.inside, ...m.border]).toContain(key);
    expect(m.inside.length).toBeGreaterThan(4);
  });

  it('concurrent picks all resolve alike; a BatchedMesh is a typed error naming it, and the picker keeps working; a moved object is seen moved', () => {
    const m = result.marquee;
    expect(m.concurrent).toEqual([m.alone, m.alone, m.alone, m.alone]);
    expect(m.batchedError).toMatch(/PickError: pickManyThreeAsync: .*"my-batch" is a BatchedMesh/);
    expect(m.afterError).toBe(m.alone);
    expect(m.clipError).toMatch(
      /PickError: pickManyThreeAsync: the scene has ClippingGroups and a skinned or morphed mesh/,
    );
    expect(m.before).not.toBe('miss');
    expect(m.movedAway).not.toBe(m.before);
  });

  it('an instance moved with setMatrixAt and a geometry edited in place are seen at the next pick (no render between)', () => {
    const m = result.marquee;
    expect(m.instanceMoved[0]).toBe(1);
    expect(m.instanceMoved[1]).not.toBe(1);
    expect(m.meshEdited[0]).toBe(m.meshEdited[2]);
    expect(m.meshEdited[1]).not.toBe(m.meshEdited[2]);
  });
});
