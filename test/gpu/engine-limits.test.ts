import { describe, expect } from 'vitest';
import {
  createEngineAsync,
  createForwardRenderTask,
  createMeshFromData,
  createRenderTarget,
  createScene,
  EngineError,
  type Engine,
  MeshDataError,
  makePerspectiveCamera,
  readEngineFrameAsync,
  readRenderTargetPixelsAsync,
  readForwardFrameIdAsync,
  renderFrame,
  resizeEngine,
  runTasks,
  type Scene,
  setThinInstances,
  whenEngineReadyAsync,
} from '../../engine/index.js';
import {
  createGeometryRendererTask,
  GeometryError,
  GeometryTextureType,
  readGeometryFrameIdAsync,
} from '../../geometry/index.js';
import { makeBoxData } from '../../engine/primitives/box.js';
import { getNodeGpu, gpuTest } from '../support/gpu.js';

// Issue #16 findings 3 (thin instances beyond the buffer limit), 7 (engine sizes beyond maxTextureDimension2D) and
// 9 (device loss during readbacks; whenEngineReadyAsync right after a loss). Limits are read from the device.

function boxScene(engine: Engine): Scene {
  const scene = createScene(engine, { clearColor: [0, 0, 0, 1] });
  scene.camera = makePerspectiveCamera({ position: [0, 0, 3], target: [0, 0, 0] });
  createMeshFromData(scene, 'box', makeBoxData({ width: 1, height: 1, depth: 1 }));
  return scene;
}

/** Pixels of a frame that are not the black clear colour. */
function litPixels(frame: Uint8Array): number {
  let lit = 0;
  for (let i = 0; i < frame.length; i += 4) if (frame[i] + frame[i + 1] + frame[i + 2] > 0) lit++;
  return lit;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('engine sizes are checked against maxTextureDimension2D', () => {
  gpuTest(
    'createEngineAsync and resizeEngine refuse a size over the device limit; the next call works',
    async ({ engine, adopt }) => {
      const max = engine.device.limits.maxTextureDimension2D;
      const error = await rejection(createEngineAsync(getNodeGpu(), { width: max + 1, height: 1 }));
      expect(error).toBeInstanceOf(EngineError);
      expect((error as EngineError).code).toBe('bad-size');
      expect((error as EngineError).api).toBe('createEngineAsync');
      expect((error as EngineError).message).toContain(`${max + 1}`);
      expect((error as EngineError).message).toContain(`maxTextureDimension2D ${max}`);
      const wide = adopt(await createEngineAsync(getNodeGpu(), { width: max, height: 1 }));
      expect(wide.width).toBe(max);

      const scene = boxScene(engine);
      expect(() => resizeEngine(engine, { width: 16, height: max + 1 })).toThrow(
        new RegExp(`height ${max + 1} .*maxTextureDimension2D ${max}`),
      );
      expect([engine.width, engine.height]).toEqual([64, 64]);
      expect(renderFrame(scene)).toBe(true);
      expect(litPixels(await readEngineFrameAsync(engine))).toBeGreaterThan(100);
      resizeEngine(engine, { width: 32, height: 32 });
      expect(renderFrame(scene)).toBe(true);
      expect((await readEngineFrameAsync(engine)).length).toBe(32 * 32 * 4);
    },
  );
});

describe('thin instances beyond the device buffer limit', () => {
  gpuTest('are refused with the count and maxBufferSize; the scene keeps drawing', async ({ engine }) => {
    const scene = boxScene(engine);
    const limit = engine.device.limits.maxBufferSize;
    const count = Math.floor(limit / 64) + 1;
    const matrices = new Float32Array(count * 16);
    let error: unknown;
    try {
      createMeshFromData(scene, 'too-many', makeBoxData(), { thinInstances: matrices });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MeshDataError);
    expect((error as MeshDataError).field).toBe('thinInstances');
    expect((error as MeshDataError).message).toContain(`${count} instances`);
    expect((error as MeshDataError).message).toContain(`maxBufferSize ${limit}`);
    expect(scene.meshes.map((m) => m.name)).toEqual(['box']);

    const few = createMeshFromData(scene, 'few', makeBoxData({ width: 0.1, height: 0.1, depth: 0.1 }), {
      thinInstances: new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 5, 5, 1]),
    });
    expect(() => setThinInstances(few, matrices)).toThrow(/maxBufferSize/);
    expect(few.thinInstanceCount).toBe(1);
    expect(renderFrame(scene)).toBe(true);
    expect(litPixels(await readEngineFrameAsync(engine))).toBeGreaterThan(100);
  });
});

describe('device loss during a readback', () => {
  gpuTest(
    'readEngineFrameAsync rejects with device-lost; after whenEngineReadyAsync the next read works',
    async ({ engine }) => {
      const scene = boxScene(engine);
      expect(renderFrame(scene)).toBe(true);
      const lost = engine.device;
      const read = readEngineFrameAsync(engine);
      lost.destroy();
      const error = await rejection(read);
      expect(error).toBeInstanceOf(EngineError);
      expect((error as EngineError).code).toBe('device-lost');
      expect((error as EngineError).api).toBe('readEngineFrameAsync');
      await whenEngineReadyAsync(engine);
      expect(engine.device).not.toBe(lost);
      expect(renderFrame(scene)).toBe(true);
      expect(litPixels(await readEngineFrameAsync(engine))).toBeGreaterThan(100);
    },
  );

  gpuTest('readRenderTargetPixelsAsync rejects with device-lost; the next frame reads right', async ({ engine }) => {
    const scene = boxScene(engine);
    const target = createRenderTarget(engine, { width: engine.width, height: engine.height });
    const task = createForwardRenderTask(scene, { target });
    expect(runTasks(engine, [task])).toBe(true);
    const lost = engine.device;
    const read = readRenderTargetPixelsAsync(target);
    lost.destroy();
    const error = await rejection(read);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('device-lost');
    expect((error as EngineError).api).toBe('readRenderTargetPixelsAsync');
    await whenEngineReadyAsync(engine);
    expect(runTasks(engine, [task])).toBe(true);
    expect(litPixels(await readRenderTargetPixelsAsync(target))).toBeGreaterThan(100);
    task.dispose();
  });

  gpuTest('whenEngineReadyAsync awaited right after a loss resolves on a live device', async ({ engine }) => {
    const scene = boxScene(engine);
    for (let round = 0; round < 3; round++) {
      const lost = engine.device;
      lost.destroy();
      await whenEngineReadyAsync(engine);
      expect(engine.device).not.toBe(lost);
      expect(engine.deviceGeneration).toBe(round + 1);
      expect(renderFrame(scene)).toBe(true);
      expect(litPixels(await readEngineFrameAsync(engine))).toBeGreaterThan(100);
    }
  });

  gpuTest('readForwardFrameIdAsync rejects with device-lost; the next frame reads right', async ({ engine }) => {
    const scene = boxScene(engine);
    const task = createForwardRenderTask(scene, { objectIds: true });
    expect(runTasks(engine, [task])).toBe(true);
    expect((await readForwardFrameIdAsync(task, 32, 32)).hit).toBe(true);
    const lost = engine.device;
    const read = readForwardFrameIdAsync(task, 32, 32);
    lost.destroy();
    const error = await rejection(read);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('device-lost');
    expect((error as EngineError).api).toBe('readForwardFrameIdAsync');
    await whenEngineReadyAsync(engine);
    expect(runTasks(engine, [task])).toBe(true);
    const hit = await readForwardFrameIdAsync(task, 32, 32);
    expect(hit.hit && hit.mesh.name).toBe('box');
    expect((await readForwardFrameIdAsync(task, 0, 0)).hit).toBe(false);
  });

  gpuTest('readGeometryFrameIdAsync rejects with device-lost; the next frame reads right', async ({ engine }) => {
    const scene = boxScene(engine);
    const task = createGeometryRendererTask(scene, {
      textureDescriptions: [{ type: GeometryTextureType.ALBEDO }],
      objectId: true,
    });
    expect(runTasks(engine, [task])).toBe(true);
    expect((await readGeometryFrameIdAsync(task, 32, 32)).hit).toBe(true);
    const lost = engine.device;
    const read = readGeometryFrameIdAsync(task, 32, 32);
    lost.destroy();
    const error = await rejection(read);
    expect(error).toBeInstanceOf(GeometryError);
    expect((error as GeometryError).code).toBe('device-lost');
    expect((error as GeometryError).api).toBe('readGeometryFrameIdAsync');
    await whenEngineReadyAsync(engine);
    expect(runTasks(engine, [task])).toBe(true);
    const hit = await readGeometryFrameIdAsync(task, 32, 32);
    expect(hit.hit && hit.mesh.name).toBe('box');
    expect((await readGeometryFrameIdAsync(task, 0, 0)).hit).toBe(false);
  });
});
