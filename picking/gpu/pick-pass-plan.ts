import { readRuleStorage } from '../discard-rules.js';
import { getPickPipeline, type PickRaster } from './pick-pipelines.js';
import { weftPickSource as source } from '../sources/weft-pick-source.js';
import { ensureRectTargets, ensureTargets, ensureUniforms, type PickGpu, type PickTargets } from './pick-resources.js';
import type { PickSnapshot } from '../pick-snapshot.js';
import { prepareBatchDraws } from './pick-batches.js';
import type { CandidatePlan, PickPassRequest, PointUse, RasterRun, PickPassPlan } from './pick-pass-types.js';

/** The instances of a candidate without thin instances: the mesh itself, once (shared, never written). */
const wholeMesh: readonly { first: number; count: number }[] = [{ first: 0, count: 1 }];

/** The raster runs of a candidate that draws none (disposed, or drawn by its batch); shared, never written. */
const noRasterRuns: readonly RasterRun[] = [];

/** The uses of a candidate no point of the pass draws (a batch follower never has any); shared, never written. */
const noUses: readonly PointUse[] = [];

/**
 * The candidate's drawn instances in runs of one front face (the sign of world × instance determinant) and the
 * raster state each needs: the material's cull mode, or none when the pick asks for every face.
 * @internal
 */
export function rasterRunsOf(request: PickPassRequest, candidate: PickSnapshot['candidates'][number]): RasterRun[] {
  const mesh = candidate.drawMesh ?? candidate.mesh;
  if (mesh.disposed) return [];
  const cullMode = request.culling === 'none' ? 'none' : source.cullMode(mesh);
  const runs: RasterRun[] = [];
  const instanceRuns = candidate.runs ?? wholeMesh;
  const splits: { first: number; count: number; frontFace: GPUFrontFace }[] = [];
  for (let r = 0; r < instanceRuns.length; r++) {
    const run = instanceRuns[r];
    splits.length = 0;
    source.splitByWinding(mesh, candidate.worldMatrix, run.first, run.count, splits);
    for (let k = 0; k < splits.length; k++) {
      const split = splits[k];
      runs.push({
        first: split.first,
        count: split.count,
        raster: rasterOf(cullMode, split.frontFace),
        pipeline: null,
      });
    }
  }
  return runs;
}

let rasters: Map<string, PickRaster> | null = null;

/** The raster state of a cull mode and front face: one shared, never written record each (made on first use). */
function rasterOf(cullMode: GPUCullMode, frontFace: GPUFrontFace): PickRaster {
  rasters ??= new Map();
  const key = frontFace === 'cw' ? `${cullMode}-cw` : cullMode;
  let raster = rasters.get(key);
  if (!raster) rasters.set(key, (raster = { cullMode, frontFace }));
  return raster;
}

/**
 * Whether a run may take the previous run's pipeline without a cache lookup: a candidate's pipeline depends on its
 * mesh, the rule and the raster state, and only the raster state differs between the runs of one candidate (a
 * thin-instanced candidate has a run per crossed instance range, nearly all with the raster state of the one before).
 * @internal
 */
export function reusesPreviousRunPipeline(previous: RasterRun | null, run: RasterRun): previous is RasterRun {
  return (
    previous !== null &&
    previous.raster.cullMode === run.raster.cullMode &&
    previous.raster.frontFace === run.raster.frontFace
  );
}

/**
 * Each candidate's plan but its uses (pipelines, runs, rule storage, batch role); reads all before any write.
 * @internal
 */
export function planPickShared(gpu: PickGpu, request: PickPassRequest): SharedPlan {
  const { snapshot, detailed, rule } = request;
  const batchDraws =
    request.layout === 'rect' && !rule && !detailed
      ? prepareBatchDraws(gpu, request.api, snapshot, (c) => rasterRunsOf(request, snapshot.candidates[c])[0]?.raster)
      : null;
  const candidates: CandidatePlan[] = [];
  for (let index = 0; index < snapshot.candidates.length; index++)
    candidates.push({ pipeline: null, rasterRuns: noRasterRuns, storage: null, role: 'alone', uses: noUses });
  if (batchDraws)
    for (const batch of batchDraws) {
      candidates[batch.first].role = 'batch-leader';
      for (let k = 1; k < batch.count; k++) candidates[batch.first + k].role = 'batch-follower';
    }
  for (let index = 0; index < snapshot.candidates.length; index++) {
    const c = snapshot.candidates[index];
    const plan = candidates[index];
    // A batch draws with its own pipeline, from its leader's buffers and draw slot: no member needs runs.
    if (plan.role !== 'alone') continue;
    const runs = rasterRunsOf(request, c);
    // Overlay items are the caller's handles, not scene geometry: the discard rule does not apply to them.
    const candidateRule = c.overlay ? null : rule;
    const mesh = c.drawMesh ?? c.mesh;
    let previous: RasterRun | null = null;
    for (let r = 0; r < runs.length; r++) {
      const run = runs[r];
      run.pipeline = reusesPreviousRunPipeline(previous, run)
        ? previous.pipeline
        : getPickPipeline(gpu, request.api, mesh, detailed, candidateRule, run.raster, request.detailMethod);
      previous = run;
    }
    if (runs.length) {
      plan.rasterRuns = runs;
      plan.pipeline = runs[0].pipeline;
    }
  }
  const storage = request.ruleStorage !== undefined ? request.ruleStorage : readPickRuleStorage(request);
  if (storage) candidates.forEach((plan, index) => (plan.storage = storage[index] ?? null));
  return { candidates, batchDraws };
}

/** What every pass of a request shares: the candidates' plans (their uses still empty) and the batches. */
type SharedPlan = Pick<PickPassPlan, 'candidates' | 'batchDraws'>;

/**
 * Copies of the rule's storage contents of each candidate as of now (null without rule storage): a pick reads them at
 * the call, before anything is written, so a bad `data` leaves the GPU untouched and a later edit does not leak in.
 * @internal
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

/**
 * Target size and uniform slots of one pass. The first pass of a request (`first`) fills the shared candidate plans'
 * uses; a later pass copies them, so each pass has uses of its own and the rest stays shared.
 * @internal
 */
export function planPickPass(request: PickPassRequest, shared: SharedPlan, first = true): PickPassPlan {
  const { snapshot, regions } = request;
  const candidates = first ? shared.candidates : shared.candidates.map((plan) => ({ ...plan, uses: noUses }));
  const row = request.layout === 'row';
  // Slots are numbered point by point; draws go candidate by candidate, so pipeline, buffers and storage are set
  // once for all the points that draw a candidate.
  let slots = 0;
  for (let point = 0; point < snapshot.drawLists.length; point++) {
    const list = snapshot.drawLists[point];
    const instances = snapshot.pointInstances?.[point];
    for (let k = 0; k < list.length; k++) {
      const candidate = list[k];
      const plan = candidates[candidate];
      if (plan.role === 'batch-follower') continue;
      const use = { point, slot: slots++, instances: instances?.get(candidate) ?? null };
      // The record's own array from its first use on.
      if (plan.uses === noUses) plan.uses = [use];
      else (plan.uses as PointUse[]).push(use);
    }
  }
  const block = row ? (request.overlayBlock ?? 0) : 0;
  return {
    row,
    targetWidth: row ? regions.length * Math.max(1, block) : regions[0].width,
    targetHeight: row ? 1 + block : regions[0].height,
    candidates,
    slots,
    batchDraws: shared.batchDraws,
  };
}

/**
 * Grows targets and uniform buffers to the largest pass; uploads mesh, instance and deformation data as of now.
 * @internal
 */
export function preparePickTargets(
  gpu: PickGpu,
  request: PickPassRequest,
  passes: readonly PickPassRequest[],
  plans: readonly PickPassPlan[],
): PickTargets {
  let width = 0;
  let height = 0;
  let slots = 0;
  for (let p = 0; p < plans.length; p++) {
    width = Math.max(width, plans[p].targetWidth);
    height = Math.max(height, plans[p].targetHeight);
    slots = Math.max(slots, plans[p].slots);
  }
  let points = 0;
  for (let p = 0; p < passes.length; p++) points = Math.max(points, passes[p].regions.length);
  const targets =
    request.layout === 'rect'
      ? ensureRectTargets(gpu, width, height, request.detailed)
      : ensureTargets(gpu, width, height, request.detailed);
  ensureUniforms(gpu, points * (request.overlayBlock ? 2 : 1), slots);
  // The renderer may not have uploaded the latest instance matrices yet.
  const candidatePlans = plans[0]?.candidates;
  const candidates = request.snapshot.candidates;
  for (let index = 0; index < candidates.length; index++) {
    if (candidatePlans?.[index].role === 'batch-follower') continue;
    const c = candidates[index];
    const mesh = c.drawMesh ?? c.mesh;
    if (!mesh.disposed) source.prepareGpu(mesh, gpu.device);
  }
  return targets;
}
