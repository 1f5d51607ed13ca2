// weft's exact GPU picker on a three.js scene: on the WebGPURenderer's own device, drawing three's own buffers, with
// three's matrices, instances, bones and morph weights read as they are at each call.
import { type Camera, type Object3D, Vector2 } from 'three';
import type { WebGPURenderer } from 'three/webgpu';
import { describeValue } from '../../core/errors.js';
import type { Engine } from '../../engine/engine.js';
import { createEngineFromDeviceAsync } from '../../engine/host-device.js';
import { disposeEngine } from '../../engine/engine.js';
import {
  createGpuPicker,
  enableDetailedPicking,
  disposeGpuPicker,
  type GpuPicker,
  type GpuPickOptions,
  pickManyAsync,
} from '../../picking/gpu-picker.js';
import { PickError } from '../../picking/pick-errors.js';
import { pickRectAsync } from '../../picking/rect/pick-rect-async.js';
import {
  createDrawableScene,
  disposeDrawableScene,
  pickedObjectOf,
  syncDrawableSceneHinted,
} from '../../picking/sources/drawable-scene.js';
import type { DrawableScene } from '../../picking/sources/drawable-types.js';
import { checkThreeCamera, threeMatrixCamera } from './three-camera.js';
import type { MatrixCamera } from '../../engine/matrix-camera.js';
import { noteView, pickAheadOf, pickAheadOfSync, sameView } from '../pick-ahead.js';
import type { PickDiscardRule } from '../../picking/discard-rules.js';
import { makeThreeClipRule } from './three-clipping.js';
import {
  collectThreeDrawables,
  disposeThreeDrawables,
  forgetSteady,
  makeThreeDrawables,
  type ThreeDrawables,
  threeClipPlanesOf,
} from './three-drawables.js';
import { makeThreeIntersection, type ThreeIntersection } from './three-intersection.js';

/** A weft picker bound to one three.js `WebGPURenderer` (any scene and camera of it). Plain state. */
export interface ThreePicker {
  readonly renderer: WebGPURenderer;
  readonly engine: Engine;
  readonly target: DrawableScene<Object3D>;
  readonly picker: GpuPicker;
  readonly drawables: ThreeDrawables;
  disposed: boolean;
}

/** Options of the three.js picks: weft's filtering and rules, in three's terms. */
export interface ThreePickOptions {
  /** A custom WGSL rule deciding, per fragment of the pick pass, what cannot be picked (docs/picking.md). */
  discard?: GpuPickOptions['discard'];
  /** `'as-drawn'` (default): back faces culled as three culls them (`material.side`); `'none'`: every face. */
  culling?: GpuPickOptions['culling'];
  /** Sample at exact CSS coordinates instead of the centre of the device pixel they fall in (default false). */
  subpixel?: boolean;
}

/**
 * Creates a picker on a three.js `WebGPURenderer` (initialised here when it is not yet): weft adopts the renderer's
 * own `GPUDevice` and draws three's own vertex and index buffers where the device can read them for triangle detail
 * (devices with `primitive-index`); on other devices weft keeps its own copies of the picked geometry.
 * @throws {PickError} `unsupported` when the renderer has no WebGPU device (its WebGL fallback)
 */
export async function createThreePickerAsync(renderer: WebGPURenderer): Promise<ThreePicker> {
  const api = 'createThreePickerAsync';
  if (!renderer || typeof (renderer as { init?: unknown }).init !== 'function')
    throw new PickError(api, 'bad-option', `renderer ${describeValue(renderer)} must be a three.js WebGPURenderer`);
  await renderer.init();
  const device = (renderer.backend as { device?: GPUDevice }).device;
  if (!device)
    throw new PickError(
      api,
      'unsupported',
      'the renderer has no WebGPU device (it fell back to WebGL); weft-gpu/three picks on WebGPU only',
    );
  const engine = await createEngineFromDeviceAsync(device, { width: 1, height: 1 }, { label: 'weft-three' });
  const target = createDrawableScene<Object3D>(engine);
  const picker = createGpuPicker(target.scene);
  enableDetailedPicking(picker);
  const bindHostBuffers = picker.detailMethod === 'primitive-index';
  return {
    renderer,
    engine,
    target,
    picker,
    drawables: makeThreeDrawables(renderer, device, bindHostBuffers),
    disposed: false,
  };
}

function assertAlive(api: string, picker: ThreePicker): void {
  if (!picker || typeof picker !== 'object' || !('drawables' in picker))
    throw new PickError(api, 'bad-option', `picker ${describeValue(picker)} must come from createThreePickerAsync`);
  if (picker.disposed) throw new PickError(api, 'disposed', 'the three.js picker was disposed');
}

let clipRules: WeakMap<ThreePicker, PickDiscardRule> | undefined;

/** The discard rule of a pick: three's clipping when the scene is clipped, else the caller's (never both yet). */
function discardOf(api: string, picker: ThreePicker, given: PickDiscardRule | undefined): PickDiscardRule | undefined {
  if (!picker.drawables.clipped) return given;
  const deformed = picker.drawables.deformed;
  if (deformed)
    throw new PickError(
      api,
      'unsupported',
      `the scene has ClippingGroups and a skinned or morphed mesh ("${deformed.name}"); weft-gpu/three cannot clip and deform in one pick yet (hide one of them from the pick with layers)`,
    );
  if (given)
    throw new PickError(
      api,
      'unsupported',
      `the scene has ClippingGroups and a discard rule ("${given.key}") was given; fold the clip test into your rule's WGSL, or pick without one`,
    );
  clipRules ??= new WeakMap();
  let rule = clipRules.get(picker);
  if (!rule) {
    rule = makeThreeClipRule(picker.target, (object) => threeClipPlanesOf(picker.drawables, object));
    clipRules.set(picker, rule);
  }
  return rule;
}

/**
 * Reads the scene as three draws it now, in renderer.render's order: world matrices updated (by the walk, where
 * something moved), drawables synced (the walk vouches for the steady ones), then the camera. A walk that changed
 * nothing (and found no clipping, whose planes the pass reads apart) lets the next pick of this scene and camera go
 * ahead of its walk.
 */
function syncScene(api: string, picker: ThreePicker, scene: Object3D, camera: Camera) {
  const ahead = pickAheadOf(picker);
  ahead.scene = ahead.camera = null;
  if (!scene || (scene as { isObject3D?: boolean }).isObject3D !== true)
    throw new PickError(api, 'bad-option', `scene ${describeValue(scene)} must be a three.js Scene or Object3D`);
  checkThreeCamera(api, camera);
  const drawables = picker.drawables;
  const list = collectThreeDrawables(api, drawables, scene, camera);
  const before = picker.target.changes;
  try {
    syncDrawableSceneHinted(picker.target, list, drawables);
  } catch (error) {
    forgetSteady(drawables);
    throw error;
  }
  if (picker.target.changes === before && !drawables.clipped) {
    ahead.scene = scene;
    ahead.camera = camera;
  }
  return threeMatrixCamera(api, picker.renderer, camera);
}

let drawingBufferSize: Vector2 | undefined;

/** The drawing buffer the CSS coordinates map into: three's size × pixel ratio. */
function viewportOf(renderer: WebGPURenderer) {
  const size = renderer.getDrawingBufferSize((drawingBufferSize ??= new Vector2()));
  return { width: size.x, height: size.y, ratio: renderer.getPixelRatio() };
}

type Viewport = { width: number; height: number; ratio: number };

/**
 * Picks the scene as three draws it now with `pickWith`: ahead of the walk when the last walk of this scene and
 * camera changed nothing (hosts/pick-ahead.ts), else after it. Returns the answer and the viewport it was drawn in.
 */
async function pickSyncedAsync<R>(
  api: string,
  picker: ThreePicker,
  scene: Object3D,
  camera: Camera,
  pickWith: (view: MatrixCamera, viewport: Viewport) => Promise<R>,
): Promise<{ result: R; viewport: Viewport }> {
  const ahead = pickAheadOf(picker);
  if (ahead.scene !== scene || ahead.camera !== camera) {
    const view = syncScene(api, picker, scene, camera);
    const viewport = viewportOf(picker.renderer);
    return { result: await pickWith(view, viewport), viewport };
  }
  let view = threeMatrixCamera(api, picker.renderer, camera);
  let viewport = viewportOf(picker.renderer);
  noteView(ahead, view, viewport.width, viewport.height, viewport.ratio);
  const early = viewport;
  const result = await pickAheadOfSync(
    picker.target,
    () => pickWith(view, early),
    () => {
      view = syncScene(api, picker, scene, camera);
      viewport = viewportOf(picker.renderer);
      return ahead.scene !== null && sameView(ahead, view, viewport.width, viewport.height, viewport.ratio);
    },
    () => pickWith(view, viewport),
  );
  return { result, viewport };
}

/**
 * What is under each CSS pixel `points[i]` (relative to the canvas' top-left, like `event.offsetX/Y`), in one GPU
 * pass: three.js intersections (null where nothing is), exact to the triangle.
 * @throws {PickError} `bad-option` for a bad scene, camera or point; `unsupported` for what weft-gpu/three does not pick
 * yet (BatchedMesh, draw ranges, mixed material sides), naming the object
 */
export async function pickManyThreeAsync(
  picker: ThreePicker,
  scene: Object3D,
  camera: Camera,
  points: readonly { x: number; y: number }[],
  options: ThreePickOptions = {},
): Promise<(ThreeIntersection | null)[]> {
  const api = 'pickManyThreeAsync';
  assertAlive(api, picker);
  const { result: infos, viewport } = await pickSyncedAsync(api, picker, scene, camera, (view, viewport) =>
    pickManyAsync(picker.picker, points, {
      ...options,
      discard: discardOf(api, picker, options.discard),
      camera: view,
      viewport: { width: viewport.width, height: viewport.height },
      devicePixelRatio: viewport.ratio,
    }),
  );
  const { width, height, ratio } = viewport;
  const css = { width: width / ratio, height: height / ratio };
  // Where the pick sampled, in CSS pixels: the centre of the device pixel (x, y) falls in, unless subpixel.
  const sampled = (v: number) => (options.subpixel ? v : (Math.floor(v * ratio) + 0.5) / ratio);
  return infos.map((info, i) => {
    const picked = info.hit ? pickedObjectOf(picker.target, info) : null;
    if (!picked) return null;
    const pixel = { x: sampled(points[i].x), y: sampled(points[i].y), ...css };
    const world =
      picker.drawables.records.get(picked.object)?.drawable.worldMatrix ?? picked.object.matrixWorld.elements;
    return makeThreeIntersection(info, picked.object, picked.instance, camera, pixel, world);
  });
}

/** What is under one CSS pixel of the canvas, as a three.js intersection; null where nothing is. See pickManyThreeAsync. */
export async function pickThreeAsync(
  picker: ThreePicker,
  scene: Object3D,
  camera: Camera,
  x: number,
  y: number,
  options: ThreePickOptions = {},
): Promise<ThreeIntersection | null> {
  const [hit] = await pickManyThreeAsync(picker, scene, camera, [{ x, y }], options);
  return hit;
}

/** One object (and instance) seen in a marquee. */
export interface ThreeRectHit {
  object: Object3D;
  /** The InstancedMesh instance; absent for other objects. */
  instanceId?: number;
}

/**
 * Every object and instance with at least one pixel inside the CSS rectangle (x, y, width, height) of the canvas, as
 * drawn (occlusion included), once each, in scene order.
 * @throws {PickError} as pickManyThreeAsync, and `bad-option` for a rectangle outside the canvas
 */
export async function pickRectThreeAsync(
  picker: ThreePicker,
  scene: Object3D,
  camera: Camera,
  x: number,
  y: number,
  width: number,
  height: number,
  options: Omit<ThreePickOptions, 'subpixel'> = {},
): Promise<ThreeRectHit[]> {
  const api = 'pickRectThreeAsync';
  assertAlive(api, picker);
  const { result: found } = await pickSyncedAsync(api, picker, scene, camera, (view, viewport) => {
    const ratio = viewport.ratio;
    return pickRectAsync(picker.picker, x * ratio, y * ratio, width * ratio, height * ratio, {
      ...options,
      discard: discardOf(api, picker, options.discard),
      camera: view,
      viewport: { width: viewport.width, height: viewport.height },
    });
  });
  const hits: ThreeRectHit[] = [];
  for (const identity of found) {
    const picked = pickedObjectOf(picker.target, identity);
    if (!picked) continue;
    hits.push(
      picked.instance >= 0 ? { object: picked.object, instanceId: picked.instance } : { object: picked.object },
    );
  }
  return hits;
}

/** Releases weft's GPU objects of the picker (three's buffers and device are left as they are); later picks throw. */
export function disposeThreePicker(picker: ThreePicker): void {
  if (picker.disposed) return;
  picker.disposed = true;
  disposeGpuPicker(picker.picker);
  disposeDrawableScene(picker.target);
  disposeThreeDrawables(picker.drawables);
  disposeEngine(picker.engine);
}
