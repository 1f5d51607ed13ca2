import type { RenderPipelineState } from '../composer/pipeline-cache.js';
import type { ComposeSpec } from '../composer/compose-shader.js';
import {
  type ContributorGpu,
  createContributorGpu,
  disposeContributorGpu,
  drawContributorItems,
  prepareContributorGpu,
} from '../picking/sources/contributor-gpu.js';
import { type ContributorViewData, makeContributorViewData } from '../picking/sources/pick-contributors.js';
import { type Camera, getCameraViewProjectionMatrix } from '../engine/camera.js';
import { EngineError, engineOptionError } from '../engine/engine-errors.js';
import { precomposedSourceOf } from '../engine/precomposed-shaders.js';
import { checkOptionKeys, type OptionKeys } from '../core/options.js';
import { getRenderTargetTextures, type RenderTarget } from '../engine/render-target.js';
import type { Scene } from '../engine/scene.js';
import type { Task } from '../engine/task.js';

/** Options every entity renderer (billboards, splats) takes. */
export interface EntityRenderTaskOptions {
  name?: string;
  /** Drawn over what is already there (load, not clear): render the meshes into the same target first. Needs depth. */
  target: RenderTarget;
  /** Overrides `scene.camera`. */
  camera?: Camera;
}

/** What a kind of entity tells the shared renderer. */
interface EntityRenderSpec {
  label: string;
  /** The entity's colour shader (its own builder, also used for its registered variant). */
  shaderSpec: () => ComposeSpec;
  /** Its name in weft's variant registry (what a weft-gpu/vite page declares). */
  variantName: string;
  itemsBinding: string;
  paramsBinding: string;
  paramsBytes: number;
  itemBytes: number;
  blend?: GPUBlendState;
  depthWrite: boolean;
  /** Items the next frame may draw (buffers are sized for this in record()). */
  capacity(): number;
  /** Packs this frame's items into `items` (capacity × itemBytes) and returns how many to draw. */
  fill(items: ArrayBuffer, view: ContributorViewData): number;
  params(): Float32Array<ArrayBuffer>;
}

/** An entity render task's internal state (plain data, read by its record and execute). */
interface EntityTaskState {
  readonly name: string;
  readonly scene: Scene;
  readonly options: EntityRenderTaskOptions;
  readonly spec: EntityRenderSpec;
  /** Pipeline and buffers, made by record() on the current device. */
  gpu: ContributorGpu | null;
  /** Items the buffers hold; a larger `spec.capacity()` re-records. */
  capacity: number;
  /** The precomposed table generation `gpu` was made against (a replaced table re-records). */
  table: number;
  items: ArrayBuffer;
  readonly viewData: ContributorViewData;
  /** The one full-target point the renderer draws (its view-projection is the camera's). */
  readonly point: { viewProjection: Float32Array; viewport: [number, number, number, number]; pixelOffset: [0, 0] };
  readonly views: WeakMap<GPUTexture, GPUTextureView>;
}

function viewOf(state: EntityTaskState, texture: GPUTexture): GPUTextureView {
  let textureView = state.views.get(texture);
  if (!textureView) state.views.set(texture, (textureView = texture.createView()));
  return textureView;
}

function entityPipelineState(state: EntityTaskState): RenderPipelineState {
  const { target } = state.options;
  const { spec } = state;
  return {
    label: `weft:${state.name}`,
    targets: [{ format: target.colorFormats[0], blend: spec.blend }],
    primitive: { topology: 'triangle-list', cullMode: 'none' },
    depthStencil: { format: target.depthFormat!, depthWriteEnabled: spec.depthWrite, depthCompare: 'greater' },
    multisample: { count: target.samples },
  };
}

function entityNeedsRecord(state: EntityTaskState): boolean {
  const { gpu } = state;
  return (
    !gpu ||
    gpu.device !== state.scene.engine.device ||
    state.spec.capacity() > state.capacity ||
    state.table !== (precomposedSourceOf(state.scene.engine).generation ?? 0)
  );
}

/** record(): a new pipeline and buffers on the current device, sized for the entity's capacity. */
function recordEntityTask(state: EntityTaskState): void {
  const { name, spec } = state;
  if (state.gpu) disposeContributorGpu(state.gpu);
  const gpu = createContributorGpu(state.scene.engine.device, {
    label: `weft:${name}`,
    shaderSpec: spec.shaderSpec,
    variantName: () => spec.variantName,
    itemsBinding: spec.itemsBinding,
    paramsBinding: spec.paramsBinding,
    paramsBytes: spec.paramsBytes,
    state: entityPipelineState(state),
    // The engine's build-time table (weft-gpu/vite), as the forward, pick and geometry runtimes read it.
    precomposed: precomposedSourceOf(state.scene.engine),
  });
  state.gpu = gpu;
  state.table = precomposedSourceOf(state.scene.engine).generation ?? 0;
  state.capacity = Math.max(spec.capacity(), 1);
  state.items = new ArrayBuffer(state.capacity * spec.itemBytes);
  prepareContributorGpu(gpu, 1, state.items.byteLength);
}

/** execute(): packs this frame's items, writes the camera view and params, and draws them over the target. */
function executeEntityTask(state: EntityTaskState, encoder: GPUCommandEncoder): void {
  const { name, scene, spec, viewData, point, items } = state;
  const { target } = state.options;
  const camera = state.options.camera ?? scene.camera;
  if (!camera)
    throw new EngineError(
      `${name}.execute`,
      'no-camera',
      `task "${name}" has no camera: set scene.camera or options.camera`,
    );
  const { width, height } = target;
  getCameraViewProjectionMatrix(camera, width / height, point.viewProjection);
  makeContributorViewData(camera, point.viewProjection, width, height, viewData);
  point.viewport[2] = width;
  point.viewport[3] = height;
  const count = spec.fill(items, viewData);
  const textures = getRenderTargetTextures(target);
  const pass = encoder.beginRenderPass({
    label: `weft:${name}:pass`,
    colorAttachments: [
      {
        view: viewOf(state, textures.colors[0]),
        resolveTarget: textures.resolves[0] ? viewOf(state, textures.resolves[0]) : undefined,
        loadOp: 'load',
        storeOp: 'store',
      },
    ],
    depthStencilAttachment: { view: viewOf(state, textures.depth!), depthLoadOp: 'load', depthStoreOp: 'store' },
  });
  const gpu = state.gpu!;
  drawContributorItems(
    gpu,
    { device: gpu.device, pass, baseId: 0, detailed: false, points: [point], view: viewData },
    new Uint8Array(items, 0, count * spec.itemBytes),
    count,
    spec.params(),
    6,
  );
  pass.end();
}

function disposeEntityTask(state: EntityTaskState): void {
  if (state.gpu) disposeContributorGpu(state.gpu);
  state.gpu = null;
  state.capacity = 0;
}

/**
 * A task drawing one entity's quads into a render target with its own shader (the entity's vertex fragment plus a
 * colour fragment): record() makes pipeline and buffers, execute() packs items, writes uniforms and draws.
 */
const entityTaskOptionKeys: OptionKeys<EntityRenderTaskOptions> = { name: true, target: true, camera: true };

/**
 * Refuses an entity render task's options that are not an object or hold an unknown key (EngineError `bad-option`).
 * @internal
 */
export function checkEntityRenderTaskOptions(api: string, options: EntityRenderTaskOptions): void {
  checkOptionKeys(api, options, entityTaskOptionKeys, engineOptionError);
  if (options === undefined)
    throw new EngineError(api, 'bad-option', 'options { target, name?, camera? } are required');
}

/** @internal */
export function createEntityRenderTask(scene: Scene, options: EntityRenderTaskOptions, spec: EntityRenderSpec): Task {
  const name = options.name ?? spec.label;
  if (!options.target?.depthFormat)
    throw new EngineError(
      'createEntityRenderTask',
      'no-depth',
      `task "${name}" needs a render target with depth (it depth-tests against the meshes drawn before it)`,
    );
  const state: EntityTaskState = {
    name,
    scene,
    options,
    spec,
    gpu: null,
    capacity: 0,
    table: 0,
    items: new ArrayBuffer(0),
    viewData: {
      inverseViewProjection: new Float32Array(16),
      cameraPosition: [0, 0, 0],
      cameraRight: [1, 0, 0],
      cameraUp: [0, 1, 0],
      width: 1,
      height: 1,
    },
    point: { viewProjection: new Float32Array(16), viewport: [0, 0, 1, 1], pixelOffset: [0, 0] },
    views: new WeakMap(),
  };
  return {
    name,
    needsRecord: () => entityNeedsRecord(state),
    record: () => recordEntityTask(state),
    execute: (encoder) => executeEntityTask(state, encoder),
    dispose: () => disposeEntityTask(state),
  };
}
