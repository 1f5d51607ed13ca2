import type { Mesh } from '../../engine/mesh.js';
import type { PickSubject } from '../sources/pick-source.js';
import { checkSceneArgument } from '../../engine/argument-checks.js';
import type { Scene } from '../../engine/scene.js';
import { meshesChangedSince } from '../../engine/scene-changes.js';
import { describeValue } from '../../core/errors.js';
import { checkOptionKeys, type OptionKeys } from '../../core/options.js';
import { CpuPickError, cpuPickOptionError } from './cpu-pick-error.js';
import { triangleBvhRefitEpoch } from './bvh/bvh-refit-epoch.js';
import { meshBvhCacheEpoch, peekMeshBvh } from './bvh/mesh-bvh-cache.js';
import { type TriangleBvh, triangleBvhRootBounds } from './bvh/triangle-bvh.js';
import { bvhSahCost } from './bvh/bvh-nodes.js';
import {
  buildSceneBvh,
  type CpuPickDiagnostic,
  refitSceneBvh,
  refitSceneBvhEntries,
  type SceneBvh,
  type SceneBvhMode,
} from './scene-bvh.js';
import { makeSceneEntries, type SceneEntries, updateMeshEntries } from './scene-entries.js';

/** Options of `createCpuPicker`. */
export interface CpuPickerOptions {
  /** 'auto' (default): build the scene BVH only where the SAH gate says it beats a flat scan. */
  sceneBvh?: SceneBvhMode;
  /**
   * 'auto' (default): a pick first checks the scene's `changeVersion` (bumped by `setMeshWorldMatrix` and
   * `setThinInstances`) and the refits of the BVHs it holds; only when one changed does it compare each mesh with
   * what was last seen and refit the bounds that moved. Matrices written in place bypass this (they are read-only). 'manual': picks trust the bounds
   * until `refitCpuPicker` is called (once per frame, after animation); structural changes are always seen.
   */
  refit?: 'auto' | 'manual';
  /** Called with every diagnostic as it is made (they are also kept in `picker.diagnostics`). */
  onDiagnostic?: (diagnostic: CpuPickDiagnostic) => void;
}

/** @internal Deterministic counters of the scene-level search, summed over rays until `takeCpuPickCensus`. */
export interface CpuPickCensus {
  rays: number;
  /** Candidates (entries) offered to a ray: each costs one world-box test. */
  offers: number;
  /** Scene BVH nodes whose box a ray tested. */
  nodeVisits: number;
  /** Entries whose triangle BVH a ray traversed (box hit, accepted by the filters). */
  narrowPhase: number;
}

/** What a mesh looked like when its entries were last computed; `world` is a view into one shared array. */
interface MeshSnapshot {
  worldRef: Float32Array;
  world: Float32Array;
  instancesRef: Float32Array | null;
  instanceVersion: number;
  bvhRef: TriangleBvh | null;
  bvhRefits: number;
}

/** Per-scene CPU picking state: entries, the scene BVH (or a flat scan), census and diagnostics. */
export interface CpuPicker {
  readonly scene: Scene;
  readonly options: Required<Omit<CpuPickerOptions, 'onDiagnostic'>> & Pick<CpuPickerOptions, 'onDiagnostic'>;
  /** `scene.structureVersion` the entries were built for (-1 before the first pick). */
  builtVersion: number;
  /** `meshBvhCacheEpoch()` at the last refit check. */
  bvhCacheEpoch: number;
  /** `triangleBvhRefitEpoch()` when every BVH the snapshots hold was last seen unrefitted. */
  bvhRefitEpoch: number;
  /** `scene.changeVersion` at the last refit check: while it holds, no mesh moved through a setter. */
  changeVersion: number;
  /** Indices of meshes whose snapshot holds a triangle BVH (their refits are checked on every sync). */
  withBvh: number[];
  meshes: Mesh[];
  /** Mesh → its index in `meshes`. */
  meshIndex: Map<Mesh, number>;
  entries: SceneEntries;
  bvh: SceneBvh | null;
  snapshots: MeshSnapshot[];
  diagnostics: CpuPickDiagnostic[];
  census: CpuPickCensus;
  stats: { builds: number; refits: number };
}

let pickers: WeakMap<Scene, CpuPicker> | null = null;

// Created on first use: a module-level `new WeakMap()` would be a side effect at import.
function pickerCache(): WeakMap<Scene, CpuPicker> {
  pickers ??= new WeakMap();
  return pickers;
}

const cpuPickerOptionKeys: OptionKeys<CpuPickerOptions> = { sceneBvh: true, refit: true, onDiagnostic: true };

/**
 * Creates (or replaces) the scene's CPU picker state; `pickSync` and friends use it from then on.
 * @throws {CpuPickError} when an option is unknown or out of range
 */
export function createCpuPicker(scene: Scene, options: CpuPickerOptions = {}): CpuPicker {
  const api = 'createCpuPicker';
  checkSceneArgument(api, scene, cpuPickOptionError);
  checkOptionKeys(api, options, cpuPickerOptionKeys, cpuPickOptionError);
  const sceneBvh = options.sceneBvh ?? 'auto';
  const refit = options.refit ?? 'auto';
  if (!['auto', 'always', 'never'].includes(sceneBvh))
    throw new CpuPickError(
      api,
      'bad-option',
      `sceneBvh ${describeValue(sceneBvh)} must be "auto", "always" or "never"`,
    );
  if (!['auto', 'manual'].includes(refit))
    throw new CpuPickError(api, 'bad-option', `refit ${describeValue(refit)} must be "auto" or "manual"`);
  const picker: CpuPicker = {
    scene,
    options: { sceneBvh, refit, onDiagnostic: options.onDiagnostic },
    builtVersion: -1,
    bvhCacheEpoch: -1,
    bvhRefitEpoch: -1,
    changeVersion: -1,
    withBvh: [],
    meshes: [],
    meshIndex: new Map(),
    entries: makeSceneEntries([]),
    bvh: null,
    snapshots: [],
    diagnostics: [],
    census: { rays: 0, offers: 0, nodeVisits: 0, narrowPhase: 0 },
    stats: { builds: 0, refits: 0 },
  };
  pickerCache().set(scene, picker);
  return picker;
}

/** Forgets the scene's CPU picker and its snapshots; the next `pickSync` on the scene makes a default one. */
export function disposeCpuPicker(picker: CpuPicker): void {
  if (pickers?.get(picker.scene) === picker) pickers.delete(picker.scene);
  picker.meshes = [];
  picker.meshIndex = new Map();
  picker.snapshots = [];
  picker.bvh = null;
  picker.builtVersion = -1;
}

/** The scene's CPU picker, created with default options on first use. */
export function getCpuPicker(scene: Scene): CpuPicker {
  checkSceneArgument('getCpuPicker', scene, cpuPickOptionError);
  return pickerCache().get(scene) ?? createCpuPicker(scene);
}

function snapshot(mesh: PickSubject, world: Float32Array): MeshSnapshot {
  const bvh = peekMeshBvh(mesh);
  world.set(mesh.worldMatrix);
  return {
    worldRef: mesh.worldMatrix,
    world,
    instancesRef: mesh.thinInstances,
    instanceVersion: mesh.thinInstanceVersion,
    bvhRef: bvh,
    bvhRefits: bvh ? bvh.refitCount : 0,
  };
}

function retake(s: MeshSnapshot, mesh: PickSubject): void {
  const bvh = peekMeshBvh(mesh);
  s.world.set(mesh.worldMatrix);
  s.worldRef = mesh.worldMatrix;
  s.instancesRef = mesh.thinInstances;
  s.instanceVersion = mesh.thinInstanceVersion;
  s.bvhRef = bvh;
  s.bvhRefits = bvh ? bvh.refitCount : 0;
}

/** Whether the mesh moved, changed instances or had its BVH replaced or refitted; `cacheSame`: no BVH was built, set or dropped since. */
function changed(mesh: PickSubject, s: MeshSnapshot, cacheSame: boolean): boolean {
  if (
    s.worldRef !== mesh.worldMatrix ||
    s.instancesRef !== mesh.thinInstances ||
    s.instanceVersion !== mesh.thinInstanceVersion
  )
    return true;
  if (!cacheSame) {
    const bvh = peekMeshBvh(mesh);
    if (s.bvhRef !== bvh) return true;
  }
  if (s.bvhRef && s.bvhRefits !== s.bvhRef.refitCount) return true;
  const w = mesh.worldMatrix;
  const c = s.world;
  for (let k = 0; k < 16; k++) if (w[k] !== c[k]) return true;
  return false;
}

let rootScratch: Float64Array | null = null;

/**
 * Called by the narrow phase after it built mesh `m`'s BVH: the snapshot adopts it when its root lies
 * inside the bounds the entries already use (the normal case), so the next pick does not refit for nothing.
 * @internal
 */
export function adoptBuiltMeshBvh(picker: CpuPicker, m: number): void {
  const mesh = picker.meshes[m];
  const bvh = peekMeshBvh(mesh);
  const s = picker.snapshots[m];
  if (!bvh || s.bvhRef !== null) return;
  rootScratch ??= new Float64Array(6);
  const root = rootScratch;
  if (!triangleBvhRootBounds(bvh, root)) return;
  const { min, max } = mesh.localBounds;
  for (let a = 0; a < 3; a++) if (root[2 * a] < min[a] || root[2 * a + 1] > max[a]) return;
  s.bvhRef = bvh;
  s.bvhRefits = bvh.refitCount;
  picker.withBvh.push(m);
}

function collectWithBvh(picker: CpuPicker): number[] {
  const list: number[] = [];
  picker.snapshots.forEach((s, m) => {
    if (s.bvhRef) list.push(m);
  });
  return list;
}

/** Whether nothing can have changed since the last sync: no setter ran, no BVH was built, swapped or refitted. */
function unchangedSinceSync(picker: CpuPicker): boolean {
  if (picker.changeVersion !== picker.scene.changeVersion || picker.bvhCacheEpoch !== meshBvhCacheEpoch()) return false;
  // O(1) while no triangle BVH anywhere was refitted; otherwise look at the ones this picker holds.
  if (picker.bvhRefitEpoch === triangleBvhRefitEpoch()) return true;
  for (const m of picker.withBvh) {
    const s = picker.snapshots[m];
    if (s.bvhRef && s.bvhRefits !== s.bvhRef.refitCount) return false;
  }
  picker.bvhRefitEpoch = triangleBvhRefitEpoch();
  return true;
}

/** Diagnostics kept per picker (the oldest are dropped; `onDiagnostic` sees every one). */
const maxKeptDiagnostics = 32;

function report(picker: CpuPicker, diagnostic: CpuPickDiagnostic): void {
  picker.diagnostics.push(diagnostic);
  if (picker.diagnostics.length > maxKeptDiagnostics) picker.diagnostics.shift();
  picker.options.onDiagnostic?.(diagnostic);
}

/** Rebuilds entries and the scene BVH (through the SAH gate) from the scene's current meshes. */
function rebuild(picker: CpuPicker): void {
  const meshes = picker.scene.meshes.filter((m) => !m.disposed);
  picker.meshes = meshes;
  picker.meshIndex = new Map(meshes.map((mesh, m) => [mesh, m]));
  picker.entries = makeSceneEntries(meshes);
  const worlds = new Float32Array(meshes.length * 16);
  picker.snapshots = meshes.map((mesh, m) => snapshot(mesh, worlds.subarray(m * 16, m * 16 + 16)));
  picker.withBvh = collectWithBvh(picker);
  picker.changeVersion = picker.scene.changeVersion;
  picker.bvhCacheEpoch = meshBvhCacheEpoch();
  picker.bvhRefitEpoch = triangleBvhRefitEpoch();
  buildBvh(picker);
  picker.builtVersion = picker.scene.structureVersion;
  picker.stats.builds++;
}

/** A refitted scene BVH whose SAH cost grew past this factor of its cost when built is rebuilt (instances changed). */
const sceneBvhRebuildRatio = 2;

let builtCosts: WeakMap<SceneBvh, number> | null = null;

// Created on first use, like the picker cache.
function builtCostCache(): WeakMap<SceneBvh, number> {
  builtCosts ??= new WeakMap();
  return builtCosts;
}

/** Builds the scene BVH over the current entries (through the SAH gate) and remembers its cost. */
function buildBvh(picker: CpuPicker): void {
  const decision = buildSceneBvh(picker.entries, picker.options.sceneBvh);
  picker.bvh = decision.bvh;
  if (decision.bvh) builtCostCache().set(decision.bvh, decision.hierarchyCost);
  report(picker, decision.diagnostic);
}

/**
 * After thin instances were replaced with the same count (no structural change), the fixed topology may group
 * instances that are now far apart (e.g. a new order): past `sceneBvhRebuildRatio`× the built SAH cost, rebuild.
 */
function rebuildIfDegraded(picker: CpuPicker): void {
  const bvh = picker.bvh;
  const built = bvh ? builtCostCache().get(bvh) : undefined;
  if (!bvh || built === undefined) return;
  const cost = bvhSahCost(bvh.nodes);
  if (!(cost > built * sceneBvhRebuildRatio)) return;
  buildBvh(picker);
  picker.stats.builds++;
}

/**
 * The meshes that may have changed since the last sync, by index: those the scene's change log names plus those whose
 * triangle BVH was refitted; null when the log does not reach back that far or BVHs were swapped (check them all).
 */
function changedCandidates(picker: CpuPicker, cacheSame: boolean): number[] | null {
  const logged = cacheSame ? meshesChangedSince(picker.scene, picker.changeVersion) : null;
  if (!logged) return null;
  const indices: number[] = [];
  for (const mesh of logged) {
    const m = picker.meshIndex.get(mesh);
    if (m !== undefined) indices.push(m);
  }
  for (const m of picker.withBvh) {
    const s = picker.snapshots[m];
    if (s.bvhRef && s.bvhRefits !== s.bvhRef.refitCount) indices.push(m);
  }
  return indices;
}

/**
 * Refits the bounds of meshes that moved, deformed or changed instances since last seen; true when any did. Only the
 * meshes the scene's change log names are looked at, and only their leaves and ancestors in the scene BVH refitted.
 */
export function refitCpuPicker(picker: CpuPicker): boolean {
  if (picker.builtVersion !== picker.scene.structureVersion) {
    rebuild(picker);
    return true;
  }
  if (unchangedSinceSync(picker)) return false;
  const epoch = meshBvhCacheEpoch();
  const cacheSame = picker.bvhCacheEpoch === epoch;
  picker.bvhCacheEpoch = epoch;
  const candidates = changedCandidates(picker, cacheSame);
  picker.changeVersion = picker.scene.changeVersion;
  const changedEntries: number[] = [];
  let any = false;
  let instancesChanged = false;
  const visit = (m: number) => {
    const mesh = picker.meshes[m];
    const s = picker.snapshots[m];
    if (!changed(mesh, s, cacheSame)) return;
    if (mesh.thinInstances && (s.instancesRef !== mesh.thinInstances || s.instanceVersion !== mesh.thinInstanceVersion))
      instancesChanged = true;
    updateMeshEntries(picker.entries, m);
    retake(s, mesh);
    const first = picker.entries.meshFirstEntry[m];
    for (let e = first; e < first + picker.entries.meshEntryCount[m]; e++) changedEntries.push(e);
    any = true;
  };
  if (candidates) for (const m of candidates) visit(m);
  else for (let m = 0; m < picker.meshes.length; m++) visit(m);
  if (!cacheSame) picker.withBvh = collectWithBvh(picker);
  picker.bvhRefitEpoch = triangleBvhRefitEpoch();
  if (any) {
    if (picker.bvh && candidates) refitSceneBvhEntries(picker.bvh, picker.entries, changedEntries);
    else if (picker.bvh) refitSceneBvh(picker.bvh, picker.entries);
    if (instancesChanged) rebuildIfDegraded(picker);
    picker.stats.refits++;
  }
  return any;
}

/** Brings the picker up to date before a pick: rebuild on structural change, refit in 'auto' mode. */
export function syncCpuPicker(picker: CpuPicker): void {
  if (picker.builtVersion !== picker.scene.structureVersion) rebuild(picker);
  else if (picker.options.refit === 'auto') refitCpuPicker(picker);
}

/** Per-ray averages of a census; `flatOffersPerRay` is what a flat scan would offer (every entry). */
export interface CpuPickCensusReport {
  rays: number;
  offersPerRay: number;
  nodeVisitsPerRay: number;
  /** offers + node visits: every box test the scene-level search made. */
  boxTestsPerRay: number;
  narrowPhasePerRay: number;
  flatOffersPerRay: number;
}

/** Averages of the census since the last call (e.g. one frame's rays), then resets it. */
export function takeCpuPickCensus(picker: CpuPicker): CpuPickCensusReport {
  const c = picker.census;
  const per = (v: number): number => (c.rays > 0 ? v / c.rays : 0);
  const result = {
    rays: c.rays,
    offersPerRay: per(c.offers),
    nodeVisitsPerRay: per(c.nodeVisits),
    boxTestsPerRay: per(c.offers + c.nodeVisits),
    narrowPhasePerRay: per(c.narrowPhase),
    flatOffersPerRay: picker.entries.count,
  };
  picker.census = { rays: 0, offers: 0, nodeVisits: 0, narrowPhase: 0 };
  return result;
}
