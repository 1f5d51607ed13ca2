import { drawMeshInstances, setMeshIndexBuffer } from '../engine/render/mesh-draw.js';
import { mat4 } from 'wgpu-matrix';
import { ensureMeshGpu, type Mesh, syncThinInstances } from '../engine/mesh.js';
import { ensureMeshDeformation, meshDeformationGroup, syncMeshDeformation } from '../engine/mesh-deformation.js';
import { PickError } from './pick-errors.js';
import { type CheckedRule, readRuleStorage } from './discard-rules.js';
import { getPickPipeline, type PickPipeline, preparePickPipelines } from './pick-pipelines.js';
import { encodePickTargetCopies, type PickReadback, readPickTargetsAsync } from './pick-readback.js';
import {
  drawGroupFor,
  drawSlotBytes,
  emptyGroupFor,
  ensureTargets,
  ensureUniforms,
  pickFrameOffset,
  type PickGpu,
  pickUniformOffset,
  pointGroupsFor,
  pointSlotBytes,
  storageGroupFor,
} from './pick-resources.js';
import type { PickSnapshot } from './pick-snapshot.js';
import {
  type CapturedSource,
  type ContributorPoint,
  type ContributorViewData,
  encodeCapturedSources,
} from './pick-contributors.js';
import { makePickZoomMatrix, type PixelRegion } from './pick-zoom.js';

export { disposePickGpu, ensurePickGpu, type PickGpu } from './pick-resources.js';
export type { PickReadback } from './pick-readback.js';

/** One pick pass to draw: the snapshot, the camera matrix and where each point lands in the target. */
export interface PickPassRequest {
  api: string;
  snapshot: PickSnapshot;
  viewProjection: Float32Array;
  width: number;
  height: number;
  /** `row`: one 1×1 region per point, side by side; `rect`: one region drawn at full size. */
  regions: PixelRegion[];
  layout: 'row' | 'rect';
  detailed: boolean;
  rule: CheckedRule | null;
  /** Non-mesh pick sources captured with the snapshot, after the meshes' IDs. */
  sources: readonly CapturedSource[];
  /** Camera data the sources draw with (null without sources). */
  view: ContributorViewData | null;
}

/** What one pass draws, worked out before anything is written. */
interface PickPassPlan {
  /** `row`: one 1×1 region per point, side by side in the target; otherwise one region at full size. */
  row: boolean;
  targetWidth: number;
  targetHeight: number;
  /** Per candidate: its pipeline (null for a mesh disposed since the snapshot). */
  pipelines: (PickPipeline | null)[];
  /** Per candidate: the rule's storage data in binding order (null without rule storage). */
  storage: (ArrayBufferView | null)[][] | null;
  /** Per candidate: the points that draw it and the draw-uniform slot of each. */
  uses: { point: number; slot: number }[][];
  slots: number;
}

/** Compiles the rule pipelines the request lacks (null when everything is ready and encoding can start now). */
export function preparePickPass(gpu: PickGpu, request: PickPassRequest): Promise<void> | null {
  if (!request.rule) return null;
  const meshes = request.snapshot.candidates.map((c) => c.mesh).filter((m) => !m.disposed);
  if (meshes.every((m) => getPickPipeline(gpu, request.api, m, request.detailed, request.rule))) return null;
  return preparePickPipelines(gpu, request.api, meshes, request.detailed, request.rule);
}

/** Encodes and submits one pick pass now, then maps its texels back. No GPU object is created once warm. */
export async function encodePickPass(gpu: PickGpu, request: PickPassRequest): Promise<PickReadback> {
  const plan = planPickPass(gpu, request);
  const targets = preparePickTargets(gpu, request, plan);
  const points = writePointUniforms(gpu, request, plan.row);
  writeDrawUniforms(gpu, request, plan);
  const encoder = gpu.device.createCommandEncoder({ label: 'weft:pick' });
  const pass = beginPickPass(encoder, targets, request.detailed);
  drawMeshCandidates(gpu, pass, request, plan);
  drawContributors(gpu, pass, request, points);
  pass.end();
  const copies = encodePickTargetCopies(gpu, encoder, plan.targetWidth, plan.targetHeight, request.detailed);
  gpu.device.queue.submit([encoder.finish()]);
  return readPickTargetsAsync(gpu, copies);
}

/** Target size, pipelines, rule storage and uniform slots; reads everything before anything is written. */
function planPickPass(gpu: PickGpu, request: PickPassRequest): PickPassPlan {
  const { snapshot, regions, detailed, rule } = request;
  const row = request.layout === 'row';
  const pipelines = snapshot.candidates.map((c) =>
    c.mesh.disposed ? null : getPickPipeline(gpu, request.api, c.mesh, detailed, rule),
  );
  // Storage contents as of now, read before anything is written so a bad `data` leaves the GPU untouched.
  const storage = rule?.rule.storage?.length
    ? snapshot.candidates.map((c) =>
        rule.bindings.map((b) =>
          readRuleStorage(request.api, rule.rule, rule.rule.storage!.find((s) => s.name === b.name)!, c.mesh),
        ),
      )
    : null;
  // Slots are numbered point by point; draws go candidate by candidate, so pipeline, buffers and storage are set
  // once for all the points that draw a candidate.
  let slots = 0;
  const uses: PickPassPlan['uses'] = snapshot.candidates.map(() => []);
  snapshot.drawLists.forEach((list, point) => {
    for (const candidate of list) uses[candidate].push({ point, slot: slots++ });
  });
  return {
    row,
    targetWidth: row ? regions.length : regions[0].width,
    targetHeight: row ? 1 : regions[0].height,
    pipelines,
    storage,
    uses,
    slots,
  };
}

/** Grows targets and uniform buffers to the plan; uploads mesh, instance and deformation data as of now. */
function preparePickTargets(
  gpu: PickGpu,
  request: PickPassRequest,
  plan: PickPassPlan,
): NonNullable<PickGpu['targets']> {
  const targets = ensureTargets(gpu, plan.targetWidth, plan.targetHeight, request.detailed);
  ensureUniforms(gpu, request.regions.length, plan.slots);
  // The renderer may not have uploaded the latest instance matrices yet.
  for (const c of request.snapshot.candidates) {
    if (c.mesh.disposed) continue;
    ensureMeshGpu(c.mesh, gpu.device);
    syncThinInstances(c.mesh);
    if (ensureMeshDeformation(c.mesh, gpu.device)) syncMeshDeformation(c.mesh);
  }
  return targets;
}

/** Writes each point's zoomed camera and frame offset; returns the points as the contributors draw them. */
function writePointUniforms(gpu: PickGpu, request: PickPassRequest, row: boolean): ContributorPoint[] {
  const { regions } = request;
  const zoom = new Float32Array(16);
  const points: ContributorPoint[] = [];
  regions.forEach((region, p) => {
    makePickZoomMatrix(region, request.width, request.height, zoom);
    const zoomed = mat4.multiply(zoom, request.viewProjection) as Float32Array;
    gpu.pointData.set(zoomed, (p * pointSlotBytes) / 4);
    if (request.sources.length)
      points.push({
        viewProjection: zoomed,
        viewport: row ? [p, 0, 1, 1] : [0, 0, region.width, region.height],
        pixelOffset: [region.x - (row ? p : 0), region.y],
      });
    // Fragment coordinates in the pick target plus this offset give the original framebuffer's.
    gpu.pointData.set([region.x - (row ? p : 0), region.y, 0, 0], (p * pointSlotBytes + pickFrameOffset) / 4);
  });
  gpu.device.queue.writeBuffer(gpu.pointBuffer!, 0, gpu.pointData, 0, (regions.length * pointSlotBytes) / 4);
  return points;
}

/** Writes, at each slot, the candidate's world matrix, base ID, instancing flag and vertex-data width. */
function writeDrawUniforms(gpu: PickGpu, request: PickPassRequest, plan: PickPassPlan): void {
  const floats = new Float32Array(gpu.drawData);
  const words = new Uint32Array(gpu.drawData);
  plan.uses.forEach((uses, candidate) => {
    const c = request.snapshot.candidates[candidate];
    for (const { slot } of uses) {
      floats.set(c.worldMatrix, (slot * drawSlotBytes) / 4);
      words[(slot * drawSlotBytes + pickUniformOffset) / 4] = c.baseId;
      words[(slot * drawSlotBytes + pickUniformOffset) / 4 + 1] = c.runs ? 1 : 0;
      words[(slot * drawSlotBytes + pickUniformOffset) / 4 + 2] = plan.pipelines[candidate]?.vertexDataComponents ?? 0;
    }
  });
  if (plan.slots) gpu.device.queue.writeBuffer(gpu.drawBuffer!, 0, gpu.drawData, 0, plan.slots * drawSlotBytes);
}

/** Clears the ID, depth-value (and detail) attachments and the depth buffer (reverse-Z: cleared to 0). */
function beginPickPass(
  encoder: GPUCommandEncoder,
  targets: NonNullable<PickGpu['targets']>,
  detailed: boolean,
): GPURenderPassEncoder {
  return encoder.beginRenderPass({
    label: 'weft:pick-pass',
    colorAttachments: targets.views.slice(0, detailed ? 3 : 2).map((view) => ({
      view,
      loadOp: 'clear' as const,
      storeOp: 'store' as const,
      clearValue: { r: 0, g: 0, b: 0, a: 0 },
    })),
    depthStencilAttachment: {
      view: targets.depthView,
      depthLoadOp: 'clear',
      depthClearValue: 0,
      depthStoreOp: 'discard',
    },
  });
}

/** Draws each mesh candidate for the points that draw it. */
function drawMeshCandidates(
  gpu: PickGpu,
  pass: GPURenderPassEncoder,
  request: PickPassRequest,
  plan: PickPassPlan,
): void {
  plan.uses.forEach((uses, index) => {
    const pipeline = plan.pipelines[index];
    // Only a redraw after a device loss can meet a mesh disposed since the snapshot; it has no buffers left.
    if (!pipeline || uses.length === 0) return;
    const mesh = request.snapshot.candidates[index].mesh;
    pass.setPipeline(pipeline.lease.pipeline);
    setExtraGroups(gpu, pass, request, pipeline, mesh, plan.storage?.[index] ?? null);
    setMeshBuffers(gpu, pass, pipeline, mesh);
    drawCandidateUses(gpu, pass, request, plan, index, pipeline, uses);
  });
}

/** Binds groups 2 and up: the mesh's deformation data, the rule's storage, or an empty group. */
function setExtraGroups(
  gpu: PickGpu,
  pass: GPURenderPassEncoder,
  request: PickPassRequest,
  pipeline: PickPipeline,
  mesh: Mesh,
  storage: (ArrayBufferView | null)[] | null,
): void {
  const { composed, lease } = pipeline;
  const rule = request.rule;
  for (let g = 2; g < composed.bindGroups.length; g++) {
    const group = composed.bindGroups[g];
    if (group.role === 'extra' && mesh.deformationGpu) {
      if (storage)
        throw new PickError(
          request.api,
          'unsupported',
          `mesh "${mesh.name}" is deformed and discard rule "${rule!.rule.key}" binds storage: the two cannot share the extra bind group yet`,
        );
      pass.setBindGroup(g, meshDeformationGroup(mesh.deformationGpu, lease.bindGroupLayouts[g], group.bindings));
      continue;
    }
    pass.setBindGroup(
      g,
      group.role === 'extra' && storage
        ? storageGroupFor(
            gpu,
            rule!.digest,
            mesh,
            lease.bindGroupLayouts[g],
            group.bindings,
            group.bindings.map((b) => storage[rule!.bindings.findIndex((r) => r.name === b.name)]),
          )
        : emptyGroupFor(gpu, lease.bindGroupLayouts[g]),
    );
  }
}

/** Sets the vertex buffers in the pipeline's slot order (mesh, instances, rule vertex data) and the index buffer. */
function setMeshBuffers(gpu: PickGpu, pass: GPURenderPassEncoder, pipeline: PickPipeline, mesh: Mesh): void {
  const meshGpu = mesh.gpu!;
  const sources = [...meshGpu.vertexBuffers, ...(meshGpu.instanceBuffer ? [meshGpu.instanceBuffer] : [])];
  const vertexData =
    pipeline.vertexDataBuffer === null
      ? []
      : [pipeline.vertexDataBuffer < 0 ? gpu.zeros : meshGpu.vertexBuffers[pipeline.vertexDataBuffer]];
  const all = [...sources, ...vertexData];
  pipeline.vertexBufferSources.forEach((source, i) => pass.setVertexBuffer(i, all[source]));
  setMeshIndexBuffer(pass, mesh);
}

/** Per point drawing the candidate: its viewport, its uniforms, then one draw per run of thin instances. */
function drawCandidateUses(
  gpu: PickGpu,
  pass: GPURenderPassEncoder,
  request: PickPassRequest,
  plan: PickPassPlan,
  index: number,
  pipeline: PickPipeline,
  uses: readonly { point: number; slot: number }[],
): void {
  const { composed, lease } = pipeline;
  const candidate = request.snapshot.candidates[index];
  const mesh = candidate.mesh;
  const pointGroups = pointGroupsFor(gpu, lease.bindGroupLayouts[0], composed.bindGroups[0].bindings);
  const drawGroup = drawGroupFor(gpu, lease.bindGroupLayouts[1], composed.bindGroups[1].bindings);
  for (const { point, slot } of uses) {
    const region = request.regions[point];
    const x = plan.row ? point : 0;
    pass.setViewport(x, 0, plan.row ? 1 : region.width, plan.row ? 1 : region.height, 0, 1);
    pass.setScissorRect(x, 0, plan.row ? 1 : region.width, plan.row ? 1 : region.height);
    pass.setBindGroup(0, pointGroups[point]);
    pass.setBindGroup(1, drawGroup, [slot * drawSlotBytes, slot * drawSlotBytes]);
    for (const run of candidate.runs ?? [{ first: 0, count: 1 }]) {
      drawMeshInstances(pass, mesh, run.count, run.first);
    }
  }
}

/** Pick sources draw into the same targets against the same depth, so they depth-sort with the meshes. */
function drawContributors(
  gpu: PickGpu,
  pass: GPURenderPassEncoder,
  request: PickPassRequest,
  points: ContributorPoint[],
): void {
  if (!request.sources.length || !request.view) return;
  encodeCapturedSources(gpu.contributors, request.sources, {
    device: gpu.device,
    pass,
    detailed: request.detailed,
    points,
    view: request.view,
  });
}
