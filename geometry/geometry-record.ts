import { describeValue } from '../core/errors.js';
import { disposePipelineLeaseSet, type PipelineLeaseSet, swapPipelineLeaseSet } from '../composer/pipeline-leases.js';
import type { Mesh } from '../engine/mesh.js';
import { ensureMeshGpu } from '../engine/mesh.js';
import { getRenderTargetTextures } from '../engine/render-target.js';
import { createBlitPass, disposeBlitPass, resolveBlitRemap } from './blit-pass.js';
import { makeFrameIdRanges } from '../engine/frame-ids.js';
import { ensureMeshDeformation, meshDeformationGroup } from '../engine/mesh-deformation.js';
import { deformationInTextures } from '../engine/mesh-deformation-textures.js';
import {
  acquireGeometryDraw,
  clearTextureGroupCache,
  type GeometryDraw,
  type GeometryDrawContext,
  geometryDrawGroupEntries,
  geometryDrawStride,
  geometrySceneBindings,
  geometrySceneBufferBytes,
  textureGroupFor,
} from './geometry-draws.js';
import { GeometryError } from './geometry-errors.js';
import { allocateGeometryTextures, releaseGeometryTextures } from './geometry-targets.js';
import type { GeometryTaskState } from './geometry-task-state.js';
import { planGeometryAttachments } from './geometry-validation.js';
import { ensureMeshVelocityHistory, pruneVelocityHistory, resetVelocityHistory } from './velocity/velocity-history.js';

const api = 'GeometryRendererTask.record';
const defaultReflectivity = [0.04, 0.04, 0.04, 0] as const;

/** The task's frame size now (`size` or the engine's). */
function geometryTaskSize(state: GeometryTaskState): [number, number] {
  const size = state.config.size;
  return !size || size === 'canvas' ? [state.engine.width, state.engine.height] : [size.width, size.height];
}

/** @internal The meshes the task draws now (config.meshes or the scene's), without disposed ones. */
export function geometryTaskMeshes(state: GeometryTaskState): readonly Mesh[] {
  return state.config.meshes ?? state.scene.meshes;
}

/** @internal True when the mesh is drawn with blending (listed in config.transparentMeshes). */
export function isGeometryTransparent(state: GeometryTaskState, mesh: Mesh): boolean {
  return state.config.transparentMeshes?.includes(mesh) ?? false;
}

/** @internal Releases everything the task holds on its recorded device (leases, buffers, textures, history). */
export function releaseGeometryDeviceObjects(state: GeometryTaskState): void {
  disposePipelineLeaseSet(state.pipelines);
  state.pipelines = null;
  state.draws = [];
  for (const blit of state.pass.resolveBlits) disposeBlitPass(blit);
  state.pass.resolveBlits = [];
  state.uniforms.sceneBuffer?.destroy();
  state.uniforms.drawBuffer?.destroy();
  state.uniforms.sceneBuffer = state.uniforms.drawBuffer = null;
  state.uniforms.sceneGroup = state.uniforms.drawGroup = null;
  state.uniforms.groupsFor = { layout0: null, layout1: null, drawBuffer: null };
  state.pass.descriptor = null;
  releaseGeometryTextures(state.targets);
  clearTextureGroupCache(state.textureGroups);
  resetVelocityHistory(state.velocity, true);
  state.recorded.depth = null;
}

function checkPerMesh(mesh: Mesh, reflectivity: readonly number[], blendTag: number): void {
  if (!Array.isArray(reflectivity) && !ArrayBuffer.isView(reflectivity))
    throw new GeometryError(
      api,
      'bad-data',
      `reflectivity(${JSON.stringify(mesh.name)}) returned ${describeValue(reflectivity)}; expected 4 numbers in 0..1 (specular rgb, glossiness)`,
    );
  if (reflectivity.length !== 4 || !Array.from(reflectivity).every(Number.isFinite))
    throw new GeometryError(
      api,
      'bad-data',
      `reflectivity(${JSON.stringify(mesh.name)}) returned [${Array.from(reflectivity).join(', ')}]; expected 4 finite numbers`,
    );
  if (!Number.isInteger(blendTag) || blendTag < 0 || blendTag > 255)
    throw new GeometryError(
      api,
      'bad-data',
      `blendTag(${JSON.stringify(mesh.name)}) returned ${describeValue(blendTag)}; expected an integer in 0..255`,
    );
}

/** The record's candidate draws, their pipelines acquired into the context's lease set. */
function acquireCandidates(
  state: GeometryTaskState,
  context: GeometryDrawContext,
  ordered: readonly Mesh[],
  transparent: ReadonlySet<Mesh>,
): GeometryDraw[] {
  const candidates: GeometryDraw[] = [];
  let firstId = 1;
  ordered.forEach((mesh, slot) => {
    const reflectivity = state.config.reflectivity ? state.config.reflectivity(mesh) : defaultReflectivity;
    const blendTag = state.config.blendTag ? state.config.blendTag(mesh) : 1;
    checkPerMesh(mesh, reflectivity, blendTag);
    candidates.push(
      acquireGeometryDraw(context, mesh, slot, transparent.has(mesh), {
        reflectivity: [reflectivity[0], reflectivity[1], reflectivity[2], reflectivity[3]],
        blendTag,
        firstId,
      }),
    );
    firstId += mesh.thinInstances ? mesh.thinInstanceCount : 1;
  });
  return candidates;
}

function sharedDepthTexture(state: GeometryTaskState, width: number, height: number): GPUTexture | null {
  const shared = state.config.depthTexture;
  if (!shared) return null;
  const depth = getRenderTargetTextures(shared).depth;
  if (!depth)
    throw new GeometryError(
      api,
      'no-depth',
      `depthTexture "${shared.name}" has no depth attachment; create it with a depthFormat`,
    );
  if (shared.width !== width || shared.height !== height || shared.samples !== state.setup.samples) {
    throw new GeometryError(
      api,
      'bad-size',
      `depthTexture "${shared.name}" is ${shared.width}×${shared.height} with ${shared.samples} sample(s); the task renders ${width}×${height} with ${state.setup.samples}: they must match`,
    );
  }
  return depth;
}

function buildResolveBlits(state: GeometryTaskState, device: GPUDevice, width: number, height: number): void {
  for (const blit of state.pass.resolveBlits) disposeBlitPass(blit);
  state.pass.resolveBlits = state.setup.plan
    .filter((a) => a.resolve === 'first-sample')
    .map((a) =>
      createBlitPass(device, {
        label: `weft:${state.name}:resolve:${a.output}`,
        cache: state.setup.cache,
        fragments: state.setup.blitFragments,
        sourceView: state.targets.colorViews[a.location],
        sourceSize: [width, height],
        sourceMultisampled: true,
        uint: false,
        lod: 0,
        targetView: state.targets.resolveViews[a.location]!,
        targetFormat: a.format,
        targetSamples: 1,
        viewport: null,
        remap: resolveBlitRemap('identity'),
        flipY: false,
        firstSample: true,
      }),
    );
}

function buildGroups(state: GeometryTaskState, device: GPUDevice, draws: readonly GeometryDraw[]): void {
  const { uniforms } = state;
  const neededBytes = Math.max(1, draws.length) * geometryDrawStride;
  if (!uniforms.drawBuffer || uniforms.drawBuffer.size < neededBytes) {
    uniforms.drawBuffer?.destroy();
    const size = Math.max(neededBytes, 2 * (uniforms.drawBuffer?.size ?? 0));
    uniforms.drawBuffer = device.createBuffer({
      label: `weft:${state.name}:draw-uniforms`,
      size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    uniforms.drawData = new Float32Array(size / 4);
    uniforms.drawWords = new Uint32Array(uniforms.drawData.buffer);
  }
  uniforms.sceneBuffer ??= device.createBuffer({
    label: `weft:${state.name}:scene-uniforms`,
    size: geometrySceneBufferBytes,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  if (!draws.length) return;
  const [layout0, layout1] = draws[0].lease.bindGroupLayouts;
  const groups = uniforms.groupsFor;
  if (groups.layout0 !== layout0) {
    const entries = draws[0].composed.bindGroups[0].bindings.map((b) => ({
      binding: b.binding,
      resource: { buffer: uniforms.sceneBuffer!, ...geometrySceneBindings[b.name] },
    }));
    uniforms.sceneGroup = device.createBindGroup({
      label: `weft:${state.name}:scene-group`,
      layout: layout0,
      entries,
    });
  }
  if (groups.layout1 !== layout1 || groups.drawBuffer !== uniforms.drawBuffer) {
    uniforms.drawGroup = device.createBindGroup({
      label: `weft:${state.name}:draw-group`,
      layout: layout1,
      entries: geometryDrawGroupEntries(draws[0].composed, uniforms.drawBuffer),
    });
  }
  uniforms.groupsFor = { layout0, layout1, drawBuffer: uniforms.drawBuffer };
}

function finishDraw(state: GeometryTaskState, device: GPUDevice, draw: GeometryDraw): void {
  const gpu = ensureMeshGpu(draw.mesh, device);
  if (state.setup.hasVelocity)
    draw.velocity = ensureMeshVelocityHistory(state.velocity, device, `weft:${state.name}`, draw.mesh);
  const sources = [
    ...gpu.vertexBuffers,
    ...(gpu.instanceBuffer ? [gpu.instanceBuffer] : []),
    ...(draw.velocity?.instances ? [draw.velocity.instances.buffer] : []),
  ];
  draw.vertexBuffers = draw.composed.vertexBufferSources.map((i) => sources[i]);
  const groups = draw.composed.bindGroups;
  draw.textureGroup =
    groups.length > 2
      ? groups[2].entries.length
        ? textureGroupFor(
            state.textureGroups,
            device,
            `weft:${state.name}`,
            draw.lease.bindGroupLayouts[2],
            draw.material.texture,
          )
        : device.createBindGroup({
            label: `weft:${state.name}:empty`,
            layout: draw.lease.bindGroupLayouts[2],
            entries: [],
          })
      : null;
  const deformed = ensureMeshDeformation(draw.mesh, device);
  const previous = draw.velocity?.deformation;
  if (deformed && groups[3] && previous) {
    // Current deformation (mesh-owned) and this task's previous bones / weights share the extra group.
    const resources = { ...deformed.resources, ...previous.resources };
    draw.deformGroup = device.createBindGroup({
      label: `weft:${state.name}:deformation:${draw.mesh.name}`,
      layout: draw.lease.bindGroupLayouts[3],
      entries: groups[3].bindings.map((b) => ({ binding: b.binding, resource: resources[b.name] })),
    });
  } else {
    draw.deformGroup =
      deformed && groups[3] ? meshDeformationGroup(deformed, draw.lease.bindGroupLayouts[3], groups[3].bindings) : null;
  }
  const dynamic = draw.composed.bindGroups[1].bindings.length;
  draw.dynamicOffsets = new Uint32Array(dynamic).fill(draw.slot * geometryDrawStride);
}

function buildPassDescriptor(state: GeometryTaskState): void {
  const { targets, config } = state;
  const { plan } = state.setup;
  state.pass.descriptor = {
    label: `weft:${state.name}:pass`,
    colorAttachments: plan.map((a) => ({
      view: targets.colorViews[a.location],
      resolveTarget: a.resolve === 'hardware' ? targets.resolveViews[a.location]! : undefined,
      loadOp: 'clear',
      storeOp: 'store',
      clearValue: a.clearValue,
    })),
    depthStencilAttachment: {
      view: targets.depthView!,
      depthLoadOp: config.depthLoad ? 'load' : 'clear',
      depthClearValue: 0,
      depthStoreOp: 'store',
    },
  };
}

/**
 * record(): every allocation, composition and pipeline of the task. The new draw list is acquired before the old one
 * is released (shared pipelines and modules stay alive: nothing recompiles); a failure releases exactly what the
 * candidate acquired and leaves the recorded list intact.
 * @internal
 */
export function recordGeometryTask(state: GeometryTaskState): void {
  const { engine } = state;
  const device = engine.device;
  if (state.recorded.device !== device) {
    // A replaced device took its objects with it: start from nothing, with no motion history.
    if (state.recorded.device) releaseGeometryDeviceObjects(state);
    state.recorded.device = device;
  }
  const meshes = geometryTaskMeshes(state).filter((m) => !m.disposed);
  const transparent = new Set(meshes.filter((m) => isGeometryTransparent(state, m)));
  if (transparent.size) {
    planGeometryAttachments(state.setup.requests, {
      api,
      samples: state.setup.samples,
      maxColorAttachments: device.limits.maxColorAttachments,
      maxColorAttachmentBytesPerSample: device.limits.maxColorAttachmentBytesPerSample,
      adapterMaxColorAttachmentBytesPerSample: engine.adapter?.limits.maxColorAttachmentBytesPerSample ?? null,
      float32Blendable: engine.features.has('float32-blendable'),
      blended: true,
    });
  }
  const [width, height] = geometryTaskSize(state);
  const depth = sharedDepthTexture(state, width, height);
  const ordered = [...meshes.filter((m) => !transparent.has(m)), ...meshes.filter((m) => transparent.has(m))];
  const context = (pipelines: PipelineLeaseSet): GeometryDrawContext => ({
    name: state.name,
    pipelines,
    cache: state.setup.cache,
    fragmentLists: state.setup.fragmentLists,
    outputs: state.setup.outputs,
    plan: state.setup.plan,
    samples: state.setup.samples,
    depthFormat: state.targets.mrt.depthFormat!,
    depthCompare: state.config.depthLoad ? 'greater-equal' : 'greater',
    reverseCulling: state.config.reverseCulling === true,
    previousDepth: state.velocity.previousDepth,
    objectPrimitive: state.setup.objectPrimitive,
    features: engine.features,
    deformationTextures: deformationInTextures(device),
  });
  // The previous lease set is given back only once the whole record succeeded.
  const draws = swapPipelineLeaseSet(state, device, (pipelines) => {
    const candidates = acquireCandidates(state, context(pipelines), ordered, transparent);
    if (
      state.targets.device !== device ||
      state.recorded.width !== width ||
      state.recorded.height !== height ||
      state.recorded.depth !== depth
    ) {
      allocateGeometryTextures(state.targets, device, state.setup.plan, width, height, depth);
      buildResolveBlits(state, device, width, height);
      state.velocity.hasCamera = false; // a new size is a new projection: no camera motion on the next frame
      state.ids.frameRanges = null; // the new textures hold no frame yet
    }
    buildGroups(state, device, candidates);
    for (const draw of candidates) finishDraw(state, device, draw);
    if (state.setup.hasVelocity) pruneVelocityHistory(state.velocity, new Set(meshes));
    buildPassDescriptor(state);
    return candidates;
  });
  state.draws = draws;
  state.ids.ranges = makeFrameIdRanges(draws);
  state.recorded.structure = state.scene.structureVersion;
  state.recorded.width = width;
  state.recorded.height = height;
  state.recorded.depth = depth;
  state.recorded.meshes = [...geometryTaskMeshes(state)];
  state.recorded.table = state.setup.cache.precomposed?.generation ?? 0;
  state.recorded.count++;
}
