import { describe, expect, test } from 'vitest';
import {
  createCopyToTextureTask,
  createEngineAsync,
  createGeometryRendererTask,
  createMeshFromData,
  createScene,
  disposeEngine,
  GeometryTextureType,
  makeBoxData,
  makePerspectiveCamera,
  readGeometryFrameIdAsync,
  runTasks,
} from '../../index.js';
import { getNodeGpu } from '../support/gpu.js';

describe('a default engine asks for the adapter’s colour-attachment limits', () => {
  test('it reports the adapter’s maxColorAttachmentBytesPerSample and maxColorAttachments; requiredLimits still wins', async () => {
    const gpu = getNodeGpu();
    const engine = await createEngineAsync(gpu, { width: 8, height: 8 });
    try {
      expect(engine.adapter!.limits.maxColorAttachmentBytesPerSample).toBeGreaterThan(32);
      expect(engine.device.limits.maxColorAttachmentBytesPerSample).toBe(
        engine.adapter!.limits.maxColorAttachmentBytesPerSample,
      );
      expect(engine.device.limits.maxColorAttachments).toBe(engine.adapter!.limits.maxColorAttachments);
    } finally {
      disposeEngine(engine);
    }
    const spec = await createEngineAsync(
      gpu,
      { width: 8, height: 8 },
      { requiredLimits: { maxColorAttachmentBytesPerSample: 32 } },
    );
    try {
      expect(spec.device.limits.maxColorAttachmentBytesPerSample).toBe(32);
    } finally {
      disposeEngine(spec);
    }
  });

  test('the README’s 6-attachment G-buffer (4 outputs + object ID) records, runs and reads back on it', async () => {
    const engine = await createEngineAsync(getNodeGpu(), { width: 640, height: 360 });
    try {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0, 3], target: [0, 0, 0] });
      createMeshFromData(scene, 'box', makeBoxData());
      // As written in README.md, "Geometry renderer (G-buffer)".
      const gbuffer = createGeometryRendererTask(scene, {
        size: { width: 640, height: 360 },
        textureDescriptions: [
          { type: GeometryTextureType.WORLD_POSITION },
          { type: GeometryTextureType.VIEW_NORMAL },
          { type: GeometryTextureType.ALBEDO },
          { type: GeometryTextureType.LINEAR_VELOCITY, format: 'rgba16float' },
        ],
        objectId: true,
      });
      engine.device.pushErrorScope('validation');
      runTasks(engine, [gbuffer]);
      expect(gbuffer.geometryViewNormalTexture).not.toBeNull();
      const hover = await readGeometryFrameIdAsync(gbuffer, 320, 180);
      expect(hover.hit && hover.mesh.name).toBe('box');
      const show = createCopyToTextureTask(scene, {
        sourceTexture: gbuffer.geometryViewNormalTexture!,
        remap: 'normal',
      });
      runTasks(engine, [gbuffer, show]);
      expect(await engine.device.popErrorScope()).toBeNull();
      show.dispose();
      gbuffer.dispose();
    } finally {
      disposeEngine(engine);
    }
  });
});
