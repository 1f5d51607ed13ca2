import { mat4 } from 'wgpu-matrix';
import { confirmPickPipelineAsync, getPickPipeline, preparePickPipelines } from './pick-pipelines.js';
import { releaseStagingBuffer } from '../../engine/staging-pool.js';
import {
  encodePickTargetCopies,
  type PickReadback,
  type PickTargetCopies,
  readPickTargetsAsync,
} from './pick-readback.js';
import {
  drawSlotBytes,
  pickFrameOffset,
  type PickGpu,
  type PickTargets,
  pickUniformOffset,
  pointSlotBytes,
  uploadUniformsIfChanged,
} from './pick-resources.js';
import type { ContributorPoint } from '../sources/pick-contributors.js';
import { makePickZoomedViewProjection, makePickZoomMatrix } from '../pick-zoom.js';
import { getEngineUniformLayouts } from '../../engine/uniform-layouts.js';
import { getPickUniformOffsets } from './pick-uniform-layouts.js';
import type { PickPassPlan, PickPassRequest } from './pick-pass-types.js';
import { splitPickRequest, joinPickReadbacks } from './pick-pass-split.js';
import { rasterRunsOf, planPickShared, planPickPass, preparePickTargets } from './pick-pass-plan.js';
import { pruneExpandedVertices } from './expanded-vertices.js';
import { beginPickPass, drawMeshCandidates, drawContributors } from './pick-pass-draw.js';

/**
 * Compiles the rule pipelines the request lacks (null when everything is ready and encoding can start now).
 * @internal
 */
export function preparePickPass(gpu: PickGpu, request: PickPassRequest): Promise<void> | null {
  if (!request.rule) return null;
  const method = request.detailMethod;
  const draws = request.snapshot.candidates
    .filter((c) => !c.overlay)
    .flatMap((c) => rasterRunsOf(request, c).map((run) => ({ mesh: c.drawMesh ?? c.mesh, raster: run.raster })));
  if (draws.every((d) => getPickPipeline(gpu, request.api, d.mesh, request.detailed, request.rule, d.raster, method)))
    return null;
  return preparePickPipelines(gpu, request.api, draws, request.detailed, request.rule, method);
}

/**
 * Encodes and submits the pick now, then maps its texels back. No GPU object is created once warm. A request past
 * the device's limits (see `splitPickPoints`, `splitPickRect`) is drawn as several passes, all encoded and submitted
 * now (queue order keeps each pass's uniforms apart), so every pass draws the scene as it is at the call.
 * @throws {PickError} `limit-exceeded` when one point's (or the rectangle's) draw list alone is past a limit
 * @internal
 */
export function encodePickPass(gpu: PickGpu, request: PickPassRequest): Promise<PickReadback> {
  // Not an async function: the usual single pass encodes, submits and maps without one more promise and generator.
  try {
    if (gpu.expanded.size > 0) pruneExpandedVertices(gpu.expanded);
    const passes = splitPickRequest(request, gpu.limits);
    if (passes.length !== 1) return encodePassesAsync(gpu, request, passes);
    const plan = planPickPass(request, planPickShared(gpu, request), true);
    const submitted = submitPickPass(gpu, request, plan, preparePickTargets(gpu, request, passes, [plan]), 0, 1);
    if (!submitted) return readReducedAsync(gpu, request);
    const block = request.layout === 'row' ? (request.overlayBlock ?? 0) : 0;
    return readSinglePassAsync(gpu, request.api, submitted, block);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The readback of a single submitted pass, once any pipeline made for it is confirmed. */
async function readSinglePassAsync(
  gpu: PickGpu,
  api: string,
  submitted: PickTargetCopies,
  block: number,
): Promise<PickReadback> {
  const readback = await readPickTargetsAsync(gpu, submitted, block);
  if (gpu.unverified.size > 0) await confirmNewPipelinesAsync(gpu, api);
  return readback;
}

/** A request split into several passes (`splitPickRequest`): all encoded and submitted now, read back together. */
async function encodePassesAsync(
  gpu: PickGpu,
  request: PickPassRequest,
  passes: PickPassRequest[],
): Promise<PickReadback> {
  const shared = planPickShared(gpu, request);
  const block = request.layout === 'row' ? (request.overlayBlock ?? 0) : 0;
  const plans = passes.map((pass, i) => planPickPass(pass, shared, i === 0));
  const targets = preparePickTargets(gpu, request, passes, plans);
  const copies: PickTargetCopies[] = [];
  try {
    passes.forEach((pass, i) => {
      const submitted = submitPickPass(gpu, pass, plans[i], targets, i, passes.length);
      if (submitted) copies.push(submitted);
    });
  } catch (error) {
    for (const submitted of copies) releaseStagingBuffer(gpu.staging, submitted.buffer);
    throw error;
  }
  if (request.reducer) return readReducedAsync(gpu, request);
  const readbacks = await Promise.all(copies.map((submitted) => readPickTargetsAsync(gpu, submitted, block)));
  await confirmNewPipelinesAsync(gpu, request.api);
  return joinPickReadbacks(request, passes, readbacks);
}

/** Reads a reduced request's result (the reducer holds it; no texel is read). */
async function readReducedAsync(gpu: PickGpu, request: PickPassRequest): Promise<PickReadback> {
  await request.reducer!.readAsync(gpu);
  await confirmNewPipelinesAsync(gpu, request.api);
  return noTexels;
}

/**
 * Confirms the pipelines made since the last pick (a request's own, or a concurrent one's): nothing to do once warm.
 * The first refused one refuses the pick.
 * @internal
 */
export async function confirmNewPipelinesAsync(gpu: PickGpu, api: string): Promise<void> {
  if (gpu.unverified.size === 0) return;
  for (const pipeline of [...gpu.unverified]) await confirmPickPipelineAsync(gpu, api, pipeline);
}

/** The readback of a reduced request: its result is the reducer's, no texel is read. */
const noTexels: PickReadback = {
  texel: () => ({ id: [0, 0, 0], depth: 0, detail: null }),
  id: () => 0,
  ids: () => [],
  blockTexel: () => ({ id: [0, 0, 0], depth: 0, detail: null }),
  blockId: () => 0,
};

/** Writes one pass's uniforms, encodes it and its copies (or the request's reduction), and submits. */
function submitPickPass(
  gpu: PickGpu,
  request: PickPassRequest,
  plan: PickPassPlan,
  targets: PickTargets,
  index: number,
  count: number,
): PickTargetCopies | null {
  const points = writePointUniforms(gpu, request, plan.row);
  writeDrawUniforms(gpu, request, plan);
  const encoder = gpu.device.createCommandEncoder({ label: 'weft:pick' });
  const pass = beginPickPass(encoder, targets, request.detailed);
  drawMeshCandidates(gpu, pass, request, plan, targets);
  drawContributors(gpu, pass, request, points);
  pass.end();
  if (request.reducer) {
    request.reducer.encode(gpu, encoder, targets.views[0], plan.targetWidth, plan.targetHeight, index, count);
    gpu.device.queue.submit([encoder.finish()]);
    return null;
  }
  const copies = encodePickTargetCopies(gpu, targets, encoder, plan.targetWidth, plan.targetHeight, request.detailed);
  try {
    gpu.device.queue.submit([encoder.finish()]);
  } catch (error) {
    releaseStagingBuffer(gpu.staging, copies.buffer);
    throw error;
  }
  return copies;
}

const identityMatrix: readonly number[] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** @internal Extra magnification of a 1×1 point pick about its sample (see `writePointUniforms`). */
export const pickPointMagnification = 4096;

/**
 * @internal Writes each point's zoomed camera and frame offset (uploaded unless the buffer holds them already);
 * returns the points as the contributors draw them (none without contributors).
 */
export function writePointUniforms(gpu: PickGpu, request: PickPassRequest, row: boolean): ContributorPoint[] {
  const { regions } = request;
  const { sceneAt } = getEngineUniformLayouts();
  const { pickFrameAt } = getPickUniformOffsets();
  const data = gpu.pointData;
  // Only the contributors keep each point's matrix; without them one scratch matrix serves every point.
  const keep = request.sources.length > 0;
  const points: ContributorPoint[] = [];
  for (let p = 0; p < regions.length; p++) {
    const region = regions[p];
    // A point's 1×1 target samples NDC (0, 0) only: magnifying about it keeps the sample where it is but puts every
    // vertex pickPointMagnification× farther in target texels, so rasterisers that snap vertices to a coarse sub-pixel
    // grid (SwiftShader) interpolate the detail varyings 1/pickPointMagnification as far off the pixel centre.
    const zoomed = makePickZoomedViewProjection(
      region,
      request.width,
      request.height,
      row ? pickPointMagnification : 1,
      request.viewProjection,
      keep ? new Float32Array(16) : gpu.scratchZoomed,
    );
    data.set(zoomed, (p * pointSlotBytes) / 4 + sceneAt.viewProjection);
    if (keep)
      points.push({
        viewProjection: zoomed,
        viewport: row ? [p, 0, 1, 1] : [0, 0, region.width, region.height],
        pixelOffset: [region.x - (row ? p : 0), region.y],
      });
    // Fragment coordinates in the pick target plus this offset give the original framebuffer's.
    const offset = (p * pointSlotBytes + pickFrameOffset) / 4 + pickFrameAt.pixelOffset;
    data[offset] = region.x - (row ? p : 0);
    data[offset + 1] = region.y;
    data[offset + 2] = 0;
    data[offset + 3] = 0;
  }
  const block = row ? (request.overlayBlock ?? 0) : 0;
  if (block) {
    // Slot K + p: point p's overlay neighbourhood, the block × block pixels centred on its pixel, at (p · block, 1).
    const half = (block - 1) / 2;
    const zoom = new Float32Array(16);
    regions.forEach((region, p) => {
      const around = { x: region.x - half, y: region.y - half, width: block, height: block };
      makePickZoomMatrix(around, request.width, request.height, zoom);
      const slot = regions.length + p;
      data.set(mat4.multiply(zoom, request.viewProjection), (slot * pointSlotBytes) / 4);
      data.set([around.x - p * block, around.y - 1, 0, 0], (slot * pointSlotBytes + pickFrameOffset) / 4);
    });
  }
  const slots = regions.length * (block ? 2 : 1);
  uploadUniformsIfChanged(
    gpu.device.queue,
    gpu.pointBuffer!,
    gpu.pointWords,
    (slots * pointSlotBytes) / 4,
    gpu.pointUploaded,
  );
  return points;
}

/**
 * @internal Writes, at each slot, the candidate's world matrix, base ID, instancing flag and vertex-data width
 * (uploaded unless the buffer holds them already).
 */
export function writeDrawUniforms(gpu: PickGpu, request: PickPassRequest, plan: PickPassPlan): void {
  const floats = gpu.drawFloats;
  const words = gpu.drawWords;
  const { drawAt } = getEngineUniformLayouts();
  const { pickAt } = getPickUniformOffsets();
  const candidates = request.snapshot.candidates;
  for (let candidate = 0; candidate < plan.candidates.length; candidate++) {
    const { uses, pipeline } = plan.candidates[candidate];
    const c = candidates[candidate];
    for (let u = 0; u < uses.length; u++) {
      const slot = uses[u].slot;
      floats.set(c.worldMatrix, (slot * drawSlotBytes) / 4 + drawAt.world);
      const pick = (slot * drawSlotBytes + pickUniformOffset) / 4;
      words[pick + pickAt.id] = c.baseId;
      words[pick + pickAt.hasThinInstance] = c.runs ? 1 : 0;
      words[pick + pickAt.vertexDataComponents] = pipeline?.vertexDataComponents ?? 0;
    }
  }
  // A batch draws with its first member's slot: identity world (the instances carry the matrices), and the ID of
  // instance 0 so that instance firstInstance + k writes member k's ID.
  if (plan.batchDraws)
    for (const batch of plan.batchDraws) {
      const slot = plan.candidates[batch.first].uses[0]?.slot;
      if (slot === undefined) continue;
      floats.set(identityMatrix, (slot * drawSlotBytes) / 4 + drawAt.world);
      const pick = (slot * drawSlotBytes + pickUniformOffset) / 4;
      words[pick + pickAt.id] = (candidates[batch.first].baseId - batch.firstInstance) >>> 0;
      words[pick + pickAt.hasThinInstance] = 1;
      words[pick + pickAt.vertexDataComponents] = 0;
    }
  if (plan.slots)
    uploadUniformsIfChanged(
      gpu.device.queue,
      gpu.drawBuffer!,
      words,
      (plan.slots * drawSlotBytes) / 4,
      gpu.drawUploaded,
    );
}
