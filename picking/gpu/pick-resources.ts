import { type ComposeCache, type ComposedShader, makeComposeCache } from '../../composer/compose-shader.js';
import {
  createPipelineLeaseSet,
  disposePipelineLeaseSet,
  type PipelineLeaseSet,
} from '../../composer/pipeline-leases.js';
import type { PipelineLease } from '../../composer/pipeline-cache.js';
import type { Engine } from '../../engine/engine.js';
import type { PickSubject } from '../sources/pick-source.js';
import { precomposedSourceOf } from '../../engine/precomposed-shaders.js';
import { createStagingPool, disposeStagingPool, type StagingPool } from '../../engine/staging-pool.js';
import type { FragmentLists } from '../../engine/shader-spec-options.js';
import { drawUniformsByteSize } from '../../fragments/draw-uniforms.js';
import { pickFrameUniformsByteSize } from '../../fragments/pick-discard.js';
import { pickUniformsByteSize } from '../../fragments/pick-output.js';
import { sceneUniformsByteSize } from '../../fragments/scene-uniforms.js';
import { type DeviceContributors, pruneContributors } from '../sources/pick-contributors.js';
import { disposeExpandedVertices, type ExpandedVertexCache } from './expanded-vertices.js';

/** @internal Per point: SceneUniforms at 0, PickFrameUniforms at 256 (binding offsets must be 256-aligned). */
export const pointSlotBytes = 512;
/** @internal */
export const pickFrameOffset = 256;
/** @internal Per draw: DrawUniforms at 0, PickUniforms at 256. */
export const drawSlotBytes = 512;
/** @internal */
export const pickUniformOffset = 256;

/** @internal A pick pipeline and how the mesh's buffers feed its vertex slots. */
export interface PickPipeline {
  lease: PipelineLease;
  composed: ComposedShader;
  /** Index into [...mesh vertex buffers, instance buffer, vertex-data buffer] per vertex slot. */
  vertexBufferSources: readonly number[];
  /** Which mesh buffer feeds `vertexData` (-1: the zero buffer), when the rule asks for it. */
  vertexDataBuffer: number | null;
  /** Components of that attribute's format (0 for the zero buffer). */
  vertexDataComponents: number;
  /** Vertex-index detail of an indexed mesh: draw non-indexed, the mesh's buffers bound as storage. */
  pulled: boolean;
  /** Expanded-vertices detail of an indexed mesh: draw non-indexed from the mesh's de-indexed copies (`gpu.expanded`). */
  expanded: boolean;
  /** With `expanded`: the last vertex buffer is the copies' original-vertex stream (`ExpandedVertices.vertexIndices`). */
  vertexIndexStream: boolean;
  /** Set when its rule text was released (`useRulePipelines`), or the device refused it: it must not be drawn. */
  released?: boolean;
  /** Its key in `PickGpu.pipelines` and `PickGpu.leases`. */
  key: string;
}

/** A rule storage buffer of one mesh, and the bind group holding all of that mesh's. */
interface StorageEntry {
  buffers: (GPUBuffer | null)[];
  group: GPUBindGroup | null;
  layout: GPUBindGroupLayout | null;
}

/** @internal A pick pass's attachments: ID, depth value (and detail) colour targets, the depth buffer. */
export interface PickTargets {
  width: number;
  height: number;
  detailed: boolean;
  textures: GPUTexture[];
  views: GPUTextureView[];
  depth: GPUTexture;
  depthView: GPUTextureView;
  /** The pass descriptor clearing these targets, without and with detail, made on first use (`beginPickPass`). */
  passDescriptors: [GPURenderPassDescriptor | null, GPURenderPassDescriptor | null];
}

/**
 * What a uniform buffer holds as far as the picker wrote it: a copy of the words last uploaded from its CPU data, so
 * a pick whose uniforms equal them skips the upload. `words` 0 means nothing is known (a fresh buffer, or one a GPU
 * copy wrote behind the CPU data's back).
 * @internal
 */
export interface UploadedUniforms {
  copy: Uint32Array<ArrayBuffer>;
  words: number;
}

/** @internal The picker's GPU objects on one device; grown on demand, reused by every later pick. */
export interface PickGpu {
  readonly device: GPUDevice;
  /** The precomposed table generation its pipelines were looked up in (`precomposedSourceOf`). */
  readonly tableGeneration: number;
  /** The fragment lists of the pick shaders, reused with `composeCache`. */
  readonly fragmentLists: FragmentLists;
  readonly composeCache: ComposeCache;
  /** The pick pipelines' leases, by the same key as `pipelines`. */
  readonly leases: PipelineLeaseSet;
  readonly pipelines: Map<string, PickPipeline>;
  /** Pipelines the synchronous acquire made that the device has not confirmed yet (empty once warm). */
  readonly unverified: Set<PickPipeline>;
  /** Per mesh: its pipeline by mode, so a warm pick skips the layout key (a mesh's layout never changes). */
  readonly meshPipelines: WeakMap<PickSubject, { thin: boolean; byMode: Map<string, PickPipeline | null> }>;
  readonly staging: StagingPool;
  /** A single point pass's 1×1 targets. */
  targets: PickTargets | null;
  /**
   * The targets of point passes past 1×1 (several points, overlay neighbourhoods), kept apart from `targets`: a single
   * pick after a multi-point one then clears one texel and sets no viewport or scissor.
   */
  rowTargets: PickTargets | null;
  /** The marquee tiles' and snap blocks' target sets, most recently used first (`ensureRectTargets`). */
  rectTargets: PickTargets[];
  pointBuffer: GPUBuffer | null;
  pointCapacity: number;
  /** Point bind groups per group-0 layout (with and without the rule's frame uniform). */
  pointGroups: Map<GPUBindGroupLayout, GPUBindGroup[]>;
  drawBuffer: GPUBuffer | null;
  /**
   * Per group-1 layout, a bind group per draw slot (made on first use, kept until the draw buffer is replaced): bound
   * groups instead of dynamic offsets, which cost software Vulkan drivers ~35 µs per draw.
   */
  drawGroups: Map<GPUBindGroupLayout, GPUBindGroup[]>;
  emptyGroups: Map<GPUBindGroupLayout, GPUBindGroup>;
  pointData: Float32Array<ArrayBuffer>;
  /** `pointData` as words, for comparing with `pointUploaded`. */
  pointWords: Uint32Array<ArrayBuffer>;
  pointUploaded: UploadedUniforms;
  drawData: ArrayBuffer;
  /** `drawData` as floats and as words (made with it, so a pick makes no view). */
  drawFloats: Float32Array<ArrayBuffer>;
  drawWords: Uint32Array<ArrayBuffer>;
  drawUploaded: UploadedUniforms;
  /** The device limits a pick pass must fit, read once (`device.limits` is a native getter). */
  readonly limits: { readonly maxBufferSize: number; readonly maxTextureDimension2D: number };
  /** `writePointUniforms`' zoomed camera of a point, when no contributor keeps it. */
  readonly scratchZoomed: Float32Array<ArrayBuffer>;
  /** A marquee's batch instances (world matrices, 64 B each), grown on demand. */
  batchBuffer: GPUBuffer | null;
  batchData: Float32Array<ArrayBuffer>;
  /** Rule storage per rule digest and mesh. */
  storage: Map<string, WeakMap<PickSubject, StorageEntry>>;
  /** The storage buffers of each rule digest, so a released rule text frees them (`releaseRuleStorage`). */
  storageBuffers: Map<string, Set<GPUBuffer>>;
  /** 256 zero bytes: vertex data of meshes without the attribute, storage of meshes without data. */
  zeros: GPUBuffer;
  allBuffers: Set<GPUBuffer>;
  /** The expanded-vertices detail path's de-indexed vertex buffers, by mesh. */
  expanded: ExpandedVertexCache;
  /** Pick contributors (billboards, splats, …) on this device, by source. */
  contributors: DeviceContributors;
}

/** @internal The picker's GPU state on `device`, rebuilt when the device changed (after a loss). */
export function ensurePickGpu(picker: { gpu: PickGpu | null }, device: GPUDevice, engine: Engine): PickGpu {
  // A replaced or removed precomposed table: the pipelines were looked up in the old one, so start afresh.
  const table = precomposedSourceOf(engine).generation ?? 0;
  if (picker.gpu?.device === device && picker.gpu.tableGeneration === table) return picker.gpu;
  if (picker.gpu) disposePickGpu(picker.gpu);
  const zeros = device.createBuffer({
    label: 'weft:pick:zeros',
    size: 256,
    usage: GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE,
  });
  picker.gpu = {
    device,
    tableGeneration: table,
    fragmentLists: new Map(),
    composeCache: makeComposeCache({ precomposed: precomposedSourceOf(engine) }),
    leases: createPipelineLeaseSet(device),
    pipelines: new Map(),
    unverified: new Set(),
    meshPipelines: new WeakMap(),
    staging: createStagingPool(device, 'weft:pick'),
    targets: null,
    rowTargets: null,
    rectTargets: [],
    pointBuffer: null,
    pointCapacity: 0,
    pointGroups: new Map(),
    drawBuffer: null,
    drawGroups: new Map(),
    emptyGroups: new Map(),
    pointData: new Float32Array(0),
    pointWords: new Uint32Array(0),
    pointUploaded: { copy: new Uint32Array(0), words: 0 },
    drawData: new ArrayBuffer(0),
    drawFloats: new Float32Array(0),
    drawWords: new Uint32Array(0),
    drawUploaded: { copy: new Uint32Array(0), words: 0 },
    limits: {
      maxBufferSize: device.limits.maxBufferSize,
      maxTextureDimension2D: device.limits.maxTextureDimension2D,
    },
    scratchZoomed: new Float32Array(16),
    batchBuffer: null,
    batchData: new Float32Array(0),
    storage: new Map(),
    storageBuffers: new Map(),
    zeros,
    allBuffers: new Set([zeros]),
    expanded: new Map(),
    contributors: new Map(),
  };
  return picker.gpu;
}

/**
 * Texels a rectangle tile holds at most (`splitPickRect`), so a huge marquee never makes huge targets; targets grown
 * in both directions past it are made at the request's size instead.
 * @internal
 */
export const pickTileTexelBudget = 1 << 22;

/**
 * ID, depth-value, detail and depth targets for point passes: a single point's 1×1 set, and one for K×1 or
 * K × block + 1 (overlays) grown when a request needs more. Marquee tiles have their own (`ensureRectTargets`), so a pick after a marquee clears a texel
 * per point, not the rectangle.
 * @internal
 */
export function ensureTargets(gpu: PickGpu, width: number, height: number, detailed: boolean): PickTargets {
  if (width === 1 && height === 1) {
    const single = gpu.targets;
    if (single && (single.detailed || !detailed)) return single;
    destroyTargets(single);
    gpu.targets = makeTargets(gpu, 1, 1, detailed || (single?.detailed ?? false));
    return gpu.targets;
  }
  const current = gpu.rowTargets;
  if (current && current.width >= width && current.height >= height && (current.detailed || !detailed)) return current;
  let w = Math.max(width, current?.width ?? 1);
  let h = Math.max(height, current?.height ?? 1);
  if (w * h > pickTileTexelBudget && w * h > width * height) [w, h] = [width, height];
  const wantDetail = detailed || (current?.detailed ?? false);
  destroyTargets(current);
  gpu.rowTargets = makeTargets(gpu, w, h, wantDetail);
  return gpu.rowTargets;
}

/** Marquee target sets a picker keeps (most recently used first). */
const rectTargetSets = 2;

/**
 * Targets for a marquee tile or a snap block (`detailed`): the smallest kept set of the same detail that holds it
 * with at most 4× its texels (a pass clears its whole attachment), else a new set of exactly its size; at most
 * `rectTargetSets` are kept, so a big and a small marquee, or a marquee and a snap, in turn create nothing once warm.
 * A detailed block never grows the point passes' targets (`ensureTargets`), which every later pick clears.
 * @internal
 */
export function ensureRectTargets(gpu: PickGpu, width: number, height: number, detailed = false): PickTargets {
  const sets = gpu.rectTargets;
  let best = -1;
  sets.forEach((t, i) => {
    const fits =
      t.detailed === detailed && t.width >= width && t.height >= height && t.width * t.height <= 4 * width * height;
    if (fits && (best < 0 || t.width * t.height < sets[best].width * sets[best].height)) best = i;
  });
  const targets = best >= 0 ? sets.splice(best, 1)[0] : makeTargets(gpu, width, height, detailed);
  sets.unshift(targets);
  while (sets.length > rectTargetSets) destroyTargets(sets.pop()!);
  return targets;
}

function makeTargets(gpu: PickGpu, w: number, h: number, detailed: boolean): PickTargets {
  const make = (format: GPUTextureFormat, label: string, extra = 0) =>
    gpu.device.createTexture({
      label: `weft:pick:${label}`,
      size: [w, h],
      format,
      usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC | extra,
    });
  const textures = [
    // The marquee's compute pass reads the IDs in place (id-bitset-reduce.ts).
    make('rgba8unorm', 'id', GPUTextureUsage.TEXTURE_BINDING),
    make('r32float', 'depth-value'),
    ...(detailed ? [make('rgba32uint', 'detail')] : []),
  ];
  const depth = make('depth24plus', 'depth');
  return {
    width: w,
    height: h,
    detailed,
    textures,
    views: textures.map((t) => t.createView()),
    depth,
    depthView: depth.createView(),
    passDescriptors: [null, null],
  };
}

function destroyTargets(targets: PickTargets | null): void {
  for (const texture of targets ? [...targets.textures, targets.depth] : []) texture.destroy();
}

function makeBuffer(gpu: PickGpu, label: string, size: number, usage: GPUBufferUsageFlags): GPUBuffer {
  const buffer = gpu.device.createBuffer({ label, size, usage: usage | GPUBufferUsage.COPY_DST });
  gpu.allBuffers.add(buffer);
  return buffer;
}

function dropBuffer(gpu: PickGpu, buffer: GPUBuffer | null): void {
  if (!buffer) return;
  gpu.allBuffers.delete(buffer);
  buffer.destroy();
}

/**
 * Grows the per-point and per-draw uniform buffers (bind groups are remade only then). Growth doubles but never past
 * `maxBufferSize`; the pass splitter (`splitPickPoints`) keeps `points` and `draws` within it.
 * @internal
 */
export function ensureUniforms(gpu: PickGpu, points: number, draws: number): void {
  const maxBufferSize = gpu.limits.maxBufferSize;
  if (!gpu.pointBuffer || gpu.pointCapacity < points) {
    dropBuffer(gpu, gpu.pointBuffer);
    gpu.pointCapacity = Math.max(
      points,
      Math.min(2 * gpu.pointCapacity, Math.floor(maxBufferSize / pointSlotBytes)),
      1,
    );
    gpu.pointBuffer = makeBuffer(
      gpu,
      'weft:pick:point-uniforms',
      gpu.pointCapacity * pointSlotBytes,
      GPUBufferUsage.UNIFORM,
    );
    gpu.pointData = new Float32Array((gpu.pointCapacity * pointSlotBytes) / 4);
    gpu.pointWords = new Uint32Array(gpu.pointData.buffer);
    gpu.pointUploaded = { copy: new Uint32Array(gpu.pointData.length), words: 0 };
    gpu.pointGroups.clear();
  }
  // drawData is as large as drawBuffer (read here instead of the buffer's native size getter).
  if (!gpu.drawBuffer || gpu.drawData.byteLength < draws * drawSlotBytes) {
    const capacity = Math.max(
      draws,
      Math.min(2 * (gpu.drawData.byteLength / drawSlotBytes), Math.floor(maxBufferSize / drawSlotBytes)),
      16,
    );
    dropBuffer(gpu, gpu.drawBuffer);
    gpu.drawBuffer = makeBuffer(gpu, 'weft:pick:draw-uniforms', capacity * drawSlotBytes, GPUBufferUsage.UNIFORM);
    gpu.drawData = new ArrayBuffer(capacity * drawSlotBytes);
    gpu.drawFloats = new Float32Array(gpu.drawData);
    gpu.drawWords = new Uint32Array(gpu.drawData);
    gpu.drawUploaded = { copy: new Uint32Array(gpu.drawWords.length), words: 0 };
    gpu.drawGroups.clear();
  }
}

/**
 * Uploads the first `words` words of `data` to `buffer` unless the buffer already holds exactly them (`uploaded`);
 * returns whether it wrote. Compared as words, so -0 and NaN payloads count as the bytes they are.
 * @internal
 */
export function uploadUniformsIfChanged(
  queue: GPUQueue,
  buffer: GPUBuffer,
  data: Uint32Array<ArrayBuffer>,
  words: number,
  uploaded: UploadedUniforms,
): boolean {
  const copy = uploaded.copy;
  let i = 0;
  if (words <= uploaded.words) {
    while (i < words && data[i] === copy[i]) i++;
    if (i === words) return false;
  }
  queue.writeBuffer(buffer, 0, data, 0, words);
  // Words before i were compared equal.
  for (; i < words; i++) copy[i] = data[i];
  // Past `words` the buffer holds what earlier uploads left, which the copy still holds too.
  uploaded.words = Math.max(uploaded.words, words);
  return true;
}

/**
 * Grows the batch instance buffer to `instances` matrices (doubling, never past `maxBufferSize`: the batcher keeps
 * the count within it).
 * @internal
 */
export function ensureBatchInstances(gpu: PickGpu, instances: number): GPUBuffer {
  const bytes = instances * 64;
  if (gpu.batchBuffer && gpu.batchBuffer.size >= bytes) return gpu.batchBuffer;
  const size = Math.max(bytes, Math.min(2 * (gpu.batchBuffer?.size ?? 0), gpu.device.limits.maxBufferSize), 4096);
  dropBuffer(gpu, gpu.batchBuffer);
  gpu.batchBuffer = makeBuffer(gpu, 'weft:pick:batch-instances', size, GPUBufferUsage.VERTEX);
  gpu.batchData = new Float32Array(size / 4);
  return gpu.batchBuffer;
}

type Bindings = PickPipeline['composed']['bindGroups'][number]['bindings'];

/** @internal Point bind groups for a group-0 layout: `scene` (and `pickFrame` with a rule) at each point's slot. */
export function pointGroupsFor(gpu: PickGpu, layout: GPUBindGroupLayout, bindings: Bindings): GPUBindGroup[] {
  let groups = gpu.pointGroups.get(layout);
  if (groups) return groups;
  groups = Array.from({ length: gpu.pointCapacity }, (_, i) =>
    gpu.device.createBindGroup({
      label: `weft:pick:point-group${i}`,
      layout,
      entries: bindings.map((b) => ({
        binding: b.binding,
        resource: {
          buffer: gpu.pointBuffer!,
          offset: i * pointSlotBytes + (b.name === 'pickFrame' ? pickFrameOffset : 0),
          size: b.name === 'pickFrame' ? pickFrameUniformsByteSize : sceneUniformsByteSize,
        },
      })),
    }),
  );
  gpu.pointGroups.set(layout, groups);
  return groups;
}

/** @internal The draw bind group (DrawUniforms + PickUniforms, both at a dynamic offset) for a group-1 layout. */
export function drawGroupFor(gpu: PickGpu, layout: GPUBindGroupLayout, bindings: Bindings, slot: number): GPUBindGroup {
  let groups = gpu.drawGroups.get(layout);
  if (!groups) gpu.drawGroups.set(layout, (groups = []));
  let group = groups[slot];
  if (group) return group;
  group = gpu.device.createBindGroup({
    label: `weft:pick:draw-group:${slot}`,
    layout,
    entries: bindings.map((b) => ({
      binding: b.binding,
      resource: {
        buffer: gpu.drawBuffer!,
        offset: slot * drawSlotBytes + (b.name === 'pick' ? pickUniformOffset : 0),
        size: b.name === 'pick' ? pickUniformsByteSize : drawUniformsByteSize,
      },
    })),
  });
  groups[slot] = group;
  return group;
}

/** @internal A bind group for an empty layout (a group index below the last used one). */
export function emptyGroupFor(gpu: PickGpu, layout: GPUBindGroupLayout): GPUBindGroup {
  let group = gpu.emptyGroups.get(layout);
  if (!group)
    gpu.emptyGroups.set(
      layout,
      (group = gpu.device.createBindGroup({ label: 'weft:pick:empty-group', layout, entries: [] })),
    );
  return group;
}

/** @internal Uploads one mesh's rule storage (writeBuffer into kept buffers) and returns its bind group. */
export function storageGroupFor(
  gpu: PickGpu,
  digest: string,
  mesh: PickSubject,
  layout: GPUBindGroupLayout,
  bindings: Bindings,
  data: (ArrayBufferView | null)[],
): GPUBindGroup {
  let byMesh = gpu.storage.get(digest);
  if (!byMesh) gpu.storage.set(digest, (byMesh = new WeakMap()));
  let owned = gpu.storageBuffers.get(digest);
  if (!owned) gpu.storageBuffers.set(digest, (owned = new Set()));
  let entry = byMesh.get(mesh);
  if (!entry) byMesh.set(mesh, (entry = { buffers: data.map(() => null), group: null, layout: null }));
  let changed = entry.layout !== layout;
  data.forEach((view, i) => {
    const needed = view ? Math.max(16, view.byteLength) : 0;
    const current = entry!.buffers[i];
    if (view && (!current || current.size < needed)) {
      if (current) owned.delete(current);
      dropBuffer(gpu, current);
      entry!.buffers[i] = makeBuffer(
        gpu,
        `weft:pick:storage:${mesh.name}:${bindings[i].name}`,
        Math.ceil(needed / 16) * 16,
        GPUBufferUsage.STORAGE,
      );
      owned.add(entry!.buffers[i]!);
      changed = true;
    } else if (!view && current) {
      owned.delete(current);
      dropBuffer(gpu, current);
      entry!.buffers[i] = null;
      changed = true;
    }
    if (view) gpu.device.queue.writeBuffer(entry!.buffers[i]!, 0, view.buffer, view.byteOffset, view.byteLength);
  });
  if (changed || !entry.group) {
    entry.group = gpu.device.createBindGroup({
      label: `weft:pick:storage-group:${mesh.name}`,
      layout,
      entries: bindings.map((b, i) => ({ binding: b.binding, resource: { buffer: entry!.buffers[i] ?? gpu.zeros } })),
    });
    entry.layout = layout;
  }
  return entry.group;
}

/** @internal Destroys the picker's targets, buffers and staging pool and gives back its pipeline leases. */
export function disposePickGpu(gpu: PickGpu): void {
  disposePipelineLeaseSet(gpu.leases);
  gpu.pipelines.clear();
  for (const targets of [gpu.targets, gpu.rowTargets, ...gpu.rectTargets]) destroyTargets(targets);
  gpu.targets = null;
  gpu.rowTargets = null;
  gpu.rectTargets = [];
  for (const buffer of gpu.allBuffers) buffer.destroy();
  gpu.allBuffers.clear();
  disposeStagingPool(gpu.staging);
  disposeExpandedVertices(gpu.expanded);
  pruneContributors(gpu.contributors, null);
}

/** @internal Destroys the storage buffers and bind groups of a rule text no pick uses any more. */
export function releaseRuleStorage(gpu: PickGpu, digest: string): void {
  for (const buffer of gpu.storageBuffers.get(digest) ?? []) dropBuffer(gpu, buffer);
  gpu.storageBuffers.delete(digest);
  gpu.storage.delete(digest);
}
