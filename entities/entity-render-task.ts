import type { RenderPipelineState } from '../composer/pipeline-cache.js';
import type { Fragment } from '../fragments/fragment-types.js';
import {
  type ContributorGpu,
  createContributorGpu,
  disposeContributorGpu,
  drawContributorItems,
  prepareContributorGpu,
} from '../picking/contributor-gpu.js';
import { type ContributorViewData, makeContributorViewData } from '../picking/pick-contributors.js';
import { type Camera, getCameraViewProjectionMatrix } from '../engine/camera.js';
import { EngineError } from '../engine/engine-errors.js';
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
export interface EntityRenderSpec {
  label: string;
  fragments: readonly Fragment[];
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

/**
 * A task drawing one entity's quads into a render target with its own shader (the entity's vertex fragment plus a
 * colour fragment): record() makes pipeline and buffers, execute() packs items, writes uniforms and draws.
 */
export function createEntityRenderTask(scene: Scene, options: EntityRenderTaskOptions, spec: EntityRenderSpec): Task {
  const { target } = options;
  const name = options.name ?? spec.label;
  if (!target?.depthFormat)
    throw new EngineError(
      'createEntityRenderTask',
      'no-depth',
      `task "${name}" needs a render target with depth (it depth-tests against the meshes drawn before it)`,
    );
  let gpu: ContributorGpu | null = null;
  let capacity = 0;
  let items = new ArrayBuffer(0);
  const viewProjection = new Float32Array(16);
  const viewData: ContributorViewData = {
    inverseViewProjection: new Float32Array(16),
    cameraPosition: [0, 0, 0],
    cameraRight: [1, 0, 0],
    cameraUp: [0, 1, 0],
    width: 1,
    height: 1,
  };
  const point = {
    viewProjection,
    viewport: [0, 0, 1, 1] as [number, number, number, number],
    pixelOffset: [0, 0] as const,
  };
  const views = new WeakMap<GPUTexture, GPUTextureView>();
  const viewOf = (texture: GPUTexture) => {
    let textureView = views.get(texture);
    if (!textureView) views.set(texture, (textureView = texture.createView()));
    return textureView;
  };
  const state = (): RenderPipelineState => ({
    label: `weft:${name}`,
    targets: [{ format: target.colorFormats[0], blend: spec.blend }],
    primitive: { topology: 'triangle-list', cullMode: 'none' },
    depthStencil: { format: target.depthFormat!, depthWriteEnabled: spec.depthWrite, depthCompare: 'greater' },
    multisample: { count: target.samples },
  });
  const task: Task = {
    name,
    needsRecord: () => !gpu || gpu.device !== scene.engine.device || spec.capacity() > capacity,
    record() {
      if (gpu) disposeContributorGpu(gpu);
      gpu = createContributorGpu(scene.engine.device, {
        label: `weft:${name}`,
        fragments: spec.fragments,
        itemsBinding: spec.itemsBinding,
        paramsBinding: spec.paramsBinding,
        paramsBytes: spec.paramsBytes,
        state: state(),
      });
      capacity = Math.max(spec.capacity(), 1);
      items = new ArrayBuffer(capacity * spec.itemBytes);
      prepareContributorGpu(gpu, 1, items.byteLength);
    },
    execute(encoder) {
      const camera = options.camera ?? scene.camera;
      if (!camera)
        throw new EngineError(
          `${name}.execute`,
          'no-camera',
          `task "${name}" has no camera: set scene.camera or options.camera`,
        );
      const { width, height } = target;
      getCameraViewProjectionMatrix(camera, width / height, viewProjection);
      makeContributorViewData(camera, viewProjection, width, height, viewData);
      point.viewport[2] = width;
      point.viewport[3] = height;
      const count = spec.fill(items, viewData);
      const textures = getRenderTargetTextures(target);
      const pass = encoder.beginRenderPass({
        label: `weft:${name}:pass`,
        colorAttachments: [
          {
            view: viewOf(textures.colors[0]),
            resolveTarget: textures.resolves[0] ? viewOf(textures.resolves[0]) : undefined,
            loadOp: 'load',
            storeOp: 'store',
          },
        ],
        depthStencilAttachment: { view: viewOf(textures.depth!), depthLoadOp: 'load', depthStoreOp: 'store' },
      });
      drawContributorItems(
        gpu!,
        { device: gpu!.device, pass, baseId: 0, detailed: false, points: [point], view: viewData },
        new Uint8Array(items, 0, count * spec.itemBytes),
        count,
        spec.params(),
        6,
      );
      pass.end();
    },
    dispose() {
      if (gpu) disposeContributorGpu(gpu);
      gpu = null;
      capacity = 0;
    },
  };
  return task;
}
