import { mat4 } from 'wgpu-matrix';
import { describeValue } from '../core/errors.js';
import { checkOptionKeys, checkOptionTypes, type OptionKeys } from '../core/options.js';
import { type Camera, getCameraViewerPosition, isCamera } from '../engine/camera.js';
import { assertEngineDevice, throwIfHostDeviceLostAsync, whenEngineReadyAsync } from '../engine/engine.js';
import { checkSceneArgument, describeWeftArgument } from '../engine/argument-checks.js';
import type { Scene } from '../engine/scene.js';
import { decodeOverlayHit, decodePickTexel } from './gpu/pick-decode.js';
import {
  captureOverlays,
  checkOverlayTolerance,
  type CapturedOverlays,
  disposePickOverlay,
  type PickOverlay,
} from './sources/pick-overlays.js';
import { PickError } from './pick-errors.js';
import { checkDiscardRule, type PickDiscardRule } from './discard-rules.js';
import { encodePickPass, preparePickPass } from './gpu/pick-pass.js';
import { readPickRuleStorage } from './gpu/pick-pass-plan.js';
import type { PickPassRequest } from './gpu/pick-pass-types.js';
import type { PickReadback } from './gpu/pick-readback.js';
import { disposePickGpu, ensurePickGpu, type PickGpu } from './gpu/pick-resources.js';
import type { PickCulling } from './sources/pick-source.js';
import {
  bindSnapshotMeshes,
  makePickSnapshot,
  type PickOptions,
  type SceneHierarchySnapshot,
  usesSceneHierarchy,
} from './pick-snapshot.js';
import { useRulePipelines } from './gpu/pick-pipelines.js';
import type { PixelRegion } from './pick-zoom.js';
import type { PickDetailMethod } from './gpu/pick-shader.js';
import { detailMethodPreference, detailMethodShortfall, supportedDetailMethods } from './gpu/detail-method-support.js';
import type { PickingInfo } from './picking-info.js';
import {
  captureSources,
  type CapturedSource,
  type ContributorState,
  loadContributorModulesAsync,
  makeContributorState,
  makeContributorViewData,
  pruneContributors,
} from './sources/pick-contributors.js';
import { makePickingRay, type PickingRay, type PickViewport } from './picking-ray.js';

/** Options of pickAsync / pickManyAsync: filtering plus the framebuffer the coordinates refer to. */
export interface GpuPickOptions extends PickOptions {
  /** Framebuffer size (backing pixels); default the engine's size. */
  viewport?: { width: number; height: number };
  /** When given, x and y are CSS pixels multiplied by it. */
  devicePixelRatio?: number;
  /** A custom WGSL rule deciding, per fragment of the pick pass, what cannot be picked. */
  discard?: PickDiscardRule;
  /** Which registered pick sources (billboards, splats, …) take part; default all. */
  filterSource?: (entity: object) => boolean;
  /**
   * Back faces: `'as-drawn'` (default) culls them exactly as the forward pass and the G-buffer do (one-sided
   * materials cull back faces; the front follows the world × instance determinant); `'none'` picks every face.
   */
  culling?: PickCulling;
  /**
   * pickAsync / pickManyAsync: x, y are exact framebuffer coordinates, sampled there (pixel i spans i .. i + 1, its
   * centre is i + 0.5). Default false: x, y name the pixel they fall in, sampled at its centre.
   */
  subpixel?: boolean;
  /** Whether the picker's overlays (`createPickOverlay`) take part (default true); not an option of pickRectAsync. */
  overlays?: boolean;
  /**
   * Half size, in framebuffer pixels, of the neighbourhood in which an on-top overlay item wins: an integer 0..16,
   * default 4 (9 × 9 pixels). Not an option of pickRectAsync.
   */
  overlayTolerance?: number;
  /**
   * The camera to pick through instead of `scene.camera` (pickAsync, pickManyAsync, pickRectAsync): weft's own or a
   * host's as matrices (`makeMatrixCamera`), drawn as the host draws it.
   */
  camera?: Camera;
}

/** A GPU picker bound to a scene: plain state; GPU objects appear on the first pick. */
export interface GpuPicker {
  readonly scene: Scene;
  detailed: boolean;
  /** Which path gives triangle detail: set by `enableDetailedPicking`; null while detail is off. */
  readonly detailMethod: PickDetailMethod | null;
  gpu: PickGpu | null;
  /** Picks not yet answered; disposing the picker rejects each. */
  inFlight: Set<{
    /** Rejects the pick's promise. */
    reject: (error: Error) => void;
  }>;
  disposed: boolean;
  /** Picks completed (for tests and benchmarks). */
  picks: number;
  /** Contributor modules of the scene's pick sources, loaded on the first pick. */
  contributors: ContributorState;
  /** Overlays drawn over the scene by every pickAsync / pickManyAsync, in creation order (`createPickOverlay`). */
  overlays: PickOverlay[];
}

/** Creates a picker for a scene; targets, buffers and pipelines are made on the first pick. */
export function createGpuPicker(scene: Scene): GpuPicker {
  checkSceneArgument('createGpuPicker', scene, pickOptionError);
  return {
    scene,
    detailed: false,
    detailMethod: null,
    gpu: null,
    inFlight: new Set(),
    disposed: false,
    picks: 0,
    contributors: makeContributorState(),
    overlays: [],
  };
}

/** Options of `enableDetailedPicking`. */
export interface DetailedPickingOptions {
  /**
   * How the pick pass learns the triangle; every method gives the same `PickingInfo`.
   * - 'primitive-index': the `primitive_index` builtin (the optional `primitive-index` feature); the cheapest.
   * - 'vertex-index': a non-indexed draw that pulls an indexed mesh's vertices from its index and vertex buffers as
   *   storage in the vertex stage, triangle = `vertex_index / 3` (no feature; at least 2 vertex-stage storage buffers).
   * - 'expanded-vertices': for devices whose vertex stage reads no storage (WebGPU compatibility mode): an indexed
   *   mesh's vertex buffers are de-indexed once by a compute pass (kept until the mesh is disposed or re-uploaded:
   *   3 × triangles × vertex stride bytes per mesh) and drawn non-indexed, triangle = `vertex_index / 3`. Morphed and
   *   vertex-animated meshes are refused on it (PickError 'unsupported'); host buffers need STORAGE usage.
   *
   * Default 'auto': the first of 'primitive-index', 'vertex-index', 'expanded-vertices' the device can run.
   */
  method?: 'auto' | PickDetailMethod;
}

const detailedPickingOptionKeys: OptionKeys<DetailedPickingOptions> = { method: true };
const detailMethods = ['auto', ...detailMethodPreference];

const quoteList = (items: readonly string[]): string =>
  items.length < 2
    ? items.map((m) => `'${m}'`).join('')
    : `${items
        .slice(0, -1)
        .map((m) => `'${m}'`)
        .join(', ')} or '${items[items.length - 1]}'`;

/**
 * Turns on triangle detail (faceId, barycentrics, point, normals, UV); returns true when detail is on, false when
 * 'auto' finds no method the device can run (detail stays off). `picker.detailMethod` tells which path is active.
 * @throws {PickError} `bad-option` for an unknown method or option; `unsupported` for a method the device cannot run
 * (naming the feature or limit it lacks and the methods allowed there)
 */
export function enableDetailedPicking(picker: GpuPicker, options?: DetailedPickingOptions): boolean {
  const api = 'enableDetailedPicking';
  assertAlive(picker, api);
  checkOptionKeys(api, options, detailedPickingOptionKeys, (_, message) => new PickError(api, 'bad-option', message));
  const method = options?.method ?? 'auto';
  if (!detailMethods.includes(method))
    throw new PickError(
      api,
      'bad-option',
      `method ${describeValue(method)} must be one of ${detailMethods.join(', ')}`,
    );
  const { device, features } = picker.scene.engine;
  const supported = supportedDetailMethods(device, features);
  if (method !== 'auto' && !supported.includes(method)) {
    const shortfall = detailMethodShortfall(method, device, features);
    throw new PickError(
      api,
      'unsupported',
      `method '${method}' ${shortfall}; allowed here: ${quoteList(['auto', ...supported])}`,
    );
  }
  const chosen = method === 'auto' ? supported[0] : method;
  if (!chosen) return false;
  picker.detailed = true;
  (picker as { detailMethod: PickDetailMethod | null }).detailMethod = chosen;
  return true;
}

/** @internal Throws `bad-option` when `picker` is not a GpuPicker (e.g. the scene passed in its place). */
export function checkPickerArgument(picker: GpuPicker, api: string): void {
  if (!picker || typeof picker !== 'object' || !(picker.inFlight instanceof Set) || !Array.isArray(picker.overlays))
    throw new PickError(
      api,
      'bad-option',
      `picker is ${describeWeftArgument(picker)}; pass the GpuPicker made by createGpuPicker(scene)`,
    );
}

/** @internal Throws `disposed` when the picker was disposed (`bad-option` when it is not a picker at all). */
export function assertAlive(picker: GpuPicker, api: string): void {
  checkPickerArgument(picker, api);
  if (picker.disposed)
    throw new PickError(api, 'disposed', 'the picker was disposed; create a new one with createGpuPicker(scene)');
}

/** @internal The framebuffer a call refers to: its `viewport` option or the engine's size. */
export function viewportOf(picker: GpuPicker, options: GpuPickOptions | undefined, api: string): PickViewport {
  const engine = picker.scene.engine;
  const given = options?.viewport;
  if (given !== undefined && (given === null || typeof given !== 'object'))
    throw new PickError(
      api,
      'bad-option',
      `viewport ${describeValue(given)} must be { width, height } (backing pixels)`,
    );
  return {
    width: options?.viewport?.width ?? engine.width,
    height: options?.viewport?.height ?? engine.height,
    devicePixelRatio: options?.devicePixelRatio,
  };
}

/** @internal The call's `camera` option, else the scene's camera; typed errors for a bad or missing one. */
export function cameraOf(picker: GpuPicker, api: string, options: GpuPickOptions | undefined): Camera {
  const given = options?.camera;
  if (given !== undefined && !isCamera(given))
    throw new PickError(
      api,
      'bad-option',
      `camera ${describeValue(given)} must be a camera (makePerspectiveCamera, makeOrthographicCamera or makeMatrixCamera)`,
    );
  const camera = given ?? picker.scene.camera;
  if (!camera)
    throw new PickError(api, 'no-camera', 'the scene has no camera; set scene.camera or pass options.camera');
  return camera;
}

// The scene-hierarchy snapshot (the CPU picker's BVH code), loaded on the first pick that can use it.
let sceneHierarchy: SceneHierarchySnapshot | null = null;
let sceneHierarchyLoading: Promise<void> | null = null;

/**
 * Loads the scene-hierarchy snapshot module once (memoised; a failed load is tried again on the next need).
 * @internal
 */
export function loadSceneHierarchyAsync(): Promise<void> {
  sceneHierarchyLoading ??= import('./gpu/pick-snapshot-hierarchy.js').then(
    (module) => {
      sceneHierarchy = module.snapshotFromSceneHierarchy;
    },
    () => {
      sceneHierarchyLoading = null;
    },
  );
  return sceneHierarchyLoading;
}

/**
 * The scene-hierarchy snapshot when this pick can use it and it is loaded. Until it is, the pick scans the meshes, which
 * answers the same (slower in a large scene): loading it never adds an await between the call and the capture, and a
 * page whose scenes stay under `hierarchyThreshold` drawables never loads it.
 * @internal
 */
export function sceneHierarchyFor(
  scene: Scene,
  options: PickOptions,
  rays: readonly PickingRay[],
): SceneHierarchySnapshot | null {
  if (!usesSceneHierarchy(scene.meshes, options, rays, rays.length, scene)) return null;
  if (!sceneHierarchy) void loadSceneHierarchyAsync();
  return sceneHierarchy;
}

/**
 * @internal Loads the contributor modules of newly registered pick sources. Null when they are all loaded: the caller then
 * goes on without an await, so the pick still captures the scene as it is at the call.
 */
export function loadSources(picker: GpuPicker, api: string): Promise<void> | null {
  const loading = loadContributorModulesAsync(api, picker.contributors, picker.scene);
  if (picker.gpu) pruneContributors(picker.gpu.contributors, picker.scene);
  return loading?.then(() => assertAlive(picker, api)) ?? null;
}

/** @internal Captures the sources after the snapshot's mesh IDs. */
export function captureSceneSources(
  picker: GpuPicker,
  api: string,
  snapshot: { candidates: readonly { baseId: number; idCount: number }[] },
  rays: readonly PickingRay[] | null,
  camera: Camera,
  options: GpuPickOptions | undefined,
): CapturedSource[] {
  if (options?.filterSource !== undefined && typeof options.filterSource !== 'function') {
    throw new PickError(
      api,
      'bad-option',
      `filterSource ${describeValue(options.filterSource)} must be a function (entity) => boolean`,
    );
  }
  if (picker.scene.pickSources.length === 0) return [];
  const last = snapshot.candidates[snapshot.candidates.length - 1];
  const request = {
    rays,
    preFilter: options?.preFilter !== false,
    cameraPosition: getCameraViewerPosition(camera, [0, 0, 0] as [number, number, number]),
  };
  return captureSources(
    api,
    picker.contributors,
    picker.scene,
    request,
    last ? last.baseId + last.idCount - 1 : 0,
    options?.filterSource,
  );
}

/** A pick in flight, as `disposeGpuPicker` sees it: `reject` rejects what the pick awaits now (no-op between awaits). */
interface PendingPick {
  reject: (error: Error) => void;
}

function ignoreRejection(): void {}

function disposedInFlight(api: string): PickError {
  return new PickError(api, 'disposed', 'the picker was disposed while the pick was in flight');
}

/**
 * `promise`, or a rejection as soon as the picker is disposed (`pending.reject`), whichever comes first. One promise
 * per await instead of a race against a promise kept for the whole pick.
 */
function unlessDisposed<T>(promise: Promise<T>, pending: PendingPick): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    pending.reject = reject;
    promise.then(resolve, reject);
  });
}

/**
 * @internal Encodes and submits one request now (so it draws the scene as it is at the call), then reads it back.
 * If the device is lost before the readback, the same snapshot is drawn again on the new device. `encode` draws and reads
 * the request (default the point / marquee pass; drill-through passes its layered one).
 */
export async function runRequest<T>(
  picker: GpuPicker,
  api: string,
  request: PickPassRequest,
  decode: (readback: PickReadback) => T,
  encode: (gpu: PickGpu, request: PickPassRequest) => Promise<PickReadback> = encodePickPass,
): Promise<T> {
  const pending: PendingPick = { reject: ignoreRejection };
  picker.inFlight.add(pending);
  let release: (() => void) | null = null;
  try {
    // Everything the pass reads is captured now, before any await: the snapshot holds the mesh list, matrices,
    // instances and poses; the rule storage is copied here. A pass drawn later (after a cold compile or a device
    // loss) draws stand-ins rebuilt from that capture for the meshes changed since (bindSnapshotMeshes).
    if (request.ruleStorage === undefined) request.ruleStorage = readPickRuleStorage(request);
    for (let attempt = 0; ; attempt++) {
      const engine = picker.scene.engine;
      if (engine.recovery) await unlessDisposed(whenEngineReadyAsync(engine), pending);
      if (picker.disposed) throw disposedInFlight(api);
      assertEngineDevice(engine, api);
      const gpu = ensurePickGpu(picker, engine.device, engine);
      // The rule text stays compiled while this pick uses it; a text replaced under its key is released after.
      const ruleUse = request.rule ? useRulePipelines(gpu, request.rule) : null;
      try {
        release = bindSnapshotMeshes(request.snapshot, gpu.device);
        const preparing = preparePickPass(gpu, request);
        if (preparing) {
          await unlessDisposed(preparing, pending);
          if (picker.disposed) throw disposedInFlight(api);
          release();
          release = bindSnapshotMeshes(request.snapshot, gpu.device);
        }
        const encoding = encode(gpu, request);
        // The pass is submitted: the stand-ins' GPU copies can go (destruction waits for the submitted work).
        release();
        release = null;
        const readback = await unlessDisposed(encoding, pending);
        ruleUse?.();
        return decode(readback);
      } catch (error) {
        release?.();
        release = null;
        ruleUse?.();
        if (picker.disposed) throw disposedInFlight(api);
        if (error instanceof PickError) throw error;
        await throwIfHostDeviceLostAsync(engine, gpu.device, api);
        if (attempt === 0 && (engine.device !== gpu.device || engine.recovery)) continue;
        if (engine.device !== gpu.device || engine.recovery)
          throw new PickError(
            api,
            'device-lost',
            `the device was lost twice during the pick (${(error as Error).message})`,
          );
        throw error;
      }
    }
  } finally {
    picker.inFlight.delete(pending);
    picker.picks++;
  }
}

/** @internal The keys every GPU pick call accepts. */
export const gpuPickOptionKeys: OptionKeys<GpuPickOptions> = {
  filter: true,
  ignore: true,
  preFilter: true,
  viewport: true,
  devicePixelRatio: true,
  discard: true,
  filterSource: true,
  culling: true,
  subpixel: true,
  overlays: true,
  overlayTolerance: true,
  camera: true,
};

/** @internal The types of the GPU pick options checked by `checkOptionTypes`. */
export const gpuPickOptionTypes = {
  preFilter: 'boolean',
  subpixel: 'boolean',
  devicePixelRatio: 'finite-number',
  overlays: 'boolean',
} as const;

/** @internal A `bad-option` PickError. */
export function pickOptionError(api: string, message: string): PickError {
  return new PickError(api, 'bad-option', message);
}

/** @internal The `culling` option, checked. */
export function cullingOf(api: string, options: GpuPickOptions | undefined): PickCulling {
  const culling = options?.culling ?? 'as-drawn';
  if (culling !== 'as-drawn' && culling !== 'none')
    throw new PickError(api, 'bad-option', `culling ${describeValue(culling)} must be 'as-drawn' or 'none'`);
  return culling;
}

/**
 * K pixels in one pass and one readback; each result equals a single pick at that pixel. A request past the device's
 * limits (more points than `maxTextureDimension2D`, or points × meshes drawn × 512 B past `maxBufferSize`) is drawn
 * as several passes, all submitted at the call, and answers the same as smaller calls.
 * @throws {PickError} when the point list is empty, a point is invalid, an option is unknown or invalid, the picker is disposed, or (`limit-exceeded`) a single point draws more meshes than one pass can hold
 */
export function pickManyAsync(
  picker: GpuPicker,
  points: readonly { x: number; y: number }[],
  options?: GpuPickOptions,
  api = 'pickManyAsync',
): Promise<PickingInfo[]> {
  // Not an async function (a warm pick pays no extra promise and generator): what it throws it returns rejected.
  try {
    assertAlive(picker, api);
    checkOptionKeys(api, options, gpuPickOptionKeys, pickOptionError);
    checkOptionTypes(api, options, gpuPickOptionTypes, pickOptionError);
    const culling = cullingOf(api, options);
    if (!Array.isArray(points) || points.length === 0)
      throw new PickError(
        api,
        'bad-coordinates',
        `points ${describeValue(points)} must be a non-empty array of { x, y }`,
      );
    const loading = loadSources(picker, api);
    if (loading) return loading.then(() => pickLoadedPoints(picker, points, options, api, culling));
    return pickLoadedPoints(picker, points, options, api, culling);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** `pickManyAsync` once the pick sources' modules are loaded: captures the scene now and submits the pass. */
function pickLoadedPoints(
  picker: GpuPicker,
  points: readonly { x: number; y: number }[],
  options: GpuPickOptions | undefined,
  api: string,
  culling: PickCulling,
): Promise<PickingInfo[]> {
  const camera = cameraOf(picker, api, options);
  const viewport = viewportOf(picker, options, api);
  const rays: PickingRay[] = [];
  // The zoom centres each 1×1 region on its point: the pixel centre, or the exact sub-pixel point.
  const regions: PixelRegion[] = [];
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    if (!p || typeof p !== 'object')
      throw new PickError(api, 'bad-coordinates', `points[${i}] ${describeValue(p)} must be { x, y }`);
    const ray = makePickingRay(camera, p.x, p.y, viewport, api, points.length > 1 ? i : undefined, options?.subpixel);
    rays.push(ray);
    regions.push({ x: ray.sampleX - 0.5, y: ray.sampleY - 0.5, width: 1, height: 1 });
  }
  const rule = options?.discard !== undefined ? checkDiscardRule(api, options.discard) : null;
  const tolerance = checkOverlayTolerance(api, options?.overlayTolerance);
  // A world-adjust hook moves geometry outside its bounds: the ray pre-filter cannot be trusted then.
  const snapshotOptions = rule?.rule.worldAdjustWgsl !== undefined ? { ...options, preFilter: false } : (options ?? {});
  const snapshot = makePickSnapshot(
    api,
    picker.scene.meshes,
    snapshotOptions,
    rays,
    rays.length,
    picker.scene,
    sceneHierarchyFor(picker.scene, snapshotOptions, rays),
  );
  const viewProjection = rays[0].viewProjection;
  const inverse = inverseViewProjectionOf(viewProjection);
  const detailed = picker.detailed;
  const sources = captureSceneSources(picker, api, snapshot, rays, camera, options);
  const view = sources.length ? makeContributorViewData(camera, viewProjection, viewport.width, viewport.height) : null;
  const overlays: CapturedOverlays | null =
    options?.overlays === false
      ? null
      : captureOverlays(api, picker, snapshot, lastCapturedId(snapshot, sources), tolerance);
  return runRequest(
    picker,
    api,
    {
      api,
      snapshot,
      viewProjection,
      width: viewport.width,
      height: viewport.height,
      regions,
      layout: 'row',
      detailed,
      detailMethod: picker.detailMethod ?? 'primitive-index',
      rule,
      sources,
      view,
      culling,
      overlayBlock: overlays?.block ?? 0,
    },
    (readback) =>
      rays.map(
        (ray, i) =>
          (overlays && decodeOverlayHit(overlays, readback, i, ray, inverse)) ||
          decodePickTexel(snapshot, ray, inverse, readback.texel(i), rule?.rule.worldAdjustWgsl !== undefined, sources),
      ),
  );
}

/** The last camera matrix a pick inverted, as it was then, and its inverse (read-only: decoding only reads it). */
let lastInverse: { viewProjection: Float32Array; inverse: Float32Array } | null = null;

/** The inverse of a pick's camera matrix, computed again only when the matrix differs from the last pick's. */
function inverseViewProjectionOf(viewProjection: Float32Array): Float32Array {
  const last = lastInverse;
  if (last) {
    const held = last.viewProjection;
    let i = 0;
    // Equal entries, zeros of the same sign (NaN never equals: it is inverted again).
    for (; i < 16; i++) {
      const a = held[i];
      const b = viewProjection[i];
      if (a !== b || (a === 0 && 1 / a !== 1 / b)) break;
    }
    if (i === 16) return last.inverse;
  }
  const inverse = mat4.inverse(viewProjection) as Float32Array;
  lastInverse = { viewProjection: viewProjection.slice(), inverse };
  return inverse;
}

/** The last ID the snapshot's meshes and the captured sources use (0 when none). */
function lastCapturedId(
  snapshot: { candidates: readonly { baseId: number; idCount: number }[] },
  sources: readonly CapturedSource[],
): number {
  const source = sources[sources.length - 1];
  if (source) return source.baseId + source.idCount - 1;
  const last = snapshot.candidates[snapshot.candidates.length - 1];
  return last ? last.baseId + last.idCount - 1 : 0;
}

/** Frees the picker's GPU objects; picks in flight reject, later calls throw. */
export function disposeGpuPicker(picker: GpuPicker): void {
  checkPickerArgument(picker, 'disposeGpuPicker');
  if (picker.disposed) return;
  picker.disposed = true;
  for (const pending of picker.inFlight)
    pending.reject(
      new PickError('disposeGpuPicker', 'disposed', 'the picker was disposed while the pick was in flight'),
    );
  picker.inFlight.clear();
  for (const overlay of [...picker.overlays]) disposePickOverlay(overlay);
  if (picker.gpu) disposePickGpu(picker.gpu);
  picker.gpu = null;
}
