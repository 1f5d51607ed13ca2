import { mkdirSync, writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import { getComposerCounters } from '../../../composer/index.js';
import {
  createMeshFromData,
  createScene,
  type Engine,
  makeBoxData,
  makePerspectiveCamera,
  makeSphereData,
  makeStandardMaterial,
  makeTorusData,
  type Scene,
} from '../../../engine/index.js';
import { renderGeometryStripAsync } from '../../../geometry/index.js';
import { createTestEngine, gpuTest } from '../../support/gpu.js';

function stripScene(engine: Engine): Scene {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [2.2, 1.6, 3.2], target: [0, 0, 0], fovY: 0.8, far: 12 });
  createMeshFromData(scene, 'box', makeBoxData(), {
    worldMatrix: mat4.rotationY(0.5),
    material: makeStandardMaterial({ baseColor: [0.9, 0.5, 0.2] }),
  });
  createMeshFromData(scene, 'ball', makeSphereData({ radius: 0.5 }), {
    worldMatrix: mat4.translation([1, 0.2, 0.6]),
    material: makeStandardMaterial({ baseColor: [0.2, 0.6, 0.9] }),
  });
  createMeshFromData(scene, 'ring', makeTorusData({ radius: 0.6, tube: 0.15 }), {
    worldMatrix: mat4.translation([-0.9, -0.3, 0.7]),
    material: makeStandardMaterial({ baseColor: [0.4, 0.9, 0.3] }),
  });
  return scene;
}

function savePng(path: string, width: number, height: number, rgba: Uint8Array): void {
  const png = new PNG({ width, height });
  png.data.set(rgba);
  writeFileSync(path, PNG.sync.write(png));
}

describe('demo geometry strip', () => {
  gpuTest(
    'renderGeometryStripAsync returns six rgba8 images; split over passes on a 32-byte device, one pass with the limit raised',
    async ({ engine, adopt }) => {
      const width = 96;
      const height = 72;
      const before = getComposerCounters(engine.device).pipelinesCreated;
      const images = await renderGeometryStripAsync(stripScene(engine), { width, height });
      const geometryPipelines = getComposerCounters(engine.device).pipelinesCreated - before;
      expect(images.map((i) => i.name)).toEqual([
        'normalizedViewDepth',
        'viewNormal',
        'worldNormal',
        'worldPosition',
        'reflectivity',
        'albedo',
      ]);
      for (const image of images) expect(image.rgba.length).toBe(width * height * 4);
      const pixel = (name: string, x: number, y: number) =>
        Array.from(images.find((i) => i.name === name)!.rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 4));
      expect(pixel('normalizedViewDepth', 0, 0)).toEqual([255, 255, 255, 255]);
      expect(pixel('viewNormal', 0, 0)).toEqual([0, 0, 0, 255]);
      expect(pixel('worldPosition', 0, 0)).toEqual([0, 0, 0, 255]);
      expect(pixel('albedo', 0, 0)).toEqual([0, 0, 0, 0]);
      expect(pixel('reflectivity', 48, 36)).toEqual([10, 10, 10, 0]);
      const depthCentre = pixel('normalizedViewDepth', 48, 36)[0];
      expect(depthCentre).toBeGreaterThan(20);
      expect(depthCentre).toBeLessThan(200);
      const raised = adopt(
        await createTestEngine(96, 72, { requiredLimits: { maxColorAttachmentBytesPerSample: 64 } }),
      );
      const again = await renderGeometryStripAsync(stripScene(raised), { width, height });
      expect(again.map((i) => Array.from(i.rgba))).toEqual(images.map((i) => Array.from(i.rgba)));
      const onePass = getComposerCounters(raised.device);
      console.log(
        '[geometry strip] geometry + blit pipelines: default limit',
        geometryPipelines,
        '| limit 64:',
        onePass.pipelinesCreated,
      );
      expect(onePass.pipelinesCreated).toBeLessThan(geometryPipelines);
      mkdirSync('test-results/geometry-strip', { recursive: true });
      for (const image of images) savePng(`test-results/geometry-strip/${image.name}.png`, width, height, image.rgba);
    },
    [96, 72],
    // WebGPU's default limit (a default engine asks for the adapter's), so the strip splits over passes.
    { requiredLimits: { maxColorAttachmentBytesPerSample: 32 } },
  );
});
