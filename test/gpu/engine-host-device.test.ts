import { mat4 } from 'wgpu-matrix';
import { describe, expect, test } from 'vitest';
import {
  createEngineFromDeviceAsync,
  createMeshFromData,
  createScene,
  disposeEngine,
  disposeMesh,
  type Engine,
  EngineError,
  makePerspectiveCamera,
  makeStandardMaterial,
  onDeviceRestored,
  readEngineFrameAsync,
  readRenderTargetPixelsAsync,
  renderFrame,
  runTasks,
  type Scene,
  setEngineDeviceAsync,
  whenEngineReadyAsync,
} from '../../engine/index.js';
import { isDeviceLostAsync } from '../../engine/engine.js';
import { createForwardRenderTask, readForwardFrameIdAsync } from '../../engine/render/forward-render-task.js';
import { WeftError } from '../../core/errors.js';
import { makeBoxData } from '../../engine/primitives/box.js';
import { makeSphereData } from '../../engine/primitives/sphere.js';
import {
  createGeometryRendererTask,
  GeometryError,
  GeometryTextureType,
  readGeometryFrameIdAsync,
} from '../../geometry/index.js';
import { createGpuPicker, pickAsync, pickManyAsync, pickRectAsync } from '../../picking/index.js';
import { createTestEngine, getNodeGpu } from '../support/gpu.js';

async function hostAdapter(): Promise<GPUAdapter> {
  const adapter = await getNodeGpu().requestAdapter();
  if (!adapter) throw new Error('No WebGPU adapter from Dawn; GPU tests fail rather than skip');
  return adapter;
}

/** A device as a host makes it, watched for validation errors like every GPU test. */
async function hostDevice(descriptor: GPUDeviceDescriptor = {}): Promise<GPUDevice> {
  // An adapter gives one device (it is "consumed" after): a host asks for a fresh adapter each time.
  const device = await (await hostAdapter()).requestDevice({ label: 'host-device', ...descriptor });
  device.pushErrorScope('validation');
  return device;
}

async function expectNoErrors(device: GPUDevice): Promise<void> {
  const error = await device.popErrorScope();
  expect(error?.message ?? null).toBeNull();
}

function demoScene(engine: Engine): Scene {
  const scene = createScene(engine, { clearColor: [0.05, 0.1, 0.15, 1] });
  scene.camera = makePerspectiveCamera({ position: [0, 0, 3], target: [0, 0, 0] });
  createMeshFromData(scene, 'sphere', makeSphereData({ radius: 0.6 }), {
    material: makeStandardMaterial({ baseColor: [0.9, 0.4, 0.3] }),
  });
  createMeshFromData(scene, 'box', makeBoxData({ width: 0.4, height: 0.4, depth: 0.4 }), {
    worldMatrix: mat4.translation([1.1, 0, 0]),
  });
  return scene;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('an engine on the host’s device', () => {
  test('draws and picks on the adopted device with its own features; disposeEngine leaves the device to the host', async () => {
    const adapter = await hostAdapter();
    const device = await hostDevice();
    const engine = await createEngineFromDeviceAsync(device, { width: 48, height: 32 }, { label: 'host' });
    expect(engine).toMatchObject({ deviceOwner: 'host', deviceLost: false, gpu: null, adapter: null, device });
    // The host asked for no optional feature: weft sees the device's features, not the adapter's.
    expect(adapter.features.has('primitive-index')).toBe(true);
    expect(engine.features.has('primitive-index')).toBe(false);
    const scene = demoScene(engine);
    expect(renderFrame(scene)).toBe(true);
    const frame = await readEngineFrameAsync(engine);
    const hit = await pickAsync(createGpuPicker(scene), 24, 16);
    expect(hit.pickedMesh?.name).toBe('sphere');
    // The same scene on an engine-owned device draws the same pixels.
    const owned = await createTestEngine(48, 32);
    try {
      const ownedScene = demoScene(owned);
      renderFrame(ownedScene);
      expect(Buffer.from(frame).equals(Buffer.from(await readEngineFrameAsync(owned)))).toBe(true);
    } finally {
      disposeEngine(owned);
    }
    await expectNoErrors(device);
    disposeEngine(engine);
    expect(await isDeviceLostAsync(device)).toBe(false);
    const buffer = device.createBuffer({ label: 'after-dispose', size: 16, usage: GPUBufferUsage.MAP_READ });
    await buffer.mapAsync(GPUMapMode.READ);
    buffer.destroy();
    device.destroy();
  });

  test('limits are the device’s: target size and G-buffer bytes are checked against what the host requested', async () => {
    const adapter = await hostAdapter();
    expect(adapter.limits.maxTextureDimension2D).toBeGreaterThan(9000);
    expect(adapter.limits.maxColorAttachmentBytesPerSample).toBeGreaterThan(32);
    const plain = await hostDevice();
    const error = (await rejection(createEngineFromDeviceAsync(plain, { width: 9000, height: 8 }))) as EngineError;
    expect(error).toBeInstanceOf(EngineError);
    expect(error.message).toContain("target.width 9000 exceeds the device's maxTextureDimension2D 8192");
    const engine = await createEngineFromDeviceAsync(plain, { width: 16, height: 16 });
    const scene = demoScene(engine);
    const gbuffer = {
      size: { width: 16, height: 16 },
      textureDescriptions: [
        { type: GeometryTextureType.WORLD_POSITION },
        { type: GeometryTextureType.VIEW_NORMAL },
        { type: GeometryTextureType.ALBEDO },
      ],
      objectId: true,
    };
    const refused = thrown(() => createGeometryRendererTask(scene, gbuffer)) as GeometryError;
    expect(refused).toBeInstanceOf(GeometryError);
    expect(refused.code).toBe('limit-exceeded');
    expect(refused.message).toContain('maxColorAttachmentBytesPerSample = 32');
    expect(refused.message).toContain('the host created this device: request maxColorAttachmentBytesPerSample >=');
    disposeEngine(engine);
    await expectNoErrors(plain);
    plain.destroy();

    const roomy = await hostDevice({
      requiredLimits: {
        maxTextureDimension2D: adapter.limits.maxTextureDimension2D,
        maxColorAttachmentBytesPerSample: adapter.limits.maxColorAttachmentBytesPerSample,
      },
    });
    const wide = await createEngineFromDeviceAsync(roomy, { width: 9000, height: 8 });
    disposeEngine(wide);
    const roomyEngine = await createEngineFromDeviceAsync(roomy, { width: 16, height: 16 });
    const task = createGeometryRendererTask(demoScene(roomyEngine), gbuffer);
    task.dispose();
    disposeEngine(roomyEngine);
    await expectNoErrors(roomy);
    roomy.destroy();
  });

  test('after a loss weft creates no device: calls are refused until the host hands over a second one', async () => {
    const adapter = await hostAdapter();
    const roomy = { maxTextureDimension2D: adapter.limits.maxTextureDimension2D };
    const first = await hostDevice({ requiredFeatures: ['primitive-index' as GPUFeatureName], requiredLimits: roomy });
    const engine = await createEngineFromDeviceAsync(first, { width: 48, height: 32 });
    const scene = demoScene(engine);
    const picker = createGpuPicker(scene);
    expect(renderFrame(scene)).toBe(true);
    const before = await readEngineFrameAsync(engine);
    const pickedBefore = await pickAsync(picker, 24, 16);
    let restored = 0;
    onDeviceRestored(engine, () => restored++);
    await expectNoErrors(first);

    first.destroy();
    await first.lost;
    expect(engine.deviceLost).toBe(true);
    expect(engine.recovery).toBeNull();
    const refusals = [
      thrown(() => renderFrame(scene)),
      await rejection(pickAsync(picker, 24, 16)),
      await rejection(readEngineFrameAsync(engine)),
      await rejection(whenEngineReadyAsync(engine)),
    ] as EngineError[];
    for (const [i, api] of ['runTasks', 'pickAsync', 'readEngineFrameAsync', 'whenEngineReadyAsync'].entries()) {
      expect(refusals[i]).toBeInstanceOf(EngineError);
      expect(refusals[i].code).toBe('device-lost');
      expect(refusals[i].message).toContain(`${api}: the host's GPU device of engine "weft" was lost (destroyed:`);
      expect(refusals[i].message).toContain('hand it over with setEngineDeviceAsync(engine, device)');
    }
    // Scene edits keep working while lost; nothing replaced the device behind the host's back.
    const late = createMeshFromData(scene, 'late', makeBoxData({ width: 0.1, height: 0.1, depth: 0.1 }), {
      worldMatrix: mat4.translation([0, 0, 1]),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(engine.device).toBe(first);
    expect(engine.deviceGeneration).toBe(0);

    // Replacements that cannot stand in are refused, and the engine stays lost but intact.
    const owned = await createTestEngine(8, 8);
    expect((await rejection(setEngineDeviceAsync(owned, first))) as EngineError).toMatchObject({ code: 'bad-option' });
    disposeEngine(owned);
    const poorer = await hostDevice();
    const missing = (await rejection(setEngineDeviceAsync(engine, poorer))) as EngineError;
    expect(missing.code).toBe('missing-feature');
    expect(missing.message).toContain('the replacement lacks feature(s) primitive-index');
    poorer.destroy();
    const smaller = await hostDevice({ requiredFeatures: ['primitive-index' as GPUFeatureName] });
    const limits = (await rejection(setEngineDeviceAsync(engine, smaller))) as EngineError;
    expect(limits.code).toBe('limit-exceeded');
    expect(limits.message).toContain(`maxTextureDimension2D 8192 (was ${roomy.maxTextureDimension2D})`);
    smaller.destroy();
    const dead = await hostDevice({ requiredFeatures: ['primitive-index' as GPUFeatureName], requiredLimits: roomy });
    dead.destroy();
    expect(((await rejection(setEngineDeviceAsync(engine, dead))) as EngineError).code).toBe('device-lost');
    expect(engine.deviceLost).toBe(true);

    const second = await hostDevice({ requiredFeatures: ['primitive-index' as GPUFeatureName], requiredLimits: roomy });
    await setEngineDeviceAsync(engine, second);
    expect(engine).toMatchObject({ device: second, deviceLost: false, deviceGeneration: 1 });
    expect(restored).toBe(1);
    await whenEngineReadyAsync(engine);
    // The mesh added while lost is on the new device, in front of the sphere.
    expect((await pickAsync(picker, 24, 16)).pickedMesh?.name).toBe('late');
    disposeMesh(late);
    expect(renderFrame(scene)).toBe(true);
    expect(Buffer.from(await readEngineFrameAsync(engine)).equals(Buffer.from(before))).toBe(true);
    const pickedAfter = await pickAsync(picker, 24, 16);
    expect(pickedAfter.pickedMesh?.name).toBe(pickedBefore.pickedMesh?.name);
    expect(pickedAfter.distance).toBeCloseTo(pickedBefore.distance, 5);
    await expectNoErrors(second);
    disposeEngine(engine);
    expect(await isDeviceLostAsync(second)).toBe(false);
    second.destroy();
  });

  test('a pick in flight when the host’s device is lost rejects with device-lost', async () => {
    const device = await hostDevice();
    const engine = await createEngineFromDeviceAsync(device, { width: 32, height: 32 });
    const picker = createGpuPicker(demoScene(engine));
    await pickAsync(picker, 16, 16);
    const pending = rejection(pickAsync(picker, 16, 16));
    device.destroy();
    const error = (await pending) as EngineError;
    expect(error.code).toBe('device-lost');
    disposeEngine(engine);
  });

  test('every readback and wait API, in flight at the loss or called after it, names setEngineDeviceAsync', async () => {
    const device = await hostDevice();
    const engine = await createEngineFromDeviceAsync(device, { width: 32, height: 32 });
    const scene = demoScene(engine);
    const picker = createGpuPicker(scene);
    const forward = createForwardRenderTask(scene, { objectIds: true });
    const geometry = createGeometryRendererTask(scene, {
      size: { width: 32, height: 32 },
      textureDescriptions: [{ type: GeometryTextureType.WORLD_NORMAL }],
      objectId: true,
    });
    expect(runTasks(engine, [forward, geometry])).toBe(true);
    await pickAsync(picker, 16, 16);
    await expectNoErrors(device);
    const calls: Record<string, () => Promise<unknown>> = {
      readEngineFrameAsync: () => readEngineFrameAsync(engine),
      readRenderTargetPixelsAsync: () => readRenderTargetPixelsAsync(geometry.geometryWorldNormalTexture!),
      readForwardFrameIdAsync: () => readForwardFrameIdAsync(forward, 16, 16),
      readGeometryFrameIdAsync: () => readGeometryFrameIdAsync(geometry, 16, 16),
      pickAsync: () => pickAsync(picker, 16, 16),
      pickManyAsync: () => pickManyAsync(picker, [{ x: 4, y: 4 }]),
      pickRectAsync: () => pickRectAsync(picker, 0, 0, 32, 32),
      whenEngineReadyAsync: () => whenEngineReadyAsync(engine),
    };
    const inFlight = Object.entries(calls).map(([api, call]) => [api, rejection(call())] as const);
    device.destroy();
    await device.lost;
    const after = [
      ...Object.entries(calls).map(([api, call]) => [api, rejection(call())] as const),
      ['renderFrame', Promise.resolve(thrown(() => renderFrame(scene)))] as const,
    ];
    for (const [when, list] of [
      ['in flight', inFlight],
      ['after', after],
    ] as const)
      for (const [api, pending] of list) {
        const error = (await pending) as Error & { code?: string };
        expect(error, `${api} ${when}`).toBeInstanceOf(WeftError);
        expect(error.code, `${api} ${when}`).toBe('device-lost');
        expect(error.message, `${api} ${when}: ${error.message}`).toContain('setEngineDeviceAsync(engine, device)');
        expect(error.message, `${api} ${when}`).not.toContain('await whenEngineReadyAsync');
      }
    disposeEngine(engine);
  });

  test('bad input is a typed error', async () => {
    const device = await hostDevice();
    await expect(createEngineFromDeviceAsync({} as GPUDevice, { width: 8, height: 8 })).rejects.toThrow(
      'createEngineFromDeviceAsync: expected a GPUDevice (from adapter.requestDevice()), got',
    );
    await expect(
      createEngineFromDeviceAsync(device, { width: 8, height: 8 }, { requiredLimits: {} } as never),
    ).rejects.toThrow(/createEngineFromDeviceAsync: .*requiredLimits/);
    await expect(createEngineFromDeviceAsync(device, { width: 0, height: 8 })).rejects.toThrow(
      'target.width 0 must be an integer in 1..16384',
    );
    const engine = await createEngineFromDeviceAsync(device, { width: 8, height: 8 });
    await expect(setEngineDeviceAsync(engine, device)).rejects.toThrow("the device is already the engine's device");
    disposeEngine(engine);
    await expectNoErrors(device);
    device.destroy();
    await device.lost;
    await expect(createEngineFromDeviceAsync(device, { width: 8, height: 8 })).rejects.toThrow(
      'the device is lost already; adopt a live device',
    );
  });
});
