// Drill-through: the pick pass of one point drawn k times in one submit, each pass clipping what the last one found.
import { acquireStagingBuffer, releaseStagingBuffer } from '../../engine/staging-pool.js';
import { readStagingBufferAsync } from '../../engine/readback.js';
import { getEngineUniformLayouts } from '../../engine/uniform-layouts.js';
import { decodePickId, type PickTexel } from '../pick-id.js';
import { PickError } from '../pick-errors.js';
import { maxPickLayers, pickLayerMargin } from '../cpu/pick-layer-limits.js';
import { confirmNewPipelinesAsync, writeDrawUniforms, writePointUniforms } from './pick-pass.js';
import { planPickPass, planPickShared, preparePickTargets } from './pick-pass-plan.js';
import { splitPickRequest } from './pick-pass-split.js';
import type { PickPassPlan, PickPassRequest } from './pick-pass-types.js';
import { beginPickPass, drawMeshCandidates } from './pick-pass-draw.js';
import type { PickReadback } from './pick-readback.js';
import type { PickGpu, PickTargets } from './pick-resources.js';

/** Bytes of one layer record: detail texel (16), ID texel, depth value, the cut it was drawn under, padding. */
const layerBytes = 32;
/** Bytes before the layer records: the point's zoomed view-projection (64), the next layer's index, padding. */
const layersOffset = 80;

const peelWgsl = /* wgsl */ `
struct Layer { detail: vec4u, id: u32, depth: f32, cut: f32, pad: u32 }
struct Peel { base: mat4x4f, next: u32, pad0: u32, pad1: u32, pad2: u32, layers: array<Layer, ${maxPickLayers}> }

@group(0) @binding(0) var<storage, read_write> peel: Peel;
@group(0) @binding(1) var<storage, read_write> zoomed: mat4x4f;

// Layer k was drawn under depth cut c (its depth row scaled by 1 / c): its depth value v is the surface's depth
// v · c. The next pass scales the depth row by 1 / c' so that everything nearer than c' (reverse-Z: depth > c') lies
// past the clip volume's z <= w and is clipped; after a miss there is nothing farther, the cut stays.
@compute @workgroup_size(1)
fn main() {
  let k = peel.next;
  let drawn = peel.layers[k];
  var cut = drawn.cut;
  if ((drawn.id & 0xffffffu) != 0u) {
    cut = drawn.depth * drawn.cut * (1.0 - ${pickLayerMargin});
  }
  peel.layers[k + 1u].cut = cut;
  peel.next = k + 1u;
  let scale = 1.0 / cut;
  var m = peel.base;
  m[0].z = m[0].z * scale;
  m[1].z = m[1].z * scale;
  m[2].z = m[2].z * scale;
  m[3].z = m[3].z * scale;
  zoomed = m;
}
`;

/** The peel pipeline and its two buffers on one picker's device (made on the first drill-through). */
interface PeelGpu {
  pipeline: GPUComputePipeline;
  group: GPUBindGroup;
  peel: GPUBuffer;
  zoomed: GPUBuffer;
}

let peelGpus: WeakMap<PickGpu, PeelGpu> | undefined;

function getPeelGpu(gpu: PickGpu): PeelGpu {
  peelGpus ??= new WeakMap();
  let entry = peelGpus.get(gpu);
  if (entry) return entry;
  const device = gpu.device;
  const layout = device.createBindGroupLayout({
    label: 'weft:pick-layers:peel-layout',
    entries: [
      { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
      { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
    ],
  });
  const module = device.createShaderModule({ label: 'weft:pick-layers:peel', code: peelWgsl });
  const pipeline = device.createComputePipeline({
    label: 'weft:pick-layers:peel',
    layout: device.createPipelineLayout({ label: 'weft:pick-layers:peel-pipeline-layout', bindGroupLayouts: [layout] }),
    compute: { module, entryPoint: 'main' },
  });
  const peel = device.createBuffer({
    label: 'weft:pick-layers:peel-state',
    size: layersOffset + maxPickLayers * layerBytes,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
  });
  const zoomed = device.createBuffer({
    label: 'weft:pick-layers:zoomed',
    size: 64,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
  });
  gpu.allBuffers.add(peel);
  gpu.allBuffers.add(zoomed);
  const group = device.createBindGroup({
    label: 'weft:pick-layers:peel-group',
    layout,
    entries: [
      { binding: 0, resource: { buffer: peel } },
      { binding: 1, resource: { buffer: zoomed } },
    ],
  });
  entry = { pipeline, group, peel, zoomed };
  peelGpus.set(gpu, entry);
  return entry;
}

/**
 * Checks, before the GPU sees anything, that the peel step fits the device (two storage buffers in its compute stage;
 * every other resource is the point pick's own).
 * @throws {PickError} `unsupported` naming the limit
 * @internal
 */
export function checkPickLayersLimits(api: string, limits: GPUSupportedLimits): void {
  if (limits.maxStorageBuffersPerShaderStage < 2)
    throw new PickError(
      api,
      'unsupported',
      `drill-through needs 2 storage buffers in a compute stage but the device's maxStorageBuffersPerShaderStage is ${limits.maxStorageBuffersPerShaderStage}`,
    );
}

/**
 * Depth peeling of one point: `layers` pick passes in one command buffer and one readback. Pass k draws the point's
 * candidates exactly as a point pick does (same pipelines, discard rule, culling, deformation), with the depth row of
 * its zoomed camera scaled so that every surface at or in front of layer k − 1 is clipped; a 1-invocation compute step
 * between passes turns the texel just drawn into the next cut, so no layer waits for the CPU. The readback's texel k
 * is layer k (a miss once the layers run out), its depth the surface's own (the pass's value times its cut).
 * Cost: `layers` passes over the point's candidate list (those under the ray), one submit, one map.
 * @throws {PickError} `limit-exceeded` when the point's draw list is past one pass's limits
 * @internal
 */
export async function encodeLayeredPickPass(
  gpu: PickGpu,
  request: PickPassRequest,
  layers: number,
): Promise<PickReadback> {
  checkPickLayersLimits(request.api, gpu.device.limits);
  if (request.regions.length !== 1 || request.layout !== 'row' || request.sources.length || request.overlayBlock)
    throw new PickError(
      request.api,
      'unsupported',
      'drill-through draws one point of meshes, without sources or overlays',
    );
  if (splitPickRequest(request, gpu.limits).length !== 1)
    throw new PickError(
      request.api,
      'limit-exceeded',
      `the ${request.snapshot.candidates.length} meshes under the point do not fit one pick pass of this device`,
    );
  const plan = planPickPass(request, planPickShared(gpu, request));
  const targets = preparePickTargets(gpu, request, [request], [plan]);
  const peel = getPeelGpu(gpu);
  writePointUniforms(gpu, request, true);
  // The peel steps below copy into the point buffer on the GPU: what the picker last uploaded is no longer known.
  gpu.pointUploaded.words = 0;
  writeDrawUniforms(gpu, request, plan);
  const { sceneAt } = getEngineUniformLayouts();
  const initial = new Float32Array((layersOffset + layers * layerBytes) / 4);
  initial.set(gpu.pointData.subarray(sceneAt.viewProjection, sceneAt.viewProjection + 16));
  initial[layersOffset / 4 + 6] = 1;
  gpu.device.queue.writeBuffer(peel.peel, 0, initial);
  const encoder = gpu.device.createCommandEncoder({ label: 'weft:pick-layers' });
  const draws = recordCandidateBundle(gpu, request, plan, targets);
  for (let k = 0; k < layers; k++) {
    const pass = beginPickPass(encoder, targets, request.detailed);
    pass.setViewport(0, 0, 1, 1, 0, 1);
    pass.setScissorRect(0, 0, 1, 1);
    pass.executeBundles([draws]);
    pass.end();
    encodeLayerCopies(encoder, targets, peel.peel, layersOffset + k * layerBytes, request.detailed);
    if (k === layers - 1) break;
    const step = encoder.beginComputePass({ label: 'weft:pick-layers:peel' });
    step.setPipeline(peel.pipeline);
    step.setBindGroup(0, peel.group);
    step.dispatchWorkgroups(1);
    step.end();
    encoder.copyBufferToBuffer(peel.zoomed, 0, gpu.pointBuffer!, sceneAt.viewProjection * 4, 64);
  }
  const byteLength = layers * layerBytes;
  const staging = acquireStagingBuffer(gpu.staging, byteLength);
  encoder.copyBufferToBuffer(peel.peel, layersOffset, staging, 0, byteLength);
  try {
    gpu.device.queue.submit([encoder.finish()]);
  } catch (error) {
    releaseStagingBuffer(gpu.staging, staging);
    throw error;
  }
  const bytes = await readStagingBufferAsync(gpu.staging, staging, byteLength, (mapped) => mapped.slice());
  await confirmNewPipelinesAsync(gpu, request.api);
  return layersReadback(bytes, request.detailed);
}

/**
 * The point's draws recorded once as a render bundle that every peel pass replays: the passes differ only in the
 * camera the point's uniform slot holds, so their commands are the same, and each pass costs one call instead of
 * a call per pipeline, bind group, buffer and draw. The point's 1×1 viewport is set on each pass (a bundle has none).
 */
function recordCandidateBundle(
  gpu: PickGpu,
  request: PickPassRequest,
  plan: PickPassPlan,
  targets: PickTargets,
): GPURenderBundle {
  const bundle = gpu.device.createRenderBundleEncoder({
    label: 'weft:pick-layers:draws',
    colorFormats: targets.textures.slice(0, request.detailed ? 3 : 2).map((texture) => texture.format),
    depthStencilFormat: targets.depth.format,
  });
  // drawMeshCandidates records a pass; a bundle takes the same calls but the viewport and scissor (set per pass).
  const recorder = {
    setPipeline: (pipeline: GPURenderPipeline) => bundle.setPipeline(pipeline),
    setBindGroup: (index: number, group: GPUBindGroup | null, offsets?: Iterable<number>) =>
      bundle.setBindGroup(index, group, offsets),
    setVertexBuffer: (slot: number, buffer: GPUBuffer | null, offset?: number, size?: number) =>
      bundle.setVertexBuffer(slot, buffer, offset, size),
    setIndexBuffer: (buffer: GPUBuffer, format: GPUIndexFormat, offset?: number, size?: number) =>
      bundle.setIndexBuffer(buffer, format, offset, size),
    draw: (vertices: number, instances?: number, firstVertex?: number, firstInstance?: number) =>
      bundle.draw(vertices, instances, firstVertex, firstInstance),
    drawIndexed: (indices: number, instances?: number, first?: number, base?: number, firstInstance?: number) =>
      bundle.drawIndexed(indices, instances, first, base, firstInstance),
    setViewport: () => undefined,
    setScissorRect: () => undefined,
  };
  drawMeshCandidates(gpu, recorder as unknown as GPURenderPassEncoder, request, plan, { width: 1, height: 1 });
  return bundle.finish();
}

/** Copies point 0's texels of the ID, depth-value (and detail) targets into layer record `offset`. */
function encodeLayerCopies(
  encoder: GPUCommandEncoder,
  targets: PickTargets,
  buffer: GPUBuffer,
  offset: number,
  detailed: boolean,
): void {
  const texel = { width: 1, height: 1 };
  encoder.copyTextureToBuffer({ texture: targets.textures[0] }, { buffer, offset: offset + 16 }, texel);
  encoder.copyTextureToBuffer({ texture: targets.textures[1] }, { buffer, offset: offset + 20 }, texel);
  if (detailed) encoder.copyTextureToBuffer({ texture: targets.textures[2] }, { buffer, offset }, texel);
}

/** The layer records as a readback whose texel k is layer k. */
function layersReadback(bytes: Uint8Array, detailed: boolean): PickReadback {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = bytes.byteLength / layerBytes;
  const id = (k: number) =>
    decodePickId(bytes[k * layerBytes + 16], bytes[k * layerBytes + 17], bytes[k * layerBytes + 18]);
  const texel = (k: number): PickTexel => {
    const at = k * layerBytes;
    return {
      id: [bytes[at + 16], bytes[at + 17], bytes[at + 18]],
      depth: view.getFloat32(at + 20, true) * view.getFloat32(at + 24, true),
      detail: detailed ? new Uint32Array(bytes.buffer.slice(bytes.byteOffset + at, bytes.byteOffset + at + 16)) : null,
    };
  };
  const noBlock = (): never => {
    throw new Error('a drill-through readback has no overlay neighbourhoods');
  };
  return {
    texel,
    id,
    *ids() {
      for (let k = 0; k < count; k++) yield id(k);
    },
    blockTexel: noBlock,
    blockId: noBlock,
  };
}
