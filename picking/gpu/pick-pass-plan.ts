import { ensureMeshGpu, syncThinInstances } from '../../engine/mesh.js';
import { ensureMeshDeformation, syncMeshDeformation } from '../../engine/mesh-deformation.js';
import { readRuleStorage } from '../discard-rules.js';
import { getPickPipeline } from './pick-pipelines.js';
import { materialCullMode, splitByWinding } from '../../engine/winding.js';
import { ensureRectTargets, ensureTargets, ensureUniforms, type PickGpu, type PickTargets } from './pick-resources.js';
import type { PickSnapshot } from '../pick-snapshot.js';
import { prepareBatchDraws } from './pick-batches.js';
import {
  type PickPassRequest,
  type RasterRun,
  type PickPassPlan,
  batchLeader,
  batchFollower,
} from './pick-pass-types.js';

/**
 * The candidate's drawn instances in runs of one front face (the sign of world × instance determinant) and the
 * raster state each needs: the material's cull mode, or none when the pick asks for every face.
 * @internal
 */
export function rasterRunsOf(request: PickPassRequest, candidate: PickSnapshot['candidates'][number]): RasterRun[] {
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

/** @internal Pipelines and rule storage of the whole request; reads everything before anything is written. */
export function planPickShared(gpu: PickGpu, request: PickPassRequest): SharedPlan {
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
    // A thin-instanced candidate has a run per crossed instance range, nearly all with the raster state of the last.
    let previous: RasterRun | null = null;
    for (const run of runs) {
      run.pipeline =
        previous &&
        previous.raster.cullMode === run.raster.cullMode &&
        previous.raster.frontFace === run.raster.frontFace
          ? previous.pipeline
          : getPickPipeline(gpu, request.api, mesh, detailed, candidateRule, run.raster, request.detailMethod);
      previous = run;
    }
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

/** @internal Target size and uniform slots of one pass. */
export function planPickPass(request: PickPassRequest, shared: SharedPlan): PickPassPlan {
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
