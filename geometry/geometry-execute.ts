import { mat4 } from 'wgpu-matrix';
import { getCameraProjectionMatrix, getCameraViewMatrix } from '../engine/camera.js';
import { syncThinInstances } from '../engine/mesh.js';
import { syncMeshDeformation } from '../engine/mesh-deformation.js';
import { encodeBlitPass } from './blit-pass.js';
import { geometryDrawStride } from './geometry-draws.js';
import { GeometryError } from './geometry-errors.js';
import type { GeometryTaskState } from './geometry-task-state.js';
import { advanceMeshVelocity, writeMeshVelocity } from './velocity/velocity-history.js';

const api = 'GeometryRendererTask.execute';

function writeSceneUniforms(state: GeometryTaskState): void {
  const camera = state.config.camera ?? state.scene.camera;
  if (!camera)
    throw new GeometryError(api, 'no-camera', `task "${state.name}" has no camera: set scene.camera or config.camera`);
  if (state.velocity.previousDepth && camera.kind !== 'perspective')
    throw new GeometryError(
      api,
      'bad-camera',
      `task "${state.name}" writes the previous view depth, which needs a perspective camera; got ${String(camera.kind)}`,
    );
  const { view, projection, viewProjection } = state.matrices;
  getCameraViewMatrix(camera, view);
  getCameraProjectionMatrix(camera, state.recordedWidth / state.recordedHeight, projection);
  mat4.multiply(projection, view, viewProjection);
  const { scene, sceneData } = state;
  sceneData.set(viewProjection, 0);
  sceneData.set(camera.position, 16);
  sceneData.set(scene.lightDirection, 20);
  sceneData.set(scene.lightColor, 24);
  sceneData.set(scene.ambientColor, 28);
  // GeometrySceneUniforms at byte 256: view, then (near, far, infinite far).
  sceneData.set(view, 64);
  const infinite = !Number.isFinite(camera.far);
  sceneData[80] = camera.near;
  sceneData[81] = infinite ? 0 : camera.far;
  sceneData[82] = infinite ? 1 : 0;
  state.engine.device.queue.writeBuffer(state.sceneBuffer!, 0, sceneData);
}

function writeDrawUniforms(state: GeometryTaskState): void {
  const { drawData, drawWords, velocity } = state;
  const { scratch, viewProjection } = state.matrices;
  const queue = state.engine.device.queue;
  for (const draw of state.draws) {
    const base = (draw.slot * geometryDrawStride) / 4;
    const { mesh } = draw;
    drawData.set(mesh.worldMatrix, base);
    mat4.transpose(mat4.inverse(mesh.worldMatrix, scratch), scratch);
    drawData.set(scratch, base + 16);
    drawData.set(mesh.material.baseColor, base + 32);
    drawWords[base + 36] = mesh.material.unlit ? 1 : 0;
    drawData.set(draw.reflectivity, base + 64);
    drawWords[base + 68] = draw.firstId;
    drawWords[base + 69] = draw.blendTag;
    if (draw.velocity) writeMeshVelocity(queue, velocity, draw.velocity, mesh, viewProjection, drawData, base + 128);
    if (draw.transparent) {
      const alpha = mesh.material.baseColor[3];
      draw.blendConstant.r = draw.blendConstant.g = draw.blendConstant.b = draw.blendConstant.a = alpha;
    }
    syncThinInstances(mesh);
    syncMeshDeformation(mesh);
  }
  if (state.draws.length)
    queue.writeBuffer(state.drawBuffer!, 0, drawData, 0, (state.draws.length * geometryDrawStride) / 4);
}

function advanceHistory(state: GeometryTaskState): void {
  const { velocity } = state;
  if (!state.hasVelocity) return;
  for (const draw of state.draws) if (draw.velocity) advanceMeshVelocity(velocity, draw.velocity, draw.mesh);
  velocity.previousViewProjection.set(state.matrices.viewProjection);
  velocity.hasCamera = true;
}

/** execute(): writes uniforms (and changed instance data) and encodes the recorded draws; creates nothing. Returns the draws encoded. */
export function executeGeometryTask(state: GeometryTaskState, encoder: GPUCommandEncoder): number {
  writeSceneUniforms(state);
  writeDrawUniforms(state);
  const pass = encoder.beginRenderPass(state.passDescriptor!);
  let drawn = 0;
  if (state.draws.length) pass.setBindGroup(0, state.sceneGroup!);
  for (const draw of state.draws) {
    const { mesh } = draw;
    if (!mesh.visible) continue;
    pass.setPipeline(draw.lease.pipeline);
    pass.setBindGroup(1, state.drawGroup!, draw.dynamicOffsets, 0, draw.dynamicOffsets.length);
    if (draw.textureGroup) pass.setBindGroup(2, draw.textureGroup);
    if (draw.deformGroup) pass.setBindGroup(3, draw.deformGroup);
    if (draw.transparent) pass.setBlendConstant(draw.blendConstant);
    for (let i = 0; i < draw.vertexBuffers.length; i++) pass.setVertexBuffer(i, draw.vertexBuffers[i]);
    const instances = Math.max(1, mesh.thinInstanceCount);
    const gpu = mesh.gpu!;
    if (gpu.indexBuffer) {
      pass.setIndexBuffer(gpu.indexBuffer, mesh.geometry.indices instanceof Uint16Array ? 'uint16' : 'uint32');
      pass.drawIndexed(mesh.geometry.indices!.length, instances);
    } else {
      pass.draw(mesh.geometry.vertexCount, instances);
    }
    drawn++;
  }
  pass.end();
  for (const blit of state.resolveBlits) encodeBlitPass(encoder, blit);
  advanceHistory(state);
  state.frameRanges = state.ranges;
  return drawn;
}
