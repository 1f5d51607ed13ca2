/**
 * What is under a pixel — object, thin instance, triangle, barycentrics, point, normal, UV.
 * @module weft-gpu/picking
 */

// GPU picker: a 1×1 pick-zoomed pass per point, read back asynchronously; scene state captured at the call.
export {
  createGpuPicker,
  disposeGpuPicker,
  type DetailedPickingOptions,
  enableDetailedPicking,
  type GpuPicker,
  type GpuPickOptions,
  pickManyAsync,
} from './gpu-picker.js';
// The point pick, with an optional snap whose code loads on first use.
export { pickAsync, type PointPickOptions } from './point/pick-async.js';
// Drill-through: every surface under a pixel, nearest first (depth peeling, one submit and one readback).
export { pickAllAsync, type PickAllOptions } from './drill/pick-all-async.js';
// Marquee: the identities visible in a rectangle, culled to its frustum and reduced on the GPU.
export { pickRectAsync, type PickRectOptions } from './rect/pick-rect-async.js';
export type { PickedIdentity } from './rect/pick-rect.js';
export type { PickOptions } from './pick-snapshot.js';
// Snapping for measuring tools: the nearest visible vertex, edge midpoint or edge point around a pixel, exact in world.
export { pickSnappedAsync, type SnapPickOptions } from './snap/pick-snapped-async.js';
export { defaultSnapRadius, maxSnapRadius, type SnapOptions } from './snap/snap-options.js';
export { snapCreaseAngle } from './snap/snap-edges.js';

// The pick-source seam: a host engine's drawables (its own GPU buffers, matrices, instances, skin) picked where they
// live, each pick handing back the host's object.
export {
  createDrawableScene,
  disposeDrawableScene,
  pickedObjectOf,
  syncDrawableScene,
} from './sources/drawable-scene.js';
export type { DrawableScene, PickDrawable, PickVertexBuffer } from './sources/drawable-types.js';

// Overlays: gizmo handles drawn in the same pick pass with reserved IDs, winning within a pixel tolerance.
export {
  createPickOverlay,
  defaultOverlayTolerance,
  disposePickOverlay,
  maxOverlayTolerance,
  type PickOverlay,
  type PickOverlayDepth,
  type PickOverlayHit,
  type PickOverlayItem,
  type PickOverlayItemInput,
  type PickOverlayOwner,
  setPickOverlayItems,
} from './sources/pick-overlays.js';
export type { PickFilterOptions, PickIgnore, ThinInstanceIgnore } from './pick-filter.js';
// The face rule's option: picks cull as drawn, or pick every face on purpose.
export type { PickCulling } from './sources/pick-source.js';
export { PickError, type PickErrorCode, type PickRuleMessage } from './pick-errors.js';
// Which path gives triangle detail (`picker.detailMethod`, `enableDetailedPicking`'s `method`).
export type { PickDetailMethod } from './gpu/pick-shader.js';

// Results and rays, shared by the GPU and CPU pickers.
export {
  getPickedNormal,
  getPickedUV,
  type PickingInfo,
  type SnapKind,
  type SnappedFeature,
} from './picking-info.js';
export { makePickingRay, type PickingRay, type PickViewport } from './picking-ray.js';

// Custom discard rules: your WGSL decides which fragments a pick ignores.
export type { PickDiscardRule, PickDiscardStorage, PickVertexDataAttribute } from './discard-rules.js';

// Pick IDs (1-based, 24-bit RGB, 0 = miss), for your own passes.
export { decodePickId, encodePickId, maxPickId } from './pick-id.js';

// Pick contributors: draw your own entity type into the pick pass (billboards and splats are built on this).
export {
  type ContributorCaptureRequest,
  type ContributorViewData,
  contributorPickSpec,
  makeContributorBaseFragments,
  makeContributorViewData,
  type PickContributor,
  type PickContributorModule,
  raysNearSphere,
} from './sources/pick-contributors.js';
export {
  type ContributorGpu,
  type ContributorGpuOptions,
  createContributorGpu,
  disposeContributorGpu,
  drawContributorItems,
  prepareContributorGpu,
} from './sources/contributor-gpu.js';
export type { PickTexel } from './pick-id.js';

// CPU picking: synchronous ray casts against per-mesh triangle BVHs and a scene hierarchy.
export {
  type AnalyticTwin,
  arbitratePickAtPixelSync,
  arbitratePickSync,
  type BoundingProxy,
  type BvhBuildOptions,
  buildTriangleBvh,
  type CpuPickAllOptions,
  type CpuPickCensusReport,
  type CpuPickDiagnostic,
  type CpuPicker,
  type CpuPickerOptions,
  CpuPickError,
  type CpuPickErrorCode,
  type CpuPickIgnore,
  type CpuPickOptions,
  type CpuRay,
  createCpuPicker,
  deserialiseTriangleBvh,
  disposeCpuPicker,
  type EditorPick,
  type EditorPickPolicy,
  type EditorPickRule,
  type EntityHit,
  getCpuPicker,
  maxPickLayers,
  loadMeshBvh,
  makeTriangleHit,
  makeTriangleHitList,
  type PickEntity,
  type PickGroup,
  pickAllSync,
  pickManySync,
  pickManyWithRaysSync,
  pickSync,
  pickWithRaySync,
  raycastTriangleBvhAll,
  raycastTriangleBvhFirst,
  refitCpuPicker,
  refitMeshBvh,
  type RefitTriangleBvhOptions,
  refitTriangleBvh,
  type SceneBvhMode,
  serialiseMeshBvh,
  serialiseTriangleBvh,
  syncCpuPicker,
  takeCpuPickCensus,
  type TriangleBvh,
  type TriangleBvhLayout,
  type TriangleBvhOptions,
  type TriangleHit,
  type TriangleHitList,
} from './cpu/index.js';
