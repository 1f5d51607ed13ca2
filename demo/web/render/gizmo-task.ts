// Gizmo task: the visible handles of the gizmo scene on top of everything (depth cleared, colour loaded).
import { composeShader, makeComposeCache } from '../../../composer/index.js';
import {
  ensureMeshGpu,
  meshVertexLayout,
  type PerspectiveCamera,
  type RenderTarget,
  type Task,
} from '../../../engine/index.js';
import { makeStandardVertexFragments } from '../../../fragments/index.js';
import type { Gizmo, GizmoHandle } from '../gizmo/gizmo.js';
import { createHandleSurfaceFragment } from './editor-fragments.js';
import {
  createNamedBindGroup,
  createOverlayUniforms,
  destroyOverlayUniforms,
  drawStride,
  makeTargetViews,
  type OverlayUniforms,
  pipelineFor,
  type PipelineSet,
  refreshTargetViews,
  releasePipelines,
  setDrawUniforms,
  standardResources,
  uploadDraws,
  writeSceneUniforms,
} from './overlay-gpu.js';

interface HandleDraw {
  handle: GizmoHandle;
  pipeline: GPURenderPipeline;
  vertexBuffers: GPUBuffer[];
  indexBuffer: GPUBuffer;
  indexFormat: GPUIndexFormat;
  indexCount: number;
}

/** Creates the gizmo task drawing into `target`. */
export function createGizmoTask(gizmo: Gizmo, target: RenderTarget): Task {
  const engine = gizmo.scene.engine;
  const pipelines: PipelineSet = { device: null, cache: makeComposeCache(), leases: new Map() };
  const fragments = [...makeStandardVertexFragments(), createHandleSurfaceFragment()];
  const views = makeTargetViews();
  let device: GPUDevice | null = null;
  let uniforms: OverlayUniforms | null = null;
  let groups: GPUBindGroup[] = [];
  let draws: HandleDraw[] = [];

  function release(): void {
    destroyOverlayUniforms(uniforms);
    uniforms = null;
    groups = [];
    releasePipelines(pipelines);
    draws = [];
  }

  return {
    name: 'editor-gizmo',
    needsRecord: () => device !== engine.device,
    record() {
      release();
      device = engine.device;
      uniforms = createOverlayUniforms(device, 'editor:gizmo', gizmo.handles.length);
      draws = gizmo.handles.map((handle) => {
        const mesh = handle.mesh;
        const buffers = meshVertexLayout(mesh);
        const layoutKey = buffers.map((b) => b.attributes.map((a) => a.semantic).join('+')).join('|');
        const { composed, lease } = pipelineFor(
          pipelines,
          device!,
          layoutKey,
          () =>
            composeShader(
              { fragments, conditions: { normals: true }, vertexLayout: { kind: 'buffers', buffers } },
              pipelines.cache,
            ),
          {
            label: 'editor:gizmo',
            targets: [{ format: target.colorFormats[0] }],
            primitive: { topology: 'triangle-list', cullMode: 'back', frontFace: 'ccw' },
            depthStencil: { format: target.depthFormat!, depthWriteEnabled: true, depthCompare: 'greater' },
          },
        );
        if (!groups.length)
          groups = [0, 1].map((g) =>
            createNamedBindGroup(device!, composed, lease, g, standardResources(uniforms!), `editor:gizmo:group${g}`),
          );
        const gpu = ensureMeshGpu(mesh, device!);
        const indices = mesh.geometry.indices!;
        return {
          handle,
          pipeline: lease.pipeline,
          vertexBuffers: composed.vertexBufferSources.map((i) => gpu.vertexBuffers[i]),
          indexBuffer: gpu.indexBuffer!,
          indexFormat: indices instanceof Uint16Array ? 'uint16' : 'uint32',
          indexCount: indices.length,
        };
      });
    },
    execute(encoder) {
      if (!gizmo.visible) return;
      writeSceneUniforms(uniforms!, gizmo.scene, gizmo.scene.camera as PerspectiveCamera, target.width / target.height);
      for (let slot = 0; slot < draws.length; slot++)
        setDrawUniforms(uniforms!, slot, draws[slot].handle.mesh.worldMatrix, draws[slot].handle.color);
      uploadDraws(uniforms!, draws.length);
      const { color, depth } = refreshTargetViews(target, views);
      const pass = encoder.beginRenderPass({
        label: 'editor:gizmo:pass',
        colorAttachments: [{ view: color, loadOp: 'load', storeOp: 'store' }],
        // Handles draw over the scene: a fresh depth buffer for them alone.
        depthStencilAttachment: { view: depth, depthLoadOp: 'clear', depthClearValue: 0, depthStoreOp: 'store' },
      });
      pass.setBindGroup(0, groups[0]);
      for (let slot = 0; slot < draws.length; slot++) {
        const draw = draws[slot];
        if (!draw.handle.mesh.visible) continue;
        pass.setPipeline(draw.pipeline);
        pass.setBindGroup(1, groups[1], [slot * drawStride]);
        for (let i = 0; i < draw.vertexBuffers.length; i++) pass.setVertexBuffer(i, draw.vertexBuffers[i]);
        pass.setIndexBuffer(draw.indexBuffer, draw.indexFormat);
        pass.drawIndexed(draw.indexCount);
      }
      pass.end();
    },
    dispose() {
      if (device === engine.device) release();
      device = null;
    },
  };
}
