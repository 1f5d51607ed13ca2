// What the editor's overlay tasks share: scene + per-draw uniforms laid out as weft's standard vertex stage reads
// them, bind groups built from the composer's binding names, and pipelines acquired from weft's cache.
import { mat4 } from 'wgpu-matrix';
import {
  type ComposeCache,
  type ComposedShader,
  type PipelineLease,
  type RenderPipelineState,
  acquireRenderPipeline,
  releaseRenderPipeline,
} from '../../../composer/index.js';
import {
  type PerspectiveCamera,
  getCameraViewProjectionMatrix,
  getRenderTargetTextures,
  type RenderTarget,
  type RenderTargetTextures,
  type Scene,
} from '../../../engine/index.js';
import { drawUniformsByteSize } from '../../../fragments/index.js';

/** Dynamic-offset stride of one draw's uniforms (WebGPU's minUniformBufferOffsetAlignment). */
export const drawStride = 256;
const sceneBytes = 128;

/** Scene and per-draw uniform buffers of one overlay task, with their CPU copies. */
export interface OverlayUniforms {
  label: string;
  device: GPUDevice;
  sceneBuffer: GPUBuffer;
  sceneData: Float32Array<ArrayBuffer>;
  drawBuffer: GPUBuffer;
  drawData: Float32Array<ArrayBuffer>;
  drawWords: Uint32Array<ArrayBuffer>;
  /** Draws the buffer holds. */
  capacity: number;
  scratch: Float32Array;
}

/** Creates the uniform buffers for up to `capacity` draws (record-time only). */
export function createOverlayUniforms(device: GPUDevice, label: string, capacity: number): OverlayUniforms {
  const drawData = new Float32Array((Math.max(1, capacity) * drawStride) / 4);
  return {
    label,
    device,
    capacity: Math.max(1, capacity),
    sceneBuffer: device.createBuffer({
      label: `${label}:scene-uniforms`,
      size: sceneBytes,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    }),
    sceneData: new Float32Array(sceneBytes / 4),
    drawBuffer: device.createBuffer({
      label: `${label}:draw-uniforms`,
      size: drawData.byteLength,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    }),
    drawData,
    drawWords: new Uint32Array(drawData.buffer),
    scratch: mat4.create(),
  };
}

/** Frees the uniform buffers. */
export function destroyOverlayUniforms(uniforms: OverlayUniforms | null): void {
  uniforms?.sceneBuffer.destroy();
  uniforms?.drawBuffer.destroy();
}

/** Writes the scene uniforms (view-projection, camera, light) for a viewport aspect ratio. */
export function writeSceneUniforms(
  uniforms: OverlayUniforms,
  scene: Scene,
  camera: PerspectiveCamera,
  aspect: number,
): void {
  const data = uniforms.sceneData;
  getCameraViewProjectionMatrix(camera, aspect, data.subarray(0, 16));
  data.set(camera.position, 16);
  data.set(scene.lightDirection, 20);
  data.set(scene.lightColor, 24);
  data.set(scene.ambientColor, 28);
  uniforms.device.queue.writeBuffer(uniforms.sceneBuffer, 0, data);
}

/** Fills draw `slot` on the CPU: world, its normal matrix, a colour; `uploadDraws` sends them. */
export function setDrawUniforms(
  uniforms: OverlayUniforms,
  slot: number,
  world: Float32Array,
  color: readonly number[],
): void {
  const base = (slot * drawStride) / 4;
  const data = uniforms.drawData;
  data.set(world, base);
  mat4.transpose(mat4.inverse(world, uniforms.scratch), uniforms.scratch);
  data.set(uniforms.scratch, base + 16);
  data[base + 32] = color[0];
  data[base + 33] = color[1];
  data[base + 34] = color[2];
  data[base + 35] = color[3] ?? 1;
  uniforms.drawWords[base + 36] = 1; // unlit
}

/** Uploads the first `count` draws. */
export function uploadDraws(uniforms: OverlayUniforms, count: number): void {
  if (count > 0)
    uniforms.device.queue.writeBuffer(uniforms.drawBuffer, 0, uniforms.drawData, 0, (count * drawStride) / 4);
}

/** A bind group for composed group `group`, its entries found by binding name (the composer assigns the indices). */
export function createNamedBindGroup(
  device: GPUDevice,
  composed: ComposedShader,
  lease: PipelineLease,
  group: number,
  resources: Record<string, GPUBindingResource>,
  label: string,
): GPUBindGroup {
  const entries = composed.bindGroups[group].bindings.map((binding) => {
    const resource = resources[binding.name];
    if (!resource) throw new Error(`${label}: no resource for binding "${binding.name}" of group ${group}`);
    return { binding: binding.binding, resource };
  });
  return device.createBindGroup({ label, layout: lease.bindGroupLayouts[group], entries });
}

/** The standard bindings: `scene` and the per-draw `draw` (a dynamic-offset window of one draw). */
export function standardResources(uniforms: OverlayUniforms): Record<string, GPUBindingResource> {
  return { scene: { buffer: uniforms.sceneBuffer }, draw: { buffer: uniforms.drawBuffer, size: drawUniformsByteSize } };
}

/** Pipelines of one task by key, released together. */
export interface PipelineSet {
  device: GPUDevice | null;
  cache: ComposeCache;
  leases: Map<string, { composed: ComposedShader; lease: PipelineLease }>;
}

/** Returns the pipeline for `key`, composing and acquiring it on first use. */
export function pipelineFor(
  set: PipelineSet,
  device: GPUDevice,
  key: string,
  compose: () => ComposedShader,
  state: RenderPipelineState,
): { composed: ComposedShader; lease: PipelineLease } {
  if (set.device !== device) releasePipelines(set);
  set.device = device;
  let entry = set.leases.get(key);
  if (!entry) {
    const composed = compose();
    entry = { composed, lease: acquireRenderPipeline(device, composed, state) };
    set.leases.set(key, entry);
  }
  return entry;
}

/** Gives every lease of the set back (nothing to give back once the device is gone). */
export function releasePipelines(set: PipelineSet): void {
  if (set.device)
    for (const { lease } of set.leases.values()) if (!lease.released) releaseRenderPipeline(set.device, lease);
  set.leases.clear();
}

/** Views of a single-sample render target's colour 0 and depth, remade only when its textures change. */
export interface TargetViews {
  textures: RenderTargetTextures | null;
  color: GPUTextureView | null;
  depth: GPUTextureView | null;
}

/** An empty view holder (one per task). */
export function makeTargetViews(): TargetViews {
  return { textures: null, color: null, depth: null };
}

/** The target's current views (new only after the target was resized or its device replaced). */
export function refreshTargetViews(
  target: RenderTarget,
  views: TargetViews,
): { color: GPUTextureView; depth: GPUTextureView } {
  const textures = getRenderTargetTextures(target);
  if (views.textures !== textures) {
    views.textures = textures;
    views.color = textures.colors[0].createView({ label: `${target.name}:color-view` });
    views.depth = textures.depth ? textures.depth.createView({ label: `${target.name}:depth-view` }) : null;
  }
  return { color: views.color!, depth: views.depth! };
}
