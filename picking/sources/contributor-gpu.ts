import type { ComposeCache, ComposeSpec } from '../../composer/compose-shader.js';
import { checkOptionKeys, type OptionKeys } from '../../core/options.js';
import { composeShader, makeComposeCache } from '../../composer/compose-shader.js';
import { ComposeError } from '../../composer/errors.js';
import type { PrecomposedSource } from '../../composer/precomposed.js';
import type { RenderPipelineState } from '../../composer/pipeline-cache.js';
import {
  acquirePipelineLease,
  createPipelineLeaseSet,
  disposePipelineLeaseSet,
  type HeldPipeline,
  type PipelineLeaseSet,
} from '../../composer/pipeline-leases.js';
import { contributorViewByteSize } from '../../fragments/contributor-view.js';
import {
  type ContributorEncodeContext,
  contributorPickPipelineState,
  contributorViewSlotBytes,
  writeContributorView,
} from './pick-contributors.js';
import { PickError } from '../pick-errors.js';

/**
 * The GPU side pick contributors and entity renderers share: one pipeline per mode, the per-point view uniform,
 * an item storage buffer and a params uniform, grown on demand and otherwise reused (a warm pick creates nothing).
 */
export interface ContributorGpu {
  readonly device: GPUDevice;
  readonly label: string;
  /** The shader of each mode (a renderer has one: `detailed` is false). */
  readonly shaderSpec: (detailed: boolean) => ComposeSpec;
  readonly itemsBinding: string;
  readonly paramsBinding: string;
  readonly cache: ComposeCache;
  /** The shader's name in weft's variant registry, per mode (null: not one of weft's variants). */
  readonly variantName: ((detailed: boolean) => string) | null;
  /** Fixed pipeline state of a renderer; null: the pick pass's state (per detailed mode). */
  readonly state: RenderPipelineState | null;
  /** One pipeline per mode ('basic', 'detail'). */
  pipelines: PipelineLeaseSet;
  viewBuffer: GPUBuffer | null;
  viewData: ArrayBuffer;
  itemBuffer: GPUBuffer | null;
  paramsBuffer: GPUBuffer;
  groups: Map<GPUBindGroupLayout, GPUBindGroup>;
}

/** Options of `createContributorGpu`. */
export interface ContributorGpuOptions {
  label: string;
  /** The shader of each mode: for a pick `contributorPickSpec(own fragments, detailed)`; a renderer's ignores `detailed`. */
  shaderSpec: (detailed: boolean) => ComposeSpec;
  itemsBinding: string;
  paramsBinding: string;
  paramsBytes: number;
  /** A renderer's pipeline state (targets, blending, depth); omitted for the pick pass. */
  state?: RenderPipelineState;
  /**
   * The engine's precomposed table holder (what `createPickContributor` receives, or `precomposedSourceOf(engine)`):
   * the shaders come from the table before linking, so the contributor works in a page built by weft-gpu/vite.
   */
  precomposed?: PrecomposedSource | null;
  /** The shader's name in weft's variant registry (`billboard-pick`, …), named by a not-precomposed error. */
  variantName?: (detailed: boolean) => string;
}

const contributorGpuOptionKeys: OptionKeys<ContributorGpuOptions> = {
  label: true,
  shaderSpec: true,
  itemsBinding: true,
  paramsBinding: true,
  paramsBytes: true,
  state: true,
  precomposed: true,
  variantName: true,
};

/**
 * Creates the shared state (nothing on the GPU but the params buffer until the first draw).
 * @throws {PickError} when a required option (label, shaderSpec, bindings) is missing
 */
export function createContributorGpu(device: GPUDevice, options: ContributorGpuOptions): ContributorGpu {
  const api = 'createContributorGpu';
  checkOptionKeys(api, options, contributorGpuOptionKeys, (_, message) => new PickError(api, 'bad-option', message));
  if (options === undefined)
    throw new PickError(
      api,
      'bad-option',
      'options { label, shaderSpec, itemsBinding, paramsBinding, … } are required',
    );
  return {
    device,
    label: options.label,
    shaderSpec: options.shaderSpec,
    itemsBinding: options.itemsBinding,
    paramsBinding: options.paramsBinding,
    state: options.state ?? null,
    variantName: options.variantName ?? null,
    cache: makeComposeCache({ maxResults: 4, precomposed: options.precomposed ?? null }),
    pipelines: createPipelineLeaseSet(device),
    viewBuffer: null,
    viewData: new ArrayBuffer(0),
    itemBuffer: null,
    paramsBuffer: device.createBuffer({
      label: `${options.label}:params`,
      size: Math.ceil(options.paramsBytes / 16) * 16,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    }),
    groups: new Map(),
  };
}

function grow(gpu: ContributorGpu, points: number, itemBytes: number): void {
  if (!gpu.viewBuffer || gpu.viewBuffer.size < points * contributorViewSlotBytes) {
    gpu.viewBuffer?.destroy();
    const slots = Math.max(points, 2 * ((gpu.viewBuffer?.size ?? 0) / contributorViewSlotBytes), 1);
    gpu.viewBuffer = gpu.device.createBuffer({
      label: `${gpu.label}:views`,
      size: slots * contributorViewSlotBytes,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    gpu.viewData = new ArrayBuffer(slots * contributorViewSlotBytes);
    gpu.groups.clear();
  }
  if (!gpu.itemBuffer || gpu.itemBuffer.size < itemBytes) {
    gpu.itemBuffer?.destroy();
    const size = Math.max(256, 2 ** Math.ceil(Math.log2(Math.max(itemBytes, 1))));
    gpu.itemBuffer = gpu.device.createBuffer({
      label: `${gpu.label}:items`,
      size,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    gpu.groups.clear();
  }
}

function groupFor(
  gpu: ContributorGpu,
  layout: GPUBindGroupLayout,
  bindings: readonly { name: string; binding: number }[],
): GPUBindGroup {
  let group = gpu.groups.get(layout);
  if (group) return group;
  const resource = (name: string): GPUBindingResource => {
    if (name === gpu.itemsBinding) return { buffer: gpu.itemBuffer! };
    if (name === gpu.paramsBinding) return { buffer: gpu.paramsBuffer };
    if (name === 'contributorView') return { buffer: gpu.viewBuffer!, offset: 0, size: contributorViewByteSize };
    throw new PickError(
      'drawContributorItems',
      'bad-pick-source',
      `shader "${gpu.label}" binds "${name}"; a contributor binds only contributorView, "${gpu.itemsBinding}" and "${gpu.paramsBinding}"`,
    );
  };
  group = gpu.device.createBindGroup({
    label: `${gpu.label}:group`,
    layout,
    entries: bindings.map((b) => ({ binding: b.binding, resource: resource(b.name) })),
  });
  gpu.groups.set(layout, group);
  return group;
}

/** The mode's pipeline, composed and acquired on first use (a renderer's fixed state, or the pick pass's). */
function pipelineFor(gpu: ContributorGpu, detailed: boolean): HeldPipeline {
  const compose = () => {
    try {
      return composeShader(gpu.shaderSpec(detailed), gpu.cache);
    } catch (error) {
      if (!(error instanceof ComposeError) || error.code !== 'not-precomposed' || !gpu.variantName) throw error;
      // The table's miss names a key; the page author needs the variant's name to declare it.
      const name = gpu.variantName(detailed);
      throw new ComposeError(
        error.api,
        error.code,
        error.fragmentIds,
        `${error.message.slice(error.api.length + 2)} This is weft's variant ${JSON.stringify(name)} (${gpu.label}): declare it with weftVariants({ variants: [${JSON.stringify(name)}, …] }).`,
      );
    }
  };
  const state = gpu.state ?? contributorPickPipelineState;
  return acquirePipelineLease(gpu.pipelines, detailed ? 'detail' : 'basic', compose, state);
}

/** Makes the pipeline and buffers a draw of `points` views and `itemBytes` of items needs, so that the draw creates nothing. */
export function prepareContributorGpu(gpu: ContributorGpu, points: number, itemBytes: number, detailed = false): void {
  pipelineFor(gpu, detailed);
  grow(gpu, points, itemBytes);
}

/** Uploads views, items and params, then draws `vertexCount` vertices × `itemCount` instances once per point. */
export function drawContributorItems(
  gpu: ContributorGpu,
  context: ContributorEncodeContext,
  items: ArrayBufferView,
  itemCount: number,
  params: ArrayBufferView,
  vertexCount: number,
): void {
  if (itemCount === 0) return;
  const { device, pass, points } = context;
  prepareContributorGpu(gpu, points.length, items.byteLength, context.detailed);
  const pipeline = pipelineFor(gpu, context.detailed);
  points.forEach((point, p) => writeContributorView(gpu.viewData, p, point, context.view, context.baseId));
  device.queue.writeBuffer(gpu.viewBuffer!, 0, gpu.viewData, 0, points.length * contributorViewSlotBytes);
  device.queue.writeBuffer(gpu.itemBuffer!, 0, items.buffer, items.byteOffset, items.byteLength);
  device.queue.writeBuffer(gpu.paramsBuffer, 0, params.buffer, params.byteOffset, params.byteLength);
  const { composed, lease } = pipeline;
  pass.setPipeline(lease.pipeline);
  for (let g = 1; g < composed.bindGroups.length; g++)
    pass.setBindGroup(g, groupFor(gpu, lease.bindGroupLayouts[g], composed.bindGroups[g].bindings));
  const viewGroup = groupFor(gpu, lease.bindGroupLayouts[0], composed.bindGroups[0].bindings);
  points.forEach((point, p) => {
    const [x, y, w, h] = point.viewport;
    pass.setViewport(x, y, w, h, 0, 1);
    pass.setScissorRect(x, y, w, h);
    pass.setBindGroup(0, viewGroup, [p * contributorViewSlotBytes]);
    pass.draw(vertexCount, itemCount);
  });
}

/** Gives back the pipelines and destroys the buffers. */
export function disposeContributorGpu(gpu: ContributorGpu): void {
  disposePipelineLeaseSet(gpu.pipelines);
  for (const buffer of [gpu.viewBuffer, gpu.itemBuffer, gpu.paramsBuffer]) buffer?.destroy();
  gpu.viewBuffer = gpu.itemBuffer = null;
  gpu.groups.clear();
}
