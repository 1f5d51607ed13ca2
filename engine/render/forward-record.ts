import { composeShader } from '../../composer/compose-shader.js';
import { renderPipelineKey, type RenderPipelineState } from '../../composer/pipeline-cache.js';
import {
  acquirePipelineLease,
  disposePipelineLeaseSet,
  type PipelineLeaseSet,
  swapPipelineLeaseSet,
} from '../../composer/pipeline-leases.js';
import { disposeFrameIdReader, makeFrameIdRanges } from '../frame-ids.js';
import type { TextureData } from '../material.js';
import { ensureMeshGpu, type Mesh } from '../mesh.js';
import { ensureMeshDeformation, meshDeformationGroup } from '../mesh-deformation.js';
import { deformationInTextures } from '../mesh-deformation-textures.js';
import { materialCullMode, meshUsesClockwise } from '../winding.js';
import { ensureObjectIdTexture, forwardObjectIdFormat } from './forward-object-ids.js';
import { describeForwardShader, forwardShaderSpec } from './forward-shader.js';
import {
  type ForwardDraw,
  type ForwardTaskState,
  forwardDefaultDepthFormat,
  forwardDrawUniformStride,
  forwardSizeKey,
  forwardTargetSize,
} from './forward-task-state.js';
import { getEngineUniformLayouts } from '../uniform-layouts.js';

/** Gives back the leases and destroys the buffers, depth and material textures the task holds on its recorded device. */
function releaseForwardDeviceObjects(state: ForwardTaskState): void {
  disposePipelineLeaseSet(state.pipelines);
  state.pipelines = null;
  state.draws = [];
  const { uniforms } = state;
  uniforms.sceneBuffer?.destroy();
  uniforms.drawBuffer?.destroy();
  state.depthTexture?.destroy();
  for (const entry of state.textures.values()) entry.texture.destroy();
  state.textures.clear();
  uniforms.sceneBuffer = uniforms.drawBuffer = null;
  state.depthTexture = null;
}

/** @internal The task's dispose(): the object-ID attachment and reader, then (on a live device) everything recorded. */
export function disposeForwardTask(state: ForwardTaskState): void {
  const { objectIds } = state;
  objectIds?.texture?.destroy();
  if (objectIds) disposeFrameIdReader(objectIds.reader);
  if (state.recorded.device === state.engine.device) releaseForwardDeviceObjects(state);
  state.draws = [];
  state.recorded.device = null;
}

/** A replaced or removed precomposed table: the draws looked their shaders up in the old one. */
const tableGeneration = (state: ForwardTaskState) => state.composeCache.precomposed?.generation ?? 0;

/**
 * True when the device, scene structure, frame size, the mesh list (a `meshes` callback), a material or the
 * precomposed table changed.
 * @internal
 */
export function forwardNeedsRecord(state: ForwardTaskState): boolean {
  const { recorded } = state;
  if (
    recorded.device !== state.engine.device ||
    recorded.structure !== state.scene.structureVersion ||
    recorded.size !== forwardSizeKey(state) ||
    recorded.table !== tableGeneration(state)
  )
    return true;
  if (state.options.meshes) return true;
  for (const draw of state.draws) if (draw.material !== draw.mesh.material || draw.mesh.disposed) return true;
  // A mesh (or instance) that started mirroring needs its clockwise pipeline, which only record() may create.
  for (const draw of state.draws)
    if (!draw.mirroredLease && draw.mesh.visible && meshUsesClockwise(draw.mesh)) return true;
  return false;
}

/** The material group (sampler + base texture; a white texel without a texture), uploaded once per texture. */
function textureGroupFor(
  state: ForwardTaskState,
  device: GPUDevice,
  layout: GPUBindGroupLayout,
  data: TextureData | null,
): GPUBindGroup {
  const { name } = state;
  const known = state.textures.get(data);
  if (known && known.layout === layout) return known.group;
  const pixels = data ?? { width: 1, height: 1, data: new Uint8Array([255, 255, 255, 255]) };
  const texture =
    known?.texture ??
    device.createTexture({
      label: `weft:${name}:texture`,
      size: [pixels.width, pixels.height],
      format: 'rgba8unorm',
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
    });
  if (!known)
    device.queue.writeTexture({ texture }, pixels.data, { bytesPerRow: pixels.width * 4 }, [
      pixels.width,
      pixels.height,
    ]);
  const sampler = device.createSampler({
    label: `weft:${name}:sampler`,
    magFilter: 'linear',
    minFilter: 'linear',
    addressModeU: 'repeat',
    addressModeV: 'repeat',
  });
  const group = device.createBindGroup({
    label: `weft:${name}:texture-group`,
    layout,
    entries: [
      { binding: 0, resource: sampler },
      { binding: 1, resource: texture.createView() },
    ],
  });
  state.textures.set(data, { texture, layout, group });
  return group;
}

/** The pipeline state of a draw: the target's colour (+ object IDs), culling, reverse-Z depth, the target's samples. */
function forwardPipelineState(state: ForwardTaskState, mesh: Mesh, frontFace: GPUFrontFace): RenderPipelineState {
  const { target } = state.options;
  const colorFormat = target ? target.colorFormats[0] : state.engine.colorFormat;
  return {
    label: `weft:${state.name}:standard`,
    targets: state.objectIds ? [{ format: colorFormat }, { format: forwardObjectIdFormat }] : [{ format: colorFormat }],
    primitive: { topology: 'triangle-list', cullMode: materialCullMode(mesh.material), frontFace },
    // A target brings its own depth (depth24plus or depth32float); the canvas/offscreen frame uses depth24plus.
    depthStencil: {
      format: target?.depthFormat ?? forwardDefaultDepthFormat,
      depthWriteEnabled: true,
      depthCompare: 'greater',
    },
    multisample: { count: target ? target.samples : 1 },
  };
}

/** Composes the mesh's shader, acquires its pipeline into `pipelines` and makes the draw's buffers and groups. */
function acquireForwardDraw(
  state: ForwardTaskState,
  pipelines: PipelineLeaseSet,
  device: GPUDevice,
  mesh: Mesh,
  slot: number,
): ForwardDraw {
  const { engine, shaderOptions, fragmentLists, composeCache } = state;
  const composed = composeShader(
    forwardShaderSpec(describeForwardShader(mesh, shaderOptions), {
      fragmentLists,
      deviceFeatures: engine.features,
      deformationTextures: deformationInTextures(device),
    }),
    composeCache,
  );
  const acquire = (frontFace: GPUFrontFace) => {
    const pipelineState = forwardPipelineState(state, mesh, frontFace);
    return acquirePipelineLease(pipelines, renderPipelineKey(composed, pipelineState), () => composed, pipelineState)
      .lease;
  };
  const lease = acquire('ccw');
  const mirroredLease = meshUsesClockwise(mesh) ? acquire('cw') : null;
  const gpu = ensureMeshGpu(mesh, device);
  const sources = [...gpu.vertexBuffers, ...(gpu.instanceBuffer ? [gpu.instanceBuffer] : [])];
  const vertexBuffers = composed.vertexBufferSources.map((i) => sources[i]);
  const deformed = ensureMeshDeformation(mesh, device);
  const deformGroup =
    deformed && composed.bindGroups[3]
      ? meshDeformationGroup(deformed, lease.bindGroupLayouts[3], composed.bindGroups[3].bindings)
      : null;
  return {
    mesh,
    material: mesh.material,
    lease,
    mirroredLease,
    vertexBuffers,
    textureGroup: textureGroupFor(state, device, lease.bindGroupLayouts[2], mesh.material.texture),
    deformGroup,
    slot,
  };
}

/** The scene and draw uniform buffers (the draw buffer grown to the draw count) and their bind groups. */
function buildUniforms(state: ForwardTaskState, device: GPUDevice, draws: readonly ForwardDraw[]): void {
  const { name, uniforms } = state;
  uniforms.sceneBuffer ??= device.createBuffer({
    label: `weft:${name}:scene-uniforms`,
    size: getEngineUniformLayouts().scene.size,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  const neededBytes = Math.max(1, draws.length) * forwardDrawUniformStride;
  if (!uniforms.drawBuffer || uniforms.drawBuffer.size < neededBytes) {
    uniforms.drawBuffer?.destroy();
    uniforms.drawBuffer = device.createBuffer({
      label: `weft:${name}:draw-uniforms`,
      size: neededBytes,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    uniforms.drawData = new Float32Array(neededBytes / 4);
    uniforms.drawWords = new Uint32Array(uniforms.drawData.buffer);
  }
  if (!draws.length) return;
  const [sceneLayout, drawLayout] = draws[0].lease.bindGroupLayouts;
  uniforms.sceneGroup = device.createBindGroup({
    label: `weft:${name}:scene-group`,
    layout: sceneLayout,
    entries: [{ binding: 0, resource: { buffer: uniforms.sceneBuffer } }],
  });
  uniforms.drawGroup = device.createBindGroup({
    label: `weft:${name}:draw-group`,
    layout: drawLayout,
    entries: [{ binding: 0, resource: { buffer: uniforms.drawBuffer, size: getEngineUniformLayouts().draw.size } }],
  });
}

/**
 * record(): composes, acquires and allocates everything the draws need. The new draw list is acquired before the old
 * one is released, so shared pipelines and modules are never dropped and re-created; if acquiring fails, the
 * candidate's leases are given back and the old list stays.
 * @internal
 */
export function recordForwardTask(state: ForwardTaskState): void {
  const { engine, name, objectIds } = state;
  const { device } = engine;
  if (state.recorded.device !== device) {
    // A replaced device took every object with it: start from nothing.
    if (state.recorded.device) releaseForwardDeviceObjects(state);
    state.recorded.device = device;
  }
  const table = tableGeneration(state);
  const listed = state.options.meshes ? state.options.meshes() : state.scene.meshes;
  const meshes = listed.filter((m) => !m.disposed);
  const draws = swapPipelineLeaseSet(state, device, (pipelines) =>
    meshes.map((mesh, slot) => acquireForwardDraw(state, pipelines, device, mesh, slot)),
  );
  buildUniforms(state, device, draws);
  const [width, height] = forwardTargetSize(state);
  const depth = state.depthTexture;
  if (!state.options.target && (!depth || depth.width !== width || depth.height !== height)) {
    depth?.destroy();
    state.depthTexture = device.createTexture({
      label: `weft:${name}:depth`,
      size: [width, height],
      format: forwardDefaultDepthFormat,
      usage: GPUTextureUsage.RENDER_ATTACHMENT,
    });
  }
  state.draws = draws;
  if (objectIds) {
    ensureObjectIdTexture(objectIds, device, width, height, `weft:${name}`);
    objectIds.recordedRanges = makeFrameIdRanges(draws);
  }
  state.recorded.structure = state.scene.structureVersion;
  state.recorded.size = forwardSizeKey(state);
  state.recorded.table = table;
}
