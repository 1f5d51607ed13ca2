// Present task: copies the editor's frame target to the canvas texture with a one-triangle draw.
import { composeShader, makeComposeCache } from '../../../composer/index.js';
import {
  getEngineColorTexture,
  getRenderTargetTextures,
  type RenderTarget,
  type RenderTargetTextures,
  type Task,
} from '../../../engine/index.js';
import { createFullscreenVertexFragment, createPresentFragment } from './editor-fragments.js';
import { createNamedBindGroup, pipelineFor, type PipelineSet, releasePipelines } from './overlay-gpu.js';

/** Creates the task that shows `target` on the engine's canvas. */
export function createPresentTask(target: RenderTarget): Task {
  const engine = target.engine;
  const pipelines: PipelineSet = { device: null, cache: makeComposeCache(), leases: new Map() };
  const fragments = [createFullscreenVertexFragment(), createPresentFragment()];
  let device: GPUDevice | null = null;
  let source: RenderTargetTextures | null = null;
  let group: GPUBindGroup | null = null;
  let pipeline: GPURenderPipeline | null = null;
  const attachment: GPURenderPassColorAttachment = {
    view: undefined as unknown as GPUTextureView,
    loadOp: 'clear',
    storeOp: 'store',
    clearValue: { r: 0, g: 0, b: 0, a: 1 },
  };
  const descriptor: GPURenderPassDescriptor = { label: 'editor:present:pass', colorAttachments: [attachment] };

  return {
    name: 'editor-present',
    needsRecord: () => device !== engine.device || source !== getRenderTargetTextures(target),
    record() {
      if (device !== engine.device) releasePipelines(pipelines);
      device = engine.device;
      source = getRenderTargetTextures(target);
      const { composed, lease } = pipelineFor(
        pipelines,
        device,
        'present',
        () => composeShader({ fragments, vertexLayout: { kind: 'buffers', buffers: [] } }, pipelines.cache),
        {
          label: 'editor:present',
          targets: [{ format: engine.colorFormat }],
          primitive: { topology: 'triangle-list' },
        },
      );
      pipeline = lease.pipeline;
      group = createNamedBindGroup(
        device,
        composed,
        lease,
        0,
        { frameColor: source.colors[0].createView({ label: 'editor:present:source' }) },
        'editor:present:group',
      );
    },
    execute(encoder) {
      attachment.view = getEngineColorTexture(engine).createView();
      const pass = encoder.beginRenderPass(descriptor);
      pass.setPipeline(pipeline!);
      pass.setBindGroup(0, group!);
      pass.draw(3);
      pass.end();
    },
    dispose() {
      if (device === engine.device) releasePipelines(pipelines);
      device = null;
      source = null;
    },
  };
}
