import { acquireStagingBuffer } from '../../engine/staging-pool.js';
import { readStagingBufferAsync } from '../../engine/readback.js';
import { PickError } from '../pick-errors.js';
import type { PickGpu } from './pick-resources.js';

/** Side of the reduce pass's square workgroup (8 × 8 = 64 invocations, within every device's minimum limits). */
const rectReduceWorkgroupSide = 8;

const reduceWgsl = /* wgsl */ `
@group(0) @binding(0) var ids: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> bits: array<atomic<u32>>;
@group(0) @binding(2) var<uniform> size: vec4u;

fn decodeId(c: vec4f) -> u32 {
  let v = vec3u(round(c.rgb * 255.0));
  return (v.r << 16u) | (v.g << 8u) | v.b;
}

@compute @workgroup_size(${rectReduceWorkgroupSide}, ${rectReduceWorkgroupSide})
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (g.x >= size.x || g.y >= size.y) { return; }
  let id = decodeId(textureLoad(ids, vec2i(g.xy), 0));
  if (id == 0u) { return; }
  // A run of equal IDs along a row sets its bit once: the texel left of it already did.
  if (g.x > 0u && decodeId(textureLoad(ids, vec2i(i32(g.x) - 1, i32(g.y)), 0)) == id) { return; }
  let word = id >> 5u;
  if (word >= size.z) { return; }
  atomicOr(&bits[word], 1u << (id & 31u));
}
`;

/** The reduce pipeline and its buffers on one picker's device (made on the first marquee). */
interface RectReduceGpu {
  pipeline: GPUComputePipeline;
  layout: GPUBindGroupLayout;
  size: GPUBuffer;
  bits: GPUBuffer | null;
  bitsBytes: number;
  groups: WeakMap<GPUTextureView, { bits: GPUBuffer; group: GPUBindGroup }>;
}

let reduceGpus: WeakMap<PickGpu, RectReduceGpu> | undefined;

function getReduceGpu(gpu: PickGpu): RectReduceGpu {
  reduceGpus ??= new WeakMap();
  let entry = reduceGpus.get(gpu);
  if (entry) return entry;
  const device = gpu.device;
  const layout = device.createBindGroupLayout({
    label: 'weft:pick-rect:reduce-layout',
    entries: [
      { binding: 0, visibility: GPUShaderStage.COMPUTE, texture: { sampleType: 'float' } },
      { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
      { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } },
    ],
  });
  const module = device.createShaderModule({ label: 'weft:pick-rect:reduce', code: reduceWgsl });
  const pipeline = device.createComputePipeline({
    label: 'weft:pick-rect:reduce',
    layout: device.createPipelineLayout({ label: 'weft:pick-rect:reduce-pipeline-layout', bindGroupLayouts: [layout] }),
    compute: { module, entryPoint: 'main' },
  });
  const size = device.createBuffer({
    label: 'weft:pick-rect:reduce-size',
    size: 16,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  gpu.allBuffers.add(size);
  entry = { pipeline, layout, size, bits: null, bitsBytes: 0, groups: new WeakMap() };
  reduceGpus.set(gpu, entry);
  return entry;
}

/** Bytes of the bitset of IDs 0 .. lastId (one bit each, whole 4-byte words). */
function rectBitsetBytes(lastId: number): number {
  return Math.ceil((lastId + 1) / 32) * 4;
}

/**
 * Checks, before the GPU sees anything, that a marquee's reduce fits the device: the workgroup (8 × 8 invocations),
 * the dispatch of a `width` × `height` tile, and the bitset of IDs 1 .. lastId as one storage binding.
 * @throws {PickError} `limit-exceeded` naming the limit, its value and what the marquee needs
 * @internal
 */
export function checkRectReduceLimits(
  api: string,
  limits: GPUSupportedLimits,
  width: number,
  height: number,
  lastId: number,
): void {
  const side = rectReduceWorkgroupSide;
  const fail = (what: string, need: number, limit: string, value: number) =>
    new PickError(api, 'limit-exceeded', `${what} needs ${need} but the device's ${limit} is ${value}`);
  if (limits.maxComputeWorkgroupSizeX < side)
    throw fail('the reduce workgroup', side, 'maxComputeWorkgroupSizeX', limits.maxComputeWorkgroupSizeX);
  if (limits.maxComputeWorkgroupSizeY < side)
    throw fail('the reduce workgroup', side, 'maxComputeWorkgroupSizeY', limits.maxComputeWorkgroupSizeY);
  if (limits.maxComputeInvocationsPerWorkgroup < side * side)
    throw fail(
      'the reduce workgroup',
      side * side,
      'maxComputeInvocationsPerWorkgroup',
      limits.maxComputeInvocationsPerWorkgroup,
    );
  const groups = Math.max(Math.ceil(width / side), Math.ceil(height / side));
  if (groups > limits.maxComputeWorkgroupsPerDimension)
    throw fail(
      `a ${width}×${height} tile`,
      groups,
      'maxComputeWorkgroupsPerDimension',
      limits.maxComputeWorkgroupsPerDimension,
    );
  const bytes = rectBitsetBytes(lastId);
  if (bytes > limits.maxStorageBufferBindingSize)
    throw fail(`the bitset of ${lastId} IDs`, bytes, 'maxStorageBufferBindingSize', limits.maxStorageBufferBindingSize);
  if (bytes > limits.maxBufferSize)
    throw fail(`the bitset of ${lastId} IDs`, bytes, 'maxBufferSize', limits.maxBufferSize);
}

/**
 * Reduces the ID target of each pass of one marquee into a bitset of the IDs seen, and reads back only the bitset.
 * @internal
 */
export interface RectIdReducer {
  /** Encodes pass `index` of `count`'s reduction after its draw (the last one also copies the bitset out). */
  encode(
    gpu: PickGpu,
    encoder: GPUCommandEncoder,
    ids: GPUTextureView,
    width: number,
    height: number,
    index: number,
    count: number,
  ): void;
  /** Maps the bitset after the last submit; its words are then in `bits`. */
  readAsync(gpu: PickGpu): Promise<void>;
  /** After `readAsync`: bit `id` is set when some texel of the rectangle shows ID `id`. */
  bits: Uint32Array | null;
}

/** @internal A reducer for IDs 1 .. lastId (one per marquee call; a redraw after a device loss reuses it). */
export function makeRectIdReducer(lastId: number): RectIdReducer {
  const bytes = rectBitsetBytes(lastId);
  let staging: GPUBuffer | null = null;
  const reducer: RectIdReducer = {
    bits: null,
    encode(gpu, encoder, ids, width, height, index, count) {
      const reduce = getReduceGpu(gpu);
      if (!reduce.bits || reduce.bitsBytes < bytes) {
        if (reduce.bits) {
          gpu.allBuffers.delete(reduce.bits);
          reduce.bits.destroy();
        }
        reduce.bitsBytes = Math.max(bytes, 256);
        reduce.bits = gpu.device.createBuffer({
          label: 'weft:pick-rect:bits',
          size: reduce.bitsBytes,
          usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
        });
        gpu.allBuffers.add(reduce.bits);
      }
      let cached = reduce.groups.get(ids);
      if (!cached || cached.bits !== reduce.bits) {
        const group = gpu.device.createBindGroup({
          label: 'weft:pick-rect:reduce-group',
          layout: reduce.layout,
          entries: [
            { binding: 0, resource: ids },
            { binding: 1, resource: { buffer: reduce.bits } },
            { binding: 2, resource: { buffer: reduce.size } },
          ],
        });
        cached = { bits: reduce.bits, group };
        reduce.groups.set(ids, cached);
      }
      // Queue order: this write lands before this pass's submit and after the previous pass's.
      gpu.device.queue.writeBuffer(reduce.size, 0, new Uint32Array([width, height, bytes / 4, 0]));
      if (index === 0) encoder.clearBuffer(reduce.bits, 0, bytes);
      const pass = encoder.beginComputePass({ label: 'weft:pick-rect:reduce' });
      pass.setPipeline(reduce.pipeline);
      pass.setBindGroup(0, cached.group);
      pass.dispatchWorkgroups(Math.ceil(width / rectReduceWorkgroupSide), Math.ceil(height / rectReduceWorkgroupSide));
      pass.end();
      if (index === count - 1) {
        staging = acquireStagingBuffer(gpu.staging, bytes);
        encoder.copyBufferToBuffer(reduce.bits, 0, staging, 0, bytes);
      }
    },
    async readAsync(gpu) {
      const buffer = staging!;
      staging = null;
      const copy = await readStagingBufferAsync(gpu.staging, buffer, bytes, (mapped) => mapped.slice());
      reducer.bits = new Uint32Array(copy.buffer, 0, bytes / 4);
    },
  };
  return reducer;
}

/** @internal The IDs whose bit is set, ascending. */
export function setBitIds(bits: Uint32Array): number[] {
  const out: number[] = [];
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w];
    while (word !== 0) {
      const low = word & -word;
      out.push(w * 32 + 31 - Math.clz32(low));
      word ^= low;
    }
  }
  return out;
}
