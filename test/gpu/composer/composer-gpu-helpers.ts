import type { ComposedShader, RenderPipelineState } from '../../../composer/index.js';

/** Counts calls of the device's createShaderModule / createRenderPipeline(Async) from now on. */
export function spyOnDevice(device: GPUDevice): { modules: number; pipelines: number } {
  const counts = { modules: 0, pipelines: 0 };
  const createShaderModule = device.createShaderModule;
  const createRenderPipeline = device.createRenderPipeline;
  const createRenderPipelineAsync = device.createRenderPipelineAsync;
  device.createShaderModule = function (this: GPUDevice, descriptor) {
    counts.modules++;
    return createShaderModule.call(this, descriptor);
  };
  device.createRenderPipeline = function (this: GPUDevice, descriptor) {
    counts.pipelines++;
    return createRenderPipeline.call(this, descriptor);
  };
  device.createRenderPipelineAsync = function (this: GPUDevice, descriptor) {
    counts.pipelines++;
    return createRenderPipelineAsync.call(this, descriptor);
  };
  return counts;
}

/** A forward-pass pipeline state for a composed shader: one target per output (rgba8unorm when the caller chooses), reverse-Z depth. */
export function forwardState(
  composed: ComposedShader,
  overrides: Partial<RenderPipelineState> = {},
): RenderPipelineState {
  return {
    targets: composed.targets.map((t) => ({ format: t.format ?? 'rgba8unorm' })),
    depthStencil: { format: 'depth24plus', depthWriteEnabled: true, depthCompare: 'greater' },
    primitive: { topology: 'triangle-list', cullMode: 'back' },
    ...overrides,
  };
}
