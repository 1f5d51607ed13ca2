import { create, globals } from 'webgpu';
import { test } from 'vitest';
import {
  createEngineAsync,
  disposeEngine,
  type Engine,
  type EngineOptions,
  onDeviceRestored,
} from '../../engine/index.js';

let nodeGpu: GPU | null = null;

/** The process-wide Dawn GPU object (kept referenced: dropping it tears Dawn down). */
export function getNodeGpu(): GPU {
  if (!nodeGpu) {
    Object.assign(globalThis, globals);
    nodeGpu = create([]);
  }
  return nodeGpu;
}

/** Creates an offscreen engine on Dawn; a missing adapter is a failure with a clear message, never a skip. */
export async function createTestEngine(width = 64, height = 64, options: EngineOptions = {}): Promise<Engine> {
  const gpu = getNodeGpu();
  const adapter = await gpu.requestAdapter();
  if (!adapter) {
    throw new Error(
      'No WebGPU adapter from Dawn: install Mesa lavapipe from bookworm-backports (`npm test` bootstraps it: mesa-vulkan-drivers, libvulkan1). GPU tests fail rather than skip without it.',
    );
  }
  return createEngineAsync(gpu, { width, height }, options);
}

/** What a GPU test body receives. */
export interface GpuTestContext {
  engine: Engine;
  /** Engines made inside the test that the harness must dispose too. */
  adopt(engine: Engine): Engine;
}

async function popScopes(device: GPUDevice): Promise<string[]> {
  const errors: string[] = [];
  for (let i = 0; i < 3; i++) {
    const error = await device.popErrorScope().catch(() => null);
    if (error) errors.push(error.message);
  }
  return errors;
}

/** Runs `body` on a fresh engine inside validation / out-of-memory / internal error scopes, then disposes it. */
export async function runOnGpu(
  body: (context: GpuTestContext) => Promise<void>,
  size: [number, number] = [64, 64],
  options: EngineOptions = {},
): Promise<void> {
  const engine = await createTestEngine(size[0], size[1], options);
  const engines = [engine];
  const uncaptured: string[] = [];
  const watch = (e: Engine) => {
    e.device.pushErrorScope('internal');
    e.device.pushErrorScope('out-of-memory');
    e.device.pushErrorScope('validation');
    e.device.addEventListener('uncapturederror', (event) =>
      uncaptured.push((event as GPUUncapturedErrorEvent).error.message),
    );
  };
  const restored = (e: Engine) => watch(e);
  watch(engine);
  onDeviceRestored(engine, restored);
  try {
    await body({ engine, adopt: (e) => (engines.push(e), watch(e), onDeviceRestored(e, restored), e) });
    const scoped: string[] = [];
    for (const e of engines) if (!e.disposed) scoped.push(...(await popScopes(e.device)));
    const all = [...scoped, ...uncaptured];
    if (all.length) throw new Error(`WebGPU errors during the test:\n${all.join('\n')}`);
  } finally {
    for (const e of engines) disposeEngine(e);
  }
}

/** A vitest test that runs on a real Dawn device inside error scopes. */
export function gpuTest(
  name: string,
  body: (context: GpuTestContext) => Promise<void>,
  size: [number, number] = [64, 64],
  options: EngineOptions = {},
): void {
  test(name, () => runOnGpu(body, size, options), 120_000);
}
