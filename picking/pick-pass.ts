import { drawMeshInstances, setMeshIndexBuffer } from '../engine/render/mesh-draw.js';
import { mat4 } from 'wgpu-matrix';
import { ensureMeshGpu, type Mesh, syncThinInstances } from '../engine/mesh.js';
import { ensureMeshDeformation, meshDeformationGroup, syncMeshDeformation } from '../engine/mesh-deformation.js';
import { PickError } from './pick-errors.js';
import { type CheckedRule, readRuleStorage } from './discard-rules.js';
import { getPickPipeline, type PickPipeline, type PickRaster, preparePickPipelines } from './pick-pipelines.js';
import { materialCullMode, type PickCulling, splitByWinding } from '../engine/winding.js';
import type { PickDetailMethod } from './pick-shader.js';
import { isPulledGroup, pulledBufferGroup } from './vertex-pull-binding.js';
import { releaseStagingBuffer } from '../engine/staging-pool.js';
import {
  attachmentTexelBytes,
  encodePickTargetCopies,
  type PickReadback,
  type PickTargetCopies,
  readPickTargetsAsync,
} from './pick-readback.js';
import {
  drawGroupFor,
  drawSlotBytes,
  emptyGroupFor,
  ensureRectTargets,
  ensureTargets,
  ensureUniforms,
  pickFrameOffset,
  type PickGpu,
  type PickTargets,
  pickTileTexelBudget,
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
import { getEngineUniformLayouts } from '../engine/uniform-layouts.js';
import { getPickUniformOffsets } from './pick-uniform-layouts.js';
import type { RectIdReducer } from './pick-rect-reduce.js';
import { type BatchDraw, batchMesh, prepareBatchDraws } from './pick-rect-batches.js';
import { geometryClassOf } from './geometry-class.js';

const batchLeader = 1;
const batchFollower = 2;
const identityMatrix: readonly number[] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

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
  /** How a detailed pass learns the triangle (default 'primitive-index'). */
  detailMethod?: PickDetailMethod;
  rule: CheckedRule | null;
  /** Non-mesh pick sources captured with the snapshot, after the meshes' IDs. */
  sources: readonly CapturedSource[];
  /** Camera data the sources draw with (null without sources). */
  view: ContributorViewData | null;
  /** The rule's storage contents per candidate, copied at the call (`readPickRuleStorage`); undefined: read now. */
  ruleStorage?: (ArrayBufferView | null)[][] | null;
  /** Back faces: culled as the renderers cull them (default), or all picked. */
  culling?: PickCulling;
  /**
   * Side of each point's overlay neighbourhood (2 · tolerance + 1; 0 or undefined: none). A `row` target then holds
   * the points' texels in row 0 and point p's neighbourhood at x = p · block, rows 1 .. block.
   */
  overlayBlock?: number;
  /** A `rect` request's GPU reduction of the ID target (pick-rect-reduce.ts): replaces the texel copies. */
  reducer?: RectIdReducer;
}

/** One draw of a candidate's instances that share a front face, with the raster state (and pipeline) it needs. */
interface RasterRun {
  first: number;
  count: number;
  raster: PickRaster;
  pipeline: PickPipeline | null;
}

/** A point drawing a candidate: its draw-uniform slot and which thin instances (null: every run of the candidate). */
interface PointUse {
  point: number;
  slot: number;
  instances: readonly { first: number; count: number }[] | null;
}

/** What one pass draws, worked out before anything is written. */
interface PickPassPlan {
  /** `row`: one 1×1 region per point, side by side in the target; otherwise one region at full size. */
  row: boolean;
  targetWidth: number;
  targetHeight: number;
  /** Per candidate: its pipeline (null for a mesh disposed since the snapshot). */
  pipelines: (PickPipeline | null)[];
  /** Per candidate: its instance runs split by front face, each with its pipeline (empty when disposed). */
  rasterRuns: RasterRun[][];
  /** Per candidate: the rule's storage data in binding order (null without rule storage). */
  storage: (ArrayBufferView | null)[][] | null;
  /** Per candidate: the points that draw it, the draw-uniform slot of each, the instances it draws (null: all). */
  uses: PointUse[][];
  slots: number;
  /** A marquee's batches drawn instanced, by first candidate (the others of a batch are not drawn alone). */
  batchDraws: BatchDraw[] | null;
  /**
   * Per candidate: `batchLeader` for a batch's first member (its slot and buffers draw the batch), `batchFollower`
   * for the others (no slot, pipeline or draw of their own), 0 otherwise.
   */
  batchMembers: Uint8Array | null;
}

/**
 * The device limits a pick pass must fit (the values of `device.limits`). The uniform bindings are fixed-size
 * (256 B each, at dynamic offsets), so `maxUniformBufferBindingSize` never binds; the buffers' size does.
 */
export interface PickPassLimits {
  /** Bounds the per-point and per-draw uniform buffers (512 B a slot) and the staging buffer of the copies. */
  maxBufferSize: number;
  /** Bounds the pick targets: a `row` pass is one texel per point, a `rect` pass the rectangle. */
  maxTextureDimension2D: number;
}

/** Texels a rectangle tile holds at most. */
export { pickTileTexelBudget };

/**
 * Draws a batch of points holds at most, unless one point alone draws more (then it gets a pass of its own, up to
 * the hard `maxBufferSize` bound): very long passes are slow to encode and some drivers (lavapipe) fail on them.
 */
export const pickPassDrawBudget = 1 << 14;

/** Staging bytes of one row of `width` texels of every attachment the pass reads back (rows padded to 256 B). */
function stagingRowBytes(width: number, detailed: boolean): number {
  let bytes = 0;
  for (const texelBytes of attachmentTexelBytes.slice(0, detailed ? 3 : 2))
    bytes += Math.ceil((width * texelBytes) / 256) * 256;
  return bytes;
}

function drawsExceeded(api: string, what: string, draws: number, limits: PickPassLimits): PickError {
  return new PickError(
    api,
    'limit-exceeded',
    `${what} draws ${draws} meshes: ${draws} × ${drawSlotBytes} B of draw uniforms exceed maxBufferSize ${limits.maxBufferSize} (at most ${Math.floor(limits.maxBufferSize / drawSlotBytes)} draws per pass); filter the meshes (filter, ignore, preFilter) to pick here`,
  );
}

/**
 * Splits the points of a `row` request into consecutive batches that each fit one pass: at most
 * `maxTextureDimension2D` points (the target's width), the point and draw uniforms and the staging buffer within
 * `maxBufferSize`, and at most `pickPassDrawBudget` draws unless a single point draws more. Every batch holds at
 * least one point; a single point whose draw list alone is past `maxBufferSize` throws.
 * @throws {PickError} `limit-exceeded` naming the point, its draw count and the limit
 */
export function splitPickPoints(
  api: string,
  drawListLengths: readonly number[],
  limits: PickPassLimits,
  detailed: boolean,
  overlayBlock = 0,
): { first: number; count: number }[] {
  const maxSlots = Math.floor(limits.maxBufferSize / drawSlotBytes);
  // With overlays each point is `block` texels wide, `block + 1` rows tall, and has a second point slot.
  const columns = Math.max(1, overlayBlock);
  const rows = overlayBlock ? overlayBlock + 1 : 1;
  let maxPoints = Math.min(
    Math.floor(limits.maxTextureDimension2D / columns),
    Math.floor(limits.maxBufferSize / (pointSlotBytes * (overlayBlock ? 2 : 1))),
  );
  while (maxPoints > 1 && stagingRowBytes(maxPoints * columns, detailed) * rows > limits.maxBufferSize)
    maxPoints = Math.floor(maxPoints / 2);
  const batches: { first: number; count: number }[] = [];
  let first = 0;
  let slots = 0;
  drawListLengths.forEach((draws, point) => {
    if (draws > maxSlots) throw drawsExceeded(api, `points[${point}]`, draws, limits);
    if (point > first && (point - first >= maxPoints || slots + draws > Math.min(maxSlots, pickPassDrawBudget))) {
      batches.push({ first, count: point - first });
      first = point;
      slots = 0;
    }
    slots += draws;
  });
  if (drawListLengths.length > first) batches.push({ first, count: drawListLengths.length - first });
  return batches;
}

/**
 * Splits a `rect` region into row-major tiles that each fit one pass: at most `maxTextureDimension2D` on a side,
 * at most `pickTileTexelBudget` texels, and the staging buffer of their copies within `maxBufferSize`.
 * @throws {PickError} `limit-exceeded` when the rectangle's draw list alone is too big for one pass
 */
export function splitPickRect(
  api: string,
  region: PixelRegion,
  draws: number,
  limits: PickPassLimits,
  detailed: boolean,
): PixelRegion[] {
  if (draws > Math.floor(limits.maxBufferSize / drawSlotBytes))
    throw drawsExceeded(api, 'the rectangle', draws, limits);
  const tileWidth = Math.min(region.width, limits.maxTextureDimension2D);
  const tileHeight = Math.max(
    1,
    Math.min(
      region.height,
      limits.maxTextureDimension2D,
      Math.floor(limits.maxBufferSize / stagingRowBytes(tileWidth, detailed)),
      Math.floor(pickTileTexelBudget / tileWidth),
    ),
  );
  const tiles: PixelRegion[] = [];
  for (let y = 0; y < region.height; y += tileHeight)
    for (let x = 0; x < region.width; x += tileWidth)
      tiles.push({
        x: region.x + x,
        y: region.y + y,
        width: Math.min(tileWidth, region.width - x),
        height: Math.min(tileHeight, region.height - y),
      });
  return tiles;
}

/** The passes a request needs: itself when it fits the device, else batches of points or tiles of the rectangle. */
function splitPickRequest(request: PickPassRequest, limits: PickPassLimits): PickPassRequest[] {
  const { snapshot, regions } = request;
  if (request.layout === 'rect') {
    const tiles = splitPickRect(request.api, regions[0], snapshot.drawLists[0]?.length ?? 0, limits, request.detailed);
    return tiles.length === 1 ? [request] : tiles.map((tile) => ({ ...request, regions: [tile] }));
  }
  const batches = splitPickPoints(
    request.api,
    snapshot.drawLists.map((list) => list.length),
    limits,
    request.detailed,
    request.overlayBlock,
  );
  if (batches.length === 1) return [request];
  return batches.map(({ first, count }) => ({
    ...request,
    snapshot: {
      ...snapshot,
      drawLists: snapshot.drawLists.slice(first, first + count),
      pointInstances: snapshot.pointInstances?.slice(first, first + count),
    },
    regions: regions.slice(first, first + count),
  }));
}

/** One readback over the passes of a split request: texel `i` of point `i`, IDs row-major over the whole rectangle. */
function joinPickReadbacks(
  request: PickPassRequest,
  passes: PickPassRequest[],
  readbacks: PickReadback[],
): PickReadback {
  if (readbacks.length === 1) return readbacks[0];
  if (request.layout === 'row') {
    const passOf = new Int32Array(request.regions.length);
    const firstOf: number[] = [];
    let first = 0;
    passes.forEach((pass, p) => {
      firstOf.push(first);
      passOf.fill(p, first, first + pass.regions.length);
      first += pass.regions.length;
    });
    return {
      texel: (i) => readbacks[passOf[i]].texel(i - firstOf[passOf[i]]),
      id: (i) => readbacks[passOf[i]].id(i - firstOf[passOf[i]]),
      blockTexel: (i, dx, dy) => readbacks[passOf[i]].blockTexel(i - firstOf[passOf[i]], dx, dy),
      blockId: (i, dx, dy) => readbacks[passOf[i]].blockId(i - firstOf[passOf[i]], dx, dy),
      *ids() {
        for (const readback of readbacks) yield* readback.ids();
      },
    };
  }
  const whole = request.regions[0];
  const locate = (i: number): [number, number] => {
    const x = whole.x + (i % whole.width);
    const y = whole.y + Math.floor(i / whole.width);
    const p = passes.findIndex((pass) => {
      const r = pass.regions[0];
      return x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
    });
    const r = passes[p].regions[0];
    return [p, (y - r.y) * r.width + (x - r.x)];
  };
  return {
    texel(i) {
      const [p, local] = locate(i);
      return readbacks[p].texel(local);
    },
    blockTexel: readbacks[0].blockTexel,
    blockId: readbacks[0].blockId,
    id(i) {
      const [p, local] = locate(i);
      return readbacks[p].id(local);
    },
    *ids() {
      // Row-major over the whole rectangle: tiles of one band side by side, row by row.
      for (let p = 0; p < passes.length; ) {
        const band = passes[p].regions[0];
        let end = p;
        while (end < passes.length && passes[end].regions[0].y === band.y) end++;
        for (let row = 0; row < band.height; row++)
          for (let t = p; t < end; t++) {
            const tile = passes[t].regions[0];
            for (let col = 0; col < tile.width; col++) yield readbacks[t].id(row * tile.width + col);
          }
        p = end;
      }
    },
  };
}

/**
 * The candidate's drawn instances in runs of one front face (the sign of world × instance determinant) and the
 * raster state each needs: the material's cull mode, or none when the pick asks for every face.
 */
function rasterRunsOf(request: PickPassRequest, candidate: PickSnapshot['candidates'][number]): RasterRun[] {
  const mesh = candidate.drawMesh ?? candidate.mesh;
  if (mesh.disposed) return [];
  const cullMode = request.culling === 'none' ? 'none' : materialCullMode(mesh.material);
  const runs: RasterRun[] = [];
  for (const run of candidate.runs ?? [{ first: 0, count: 1 }])
    for (const split of splitByWinding(mesh, candidate.worldMatrix, run.first, run.count))
      runs.push({
        first: split.first,
        count: split.count,
        raster: { cullMode, frontFace: split.frontFace },
        pipeline: null,
      });
  return runs;
}

/** Compiles the rule pipelines the request lacks (null when everything is ready and encoding can start now). */
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
 */
export async function encodePickPass(gpu: PickGpu, request: PickPassRequest): Promise<PickReadback> {
  const passes = splitPickRequest(request, gpu.device.limits);
  const shared = planPickShared(gpu, request);
  const plans = passes.map((pass) => planPickPass(pass, shared));
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
  if (request.reducer) {
    await request.reducer.readAsync(gpu);
    return noTexels;
  }
  const block = request.layout === 'row' ? (request.overlayBlock ?? 0) : 0;
  const readbacks =
    copies.length === 1
      ? [await readPickTargetsAsync(gpu, copies[0], block)]
      : await Promise.all(copies.map((submitted) => readPickTargetsAsync(gpu, submitted, block)));
  return joinPickReadbacks(request, passes, readbacks);
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

/** Pipelines and rule storage of the whole request; reads everything before anything is written. */
function planPickShared(gpu: PickGpu, request: PickPassRequest): SharedPlan {
  const { snapshot, detailed, rule } = request;
  const batchDraws =
    request.layout === 'rect' && !rule && !detailed
      ? prepareBatchDraws(gpu, request.api, snapshot, (c) => rasterRunsOf(request, snapshot.candidates[c])[0]?.raster)
      : null;
  let batchMembers: Uint8Array | null = null;
  if (batchDraws) {
    batchMembers = new Uint8Array(snapshot.candidates.length);
    for (const batch of batchDraws) {
      batchMembers[batch.first] = batchLeader;
      batchMembers.fill(batchFollower, batch.first + 1, batch.first + batch.count);
    }
  }
  const rasterRuns = snapshot.candidates.map((c, index) => {
    // A batch draws with its own pipeline, from its first member's buffers and draw slot: no member needs runs.
    if (batchMembers?.[index]) return [];
    const runs = rasterRunsOf(request, c);
    // Overlay items are the caller's handles, not scene geometry: the discard rule does not apply to them.
    const candidateRule = c.overlay ? null : rule;
    const mesh = c.drawMesh ?? c.mesh;
    for (const run of runs)
      run.pipeline = getPickPipeline(gpu, request.api, mesh, detailed, candidateRule, run.raster, request.detailMethod);
    return runs;
  });
  const pipelines = rasterRuns.map((runs) => runs[0]?.pipeline ?? null);
  const storage = request.ruleStorage !== undefined ? request.ruleStorage : readPickRuleStorage(request);
  return { pipelines, rasterRuns, storage, batchDraws, batchMembers };
}

/** What every pass of a request shares. */
type SharedPlan = Pick<PickPassPlan, 'pipelines' | 'rasterRuns' | 'storage' | 'batchDraws' | 'batchMembers'>;

/**
 * Copies of the rule's storage contents of each candidate as of now (null without rule storage): a pick reads them at
 * the call, before anything is written, so a bad `data` leaves the GPU untouched and a later edit does not leak in.
 */
export function readPickRuleStorage(request: PickPassRequest): (ArrayBufferView | null)[][] | null {
  const rule = request.rule;
  if (!rule?.rule.storage?.length) return null;
  return request.snapshot.candidates.map((c) =>
    rule.bindings.map((b) => {
      if (c.overlay) return null;
      const view = readRuleStorage(request.api, rule.rule, rule.rule.storage!.find((s) => s.name === b.name)!, c.mesh);
      return view && new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice();
    }),
  );
}

/** Target size and uniform slots of one pass. */
function planPickPass(request: PickPassRequest, shared: SharedPlan): PickPassPlan {
  const { snapshot, regions } = request;
  const { pipelines, rasterRuns, storage, batchDraws, batchMembers } = shared;
  const row = request.layout === 'row';
  // Slots are numbered point by point; draws go candidate by candidate, so pipeline, buffers and storage are set
  // once for all the points that draw a candidate.
  let slots = 0;
  const uses: PickPassPlan['uses'] = snapshot.candidates.map(() => []);
  snapshot.drawLists.forEach((list, point) => {
    const instances = snapshot.pointInstances?.[point];
    for (const candidate of list)
      if (batchMembers?.[candidate] !== batchFollower)
        uses[candidate].push({ point, slot: slots++, instances: instances?.get(candidate) ?? null });
  });
  const block = row ? (request.overlayBlock ?? 0) : 0;
  return {
    row,
    targetWidth: row ? regions.length * Math.max(1, block) : regions[0].width,
    targetHeight: row ? 1 + block : regions[0].height,
    pipelines,
    rasterRuns,
    storage,
    uses,
    slots,
    batchDraws,
    batchMembers,
  };
}

/** Grows targets and uniform buffers to the largest pass; uploads mesh, instance and deformation data as of now. */
function preparePickTargets(
  gpu: PickGpu,
  request: PickPassRequest,
  passes: readonly PickPassRequest[],
  plans: readonly PickPassPlan[],
): PickTargets {
  const width = Math.max(...plans.map((plan) => plan.targetWidth));
  const height = Math.max(...plans.map((plan) => plan.targetHeight));
  const targets =
    request.layout === 'rect' && !request.detailed
      ? ensureRectTargets(gpu, width, height)
      : ensureTargets(gpu, width, height, request.detailed);
  ensureUniforms(
    gpu,
    Math.max(...passes.map((pass) => pass.regions.length)) * (request.overlayBlock ? 2 : 1),
    Math.max(...plans.map((plan) => plan.slots)),
  );
  // The renderer may not have uploaded the latest instance matrices yet.
  const members = plans[0]?.batchMembers;
  request.snapshot.candidates.forEach((c, index) => {
    if (members?.[index] === batchFollower) return;
    const mesh = c.drawMesh ?? c.mesh;
    if (mesh.disposed) return;
    ensureMeshGpu(mesh, gpu.device);
    syncThinInstances(mesh);
    if (ensureMeshDeformation(mesh, gpu.device)) syncMeshDeformation(mesh);
  });
  return targets;
}

/** Extra magnification of a 1×1 point pick about its sample (see `writePointUniforms`). */
export const pickPointMagnification = 4096;

/** Writes each point's zoomed camera and frame offset; returns the points as the contributors draw them. */
function writePointUniforms(gpu: PickGpu, request: PickPassRequest, row: boolean): ContributorPoint[] {
  const { regions } = request;
  const { sceneAt } = getEngineUniformLayouts();
  const { pickFrameAt } = getPickUniformOffsets();
  const zoom = new Float32Array(16);
  const points: ContributorPoint[] = [];
  regions.forEach((region, p) => {
    makePickZoomMatrix(region, request.width, request.height, zoom);
    // A point's 1×1 target samples NDC (0, 0) only: magnifying about it keeps the sample where it is but puts every
    // vertex pickPointMagnification× farther in target texels, so rasterisers that snap vertices to a coarse sub-pixel
    // grid (SwiftShader) interpolate the detail varyings 1/pickPointMagnification as far off the pixel centre.
    if (row) for (const i of [0, 5, 12, 13]) zoom[i] *= pickPointMagnification;
    const zoomed = mat4.multiply(zoom, request.viewProjection) as Float32Array;
    gpu.pointData.set(zoomed, (p * pointSlotBytes) / 4 + sceneAt.viewProjection);
    if (request.sources.length)
      points.push({
        viewProjection: zoomed,
        viewport: row ? [p, 0, 1, 1] : [0, 0, region.width, region.height],
        pixelOffset: [region.x - (row ? p : 0), region.y],
      });
    // Fragment coordinates in the pick target plus this offset give the original framebuffer's.
    gpu.pointData.set(
      [region.x - (row ? p : 0), region.y, 0, 0],
      (p * pointSlotBytes + pickFrameOffset) / 4 + pickFrameAt.pixelOffset,
    );
  });
  const block = row ? (request.overlayBlock ?? 0) : 0;
  if (block) {
    // Slot K + p: point p's overlay neighbourhood, the block × block pixels centred on its pixel, at (p · block, 1).
    const half = (block - 1) / 2;
    regions.forEach((region, p) => {
      const around = { x: region.x - half, y: region.y - half, width: block, height: block };
      makePickZoomMatrix(around, request.width, request.height, zoom);
      const slot = regions.length + p;
      gpu.pointData.set(mat4.multiply(zoom, request.viewProjection), (slot * pointSlotBytes) / 4);
      gpu.pointData.set([around.x - p * block, around.y - 1, 0, 0], (slot * pointSlotBytes + pickFrameOffset) / 4);
    });
  }
  const slots = regions.length * (block ? 2 : 1);
  gpu.device.queue.writeBuffer(gpu.pointBuffer!, 0, gpu.pointData, 0, (slots * pointSlotBytes) / 4);
  return points;
}

/** Writes, at each slot, the candidate's world matrix, base ID, instancing flag and vertex-data width. */
function writeDrawUniforms(gpu: PickGpu, request: PickPassRequest, plan: PickPassPlan): void {
  const floats = new Float32Array(gpu.drawData);
  const words = new Uint32Array(gpu.drawData);
  const { drawAt } = getEngineUniformLayouts();
  const { pickAt } = getPickUniformOffsets();
  plan.uses.forEach((uses, candidate) => {
    const c = request.snapshot.candidates[candidate];
    for (const { slot } of uses) {
      floats.set(c.worldMatrix, (slot * drawSlotBytes) / 4 + drawAt.world);
      const pick = (slot * drawSlotBytes + pickUniformOffset) / 4;
      words[pick + pickAt.id] = c.baseId;
      words[pick + pickAt.hasThinInstance] = c.runs ? 1 : 0;
      words[pick + pickAt.vertexDataComponents] = plan.pipelines[candidate]?.vertexDataComponents ?? 0;
    }
  });
  // A batch draws with its first member's slot: identity world (the instances carry the matrices), and the ID of
  // instance 0 so that instance firstInstance + k writes member k's ID.
  for (const batch of plan.batchDraws ?? []) {
    const slot = plan.uses[batch.first][0]?.slot;
    if (slot === undefined) continue;
    floats.set(identityMatrix, (slot * drawSlotBytes) / 4 + drawAt.world);
    const pick = (slot * drawSlotBytes + pickUniformOffset) / 4;
    words[pick + pickAt.id] = (request.snapshot.candidates[batch.first].baseId - batch.firstInstance) >>> 0;
    words[pick + pickAt.hasThinInstance] = 1;
    words[pick + pickAt.vertexDataComponents] = 0;
  }
  if (plan.slots) gpu.device.queue.writeBuffer(gpu.drawBuffer!, 0, gpu.drawData, 0, plan.slots * drawSlotBytes);
}

/** Clears the ID, depth-value (and detail) attachments and the depth buffer (reverse-Z: cleared to 0). */
function beginPickPass(encoder: GPUCommandEncoder, targets: PickTargets, detailed: boolean): GPURenderPassEncoder {
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
  plan.uses.forEach((uses, index) => {
    // A batch is drawn at its first member; the others have no uses of their own.
    if (batches && nextBatch < batches.length && batches[nextBatch].first === index) {
      const batch = batches[nextBatch++];
      if (uses.length > 0) drawBatch(gpu, pass, request, batch, uses[0], state);
      return;
    }
    const pipeline = plan.pipelines[index];
    // Only a redraw after a device loss can meet a mesh disposed since the snapshot; it has no buffers left.
    if (!pipeline || uses.length === 0) return;
    const candidate = request.snapshot.candidates[index];
    const mesh = candidate.drawMesh ?? candidate.mesh;
    const storage = plan.storage?.[index] ?? null;
    if (state.pipeline !== pipeline) pass.setPipeline((state.pipeline = pipeline).lease.pipeline);
    // Meshes of one geometry class hold equal bytes: the next one draws from the buffers already bound. Their own
    // instances, deformation data or rule storage would differ.
    const shareable = !mesh.thinInstances && !mesh.deformationGpu && !storage;
    const geometryClass = shareable ? geometryClassOf(mesh.geometry) : null;
    const bound = state.buffers;
    if (
      !bound ||
      bound.pipeline !== pipeline ||
      !(bound.mesh === mesh ? shareable : geometryClass !== null && bound.geometryClass === geometryClass)
    ) {
      setExtraGroups(gpu, pass, request, pipeline, mesh, storage, candidate.mesh);
      setMeshBuffers(gpu, pass, pipeline, mesh);
      state.buffers = shareable ? { pipeline, mesh, geometryClass } : null;
    }
    drawCandidateUses(gpu, pass, request, plan, index, pipeline, uses, state);
  });
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
  const sources = [...mesh.gpu!.vertexBuffers, gpu.batchBuffer!];
  pipeline.vertexBufferSources.forEach((source, i) => pass.setVertexBuffer(i, sources[source]));
  setMeshIndexBuffer(pass, mesh);
  const pointGroups = pointGroupsFor(gpu, lease.bindGroupLayouts[0], composed.bindGroups[0].bindings);
  setPointState(pass, state, 0, 0, region.width, region.height, pointGroups[use.point]);
  pass.setBindGroup(1, drawGroupFor(gpu, lease.bindGroupLayouts[1], composed.bindGroups[1].bindings, use.slot));
  drawMeshInstances(pass, mesh, batch.count, batch.firstInstance);
}

/** What a pick pass last set: viewport (= scissor) rectangle, bind group 0, pipeline, shareable mesh buffers. */
interface PassState {
  rect: [number, number, number, number];
  pointGroup: GPUBindGroup | null;
  pipeline: PickPipeline | null;
  /** The mesh whose buffers and groups 2+ are bound for `pipeline`, when a mesh of equal geometry may reuse them. */
  buffers: { pipeline: PickPipeline; mesh: Mesh; geometryClass: object | null } | null;
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
  mesh: Mesh,
  storage: (ArrayBufferView | null)[] | null,
  owner: Mesh = mesh,
): void {
  const { composed, lease } = pipeline;
  const rule = request.rule;
  for (let g = 2; g < composed.bindGroups.length; g++) {
    const group = composed.bindGroups[g];
    if (pipeline.pulled && isPulledGroup(group.bindings)) {
      const sources = [...mesh.gpu!.vertexBuffers, ...(mesh.gpu!.instanceBuffer ? [mesh.gpu!.instanceBuffer] : [])];
      const data = pipeline.vertexDataBuffer === null ? [] : [vertexDataSource(gpu, pipeline, mesh)];
      pass.setBindGroup(
        g,
        pulledBufferGroup(gpu, gpu.device, mesh, lease.bindGroupLayouts[g], group.bindings, [...sources, ...data]),
      );
      continue;
    }
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
function setMeshBuffers(gpu: PickGpu, pass: GPURenderPassEncoder, pipeline: PickPipeline, mesh: Mesh): void {
  const meshGpu = mesh.gpu!;
  const sources = [...meshGpu.vertexBuffers, ...(meshGpu.instanceBuffer ? [meshGpu.instanceBuffer] : [])];
  const vertexData = pipeline.vertexDataBuffer === null ? [] : [vertexDataSource(gpu, pipeline, mesh)];
  const all = [...sources, ...vertexData];
  pipeline.vertexBufferSources.forEach((source, i) => pass.setVertexBuffer(i, all[source]));
  if (!pipeline.pulled) setMeshIndexBuffer(pass, mesh);
}

/** The buffer behind a rule's vertex-data stream: the attribute's own vertex buffer, or the zero buffer. */
function vertexDataSource(gpu: PickGpu, pipeline: PickPipeline, mesh: Mesh): GPUBuffer {
  const index = pipeline.vertexDataBuffer!;
  return index < 0 ? gpu.zeros : mesh.gpu!.vertexBuffers[index];
}

/** Per point drawing the candidate: its viewport, its uniforms, then one draw per run of thin instances. */
function drawCandidateUses(
  gpu: PickGpu,
  pass: GPURenderPassEncoder,
  request: PickPassRequest,
  plan: PickPassPlan,
  index: number,
  pipeline: PickPipeline,
  uses: readonly PointUse[],
  state: PassState,
): void {
  const { composed, lease } = pipeline;
  const candidate = request.snapshot.candidates[index];
  const mesh = candidate.drawMesh ?? candidate.mesh;
  const pointGroups = pointGroupsFor(gpu, lease.bindGroupLayouts[0], composed.bindGroups[0].bindings);
  const drawBindings = composed.bindGroups[1].bindings;
  const block = candidate.overlay === 'on-top' ? request.overlayBlock! : 0;
  for (const { point, slot, instances } of uses) {
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
    for (const run of plan.rasterRuns[index]) {
      if (!run.pipeline) continue;
      for (const range of instances ?? [run]) {
        // Only the part of the run this point's ray crosses.
        const first = Math.max(run.first, range.first);
        const count = Math.min(run.first + run.count, range.first + range.count) - first;
        if (count <= 0) continue;
        if (run.pipeline !== state.pipeline) pass.setPipeline((state.pipeline = run.pipeline).lease.pipeline);
        // Pulled: corner k of triangle t is draw vertex 3t + k; the shader reads the index buffer itself.
        if (run.pipeline.pulled) pass.draw(mesh.geometry.indices!.length, count, 0, first);
        else drawMeshInstances(pass, mesh, count, first);
      }
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
}
