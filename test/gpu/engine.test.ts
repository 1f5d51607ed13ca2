import { mat4 } from 'wgpu-matrix';
import { describe, expect, test } from 'vitest';
import {
  createEngineAsync,
  createForwardRenderTask,
  createMeshFromData,
  createRenderTarget,
  createRenderTargetMrt,
  createScene,
  disposeEngine,
  EngineError,
  type Engine,
  makePerspectiveCamera,
  makeStandardMaterial,
  readEngineFrameAsync,
  readRenderTargetPixelsAsync,
  renderFrame,
  resizeEngine,
  runTasks,
  type Scene,
  whenEngineReadyAsync,
  setMeshWorldMatrix,
} from '../../engine/index.js';
import { getComposerCounters } from '../../composer/index.js';
import { makeBoxData } from '../../engine/primitives/box.js';
import { makeSphereData } from '../../engine/primitives/sphere.js';
import { createTestEngine, getNodeGpu, gpuTest } from '../support/gpu.js';

function demoScene(engine: Engine): Scene {
  const scene = createScene(engine, { clearColor: [0.05, 0.1, 0.15, 1] });
  scene.camera = makePerspectiveCamera({ position: [2, 1.5, 3], target: [0, 0, 0] });
  createMeshFromData(scene, 'sphere', makeSphereData({ radius: 0.6 }), {
    material: makeStandardMaterial({ baseColor: [0.9, 0.4, 0.3] }),
  });
  const instances = new Float32Array(32);
  instances.set(mat4.translation([-1.2, 0, 0]), 0);
  instances.set(mat4.translation([1.2, 0, 0]), 16);
  createMeshFromData(scene, 'boxes', makeBoxData({ width: 0.5, height: 0.5, depth: 0.5 }), {
    thinInstances: instances,
  });
  const checker = new Uint8Array([255, 255, 255, 255, 40, 40, 40, 255, 40, 40, 40, 255, 255, 255, 255, 255]);
  createMeshFromData(scene, 'textured', makeBoxData({ width: 3, height: 0.1, depth: 3 }), {
    worldMatrix: mat4.translation([0, -0.8, 0]),
    material: makeStandardMaterial({ texture: { width: 2, height: 2, data: checker } }),
  });
  return scene;
}

describe('engine', () => {
  gpuTest(
    'requests primitive-index, float32-blendable and timestamp-query when the adapter has them',
    async ({ engine }) => {
      for (const feature of ['primitive-index', 'float32-blendable', 'timestamp-query']) {
        expect(engine.features.has(feature)).toBe(engine.adapter!.features.has(feature));
      }
      // lavapipe through Dawn offers primitive-index (DESIGN.md §7); the picker's detailed mode depends on it.
      expect(engine.features.has('primitive-index')).toBe(true);
    },
  );

  test('honours requiredLimits and names a limit it cannot grant', async () => {
    const gpu = getNodeGpu();
    const adapter = (await gpu.requestAdapter())!;
    const best = adapter.limits.maxColorAttachmentBytesPerSample;
    const engine = await createEngineAsync(
      gpu,
      { width: 8, height: 8 },
      { requiredLimits: { maxColorAttachmentBytesPerSample: best } },
    );
    expect(engine.device.limits.maxColorAttachmentBytesPerSample).toBe(best);
    disposeEngine(engine);
    await expect(
      createEngineAsync(
        gpu,
        { width: 8, height: 8 },
        { requiredLimits: { maxColorAttachmentBytesPerSample: best + 1 } },
      ),
    ).rejects.toThrow(
      `createEngineAsync: requiredLimits.maxColorAttachmentBytesPerSample = ${best + 1} exceeds what the adapter supports (${best})`,
    );
    await expect(
      createEngineAsync(gpu, { width: 8, height: 8 }, { requiredLimits: { maxBananas: 1 } }),
    ).rejects.toThrow('requiredLimits.maxBananas is not a WebGPU limit');
    await expect(
      createEngineAsync(gpu, { width: 8, height: 8 }, { requiredFeatures: ['texture-compression-astc'] }),
    ).rejects.toThrow(/lacks required feature\(s\) texture-compression-astc/);
  });

  test('rejects bad targets and pixel ratios with typed errors', async () => {
    const gpu = getNodeGpu();
    await expect(createEngineAsync(gpu, { width: 0, height: 8 })).rejects.toBeInstanceOf(EngineError);
    await expect(createEngineAsync(gpu, { width: 8.5, height: 8 })).rejects.toThrow(
      'createEngineAsync: target.width 8.5 must be an integer in 1..16384',
    );
    await expect(createEngineAsync(gpu, { width: 8, height: 8 }, { devicePixelRatio: Number.NaN })).rejects.toThrow(
      'devicePixelRatio NaN must be a number in (0, 8]',
    );
    await expect(createEngineAsync({} as GPU, { width: 8, height: 8 })).rejects.toThrow(/expected a GPU object/);
  });

  gpuTest(
    'recovers from device loss: a new device, every resource rebuilt, the next frame identical',
    async ({ engine }) => {
      const scene = demoScene(engine);
      const target = createRenderTarget(engine, { name: 'side-view', width: 32, height: 32 });
      const sideTask = createForwardRenderTask(scene, { name: 'side', target });
      expect(renderFrame(scene)).toBe(true);
      expect(runTasks(engine, [sideTask])).toBe(true);
      const before = await readEngineFrameAsync(engine);
      const sideBefore = await readRenderTargetPixelsAsync(target);
      const lost = engine.device;
      let restoredCalls = 0;
      engine.listeners.add(() => restoredCalls++);
      lost.destroy();
      await lost.lost;
      expect(engine.recovery).not.toBeNull();
      expect(renderFrame(scene)).toBe(false); // no frame while the device is being replaced
      await whenEngineReadyAsync(engine);
      expect(engine.device).not.toBe(lost);
      expect(engine.deviceGeneration).toBe(1);
      expect(restoredCalls).toBe(1);
      expect(engine.features.has('primitive-index')).toBe(true);
      expect(renderFrame(scene)).toBe(true);
      expect(runTasks(engine, [sideTask])).toBe(true);
      const after = await readEngineFrameAsync(engine);
      expect(Buffer.from(after).equals(Buffer.from(before))).toBe(true);
      expect(Buffer.from(await readRenderTargetPixelsAsync(target)).equals(Buffer.from(sideBefore))).toBe(true);
      // The frame is not trivially empty: several distinct colours are on it.
      expect(
        new Set(Array.from({ length: after.length / 4 }, (_, i) => after.slice(i * 4, i * 4 + 3).join())).size,
      ).toBeGreaterThan(20);
    },
  );

  test('a deliberate dispose is not a loss: no recovery, later calls throw', async () => {
    const engine = await createTestEngine(8, 8);
    const device = engine.device;
    disposeEngine(engine);
    await device.lost;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(engine.recovery).toBeNull();
    expect(engine.deviceGeneration).toBe(0);
    expect(() => renderFrame(createScene(engine))).toThrow('runTasks: engine "weft" was disposed');
  });

  gpuTest('resizing an offscreen engine renders at the new size', async ({ engine }) => {
    const scene = demoScene(engine);
    renderFrame(scene);
    resizeEngine(engine, { width: 40, height: 24 });
    renderFrame(scene);
    const pixels = await readEngineFrameAsync(engine);
    expect(pixels.length).toBe(40 * 24 * 4);
    expect(() => resizeEngine(engine)).toThrow('resizeEngine: an offscreen engine needs an explicit { width, height }');
  });
});

describe('render targets', () => {
  gpuTest(
    'MSAA 4 with resolve: interiors equal the single-sample frame, silhouette edges are blended',
    async ({ engine }) => {
      const scene = createScene(engine, { clearColor: [0, 0, 0, 1] });
      scene.camera = makePerspectiveCamera({ position: [0, 0, 3], target: [0, 0, 0] });
      createMeshFromData(scene, 'box', makeBoxData(), {
        worldMatrix: mat4.rotationZ(0.3),
        material: makeStandardMaterial({ baseColor: [1, 1, 1], unlit: true }),
      });
      const single = createRenderTarget(engine, { width: 48, height: 48, samples: 1 });
      const multi = createRenderTarget(engine, { width: 48, height: 48, samples: 4 });
      runTasks(engine, [
        createForwardRenderTask(scene, { target: single }),
        createForwardRenderTask(scene, { target: multi }),
      ]);
      const a = await readRenderTargetPixelsAsync(single);
      const b = await readRenderTargetPixelsAsync(multi);
      let blended = 0;
      let interiorsEqual = 0;
      for (let i = 0; i < a.length; i += 4) {
        if (b[i] !== 0 && b[i] !== 255) blended++;
        else if (a[i] === b[i]) interiorsEqual++;
      }
      expect(blended).toBeGreaterThan(20);
      expect(interiorsEqual + blended).toBe(48 * 48);
    },
  );

  gpuTest('a render target with depth32float draws like one with depth24plus', async ({ engine }) => {
    const scene = demoScene(engine);
    const a = createRenderTarget(engine, { width: 32, height: 32, depthFormat: 'depth24plus' });
    const b = createRenderTarget(engine, { width: 32, height: 32, depthFormat: 'depth32float' });
    runTasks(engine, [createForwardRenderTask(scene, { target: a }), createForwardRenderTask(scene, { target: b })]);
    expect(
      Buffer.from(await readRenderTargetPixelsAsync(b)).equals(Buffer.from(await readRenderTargetPixelsAsync(a))),
    ).toBe(true);
  });

  gpuTest('unlit base colour × texture × vertex colour matches the analytic product', async ({ engine }) => {
    const scene = createScene(engine, { clearColor: [0, 0, 0, 1] });
    scene.camera = makePerspectiveCamera({ position: [0, 0, 2], target: [0, 0, 0] });
    const data = makeBoxData();
    const colors = new Uint8Array((data.positions!.length / 3) * 4).fill(255);
    for (let i = 0; i < colors.length; i += 4) colors[i + 1] = 128;
    const texture = { width: 1, height: 1, data: new Uint8Array([102, 255, 204, 255]) };
    createMeshFromData(
      scene,
      'box',
      { ...data, colors },
      { material: makeStandardMaterial({ baseColor: [1, 0.5, 1], texture, unlit: true }) },
    );
    renderFrame(scene);
    const pixels = await readEngineFrameAsync(engine, { x: 32, y: 32, width: 1, height: 1 });
    const expected = [(102 / 255) * 1 * 1, 1 * 0.5 * (128 / 255), (204 / 255) * 1 * 1].map((c) => Math.round(c * 255));
    for (let c = 0; c < 3; c++) expect(Math.abs(pixels[c] - expected[c])).toBeLessThanOrEqual(1);
  });

  gpuTest('tight, interleaved, 16-bit, 32-bit and non-indexed layouts draw the same pixels', async ({ engine }) => {
    const box = makeBoxData();
    const vertexCount = box.positions!.length / 3;
    const interleaved = new Float32Array(vertexCount * 8);
    for (let v = 0; v < vertexCount; v++) {
      interleaved.set(box.positions!.subarray(v * 3, v * 3 + 3), v * 8);
      interleaved.set(box.normals!.subarray(v * 3, v * 3 + 3), v * 8 + 3);
      interleaved.set(box.uvs!.subarray(v * 2, v * 2 + 2), v * 8 + 6);
    }
    const indices = box.indices!;
    const expand = (source: Float32Array, size: number) =>
      Float32Array.from(Array.from(indices).flatMap((i) => Array.from(source.subarray(i * size, i * size + size))));
    const layouts = {
      tight16: { positions: box.positions, normals: box.normals, uvs: box.uvs, indices: Uint16Array.from(indices) },
      tight32: { positions: box.positions, normals: box.normals, uvs: box.uvs, indices: Uint32Array.from(indices) },
      interleaved: {
        interleaved: {
          data: interleaved,
          arrayStride: 32,
          attributes: {
            position: { offset: 0, format: 'float32x3' as const },
            normal: { offset: 12, format: 'float32x3' as const },
            uv: { offset: 24, format: 'float32x2' as const },
          },
        },
        indices: Uint16Array.from(indices),
      },
      nonIndexed: { positions: expand(box.positions!, 3), normals: expand(box.normals!, 3), uvs: expand(box.uvs!, 2) },
    };
    const frames: Buffer[] = [];
    for (const [name, data] of Object.entries(layouts)) {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [1.5, 1.2, 2], target: [0, 0, 0] });
      createMeshFromData(scene, name, data, { material: makeStandardMaterial({ baseColor: [0.7, 0.6, 0.9] }) });
      renderFrame(scene);
      frames.push(Buffer.from(await readEngineFrameAsync(engine)));
    }
    for (const frame of frames.slice(1)) expect(frame.equals(frames[0])).toBe(true);
    expect(
      new Set(Array.from({ length: frames[0].length / 4 }, (_, i) => frames[0].subarray(i * 4, i * 4 + 3).join())).size,
    ).toBeGreaterThan(3);
  });

  gpuTest('invisible meshes are not drawn; bad render-target requests are refused', async ({ engine }) => {
    const scene = demoScene(engine);
    const task = createForwardRenderTask(scene);
    runTasks(engine, [task]);
    expect(task.drawCount).toBe(3);
    scene.meshes[0].visible = false;
    runTasks(engine, [task]);
    expect(task.drawCount).toBe(2);
    expect(() => createRenderTarget(engine, { width: 8, height: 8, samples: 2 as 4 })).toThrow(
      'createRenderTarget: samples 2 is not allowed; use 1 or 4',
    );
    expect(() => createRenderTargetMrt(engine, { width: 8, height: 8, formats: Array(9).fill('rgba8unorm') })).toThrow(
      /colour formats given; use 1..8/,
    );
    expect(() => createRenderTarget(engine, { width: 8, height: 8, format: 'depth24plus' })).toThrow(
      /format "depth24plus" is not a renderable colour format/,
    );
    expect(() =>
      createRenderTargetMrt(engine, { width: 8, height: 8, samples: 4, formats: ['rgba8unorm', 'r32uint'] }),
    ).toThrow(/attachment 1 format "r32uint" cannot be multisampled/);
    const mrt = createRenderTargetMrt(engine, {
      width: 8,
      height: 8,
      formats: ['rgba8unorm', 'r32float', 'rgba16float'],
    });
    expect(mrt.textures!.colors.map((t) => t.format)).toEqual(['rgba8unorm', 'r32float', 'rgba16float']);
  });

  gpuTest(
    're-recording compiles no shader module and creates no pipeline; a steady frame creates no GPU object',
    async ({ engine }) => {
      const scene = demoScene(engine);
      const task = createForwardRenderTask(scene);
      runTasks(engine, [task]);
      const counters = { ...getComposerCounters(engine.device) };
      expect(counters.modulesCompiled).toBeGreaterThan(0);
      // A new mesh of a variant already drawn: the draw list is rebuilt, the shaders are not.
      createMeshFromData(scene, 'another-sphere', makeSphereData({ radius: 0.2 }), {
        worldMatrix: mat4.translation([0, 1, 0]),
      });
      expect(task.needsRecord()).toBe(true);
      runTasks(engine, [task]);
      const after = getComposerCounters(engine.device);
      expect(after.modulesCompiled).toBe(counters.modulesCompiled);
      expect(after.pipelinesCreated).toBe(counters.pipelinesCreated);
      expect(after.livePipelines).toBe(counters.livePipelines);
      // Steady frames: count every create* call on the device.
      const device = engine.device as unknown as Record<string, unknown>;
      let creates = 0;
      const originals = new Map<string, unknown>();
      for (const key of [
        'createBuffer',
        'createTexture',
        'createBindGroup',
        'createShaderModule',
        'createRenderPipeline',
        'createSampler',
        'createBindGroupLayout',
        'createPipelineLayout',
      ]) {
        const original = device[key] as (...args: unknown[]) => unknown;
        originals.set(key, original);
        device[key] = (...args: unknown[]) => (creates++, original.apply(engine.device, args));
      }
      // Texture views too: a steady offscreen frame reuses the views of its colour and depth textures.
      const textureProto = Object.getPrototypeOf(engine.offscreenTexture!) as {
        createView: (...args: unknown[]) => GPUTextureView;
      };
      const createView = textureProto.createView;
      textureProto.createView = function (this: GPUTexture, ...args: unknown[]) {
        creates++;
        return createView.apply(this, args);
      };
      try {
        for (let i = 0; i < 3; i++) {
          setMeshWorldMatrix(scene.meshes[0], mat4.translation([0, i * 0.1, 0]));
          expect(task.needsRecord()).toBe(false);
          runTasks(engine, [task]);
        }
      } finally {
        for (const [key, original] of originals) device[key] = original;
        textureProto.createView = createView;
      }
      expect(creates).toBe(0);
    },
  );
});
