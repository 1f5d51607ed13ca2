import { drawByWinding, drawMesh } from '../engine/render/mesh-draw.js';
import { mat4 } from 'wgpu-matrix';
import {
  getCameraDepthRange,
  getCameraProjectionMatrix,
  getCameraViewerPosition,
  getCameraViewMatrix,
} from '../engine/camera.js';
import { syncThinInstances } from '../engine/mesh.js';
import { syncMeshDeformation } from '../engine/mesh-deformation.js';
import { encodeBlitPass } from './blit-pass.js';
import { geometryDrawBindings, geometryDrawStride, geometrySceneBindings } from './geometry-draws.js';
import { getEngineUniformLayouts } from '../engine/uniform-layouts.js';
import { getGeometryUniformOffsets } from './geometry-uniform-layouts.js';
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
      'bad-option',
      `task "${state.name}" writes the previous view depth, which needs a perspective camera; got ${String(camera.kind)}`,
    );
  const { view, projection, viewProjection } = state.uniforms.matrices;
  getCameraViewMatrix(camera, view);
  getCameraProjectionMatrix(camera, state.recorded.width / state.recorded.height, projection);
  mat4.multiply(projection, view, viewProjection);
  const { scene } = state;
  const { sceneData } = state.uniforms;
  const at = getEngineUniformLayouts().sceneAt;
  const { geometrySceneAt } = getGeometryUniformOffsets();
  sceneData.set(viewProjection, at.viewProjection);
  getCameraViewerPosition(camera, sceneData.subarray(at.cameraPosition, at.cameraPosition + 3));
  sceneData.set(scene.lightDirection, at.lightDirection);
  sceneData.set(scene.lightColor, at.lightColor);
  sceneData.set(scene.ambientColor, at.ambientColor);
  const geometryScene = geometrySceneBindings.geometryScene.offset / 4;
  sceneData.set(view, geometryScene + geometrySceneAt.view);
  // depthRange: near, far, 1 when far is infinite.
  const depthRange = geometryScene + geometrySceneAt.depthRange;
  const { near, far } = getCameraDepthRange(camera);
  const infinite = !Number.isFinite(far);
  sceneData[depthRange] = near;
  sceneData[depthRange + 1] = infinite ? 0 : far;
  sceneData[depthRange + 2] = infinite ? 1 : 0;
  const viewport = geometryScene + geometrySceneAt.viewport;
  const { width, height } = state.recorded;
  sceneData[viewport] = width;
  sceneData[viewport + 1] = height;
  sceneData[viewport + 2] = 2 / width;
  sceneData[viewport + 3] = 2 / height;
  state.engine.device.queue.writeBuffer(state.uniforms.sceneBuffer!, 0, sceneData);
}

function writeDrawUniforms(state: GeometryTaskState): void {
  const { velocity } = state;
  const { drawData, drawWords } = state.uniforms;
  const { scratch, viewProjection } = state.uniforms.matrices;
  const queue = state.engine.device.queue;
  // Word offsets inside one draw's stride: DrawUniforms, then GeometryDrawUniforms and VelocityUniforms at their bindings.
  const { drawAt } = getEngineUniformLayouts();
  const { geometryDrawAt } = getGeometryUniformOffsets();
  const geometryDraw = geometryDrawBindings.geometryDraw.offset / 4;
  const reflectivityAt = geometryDraw + geometryDrawAt.reflectivity;
  const idsAt = geometryDraw + geometryDrawAt.ids;
  const velocityAt = geometryDrawBindings.velocity.offset / 4;
  for (const draw of state.draws) {
    const base = (draw.slot * geometryDrawStride) / 4;
    const { mesh } = draw;
    drawData.set(mesh.worldMatrix, base + drawAt.world);
    // setMeshWorldMatrix is the only way to move a mesh and bumps worldVersion: invert only what moved.
    if (draw.normalVersion !== mesh.worldVersion) {
      mat4.transpose(mat4.inverse(mesh.worldMatrix, scratch), draw.normalMatrix);
      draw.normalVersion = mesh.worldVersion;
    }
    drawData.set(draw.normalMatrix, base + drawAt.normalMatrix);
    drawData.set(mesh.material.baseColor, base + drawAt.baseColor);
    drawWords[base + drawAt.flags] = mesh.material.unlit ? 1 : 0;
    drawData.set(draw.reflectivity, base + reflectivityAt);
    drawWords[base + idsAt] = draw.firstId;
    drawWords[base + idsAt + 1] = draw.blendTag;
    draw.still =
      draw.velocity !== null &&
      writeMeshVelocity(queue, velocity, draw.velocity, mesh, viewProjection, drawData, base + velocityAt) &&
      draw.stillLease !== null;
    if (draw.transparent) {
      const alpha = mesh.material.baseColor[3];
      draw.blendConstant.r = draw.blendConstant.g = draw.blendConstant.b = draw.blendConstant.a = alpha;
    }
    syncThinInstances(mesh);
    syncMeshDeformation(mesh);
  }
  if (state.draws.length)
    queue.writeBuffer(state.uniforms.drawBuffer!, 0, drawData, 0, (state.draws.length * geometryDrawStride) / 4);
}

function advanceHistory(state: GeometryTaskState): void {
  const { velocity } = state;
  if (!state.setup.hasVelocity) return;
  for (const draw of state.draws) if (draw.velocity) advanceMeshVelocity(velocity, draw.velocity, draw.mesh);
  velocity.previousViewProjection.set(state.uniforms.matrices.viewProjection);
  velocity.hasCamera = true;
}

/**
 * execute(): writes uniforms (and changed instance data) and encodes the recorded draws; creates nothing. Returns the draws encoded.
 * @internal
 */
export function executeGeometryTask(state: GeometryTaskState, encoder: GPUCommandEncoder): number {
  writeSceneUniforms(state);
  writeDrawUniforms(state);
  const pass = encoder.beginRenderPass(state.pass.descriptor!);
  let drawn = 0;
  if (state.draws.length) pass.setBindGroup(0, state.uniforms.sceneGroup!);
  for (const draw of state.draws) {
    const { mesh } = draw;
    if (!mesh.visible) continue;
    const lease = draw.still ? draw.stillLease! : draw.lease;
    const mirroredLease = draw.still ? draw.stillMirroredLease : draw.mirroredLease;
    pass.setPipeline(lease.pipeline);
    pass.setBindGroup(1, state.uniforms.drawGroup!, draw.dynamicOffsets, 0, draw.dynamicOffsets.length);
    if (draw.textureGroup) pass.setBindGroup(2, draw.textureGroup);
    if (draw.deformGroup) pass.setBindGroup(3, draw.deformGroup);
    if (draw.transparent) pass.setBlendConstant(draw.blendConstant);
    for (let i = 0; i < draw.vertexBuffers.length; i++) pass.setVertexBuffer(i, draw.vertexBuffers[i]);
    if (mirroredLease) drawByWinding(pass, mesh, lease.pipeline, mirroredLease.pipeline);
    else drawMesh(pass, mesh);
    drawn++;
  }
  pass.end();
  for (const blit of state.pass.resolveBlits) encodeBlitPass(encoder, blit);
  advanceHistory(state);
  state.ids.frameRanges = state.ids.ranges;
  return drawn;
}
