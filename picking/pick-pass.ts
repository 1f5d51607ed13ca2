import { mat4 } from 'wgpu-matrix';
import { type ComposeCache, makeComposeCache } from '../composer/compose-shader.js';
import { acquireRenderPipeline, type PipelineLease, releaseRenderPipeline } from '../composer/pipeline-cache.js';
import { composePickShader } from '../composer/standard-variants.js';
import { stableStringify } from '../composer/hash.js';
import { createPickFragments } from '../fragments/standard-material.js';
import type { Fragment } from '../fragments/fragment-types.js';
import { ensureMeshGpu, type Mesh, syncThinInstances } from '../engine/mesh.js';
import { meshVertexLayout } from '../engine/render/forward-render-task.js';
import { decodePickId } from './pick-id.js';
import type { PickTexel } from './pick-decode.js';
import type { PickSnapshot } from './pick-snapshot.js';
import { makePickZoomMatrix, type PixelRegion } from './pick-zoom.js';
import { acquireStagingBuffer, destroyStagingPool, makeStagingPool, releaseStagingBuffer, type StagingPool } from './staging-pool.js';

/** One pick pass to draw: the snapshot, the camera matrix and where each point lands in the target. */
export interface PickPassRequest {
  snapshot: PickSnapshot;
  viewProjection: Float32Array;
  width: number;
  height: number;
  /** `row`: one 1×1 region per point, side by side; `rect`: one region drawn at full size. */
  regions: PixelRegion[];
  layout: 'row' | 'rect';
  detailed: boolean;
}

/** What a finished pass read back. */
export interface PickReadback {
  texel(index: number): PickTexel;
  ids(): Iterable<number>;
}

interface PickPipeline {
  lease: PipelineLease;
  vertexBufferSources: readonly number[];
}

/** The picker's GPU objects on one device; grown on demand, reused by every later pick. */
export interface PickGpu {
  readonly device: GPUDevice;
  readonly fragments: readonly Fragment[];
  readonly composeCache: ComposeCache;
  readonly pipelines: Map<string, PickPipeline>;
  /** Per mesh: its pipeline by mode, so a warm pick skips the layout key (a mesh's layout never changes). */
  readonly meshPipelines: WeakMap<Mesh, { thin: boolean; basic?: PickPipeline; detail?: PickPipeline }>;
  readonly staging: StagingPool;
  targets: { width: number; height: number; detailed: boolean; textures: GPUTexture[]; views: GPUTextureView[]; depth: GPUTexture; depthView: GPUTextureView } | null;
  sceneBuffer: GPUBuffer | null;
  sceneGroups: GPUBindGroup[];
  drawBuffer: GPUBuffer | null;
  drawGroup: GPUBindGroup | null;
  sceneData: Float32Array<ArrayBuffer>;
  drawData: ArrayBuffer;
  /** Bind group layouts of the pick variants (identical for all of them). */
  layouts: readonly GPUBindGroupLayout[] | null;
}

const slotBytes = 256;
// A draw slot holds DrawUniforms at 0 and PickUniforms at 256: binding offsets must be 256-aligned.
const drawSlotBytes = 512;
const drawBytes = 160;
const pickIdOffset = 256;
const pickBytes = 16;
const depthFormat: GPUTextureFormat = 'depth24plus';

/** The picker's GPU state on `device`, rebuilt when the device changed (after a loss). */
export function ensurePickGpu(picker: { gpu: PickGpu | null }, device: GPUDevice): PickGpu {
  if (picker.gpu?.device === device) return picker.gpu;
  if (picker.gpu) disposePickGpu(picker.gpu);
  picker.gpu = {
    device,
    fragments: createPickFragments(),
    composeCache: makeComposeCache(),
    pipelines: new Map(),
    meshPipelines: new WeakMap(),
    staging: makeStagingPool(device),
    targets: null,
    sceneBuffer: null,
    sceneGroups: [],
    drawBuffer: null,
    drawGroup: null,
    sceneData: new Float32Array(0),
    drawData: new ArrayBuffer(0),
    layouts: null,
  };
  return picker.gpu;
}

function pipelineFor(gpu: PickGpu, mesh: Mesh, detailed: boolean): PickPipeline {
  const thin = mesh.thinInstances !== null;
  let known = gpu.meshPipelines.get(mesh);
  if (!known || known.thin !== thin) gpu.meshPipelines.set(mesh, (known = { thin }));
  const mode = detailed ? 'detail' : 'basic';
  return (known[mode] ??= pipelineForLayout(gpu, mesh, detailed));
}

function pipelineForLayout(gpu: PickGpu, mesh: Mesh, detailed: boolean): PickPipeline {
  const buffers = meshVertexLayout(mesh);
  const key = `${detailed ? 'detail' : 'basic'}|${stableStringify(buffers)}`;
  let pipeline = gpu.pipelines.get(key);
  if (pipeline) return pipeline;
  const composed = composePickShader({ thinInstances: mesh.thinInstances !== null, primitiveDetail: detailed }, {
    cache: gpu.composeCache, fragments: gpu.fragments, vertexLayout: { kind: 'buffers', buffers },
  });
  const lease = acquireRenderPipeline(gpu.device, composed, {
    label: 'weft:pick',
    targets: composed.targets.map((t) => ({ format: t.format! })),
    primitive: { topology: 'triangle-list', cullMode: 'none' },
    depthStencil: { format: depthFormat, depthWriteEnabled: true, depthCompare: 'greater' },
  });
  pipeline = { lease, vertexBufferSources: composed.vertexBufferSources };
  gpu.pipelines.set(key, pipeline);
  gpu.layouts ??= lease.bindGroupLayouts;
  return pipeline;
}

function ensureTargets(gpu: PickGpu, width: number, height: number, detailed: boolean): NonNullable<PickGpu['targets']> {
  const current = gpu.targets;
  if (current && current.width >= width && current.height >= height && (current.detailed || !detailed)) return current;
  const w = Math.max(width, current?.width ?? 1);
  const h = Math.max(height, current?.height ?? 1);
  const wantDetail = detailed || (current?.detailed ?? false);
  for (const texture of current ? [...current.textures, current.depth] : []) texture.destroy();
  const make = (format: GPUTextureFormat, label: string) => gpu.device.createTexture({ label: `weft:pick:${label}`, size: [w, h], format, usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  const textures = [make('rgba8unorm', 'id'), make('r32float', 'depth-value'), ...(wantDetail ? [make('rgba32uint', 'detail')] : [])];
  const depth = make(depthFormat, 'depth');
  gpu.targets = { width: w, height: h, detailed: wantDetail, textures, views: textures.map((t) => t.createView()), depth, depthView: depth.createView() };
  return gpu.targets;
}

function ensureUniforms(gpu: PickGpu, points: number, draws: number): void {
  const { device } = gpu;
  const layouts = gpu.layouts!;
  if (!gpu.sceneBuffer || gpu.sceneBuffer.size < points * slotBytes) {
    gpu.sceneBuffer?.destroy();
    const capacity = Math.max(points, 2 * (gpu.sceneGroups.length || 1));
    gpu.sceneBuffer = device.createBuffer({ label: 'weft:pick:scene-uniforms', size: capacity * slotBytes, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    // One bind group per point slot, made once per capacity (a scene uniform has no dynamic offset).
    gpu.sceneGroups = Array.from({ length: capacity }, (_, i) => device.createBindGroup({ label: `weft:pick:scene-group${i}`, layout: layouts[0], entries: [{ binding: 0, resource: { buffer: gpu.sceneBuffer!, offset: i * slotBytes, size: 128 } }] }));
    gpu.sceneData = new Float32Array((capacity * slotBytes) / 4);
  }
  if (!gpu.drawBuffer || gpu.drawBuffer.size < draws * drawSlotBytes) {
    gpu.drawBuffer?.destroy();
    const capacity = Math.max(draws, 2 * ((gpu.drawBuffer?.size ?? 0) / drawSlotBytes), 16);
    gpu.drawBuffer = device.createBuffer({ label: 'weft:pick:draw-uniforms', size: capacity * drawSlotBytes, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    gpu.drawGroup = device.createBindGroup({ label: 'weft:pick:draw-group', layout: layouts[1], entries: [
      { binding: 0, resource: { buffer: gpu.drawBuffer, offset: 0, size: drawBytes } },
      { binding: 1, resource: { buffer: gpu.drawBuffer, offset: pickIdOffset, size: pickBytes } },
    ] });
    gpu.drawData = new ArrayBuffer(capacity * drawSlotBytes);
  }
}

const align256 = (n: number) => Math.ceil(n / 256) * 256;

/** Encodes and submits one pick pass, then maps its texels back. No GPU object is created once warm. */
export async function encodePickPass(gpu: PickGpu, request: PickPassRequest): Promise<PickReadback> {
  const { device } = gpu;
  const { snapshot, regions, detailed } = request;
  const row = request.layout === 'row';
  const targetWidth = row ? regions.length : regions[0].width;
  const targetHeight = row ? 1 : regions[0].height;
  const drawSlots: { candidate: number; slot: number }[][] = snapshot.drawLists.map(() => []);
  let slots = 0;
  for (let p = 0; p < snapshot.drawLists.length; p++) for (const candidate of snapshot.drawLists[p]) drawSlots[p].push({ candidate, slot: slots++ });
  const pipelines = snapshot.candidates.map((c) => pipelineFor(gpu, c.mesh, detailed));
  // Vertex and instance data as of now: the renderer may not have uploaded the latest instance matrices yet.
  for (const c of snapshot.candidates) {
    if (c.mesh.disposed) continue;
    ensureMeshGpu(c.mesh, device);
    syncThinInstances(c.mesh);
  }
  if (!gpu.layouts) pipelineFor(gpu, snapshot.candidates[0]?.mesh ?? placeholderMesh(), detailed);
  const targets = ensureTargets(gpu, targetWidth, targetHeight, detailed);
  ensureUniforms(gpu, regions.length, slots);
  const zoom = new Float32Array(16);
  regions.forEach((region, p) => {
    makePickZoomMatrix(region, request.width, request.height, zoom);
    gpu.sceneData.set(mat4.multiply(zoom, request.viewProjection), (p * slotBytes) / 4);
  });
  device.queue.writeBuffer(gpu.sceneBuffer!, 0, gpu.sceneData, 0, (regions.length * slotBytes) / 4);
  const floats = new Float32Array(gpu.drawData);
  const words = new Uint32Array(gpu.drawData);
  for (const list of drawSlots) {
    for (const { candidate, slot } of list) {
      floats.set(snapshot.candidates[candidate].worldMatrix, (slot * drawSlotBytes) / 4);
      words[(slot * drawSlotBytes + pickIdOffset) / 4] = snapshot.candidates[candidate].baseId;
    }
  }
  if (slots) device.queue.writeBuffer(gpu.drawBuffer!, 0, gpu.drawData, 0, slots * drawSlotBytes);

  const encoder = device.createCommandEncoder({ label: 'weft:pick' });
  const pass = encoder.beginRenderPass({
    label: 'weft:pick-pass',
    colorAttachments: targets.views.slice(0, detailed ? 3 : 2).map((view) => ({ view, loadOp: 'clear' as const, storeOp: 'store' as const, clearValue: { r: 0, g: 0, b: 0, a: 0 } })),
    depthStencilAttachment: { view: targets.depthView, depthLoadOp: 'clear', depthClearValue: 0, depthStoreOp: 'discard' },
  });
  regions.forEach((region, p) => {
    const x = row ? p : 0;
    pass.setViewport(x, 0, row ? 1 : region.width, row ? 1 : region.height, 0, 1);
    pass.setScissorRect(x, 0, row ? 1 : region.width, row ? 1 : region.height);
    pass.setBindGroup(0, gpu.sceneGroups[p]);
    for (const { candidate: index, slot } of drawSlots[p]) {
      const candidate = snapshot.candidates[index];
      const mesh = candidate.mesh;
      // Only a redraw after a device loss can meet a mesh disposed since the snapshot; it has no buffers left.
      if (mesh.disposed) continue;
      const meshGpu = ensureMeshGpu(mesh, device);
      const pipeline = pipelines[index];
      pass.setPipeline(pipeline.lease.pipeline);
      pass.setBindGroup(1, gpu.drawGroup!, [slot * drawSlotBytes, slot * drawSlotBytes]);
      const sources = [...meshGpu.vertexBuffers, ...(meshGpu.instanceBuffer ? [meshGpu.instanceBuffer] : [])];
      pipeline.vertexBufferSources.forEach((source, i) => pass.setVertexBuffer(i, sources[source]));
      if (meshGpu.indexBuffer) pass.setIndexBuffer(meshGpu.indexBuffer, mesh.geometry.indices instanceof Uint16Array ? 'uint16' : 'uint32');
      const runs = candidate.runs ?? [{ first: 0, count: 1 }];
      for (const run of runs) {
        if (meshGpu.indexBuffer) pass.drawIndexed(mesh.geometry.indices!.length, run.count, 0, 0, run.first);
        else pass.draw(mesh.geometry.vertexCount, run.count, 0, run.first);
      }
    }
  });
  pass.end();
  const attachments = detailed ? 3 : 2;
  const texelBytes = [4, 4, 16];
  const rowBytes = texelBytes.map((b) => align256(b * targetWidth));
  const offsets = [0, rowBytes[0] * targetHeight, rowBytes[0] * targetHeight + rowBytes[1] * targetHeight];
  const total = offsets[attachments - 1] + rowBytes[attachments - 1] * targetHeight;
  const staging = acquireStagingBuffer(gpu.staging, total);
  for (let a = 0; a < attachments; a++) {
    encoder.copyTextureToBuffer({ texture: targets.textures[a] }, { buffer: staging, offset: offsets[a], bytesPerRow: rowBytes[a], rowsPerImage: targetHeight }, [targetWidth, targetHeight]);
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
  const at = (attachment: number, index: number) => offsets[attachment] + (index % targetWidth) * texelBytes[attachment] + Math.floor(index / targetWidth) * rowBytes[attachment];
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

function placeholderMesh(): Mesh {
  // Layouts are needed even when nothing is drawn; any position-only mesh yields the same bind groups.
  return { geometry: { buffers: [{ bytes: new Uint8Array(0), arrayStride: 12, attributes: [{ semantic: 'position', format: 'float32x3', offset: 0 }] }] }, thinInstances: null } as unknown as Mesh;
}

/** Destroys the pass's targets, buffers and staging pool and gives back its pipeline leases. */
export function disposePickGpu(gpu: PickGpu): void {
  for (const pipeline of gpu.pipelines.values()) releaseRenderPipeline(gpu.device, pipeline.lease);
  gpu.pipelines.clear();
  for (const texture of gpu.targets ? [...gpu.targets.textures, gpu.targets.depth] : []) texture.destroy();
  gpu.targets = null;
  gpu.sceneBuffer?.destroy();
  gpu.drawBuffer?.destroy();
  destroyStagingPool(gpu.staging);
}
