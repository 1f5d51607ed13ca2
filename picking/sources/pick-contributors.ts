import type { ComposedShader, ComposeSpec } from '../../composer/compose-shader.js';
import type { RenderPipelineState } from '../../composer/pipeline-cache.js';
import { mat4 } from 'wgpu-matrix';
import type { PrecomposedSource } from '../../composer/precomposed.js';
import { type Camera, getCameraViewerPosition, getCameraViewMatrix } from '../../engine/camera.js';
import type { PickSource } from '../../engine/pick-sources.js';
import type { Scene } from '../../engine/scene.js';
import type { Fragment } from '../../fragments/fragment-types.js';
import {
  contributorViewByteSize,
  makeContributorViewFragment,
  makePickContributorOutputFragment,
} from '../../fragments/contributor-view.js';
import { maxPickId } from '../pick-id.js';
import { PickError } from '../pick-errors.js';
import type { PickTexel } from '../pick-id.js';
import type { PickingRay } from '../picking-ray.js';

/** What a contributor sees when a pick is encoded: the camera and the rays (null for a marquee). */
export interface ContributorCaptureRequest {
  rays: readonly PickingRay[] | null;
  /** False when the caller turned the ray pre-filter off: draw everything. */
  preFilter: boolean;
  cameraPosition: readonly [number, number, number];
}

/** @internal One point of the pass: its pick-zoomed matrix and where it lands in the pick target. */
export interface ContributorPoint {
  viewProjection: Float32Array;
  /** x, y, width, height in the pick target. */
  viewport: readonly [number, number, number, number];
  /** Framebuffer pixel of the target's texel (0, 0) in this viewport. */
  pixelOffset: readonly [number, number];
}

/** @internal Everything a contributor needs to draw into the pick pass it shares with meshes. */
export interface ContributorEncodeContext {
  device: GPUDevice;
  pass: GPURenderPassEncoder;
  baseId: number;
  detailed: boolean;
  points: readonly ContributorPoint[];
  /** Unzoomed view-projection and its inverse, camera position/right/up, framebuffer size. */
  view: ContributorViewData;
}

/** Camera data shared by all points of one pass. */
export interface ContributorViewData {
  inverseViewProjection: Float32Array;
  cameraPosition: [number, number, number];
  cameraRight: [number, number, number];
  cameraUp: [number, number, number];
  width: number;
  height: number;
}

/** The camera data contributor and entity-renderer shaders read (right and up are the view matrix's rows); fills `out` when given. */
export function makeContributorViewData(
  camera: Camera,
  viewProjection: Float32Array,
  width: number,
  height: number,
  out?: ContributorViewData,
): ContributorViewData {
  const data = out ?? {
    inverseViewProjection: new Float32Array(16),
    cameraPosition: [0, 0, 0],
    cameraRight: [0, 0, 0],
    cameraUp: [0, 0, 0],
    width,
    height,
  };
  const v = getCameraViewMatrix(camera);
  mat4.inverse(viewProjection, data.inverseViewProjection);
  getCameraViewerPosition(camera, data.cameraPosition);
  for (let k = 0; k < 3; k++) {
    data.cameraRight[k] = v[k * 4];
    data.cameraUp[k] = v[k * 4 + 1];
  }
  data.width = width;
  data.height = height;
  return data;
}

/** Whether any ray passes within `radius` of (x, y, z), not behind its origin by more than that: the pre-filter for round bounds. */
export function raysNearSphere(rays: readonly PickingRay[], x: number, y: number, z: number, radius: number): boolean {
  for (const ray of rays) {
    const dx = x - ray.origin[0];
    const dy = y - ray.origin[1];
    const dz = z - ray.origin[2];
    const along = dx * ray.direction[0] + dy * ray.direction[1] + dz * ray.direction[2];
    if (along >= -radius && dx * dx + dy * dy + dz * dz - along * along <= radius * radius) return true;
  }
  return false;
}

/** A contributor's GPU state on one device. */
export interface PickContributor<Captured> {
  /** Draws the captured data into the pass (pipelines, buffers and bind groups are made once, then reused). */
  encode(captured: Captured, context: ContributorEncodeContext): void;
  /** Frees every GPU object it made. */
  dispose(): void;
}

/** The module a pick source's `load()` resolves to. */
export interface PickContributorModule<Entity extends object, Captured> {
  /** CPU only, at the pick call: copies what to draw (null: nothing under the rays); `idCount` IDs are reserved. */
  capturePick(entity: Entity, request: ContributorCaptureRequest): { idCount: number; captured: Captured } | null;
  /**
   * GPU state on a device (created on the first pick that draws this source on it). `precomposed` is the engine's
   * precomposed table holder: pass it to `createContributorGpu({ …, precomposed })` so a page built by weft-gpu/vite
   * finds the contributor's shaders in its table.
   */
  createPickContributor(device: GPUDevice, precomposed: PrecomposedSource | null): PickContributor<Captured>;
  /** The result fields of a hit on local id `localId` (0-based in the source's range), e.g. `{ spriteIndex }`. */
  resolvePick(entity: Entity, captured: Captured, localId: number, texel: PickTexel): Record<string, unknown>;
}

/** @internal A source's capture in one pick snapshot, with its ID range. */
export interface CapturedSource {
  source: PickSource;
  module: PickContributorModule<object, unknown>;
  captured: unknown;
  baseId: number;
  idCount: number;
}

/** @internal Per picker: loaded modules (cached per source) and contributors per device. */
export interface ContributorState {
  modules: Map<PickSource, PickContributorModule<object, unknown> | Promise<PickContributorModule<object, unknown>>>;
}

/** @internal Creates the picker's contributor state (nothing loaded). */
export function makeContributorState(): ContributorState {
  return { modules: new Map() };
}

function checkModule(api: string, source: PickSource, module: unknown): PickContributorModule<object, unknown> {
  const m = module as Partial<PickContributorModule<object, unknown>> | null;
  if (
    !m ||
    typeof m.capturePick !== 'function' ||
    typeof m.createPickContributor !== 'function' ||
    typeof m.resolvePick !== 'function'
  ) {
    throw new PickError(
      api,
      'bad-pick-source',
      `the pick source of ${(source.entity as { name?: string }).name ?? 'an entity'} loaded a module without capturePick, createPickContributor and resolvePick`,
    );
  }
  return m as PickContributorModule<object, unknown>;
}

/** @internal Loads (once per source) every registered source's contributor module; null when all are loaded already. */
export function loadContributorModulesAsync(api: string, state: ContributorState, scene: Scene): Promise<void> | null {
  // A scene without pick sources, none known before (every pick of most scenes): nothing to load or forget.
  if (scene.pickSources.length === 0 && state.modules.size === 0) return null;
  const pending: Promise<unknown>[] = [];
  for (const source of scene.pickSources) {
    const known = state.modules.get(source);
    if (known instanceof Promise) pending.push(known);
    else if (!known) {
      const loading = source.load().then(
        (module) => {
          const checked = checkModule(api, source, module);
          state.modules.set(source, checked);
          return checked;
        },
        (error: unknown) => {
          state.modules.delete(source);
          throw new PickError(
            api,
            'pick-source-load',
            `loading the pick source of ${(source.entity as { name?: string }).name ?? 'an entity'} failed: ${(error as Error)?.message ?? error}`,
          );
        },
      );
      state.modules.set(source, loading);
      pending.push(loading);
    }
  }
  for (const source of state.modules.keys()) if (!scene.pickSources.includes(source)) state.modules.delete(source);
  return pending.length ? Promise.all(pending).then(() => undefined) : null;
}

/**
 * Captures every loaded source after the meshes' IDs (ending at `lastMeshId`): contiguous ranges in registration order.
 * @internal
 */
export function captureSources(
  api: string,
  state: ContributorState,
  scene: Scene,
  request: ContributorCaptureRequest,
  lastMeshId: number,
  accept?: (entity: object) => boolean,
): CapturedSource[] {
  const result: CapturedSource[] = [];
  let nextId = lastMeshId + 1;
  for (const source of scene.pickSources) {
    const module = state.modules.get(source);
    if (!module || module instanceof Promise || (accept && !accept(source.entity))) continue;
    const capture = module.capturePick(source.entity, request);
    if (!capture || capture.idCount < 1) continue;
    result.push({ source, module, captured: capture.captured, baseId: nextId, idCount: capture.idCount });
    nextId += capture.idCount;
    if (nextId - 1 > maxPickId)
      throw new PickError(
        api,
        'limit-exceeded',
        `the pick needs more than ${maxPickId} IDs (24-bit RGB); filter or ignore meshes and sources`,
      );
  }
  return result;
}

/** @internal The captured source owning `id`, if any. */
export function findCapturedSource(sources: readonly CapturedSource[], id: number): CapturedSource | null {
  return sources.find((s) => id >= s.baseId && id < s.baseId + s.idCount) ?? null;
}

/** @internal Contributors of one picker on one device, by source; disposed with the picker's GPU state. */
export type DeviceContributors = Map<PickSource, PickContributor<unknown>>;

/** @internal Draws every captured source into the pass, creating a source's contributor on this device on first use. */
export function encodeCapturedSources(
  contributors: DeviceContributors,
  sources: readonly CapturedSource[],
  context: Omit<ContributorEncodeContext, 'baseId'>,
  precomposed: PrecomposedSource | null,
): void {
  for (const entry of sources) {
    let contributor = contributors.get(entry.source);
    if (!contributor)
      contributors.set(entry.source, (contributor = entry.module.createPickContributor(context.device, precomposed)));
    contributor.encode(entry.captured, { ...context, baseId: entry.baseId });
  }
}

/** @internal Frees contributors whose source is no longer registered (or all of them, without a scene). */
export function pruneContributors(contributors: DeviceContributors, scene: Scene | null): void {
  if (contributors.size === 0) return;
  for (const [source, contributor] of contributors) {
    if (scene?.pickSources.includes(source)) continue;
    contributor.dispose();
    contributors.delete(source);
  }
}

// ---- helpers for contributor implementations ----

/** @internal Per-point uniform slot size of the contributor view (dynamic offsets are 256-aligned). */
export const contributorViewSlotBytes = 256;

/** The fragments every contributor pick shader starts from (view uniform, ray helpers, pick outputs). */
export function makeContributorBaseFragments(): Fragment[] {
  return [makeContributorViewFragment(), makePickContributorOutputFragment()];
}

/** @internal Writes point `index`'s ContributorView at its slot of `data` (floats and words share the buffer). */
export function writeContributorView(
  data: ArrayBuffer,
  index: number,
  point: ContributorPoint,
  view: ContributorViewData,
  baseId: number,
): void {
  const floats = new Float32Array(data, index * contributorViewSlotBytes, contributorViewByteSize / 4);
  floats.set(point.viewProjection, 0);
  floats.set(view.inverseViewProjection, 16);
  floats.set(
    [
      ...view.cameraPosition,
      1,
      ...view.cameraRight,
      0,
      ...view.cameraUp,
      0,
      point.pixelOffset[0],
      point.pixelOffset[1],
      view.width,
      view.height,
    ],
    32,
  );
  new Uint32Array(data, index * contributorViewSlotBytes + 192, 4).set([baseId, 0, 0, 0]);
}

/**
 * A contributor's pick shader: the base fragments plus the contributor's own (its vertex fragment and pick output),
 * with the detail attachment when `detailed`. Billboards and splats compose their pick shaders and variants with it.
 */
export function contributorPickSpec(own: readonly Fragment[], detailed: boolean): ComposeSpec {
  return { fragments: [...makeContributorBaseFragments(), ...own], conditions: { primitiveDetail: detailed } };
}

/**
 * The pick pass's fixed pipeline state for a contributor shader: its targets, reverse-Z depth, no culling.
 * @internal
 */
export function contributorPickPipelineState(composed: ComposedShader): RenderPipelineState {
  return {
    label: 'weft:pick-contributor',
    targets: composed.targets.map((t) => ({ format: t.format! })),
    primitive: { topology: 'triangle-list', cullMode: 'none' },
    depthStencil: { format: 'depth24plus', depthWriteEnabled: true, depthCompare: 'greater' },
  };
}
