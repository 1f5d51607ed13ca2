// Recording a planned pick pass: pass state kept between draws, mesh candidates, batches, contributors.
import type { PickSubject } from '../sources/pick-source.js';
import { weftPickSource } from '../sources/weft-pick-source.js';
import { WeftError } from '../../core/errors.js';
import { PickError } from '../pick-errors.js';
import { isPulledGroup, pulledBufferGroup } from './vertex-pull-binding.js';
import { ensureExpandedVertices } from './expanded-vertices.js';
import {
  drawGroupFor,
  emptyGroupFor,
  type PickGpu,
  type PickPipeline,
  type PickTargets,
  pointGroupsFor,
  storageGroupFor,
} from './pick-resources.js';
import { type ContributorPoint, encodeCapturedSources } from '../sources/pick-contributors.js';
import { type BatchDraw, batchMesh } from './pick-batches.js';
import { geometryClassOf } from './geometry-class.js';
import type { CandidatePlan, PickPassRequest, PointUse, PickPassPlan } from './pick-pass-types.js';

/** @internal Clears the ID, depth-value (and detail) attachments and the depth buffer (reverse-Z: cleared to 0). */
export function beginPickPass(
  encoder: GPUCommandEncoder,
  targets: PickTargets,
  detailed: boolean,
): GPURenderPassEncoder {
  // The descriptor depends only on the targets: made once per target set (the call reads it, never keeps it).
  const index = detailed ? 1 : 0;
  let descriptor = targets.passDescriptors[index];
  if (!descriptor) {
    descriptor = {
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
    };
    targets.passDescriptors[index] = descriptor;
  }
  return encoder.beginRenderPass(descriptor);
}

/** @internal Draws each mesh candidate for the points that draw it. */
export function drawMeshCandidates(
  gpu: PickGpu,
  pass: GPURenderPassEncoder,
  request: PickPassRequest,
  plan: PickPassPlan,
  attachment: { width: number; height: number },
): void {
  // A pass starts with the viewport and scissor on the whole attachment (pooled: it may be larger than the plan's
  // target); state equal to the last set is not set again.
  const state: PassState = {
    rect: [0, 0, attachment.width, attachment.height],
    pointGroup: null,
    pipeline: null,
    buffers: null,
  };
  const batches = plan.batchDraws;
  let nextBatch = 0;
  for (let index = 0; index < plan.candidates.length; index++) {
    const candidatePlan = plan.candidates[index];
    const { role, pipeline, storage, uses } = candidatePlan;
    if (role === 'batch-follower') continue;
    // Batches are in candidate order: the next one is this leader's.
    if (role === 'batch-leader') {
      const batch = batches![nextBatch++];
      if (uses.length > 0) drawBatch(gpu, pass, request, batch, uses[0], state);
      continue;
    }
    // Only a redraw after a device loss can meet a mesh disposed since the snapshot; it has no buffers left.
    if (!pipeline || uses.length === 0) continue;
    const candidate = request.snapshot.candidates[index];
    const mesh = candidate.drawMesh ?? candidate.mesh;
    if (state.pipeline !== pipeline) pass.setPipeline((state.pipeline = pipeline).lease.pipeline);
    const shareable = hasOnlyGeometryBuffers(mesh, storage);
    const geometryClass = shareable ? geometryClassOf(mesh.geometry) : null;
    if (!canDrawFromBoundBuffers(state.buffers, pipeline, mesh, shareable, geometryClass)) {
      setExtraGroups(gpu, pass, request, pipeline, mesh, storage, candidate.mesh);
      setMeshBuffers(gpu, pass, pipeline, mesh);
      state.buffers = shareable ? { pipeline, mesh, geometryClass } : null;
    }
    drawCandidateUses(gpu, pass, request, plan, index, pipeline, candidatePlan, state);
  }
}

/**
 * Whether all a candidate binds besides its pipeline (buffers, groups 2+) follows from its geometry, so that bound it
 * may serve another candidate: its own thin instances, deformation data or rule storage would differ.
 * @internal
 */
export function hasOnlyGeometryBuffers(
  mesh: PickSubject,
  storage: readonly (ArrayBufferView | null)[] | null,
): boolean {
  return !mesh.thinInstances && !weftPickSource.hasDeformationGpu(mesh) && !storage;
}

/**
 * Whether a candidate may draw from the vertex/index buffers and groups 2+ already bound, skipping its own binds:
 * same pipeline, and the same mesh or one of its geometry class (equal bytes draw the same), both `shareable`.
 * @internal
 */
export function canDrawFromBoundBuffers(
  bound: BoundBuffers | null,
  pipeline: PickPipeline,
  mesh: PickSubject,
  shareable: boolean,
  geometryClass: object | null,
): boolean {
  return (
    bound !== null &&
    bound.pipeline === pipeline &&
    (bound.mesh === mesh ? shareable : geometryClass !== null && bound.geometryClass === geometryClass)
  );
}

/** @internal A shareable mesh whose buffers and groups 2+ are bound for `pipeline` (see `canDrawFromBoundBuffers`). */
export interface BoundBuffers {
  pipeline: PickPipeline;
  mesh: PickSubject;
  geometryClass: object | null;
}

/** One instanced draw of a marquee batch: the first member's buffers, the members' matrices as instances. */
function drawBatch(
  gpu: PickGpu,
  pass: GPURenderPassEncoder,
  request: PickPassRequest,
  batch: BatchDraw,
  use: PointUse,
  state: PassState,
): void {
  const { pipeline } = batch;
  const { composed, lease } = pipeline;
  const mesh = batchMesh(request.snapshot, batch);
  const region = request.regions[use.point];
  pass.setPipeline(lease.pipeline);
  state.pipeline = pipeline;
  state.buffers = null;
  setExtraGroups(gpu, pass, request, pipeline, mesh, null);
  const sources = [...weftPickSource.gpuBuffers(mesh).vertexBuffers, gpu.batchBuffer!];
  pipeline.vertexBufferSources.forEach((source, i) => pass.setVertexBuffer(i, sources[source]));
  weftPickSource.setIndexBuffer(pass, mesh);
  const pointGroups = pointGroupsFor(gpu, lease.bindGroupLayouts[0], composed.bindGroups[0].bindings);
  setPointState(pass, state, 0, 0, region.width, region.height, pointGroups[use.point]);
  pass.setBindGroup(1, drawGroupFor(gpu, lease.bindGroupLayouts[1], composed.bindGroups[1].bindings, use.slot));
  weftPickSource.drawInstances(pass, mesh, batch.count, batch.firstInstance);
}

/** What a pick pass last set: viewport (= scissor) rectangle, bind group 0, pipeline, shareable mesh buffers. */
interface PassState {
  rect: [number, number, number, number];
  pointGroup: GPUBindGroup | null;
  pipeline: PickPipeline | null;
  /** The mesh whose buffers and groups 2+ are bound for `pipeline`, when a mesh of equal geometry may reuse them. */
  buffers: BoundBuffers | null;
}

/** Sets viewport and scissor to the rectangle unless they already are, then bind group 0 unless already bound. */
function setPointState(
  pass: GPURenderPassEncoder,
  state: PassState,
  x: number,
  y: number,
  width: number,
  height: number,
  group: GPUBindGroup,
): void {
  const r = state.rect;
  if (r[0] !== x || r[1] !== y || r[2] !== width || r[3] !== height) {
    pass.setViewport(x, y, width, height, 0, 1);
    pass.setScissorRect(x, y, width, height);
    r[0] = x;
    r[1] = y;
    r[2] = width;
    r[3] = height;
  }
  // The same group object means the same layout (groups are cached per layout), so it stays valid across pipelines.
  if (state.pointGroup !== group) {
    pass.setBindGroup(0, group);
    state.pointGroup = group;
  }
}

/** Binds groups 2 and up: the mesh's deformation data, the rule's storage, or an empty group. */
function setExtraGroups(
  gpu: PickGpu,
  pass: GPURenderPassEncoder,
  request: PickPassRequest,
  pipeline: PickPipeline,
  mesh: PickSubject,
  storage: (ArrayBufferView | null)[] | null,
  owner: PickSubject = mesh,
): void {
  const { composed, lease } = pipeline;
  const rule = request.rule;
  for (let g = 2; g < composed.bindGroups.length; g++) {
    const group = composed.bindGroups[g];
    if (pipeline.pulled && isPulledGroup(group.bindings)) {
      const buffers = weftPickSource.gpuBuffers(mesh);
      const sources = [...buffers.vertexBuffers, ...(buffers.instanceBuffer ? [buffers.instanceBuffer] : [])];
      const data = pipeline.vertexDataBuffer === null ? [] : [vertexDataSource(gpu, pipeline, mesh)];
      pass.setBindGroup(
        g,
        pulledBufferGroup(gpu, gpu.device, mesh, lease.bindGroupLayouts[g], group.bindings, [...sources, ...data]),
      );
      continue;
    }
    if (group.role === 'extra' && weftPickSource.hasDeformationGpu(mesh)) {
      if (storage)
        throw new PickError(
          request.api,
          'unsupported',
          `mesh "${mesh.name}" is deformed and discard rule "${rule!.rule.key}" binds storage: the two cannot share the extra bind group yet`,
        );
      pass.setBindGroup(g, weftPickSource.deformationGroup(mesh, lease.bindGroupLayouts[g], group.bindings));
      continue;
    }
    pass.setBindGroup(
      g,
      group.role === 'extra' && storage
        ? storageGroupFor(
            gpu,
            rule!.digest,
            owner,
            lease.bindGroupLayouts[g],
            group.bindings,
            group.bindings.map((b) => storage[rule!.bindings.findIndex((r) => r.name === b.name)]),
          )
        : emptyGroupFor(gpu, lease.bindGroupLayouts[g]),
    );
  }
}

/** Sets the vertex buffers in the pipeline's slot order (mesh, instances, rule vertex data) and the index buffer. */
function setMeshBuffers(gpu: PickGpu, pass: GPURenderPassEncoder, pipeline: PickPipeline, mesh: PickSubject): void {
  const { instanceBuffer } = weftPickSource.gpuBuffers(mesh);
  const vertexBuffers = meshVertexBuffers(gpu, pipeline, mesh);
  // Source indices count the mesh's vertex buffers, then its instance buffer (if any), then the rule's vertex data,
  // then an expanded mesh's original-vertex stream.
  const instanceAt = instanceBuffer ? vertexBuffers.length : -1;
  const vertexIndicesAt = pipeline.vertexIndexStream
    ? vertexBuffers.length + (instanceBuffer ? 1 : 0) + (pipeline.vertexDataBuffer === null ? 0 : 1)
    : -1;
  const sources = pipeline.vertexBufferSources;
  for (let i = 0; i < sources.length; i++) {
    const source = sources[i];
    pass.setVertexBuffer(
      i,
      source < vertexBuffers.length
        ? vertexBuffers[source]
        : source === instanceAt
          ? instanceBuffer!
          : source === vertexIndicesAt
            ? ensureExpandedVertices(gpu.expanded, gpu.device, mesh).vertexIndices!
            : vertexDataSource(gpu, pipeline, mesh),
    );
  }
  if (!pipeline.pulled && !pipeline.expanded) weftPickSource.setIndexBuffer(pass, mesh);
}

/** The mesh's vertex buffers as the pipeline draws them: its own, or their de-indexed copies (made on first use). */
function meshVertexBuffers(gpu: PickGpu, pipeline: PickPipeline, mesh: PickSubject): readonly GPUBuffer[] {
  return pipeline.expanded
    ? ensureExpandedVertices(gpu.expanded, gpu.device, mesh).vertexBuffers
    : weftPickSource.gpuBuffers(mesh).vertexBuffers;
}

/** The buffer behind a rule's vertex-data stream: the attribute's own vertex buffer, or the zero buffer. */
function vertexDataSource(gpu: PickGpu, pipeline: PickPipeline, mesh: PickSubject): GPUBuffer {
  const index = pipeline.vertexDataBuffer!;
  return index < 0 ? gpu.zeros : meshVertexBuffers(gpu, pipeline, mesh)[index];
}

/** Per point drawing the candidate: its viewport, its uniforms, then one draw per run of thin instances. */
function drawCandidateUses(
  gpu: PickGpu,
  pass: GPURenderPassEncoder,
  request: PickPassRequest,
  plan: PickPassPlan,
  index: number,
  pipeline: PickPipeline,
  { rasterRuns, uses }: CandidatePlan,
  state: PassState,
): void {
  const { composed, lease } = pipeline;
  const candidate = request.snapshot.candidates[index];
  const mesh = candidate.drawMesh ?? candidate.mesh;
  const pointGroups = pointGroupsFor(gpu, lease.bindGroupLayouts[0], composed.bindGroups[0].bindings);
  const drawBindings = composed.bindGroups[1].bindings;
  const block = candidate.overlay === 'on-top' ? request.overlayBlock! : 0;
  for (let u = 0; u < uses.length; u++) {
    const { point, slot, instances } = uses[u];
    const region = request.regions[point];
    if (block) {
      // An on-top overlay item: its own neighbourhood texels, depth-tested only against other overlay items.
      setPointState(pass, state, point * block, 1, block, block, pointGroups[request.regions.length + point]);
    } else {
      const x = plan.row ? point : 0;
      const width = plan.row ? 1 : region.width;
      const height = plan.row ? 1 : region.height;
      setPointState(pass, state, x, 0, width, height, pointGroups[point]);
    }
    pass.setBindGroup(1, drawGroupFor(gpu, lease.bindGroupLayouts[1], drawBindings, slot));
    // Runs of one front face; a run whose pipeline differs (mirrored instances, culled faces) switches pipeline.
    for (let r = 0; r < rasterRuns.length; r++) {
      const run = rasterRuns[r];
      if (!run.pipeline) continue;
      // Without instance ranges of its own the point draws the whole run.
      const ranges = instances ? instances.length : 1;
      for (let k = 0; k < ranges; k++) {
        const range = instances ? instances[k] : run;
        // Only the part of the run this point's ray crosses.
        const first = Math.max(run.first, range.first);
        const count = Math.min(run.first + run.count, range.first + range.count) - first;
        if (count <= 0) continue;
        if (run.pipeline !== state.pipeline) pass.setPipeline((state.pipeline = run.pipeline).lease.pipeline);
        // Pulled or expanded: corner k of triangle t is draw vertex 3t + k (the shader reads the index buffer itself,
        // or the vertex buffers are de-indexed copies).
        if (run.pipeline.pulled || run.pipeline.expanded) pass.draw(mesh.geometry.indices!.length, count, 0, first);
        else weftPickSource.drawInstances(pass, mesh, count, first);
      }
    }
  }
}

/** @internal Pick sources draw into the same targets against the same depth, so they depth-sort with the meshes. */
export function drawContributors(
  gpu: PickGpu,
  pass: GPURenderPassEncoder,
  request: PickPassRequest,
  points: ContributorPoint[],
): void {
  if (!request.sources.length || !request.view) return;
  try {
    encodeCapturedSources(
      gpu.contributors,
      request.sources,
      {
        device: gpu.device,
        pass,
        detailed: request.detailed,
        points,
        view: request.view,
      },
      gpu.composeCache.precomposed,
    );
  } catch (error) {
    // A source's pipeline past a device limit (checked before the GPU sees it) refuses the pick, named as the pick's.
    if (error instanceof WeftError && error.code === 'pipeline-failed')
      throw new PickError(request.api, 'unsupported', `a pick source cannot be drawn on this device: ${error.message}`);
    throw error;
  }
}
