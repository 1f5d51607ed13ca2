import { mat4 } from 'wgpu-matrix';
import { ensureMeshGpu, syncThinInstances } from '../engine/mesh.js';
import { ensureMeshDeformation, meshDeformationGroup, syncMeshDeformation } from '../engine/mesh-deformation.js';
import { PickError } from './pick-errors.js';
import { type CheckedRule, readRuleStorage } from './discard-rules.js';
import { decodePickId } from './pick-id.js';
import type { PickTexel } from './pick-decode.js';
import { getPickPipeline, type PickPipeline, preparePickPipelines } from './pick-pipelines.js';
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
import { acquireStagingBuffer, releaseStagingBuffer } from './staging-pool.js';

export { disposePickGpu, ensurePickGpu, type PickGpu } from './pick-resources.js';

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

/** What a finished pass read back. */
export interface PickReadback {
  texel(index: number): PickTexel;
  ids(): Iterable<number>;
}

const align256 = (n: number) => Math.ceil(n / 256) * 256;

/** Compiles the rule pipelines the request lacks (null when everything is ready and encoding can start now). */
export function preparePickPass(gpu: PickGpu, request: PickPassRequest): Promise<void> | null {
  if (!request.rule) return null;
  const meshes = request.snapshot.candidates.map((c) => c.mesh).filter((m) => !m.disposed);
  if (meshes.every((m) => getPickPipeline(gpu, request.api, m, request.detailed, request.rule))) return null;
  return preparePickPipelines(gpu, request.api, meshes, request.detailed, request.rule);
}

/** Encodes and submits one pick pass now, then maps its texels back. No GPU object is created once warm. */
export async function encodePickPass(gpu: PickGpu, request: PickPassRequest): Promise<PickReadback> {
  const { device } = gpu;
  const { snapshot, regions, detailed, rule } = request;
  const row = request.layout === 'row';
  const targetWidth = row ? regions.length : regions[0].width;
  const targetHeight = row ? 1 : regions[0].height;
  const pipelines: (PickPipeline | null)[] = snapshot.candidates.map((c) =>
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
  let slots = 0;
  const drawSlots = snapshot.drawLists.map((list) => list.map((candidate) => ({ candidate, slot: slots++ })));
  const targets = ensureTargets(gpu, targetWidth, targetHeight, detailed);
  ensureUniforms(gpu, regions.length, slots);
  // Vertex and instance data as of now: the renderer may not have uploaded the latest instance matrices yet.
  for (const c of snapshot.candidates) {
    if (c.mesh.disposed) continue;
    ensureMeshGpu(c.mesh, device);
    syncThinInstances(c.mesh);
    if (ensureMeshDeformation(c.mesh, device)) syncMeshDeformation(c.mesh);
  }
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
  device.queue.writeBuffer(gpu.pointBuffer!, 0, gpu.pointData, 0, (regions.length * pointSlotBytes) / 4);
  const floats = new Float32Array(gpu.drawData);
  const words = new Uint32Array(gpu.drawData);
  for (const list of drawSlots) {
    for (const { candidate, slot } of list) {
      const c = snapshot.candidates[candidate];
      floats.set(c.worldMatrix, (slot * drawSlotBytes) / 4);
      words[(slot * drawSlotBytes + pickUniformOffset) / 4] = c.baseId;
      words[(slot * drawSlotBytes + pickUniformOffset) / 4 + 1] = c.runs ? 1 : 0;
      words[(slot * drawSlotBytes + pickUniformOffset) / 4 + 2] = pipelines[candidate]?.vertexDataComponents ?? 0;
    }
  }
  if (slots) device.queue.writeBuffer(gpu.drawBuffer!, 0, gpu.drawData, 0, slots * drawSlotBytes);

  const encoder = device.createCommandEncoder({ label: 'weft:pick' });
  const pass = encoder.beginRenderPass({
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
  // Candidate by candidate, so pipeline, mesh buffers and storage are set once for all the points that draw it.
  const byCandidate: { point: number; slot: number }[][] = snapshot.candidates.map(() => []);
  drawSlots.forEach((list, point) =>
    list.forEach(({ candidate, slot }) => byCandidate[candidate].push({ point, slot })),
  );
  byCandidate.forEach((uses, index) => {
    const pipeline = pipelines[index];
    // Only a redraw after a device loss can meet a mesh disposed since the snapshot; it has no buffers left.
    if (!pipeline || uses.length === 0) return;
    const candidate = snapshot.candidates[index];
    const mesh = candidate.mesh;
    const meshGpu = mesh.gpu!;
    const { composed, lease } = pipeline;
    pass.setPipeline(lease.pipeline);
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
              group.bindings.map((b) => storage[index][rule!.bindings.findIndex((r) => r.name === b.name)]),
            )
          : emptyGroupFor(gpu, lease.bindGroupLayouts[g]),
      );
    }
    const sources = [...meshGpu.vertexBuffers, ...(meshGpu.instanceBuffer ? [meshGpu.instanceBuffer] : [])];
    const vertexData =
      pipeline.vertexDataBuffer === null
        ? []
        : [pipeline.vertexDataBuffer < 0 ? gpu.zeros : meshGpu.vertexBuffers[pipeline.vertexDataBuffer]];
    const all = [...sources, ...vertexData];
    pipeline.vertexBufferSources.forEach((source, i) => pass.setVertexBuffer(i, all[source]));
    if (meshGpu.indexBuffer)
      pass.setIndexBuffer(meshGpu.indexBuffer, mesh.geometry.indices instanceof Uint16Array ? 'uint16' : 'uint32');
    const pointGroups = pointGroupsFor(gpu, lease.bindGroupLayouts[0], composed.bindGroups[0].bindings);
    const drawGroup = drawGroupFor(gpu, lease.bindGroupLayouts[1], composed.bindGroups[1].bindings);
    for (const { point, slot } of uses) {
      const region = regions[point];
      const x = row ? point : 0;
      pass.setViewport(x, 0, row ? 1 : region.width, row ? 1 : region.height, 0, 1);
      pass.setScissorRect(x, 0, row ? 1 : region.width, row ? 1 : region.height);
      pass.setBindGroup(0, pointGroups[point]);
      pass.setBindGroup(1, drawGroup, [slot * drawSlotBytes, slot * drawSlotBytes]);
      for (const run of candidate.runs ?? [{ first: 0, count: 1 }]) {
        if (meshGpu.indexBuffer) pass.drawIndexed(mesh.geometry.indices!.length, run.count, 0, 0, run.first);
        else pass.draw(mesh.geometry.vertexCount, run.count, 0, run.first);
      }
    }
  });
  // Sources draw into the same targets against the same depth, so they depth-sort with the meshes.
  if (request.sources.length && request.view)
    encodeCapturedSources(gpu.contributors, request.sources, { device, pass, detailed, points, view: request.view });
  pass.end();
  const attachments = detailed ? 3 : 2;
  const texelBytes = [4, 4, 16];
  const rowBytes = texelBytes.map((b) => align256(b * targetWidth));
  const offsets = [0, rowBytes[0] * targetHeight, rowBytes[0] * targetHeight + rowBytes[1] * targetHeight];
  const total = offsets[attachments - 1] + rowBytes[attachments - 1] * targetHeight;
  const staging = acquireStagingBuffer(gpu.staging, total);
  for (let a = 0; a < attachments; a++) {
    encoder.copyTextureToBuffer(
      { texture: targets.textures[a] },
      { buffer: staging, offset: offsets[a], bytesPerRow: rowBytes[a], rowsPerImage: targetHeight },
      [targetWidth, targetHeight],
    );
  }
  device.queue.submit([encoder.finish()]);
  try {
    await staging.mapAsync(GPUMapMode.READ, 0, total);
  } catch (error) {
    releaseStagingBuffer(gpu.staging, staging);
    throw error;
  }
  const bytes = new Uint8Array(staging.getMappedRange(0, total).slice(0));
  staging.unmap();
  releaseStagingBuffer(gpu.staging, staging);
  const at = (attachment: number, index: number) =>
    offsets[attachment] +
    (index % targetWidth) * texelBytes[attachment] +
    Math.floor(index / targetWidth) * rowBytes[attachment];
  const view = new DataView(bytes.buffer);
  return {
    texel(index) {
      const idAt = at(0, index);
      return {
        id: [bytes[idAt], bytes[idAt + 1], bytes[idAt + 2]],
        depth: view.getFloat32(at(1, index), true),
        detail: detailed ? new Uint32Array(bytes.buffer.slice(at(2, index), at(2, index) + 16)) : null,
      };
    },
    *ids() {
      for (let i = 0; i < targetWidth * targetHeight; i++) {
        const idAt = at(0, i);
        yield decodePickId(bytes[idAt], bytes[idAt + 1], bytes[idAt + 2]);
      }
    },
  };
}
