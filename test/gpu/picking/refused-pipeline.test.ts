// A pick pipeline the device refuses draws nothing; read back, that is "nothing here" — the worst answer a picker can
// give. The device here is real (Dawn): the fault is a descriptor the device refuses on validation, injected into the
// pick pipelines' creation, as a device with restrictions weft's checks did not foresee would refuse them.
import { describe, expect, test } from 'vitest';
import { createBoxMesh, createScene, disposeEngine, makePerspectiveCamera } from '../../../engine/index.js';
import { createGpuPicker, disposeGpuPicker, PickError, pickAsync, pickManyAsync } from '../../../picking/index.js';
import { createTestEngine } from '../../support/gpu.js';

describe('a pick pipeline the device refuses', () => {
  // Its own engine: the device errors here are made on purpose (gpuTest fails a test on any).
  test('is a typed error, never a miss; once the device takes it again, the same picker answers', async () => {
    const engine = await createTestEngine();
    const device = engine.device;
    const scene = createScene(engine);
    scene.camera = makePerspectiveCamera({ position: [0, 0, 4], target: [0, 0, 0] });
    createBoxMesh(scene, 'box');
    const reported: string[] = [];
    const onError = (event: Event) => reported.push((event as GPUUncapturedErrorEvent).error.message);
    device.addEventListener('uncapturederror', onError);
    const create = device.createRenderPipeline;
    let refused = 0;
    device.createRenderPipeline = function (this: GPUDevice, descriptor) {
      if (!descriptor.label?.startsWith('weft:pick')) return create.call(this, descriptor);
      refused++;
      // A strip index format on a list topology: valid JavaScript, refused by the device's validation.
      return create.call(this, { ...descriptor, primitive: { ...descriptor.primitive, stripIndexFormat: 'uint32' } });
    };
    const picker = createGpuPicker(scene);
    try {
      const error = await pickAsync(picker, 32, 32).then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).toBeGreaterThan(0);
      expect(error).toBeInstanceOf(PickError);
      expect((error as PickError).code).toBe('unsupported');
      expect((error as PickError).message).toMatch(/^pickAsync: the device refused the pick pipeline/);
      expect((error as PickError).message).toMatch(/strip/i);
      // The device's own report still reaches the app.
      expect(reported.some((m) => /strip/i.test(m))).toBe(true);
      // Refused again while the device refuses it (a multi-point pick too), never answered as a miss.
      await expect(pickManyAsync(picker, [{ x: 32, y: 32 }])).rejects.toThrow(PickError);
      device.createRenderPipeline = create;
      const info = await pickAsync(picker, 32, 32);
      expect(info.hit).toBe(true);
      expect(info.pickedMesh?.name).toBe('box');
    } finally {
      device.createRenderPipeline = create;
      device.removeEventListener('uncapturederror', onError);
      disposeGpuPicker(picker);
      disposeEngine(engine);
    }
  });
});
