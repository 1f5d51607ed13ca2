import { makeStagedRegion, readStagingBufferAsync, type StagedRegion } from '../../engine/readback.js';
import { acquireStagingBuffer } from '../../engine/staging-pool.js';
import type { PickTexel } from '../pick-id.js';
import { decodePickId } from '../pick-id.js';
import type { PickGpu, PickTargets } from './pick-resources.js';

/** @internal What a finished pass read back. */
export interface PickReadback {
  texel(index: number): PickTexel;
  /** The decoded pick ID of texel `index` (row-major in the pass's width × height). */
  id(index: number): number;
  ids(): Iterable<number>;
  /** Of a `row` pass with overlay neighbourhoods: point `point`'s texel at offset (dx, dy) from its pixel. */
  blockTexel(point: number, dx: number, dy: number): PickTexel;
  /** The decoded pick ID of that texel. */
  blockId(point: number, dx: number, dy: number): number;
  /** Word 0 of texel `index`'s detail (the primitive index), read without a copy; undefined without detail. */
  detailWord?(index: number): number;
}

/** @internal The pick targets' copies in one staging buffer, encoded and waiting for the submit. */
export interface PickTargetCopies {
  buffer: GPUBuffer;
  /** Per attachment (ID, depth value, detail): where its texels land. */
  staged: StagedRegion[];
  byteLength: number;
  width: number;
  detailed: boolean;
}

/** @internal Bytes per texel of the ID (rgba8unorm), depth-value (r32float) and detail (rgba32uint) attachments. */
export const attachmentTexelBytes: readonly number[] = [4, 4, 16];

/** The copies of one width × height corner of a target set: where each attachment lands, and the copy arguments. */
interface TargetCopyPlan {
  width: number;
  height: number;
  detailed: boolean;
  staged: StagedRegion[];
  byteLength: number;
  /** Per attachment: source, destination (its buffer set at each use) and size of `copyTextureToBuffer`. */
  copies: [GPUTexelCopyTextureInfo, GPUTexelCopyBufferInfo & { buffer: GPUBuffer }, GPUExtent3DDict][];
}

let copyPlans: WeakMap<PickTargets, TargetCopyPlan> | null = null;

/** The copy plan of a target set's corner, kept per target set while the corner stays the same (made on first use). */
function targetCopyPlan(targets: PickTargets, width: number, height: number, detailed: boolean): TargetCopyPlan {
  copyPlans ??= new WeakMap();
  const known = copyPlans.get(targets);
  if (known && known.width === width && known.height === height && known.detailed === detailed) return known;
  const textures = targets.textures.slice(0, detailed ? 3 : 2);
  let byteLength = 0;
  const staged = textures.map((_, a) => {
    const region = makeStagedRegion(width, height, attachmentTexelBytes[a], byteLength);
    byteLength += region.byteLength;
    return region;
  });
  const plan: TargetCopyPlan = {
    width,
    height,
    detailed,
    staged,
    byteLength,
    copies: textures.map((texture, a) => [
      { texture, mipLevel: 0, origin: { x: 0, y: 0 } },
      // The buffer is set at each use (staging buffers come from a pool).
      {
        buffer: null as unknown as GPUBuffer,
        offset: staged[a].offset,
        bytesPerRow: staged[a].bytesPerRow,
        rowsPerImage: staged[a].height,
      },
      { width, height },
    ]),
  };
  copyPlans.set(targets, plan);
  return plan;
}

/** @internal Encodes the copies of the used width × height corner of the ID, depth-value (and detail) targets. */
export function encodePickTargetCopies(
  gpu: PickGpu,
  targets: PickTargets,
  encoder: GPUCommandEncoder,
  width: number,
  height: number,
  detailed: boolean,
): PickTargetCopies {
  const plan = targetCopyPlan(targets, width, height, detailed);
  const buffer = acquireStagingBuffer(gpu.staging, plan.byteLength);
  for (let a = 0; a < plan.copies.length; a++) {
    const [source, destination, size] = plan.copies[a];
    destination.buffer = buffer;
    encoder.copyTextureToBuffer(source, destination, size);
  }
  return { buffer, staged: plan.staged, byteLength: plan.byteLength, width, detailed };
}

/** A copy of mapped bytes (the mapping goes when the buffer is unmapped). */
function copyMapped(mapped: Uint8Array): Uint8Array {
  return mapped.slice();
}

/**
 * Maps the submitted copies and decodes texels from a copy of the bytes (the buffer goes back to the pool).
 * @internal
 */
export async function readPickTargetsAsync(
  gpu: PickGpu,
  copies: PickTargetCopies,
  overlayBlock = 0,
): Promise<PickReadback> {
  const { staged, width, detailed } = copies;
  const bytes = await readStagingBufferAsync(gpu.staging, copies.buffer, copies.byteLength, copyMapped);
  const at = (attachment: number, index: number) =>
    staged[attachment].offset +
    (index % width) * attachmentTexelBytes[attachment] +
    Math.floor(index / width) * staged[attachment].bytesPerRow;
  const view = new DataView(bytes.buffer);
  const texelCount = width * staged[0].height;
  const id = (index: number) => {
    const idAt = at(0, index);
    return decodePickId(bytes[idAt], bytes[idAt + 1], bytes[idAt + 2]);
  };
  const texel = (index: number): PickTexel => {
    const idAt = at(0, index);
    return {
      id: [bytes[idAt], bytes[idAt + 1], bytes[idAt + 2]],
      depth: view.getFloat32(at(1, index), true),
      detail: detailed ? new Uint32Array(bytes.buffer.slice(at(2, index), at(2, index) + 16)) : null,
    };
  };
  const half = (overlayBlock - 1) / 2;
  const blockIndex = (point: number, dx: number, dy: number) =>
    (1 + half + dy) * width + point * overlayBlock + half + dx;
  return {
    texel,
    detailWord: detailed ? (index) => view.getUint32(at(2, index), true) : undefined,
    blockTexel: (point, dx, dy) => texel(blockIndex(point, dx, dy)),
    blockId: (point, dx, dy) => id(blockIndex(point, dx, dy)),
    id,
    *ids() {
      for (let i = 0; i < texelCount; i++) yield id(i);
    },
  };
}
