// Ground grid task: one large quad on y = 0, drawn after the scene with its depth (test, no write) and blended.
import { mat4 } from 'wgpu-matrix';
import { composeShader, makeComposeCache } from '../../../composer/index.js';
import type { PerspectiveCamera, RenderTarget, Scene, Task } from '../../../engine/index.js';
import { makeStandardVertexFragments } from '../../../fragments/index.js';
import { createGridFragment } from './editor-fragments.js';
import {
  createNamedBindGroup,
  createOverlayUniforms,
  destroyOverlayUniforms,
  type OverlayUniforms,
  pipelineFor,
  type PipelineSet,
  releasePipelines,
  setDrawUniforms,
  makeTargetViews,
  refreshTargetViews,
  standardResources,
  uploadDraws,
  writeSceneUniforms,
} from './overlay-gpu.js';

const halfSize = 60;

/** Blending of the editor's translucent overlays (straight alpha). */
export const overlayBlend: GPUBlendState = {
  color: { srcFactor: 'src-alpha', dstFactor: 'one-minus-src-alpha', operation: 'add' },
  alpha: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha', operation: 'add' },
};

/** Creates the grid task drawing into `target` (colour and depth loaded). */
export function createGridTask(scene: Scene, camera: PerspectiveCamera, target: RenderTarget): Task {
  const engine = scene.engine;
  const pipelines: PipelineSet = { device: null, cache: makeComposeCache(), leases: new Map() };
  const fragments = [...makeStandardVertexFragments(), createGridFragment()];
  let device: GPUDevice | null = null;
  let uniforms: OverlayUniforms | null = null;
  let quad: GPUBuffer | null = null;
  let groups: GPUBindGroup[] = [];
  let pipeline: GPURenderPipeline | null = null;
  const targetViewHolder = makeTargetViews();
  const identity = mat4.identity();
  const color = [1, 1, 1, 1];

  function release(): void {
    destroyOverlayUniforms(uniforms);
    quad?.destroy();
    releasePipelines(pipelines);
    uniforms = null;
    quad = null;
  }

  return {
    name: 'editor-grid',
    needsRecord: () => device !== engine.device,
    record() {
      release();
      device = engine.device;
      const entry = pipelineFor(
        pipelines,
        device,
        'grid',
        () =>
          composeShader(
            {
              fragments,
              conditions: {},
              vertexLayout: {
                kind: 'buffers',
                buffers: [{ arrayStride: 12, attributes: [{ semantic: 'position', offset: 0, format: 'float32x3' }] }],
              },
            },
            pipelines.cache,
          ),
        {
          label: 'editor:grid',
          targets: [{ format: target.colorFormats[0], blend: overlayBlend }],
          primitive: { topology: 'triangle-list', cullMode: 'none' },
          depthStencil: { format: target.depthFormat!, depthWriteEnabled: false, depthCompare: 'greater' },
        },
      );
      uniforms = createOverlayUniforms(device, 'editor:grid', 1);
      const h = halfSize;
      const corners = new Float32Array([-h, 0, -h, h, 0, -h, h, 0, h, -h, 0, -h, h, 0, h, -h, 0, h]);
      quad = device.createBuffer({
        label: 'editor:grid:quad',
        size: corners.byteLength,
        usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST,
      });
      device.queue.writeBuffer(quad, 0, corners);
      const resources = standardResources(uniforms);
      groups = [0, 1].map((g) =>
        createNamedBindGroup(device!, entry.composed, entry.lease, g, resources, `editor:grid:group${g}`),
      );
      pipeline = entry.lease.pipeline;
    },
    execute(encoder) {
      const views = refreshTargetViews(target, targetViewHolder);
      writeSceneUniforms(uniforms!, scene, camera, target.width / target.height);
      setDrawUniforms(uniforms!, 0, identity, color);
      uploadDraws(uniforms!, 1);
      const pass = encoder.beginRenderPass({
        label: 'editor:grid:pass',
        colorAttachments: [{ view: views.color, loadOp: 'load', storeOp: 'store' }],
        depthStencilAttachment: { view: views.depth, depthLoadOp: 'load', depthStoreOp: 'store' },
      });
      pass.setPipeline(pipeline!);
      pass.setBindGroup(0, groups[0]);
      pass.setBindGroup(1, groups[1], [0]);
      pass.setVertexBuffer(0, quad!);
      pass.draw(6);
      pass.end();
    },
    dispose() {
      if (device === engine.device) release();
      device = null;
    },
  };
}
