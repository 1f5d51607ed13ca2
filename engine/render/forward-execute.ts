import { drawByWinding, drawMesh } from './mesh-draw.js';
import { mat4 } from 'wgpu-matrix';
import { type Camera, getCameraViewerPosition, getCameraViewProjectionMatrix } from '../camera.js';
import { getEngineColorTexture } from '../engine.js';
import { EngineError } from '../engine-errors.js';
import { syncThinInstances } from '../mesh.js';
import { syncMeshDeformation } from '../mesh-deformation.js';
import { getEngineUniformLayouts } from '../uniform-layouts.js';
import { getRenderTargetTextures } from '../render-target.js';
import {
  type ForwardTaskState,
  forwardDrawUniformStride,
  forwardTargetSize,
  forwardViewOf,
} from './forward-task-state.js';

const api = 'ForwardRenderTask.execute';

/** Writes the scene uniforms and every draw's (world, normal matrix, colour, flags), and syncs instances and bones. */
function writeForwardUniforms(state: ForwardTaskState, camera: Camera, aspect: number): void {
  const { scene, objectIds, draws } = state;
  const { sceneData, drawData, drawWords, scratch } = state.uniforms;
  const queue = state.engine.device.queue;
  const { sceneAt: at, drawAt } = getEngineUniformLayouts();
  getCameraViewProjectionMatrix(camera, aspect, sceneData.subarray(at.viewProjection, at.viewProjection + 16));
  getCameraViewerPosition(camera, sceneData.subarray(at.cameraPosition, at.cameraPosition + 3));
  sceneData.set(scene.lightDirection, at.lightDirection);
  sceneData.set(scene.lightColor, at.lightColor);
  sceneData.set(scene.ambientColor, at.ambientColor);
  queue.writeBuffer(state.uniforms.sceneBuffer!, 0, sceneData);
  for (const draw of draws) {
    const base = (draw.slot * forwardDrawUniformStride) / 4;
    drawData.set(draw.mesh.worldMatrix, base + drawAt.world);
    mat4.transpose(mat4.inverse(draw.mesh.worldMatrix, scratch), scratch);
    drawData.set(scratch, base + drawAt.normalMatrix);
    drawData.set(draw.material.baseColor, base + drawAt.baseColor);
    drawWords[base + drawAt.flags] = draw.material.unlit ? 1 : 0;
    // flags.y: the frame id of the draw's first instance (read by the object-id fragment).
    if (objectIds) drawWords[base + drawAt.flags + 1] = objectIds.recordedRanges![draw.slot].first;
    syncThinInstances(draw.mesh);
    syncMeshDeformation(draw.mesh);
  }
  if (draws.length)
    queue.writeBuffer(state.uniforms.drawBuffer!, 0, drawData, 0, (draws.length * forwardDrawUniformStride) / 4);
}

/** The pass's colour (+ resolve) and depth views: the target's, or the engine's frame and the task's own depth. */
function passViews(state: ForwardTaskState): {
  color: GPUTextureView;
  resolve?: GPUTextureView;
  depth: GPUTextureView;
} {
  const { target } = state.options;
  if (!target)
    // A canvas hands out a new texture every frame (one view each); offscreen and depth textures keep theirs.
    return {
      color: forwardViewOf(state, getEngineColorTexture(state.engine)),
      depth: forwardViewOf(state, state.depthTexture!),
    };
  const textures = getRenderTargetTextures(target);
  const color = forwardViewOf(state, textures.colors[0]);
  const resolve = textures.resolves[0] ? forwardViewOf(state, textures.resolves[0]) : undefined;
  if (!textures.depth)
    throw new EngineError(
      api,
      'no-depth',
      `render target "${target.name}" has no depth attachment; the forward pass needs one`,
    );
  return { color, resolve, depth: forwardViewOf(state, textures.depth) };
}

/**
 * execute(): writes the uniforms and encodes the recorded draws; creates no GPU object. Returns the draws encoded.
 * @internal
 */
export function executeForwardTask(state: ForwardTaskState, encoder: GPUCommandEncoder): number {
  const { name, scene, objectIds, draws } = state;
  const camera = state.options.camera ?? scene.camera;
  if (!camera)
    throw new EngineError(api, 'no-camera', `task "${name}" has no camera: set scene.camera or options.camera`);
  const [width, height] = forwardTargetSize(state);
  writeForwardUniforms(state, camera, width / height);
  const views = passViews(state);
  const [r, g, b, a] = scene.clearColor;
  const pass = encoder.beginRenderPass({
    label: `weft:${name}:pass`,
    colorAttachments: [
      {
        view: views.color,
        resolveTarget: views.resolve,
        loadOp: 'clear',
        storeOp: 'store',
        clearValue: { r, g, b, a },
      },
      ...(objectIds
        ? [
            {
              view: objectIds.view!,
              loadOp: 'clear' as const,
              storeOp: 'store' as const,
              clearValue: { r: 0, g: 0, b: 0, a: 0 },
            },
          ]
        : []),
    ],
    depthStencilAttachment: { view: views.depth, depthLoadOp: 'clear', depthClearValue: 0, depthStoreOp: 'store' },
  });
  let drawCount = 0;
  if (draws.length) pass.setBindGroup(0, state.uniforms.sceneGroup!);
  for (const draw of draws) {
    const { mesh } = draw;
    if (!mesh.visible || (mesh.thinInstances && mesh.thinInstanceCount === 0)) continue;
    pass.setPipeline(draw.lease.pipeline);
    pass.setBindGroup(1, state.uniforms.drawGroup!, [draw.slot * forwardDrawUniformStride]);
    pass.setBindGroup(2, draw.textureGroup);
    if (draw.deformGroup) pass.setBindGroup(3, draw.deformGroup);
    draw.vertexBuffers.forEach((buffer, i) => pass.setVertexBuffer(i, buffer));
    if (draw.mirroredLease) drawByWinding(pass, mesh, draw.lease.pipeline, draw.mirroredLease.pipeline);
    else drawMesh(pass, mesh);
    drawCount++;
  }
  pass.end();
  if (objectIds) objectIds.frameRanges = objectIds.recordedRanges;
  return drawCount;
}
