// A WebGPU compatibility-mode device on Dawn (`featureLevel: 'compatibility'`): no storage buffers in the vertex or
// fragment stage, no primitive-index, at most 4 colour attachments.
import { expect } from 'vitest';
import { createEngineFromDeviceAsync } from '../../engine/host-device.js';
import { disposeEngine, type Engine } from '../../engine/index.js';
import { getNodeGpu } from './gpu.js';

/** A fresh compatibility-mode device from Dawn (a missing adapter is a failure, never a skip). */
export async function compatibilityDeviceAsync(): Promise<GPUDevice> {
  const adapter = await getNodeGpu().requestAdapter({ featureLevel: 'compatibility' } as GPURequestAdapterOptions);
  if (!adapter) throw new Error('Dawn gave no compatibility adapter (lavapipe missing? `npm test` installs it)');
  return adapter.requestDevice();
}

/**
 * Runs `body` on an engine over a fresh compatibility device, then fails on any uncaptured device error (a refusal must
 * come before the device sees anything) and disposes both.
 */
export async function onCompatibilityEngineAsync(
  width: number,
  height: number,
  body: (engine: Engine) => Promise<void>,
): Promise<void> {
  const device = await compatibilityDeviceAsync();
  const errors: string[] = [];
  device.addEventListener('uncapturederror', (event) => errors.push((event as GPUUncapturedErrorEvent).error.message));
  const engine = await createEngineFromDeviceAsync(device, { width, height });
  try {
    await body(engine);
    await device.queue.onSubmittedWorkDone();
    expect(errors).toEqual([]);
  } finally {
    disposeEngine(engine);
    device.destroy();
  }
}
