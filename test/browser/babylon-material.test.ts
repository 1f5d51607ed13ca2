// createBabylonMaterial in Chromium: a weft surface drawn by Babylon.js's own vertex code (world matrix of a moving
// mesh, thin instance matrix, bone, morph target) renders like weft's own rendering of the same pose; Babylon.js's own
// MeshBuilder meshes and glTF-style meshes both show their outside; uniform updates compile nothing.
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
const poses = ['moved', 'thinInstanced', 'skinned', 'morphed', 'restored', 'again'] as const;
type PageResult = Record<
  (typeof poses)[number] | 'weft' | 'weftBuilder' | 'builder' | 'builderFlipped' | 'gltfFlipped' | 'retinted',
  number[]
> & {
  size: number;
  counts: { afterFirst: Counts; afterKinds: Counts; afterUpdates: Counts; afterSecond: Counts };
  errors: string[];
  sideOrientations: {
    material: number | null;
    backFaceCulling: boolean;
    builderMesh: number;
    builderReversedForWeft: boolean;
  };
  babylon: string;
};

describe('weft-gpu/babylon: a weft surface as a Babylon.js material (Chromium, SwiftShader)', () => {
  let server: PageServer | undefined;
  let browser: Browser | undefined;
  let result: PageResult;
  const compare = (name: string, reference: number[], host: number[]) => {
    const diff = comparePixels(Uint8Array.from(reference), Uint8Array.from(host), result.size, tolerance);
    console.info(
      `[babylon material ${name}] ${result.babylon}: ${diff.within}/${diff.compared} non-edge pixels within ${tolerance}/255 (${((100 * diff.within) / diff.compared).toFixed(3)} %), max ${diff.maxDiff}; all pixels ${diff.allWithin}/${diff.pixels}, max ${diff.allMaxDiff}`,
    );
    return diff;
  };
  const expectSame = (name: string, reference: number[], host: number[]) => {
    const diff = compare(name, reference, host);
    expect(diff.compared).toBeGreaterThan(diff.pixels * 0.8);
    expect(diff.within / diff.compared).toBeGreaterThanOrEqual(minShare);
    // The torus was drawn (not just the clear colour).
    let covered = 0;
    for (let i = 0; i < host.length; i += 4) if (host[i] !== host[0] || host[i + 2] !== host[2]) covered++;
    expect(covered).toBeGreaterThan(diff.pixels * 0.15);
  };

  beforeAll(async () => {
    server = await startPageServer(pagesRoot);
    browser = await launchChromium();
    result = await readPageResultAsync<PageResult>(browser, `${server.url}babylon-material/index.html`, 120_000);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const pose of poses)
    it(`${pose}: renders like weft's own rendering of the same pose, pixel by pixel`, () =>
      expectSame(pose, result.weft, result[pose]));

  it("winding: a MeshBuilder torus (Babylon.js's orientation) and a glTF-style torus both show their outside", () => {
    console.info(`[babylon material sides] ${JSON.stringify(result.sideOrientations)}`);
    expect(result.sideOrientations.material).toBeNull();
    expect(result.sideOrientations.backFaceCulling).toBe(true);
    expectSame('MeshBuilder', result.weftBuilder, result.builder);
    // Controls: the other orientation shows the inside, so the comparisons above do see the winding.
    const builderFlipped = compare(
      'MeshBuilder, glTF orientation (control)',
      result.weftBuilder,
      result.builderFlipped,
    );
    expect(builderFlipped.within / builderFlipped.compared).toBeLessThan(0.9);
    const gltfFlipped = compare('glTF-style, MeshBuilder orientation (control)', result.weft, result.gltfFlipped);
    expect(gltfFlipped.within / gltfFlipped.compared).toBeLessThan(0.9);
  });

  it('a uniform set by name changes the picture and compiles nothing; a second material of the same surface compiles nothing', () => {
    const { afterFirst, afterKinds, afterUpdates, afterSecond } = result.counts;
    console.info(`[babylon material compiles] ${JSON.stringify(result.counts)}`);
    expect(afterFirst.modules).toBeGreaterThan(0);
    const retint = compare('retinted (must differ)', result.weft, result.retinted);
    expect(retint.maxDiff).toBeGreaterThan(60);
    expect(retint.within / retint.compared).toBeLessThan(0.9);
    expect(afterUpdates).toEqual(afterKinds);
    expect(afterSecond).toEqual(afterUpdates);
  });

  it('a misspelt binding or field, a value of the wrong length or kind, is a typed error listing what is allowed', () => {
    expect(result.errors).toEqual([
      expect.stringMatching(
        /^BabylonMaterialError: setBabylonMaterialUniforms: bandParams \(BandParams\) has no field "tnt"; its fields: tint, bandColor, band$/,
      ),
      expect.stringMatching(
        /^BabylonMaterialError: setBabylonMaterialUniforms: the surface has no uniform binding "bandParms"; its bindings: .*bandParams/,
      ),
      expect.stringMatching(
        /^BabylonMaterialError: setBabylonMaterialUniforms: bandParams\.tint array\(3\) must be 4 finite numbers \(WGSL vec4f\)$/,
      ),
      expect.stringMatching(
        /^BabylonMaterialError: setBabylonMaterialUniforms: draw\.flags .* must be 4 integers in \[0, 16777216\) \(WGSL vec4u\)$/,
      ),
    ]);
  });
});
