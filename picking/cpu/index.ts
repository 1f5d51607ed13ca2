export { CpuPickError, type CpuPickErrorCode } from './cpu-pick-error.js';
export {
  intersectTriangleWatertight,
  makeTriangleHit,
  makeWatertightRay,
  setWatertightRay,
  type TriangleHit,
  type WatertightRay,
} from './bvh/ray-triangle.js';
export type { BvhBuildOptions } from './bvh/bvh-build.js';
export { type BvhNodes, bvhSahCost } from './bvh/bvh-nodes.js';
export {
  buildTriangleBvh,
  defaultTriangleBvhOptions,
  type TriangleBvh,
  type TriangleBvhLayout,
  type TriangleBvhOptions,
} from './bvh/triangle-bvh.js';
export { type RefitTriangleBvhOptions, refitTriangleBvh } from './bvh/triangle-bvh-refit.js';
export {
  makeTriangleHitList,
  raycastTriangleBvhAll,
  raycastTriangleBvhFirst,
  type TriangleHitList,
} from './bvh/triangle-bvh-query.js';
export { disposeMeshBvh, getMeshBvh, peekMeshBvh, refitMeshBvh, setMeshBvh } from './bvh/mesh-bvh-cache.js';
export {
  buildSceneBvh,
  type CpuPickDiagnostic,
  type SceneBvh,
  type SceneBvhDecision,
  sceneBvhGateRatio,
  type SceneBvhMode,
} from './scene-bvh.js';
export {
  createCpuPicker,
  disposeCpuPicker,
  type CpuPickCensus,
  type CpuPickCensusReport,
  type CpuPicker,
  type CpuPickerOptions,
  getCpuPicker,
  refitCpuPicker,
  syncCpuPicker,
  takeCpuPickCensus,
} from './cpu-picker.js';
export type { CpuPickIgnore, CpuPickOptions } from './pick-options.js';
export { type CpuRay, pickManySync, pickManyWithRaysSync, pickSync, pickWithRaySync } from './pick-sync.js';
// Drill-through: every surface under a pixel, nearest first, as pickAllAsync reports them.
export { type CpuPickAllOptions, pickAllSync } from './pick-all-sync.js';
export { maxPickLayers } from './pick-layer-limits.js';
export { deserialiseTriangleBvh, loadMeshBvh, serialiseMeshBvh, serialiseTriangleBvh } from './bvh/bvh-serialise.js';
export {
  type AnalyticTwin,
  type BoundingProxy,
  checkEntity,
  type EntityHit,
  getEntityLocalBounds,
  getEntityWorldBounds,
  type PickEntity,
  proxyContainsPoint,
  raycastEntity,
} from './analytic-twins.js';
export { evaluatePolynomial, polynomialRootsInInterval } from './polynomial-roots.js';
export {
  arbitratePickAtPixelSync,
  arbitratePickSync,
  type EditorPick,
  type EditorPickPolicy,
  type EditorPickRule,
  type PickGroup,
} from './arbitration.js';
