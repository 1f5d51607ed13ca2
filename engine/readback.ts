import { describeValue, WeftError } from '../core/errors.js';
import { type Engine, getEngineColorTexture, hostDeviceLostError, isDeviceLostAsync } from './engine.js';
import { EngineError } from './engine-errors.js';
import { mapForReadPromptlyAsync } from './map-prompt.js';
import {
  acquireStagingBuffer,
  createStagingPool,
  discardStagingBuffer,
  disposeStagingPool,
  releaseStagingBuffer,
  type StagingPool,
} from './staging-pool.js';
import { getTexelByteSize } from './texture-formats.js';

/** A region of a texture, in texels (origin top-left). */
export interface TextureRegion {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  mipLevel?: number;
}

/** A rectangle of texels of one mip level, to be copied into a staging buffer. */
interface TextureCopySource {
  texture: GPUTexture;
  x: number;
  y: number;
  width: number;
  height: number;
  mipLevel: number;
}

/**
 * Where a copied rectangle lands in a staging buffer: `height` rows of `rowBytes` texel bytes, `bytesPerRow` apart.
 * @internal
 */
export interface StagedRegion {
  offset: number;
  rowBytes: number;
  /** `rowBytes` rounded up to the 256 bytes WebGPU requires between the rows of a texture-to-buffer copy. */
  bytesPerRow: number;
  height: number;
  /** `bytesPerRow × height`. */
  byteLength: number;
}

/** @internal Where a width × height copy of `bytesPerTexel`-byte texels lands when it starts at byte `offset`. */
export function makeStagedRegion(width: number, height: number, bytesPerTexel: number, offset = 0): StagedRegion {
  const rowBytes = width * bytesPerTexel;
  const bytesPerRow = Math.ceil(rowBytes / 256) * 256;
  return { offset, rowBytes, bytesPerRow, height, byteLength: bytesPerRow * height };
}

/** @internal Encodes the copy of `source` into `buffer` at the place `staged` describes. */
export function encodeTextureRegionCopy(
  encoder: GPUCommandEncoder,
  source: TextureCopySource,
  buffer: GPUBuffer,
  staged: StagedRegion,
): void {
  encoder.copyTextureToBuffer(
    { texture: source.texture, mipLevel: source.mipLevel, origin: { x: source.x, y: source.y } },
    { buffer, offset: staged.offset, bytesPerRow: staged.bytesPerRow, rowsPerImage: staged.height },
    { width: source.width, height: source.height },
  );
}

/**
 * Maps the first `byteLength` bytes of a staging buffer whose copies were submitted, returns what `copyOut` makes of
 * them (the mapping is valid during the call only), then unmaps and releases the buffer to its pool. A buffer
 * whose map failed is destroyed.
 * @internal
 */
export async function readStagingBufferAsync<T>(
  pool: StagingPool,
  buffer: GPUBuffer,
  byteLength: number,
  copyOut: (mapped: Uint8Array) => T,
): Promise<T> {
  try {
    await mapForReadPromptlyAsync(pool.device, buffer, byteLength);
  } catch (error) {
    discardStagingBuffer(pool, buffer);
    throw error;
  }
  try {
    return copyOut(new Uint8Array(buffer.getMappedRange(0, byteLength)));
  } finally {
    buffer.unmap();
    releaseStagingBuffer(pool, buffer);
  }
}

/**
 * Copies one texture region into a buffer of `pool` and submits now (so it reads the texture as the queue has it at
 * the call), then maps it and returns what `copyOut` makes of the mapped bytes. No render pass.
 * @internal
 */
export async function readTextureRegionAsync<T>(
  pool: StagingPool,
  source: TextureCopySource,
  bytesPerTexel: number,
  copyOut: (mapped: Uint8Array, staged: StagedRegion) => T,
): Promise<T> {
  const staged = makeStagedRegion(source.width, source.height, bytesPerTexel);
  const buffer = acquireStagingBuffer(pool, staged.byteLength);
  try {
    const encoder = pool.device.createCommandEncoder({ label: `${pool.label}:readback` });
    encodeTextureRegionCopy(encoder, source, buffer, staged);
    pool.device.queue.submit([encoder.finish()]);
  } catch (error) {
    releaseStagingBuffer(pool, buffer);
    throw error;
  }
  return readStagingBufferAsync(pool, buffer, staged.byteLength, (mapped) => copyOut(mapped, staged));
}

/** @internal Reads texels from a COPY_SRC texture into tightly packed bytes (row padding removed). */
export async function readTexturePixelsAsync(
  device: GPUDevice,
  texture: GPUTexture,
  region: TextureRegion = {},
): Promise<Uint8Array> {
  const api = 'readTexturePixelsAsync';
  const bytesPerTexel = getTexelByteSize(texture.format);
  if (!bytesPerTexel)
    throw new EngineError(api, 'bad-format', `format ${describeValue(texture.format)} cannot be read back by weft`);
  const mipLevel = region.mipLevel ?? 0;
  const fullWidth = Math.max(1, texture.width >> mipLevel);
  const fullHeight = Math.max(1, texture.height >> mipLevel);
  const x = region.x ?? 0;
  const y = region.y ?? 0;
  const width = region.width ?? fullWidth - x;
  const height = region.height ?? fullHeight - y;
  if (
    ![x, y, width, height].every(Number.isInteger) ||
    x < 0 ||
    y < 0 ||
    width < 1 ||
    height < 1 ||
    x + width > fullWidth ||
    y + height > fullHeight
  ) {
    throw new EngineError(
      api,
      'out-of-range',
      `region x=${x} y=${y} ${width}×${height} is outside the ${fullWidth}×${fullHeight} texture`,
    );
  }
  // A pool of its own, disposed after the read: a one-off read keeps no buffer alive.
  const pool = createStagingPool(device, 'weft:readback');
  try {
    return await readTextureRegionAsync(
      pool,
      { texture, x, y, width, height, mipLevel },
      bytesPerTexel,
      (mapped, { rowBytes, bytesPerRow }) => {
        const out = new Uint8Array(rowBytes * height);
        for (let row = 0; row < height; row++)
          out.set(mapped.subarray(row * bytesPerRow, row * bytesPerRow + rowBytes), row * rowBytes);
        return out;
      },
    );
  } finally {
    disposeStagingPool(pool);
  }
}

let hostOwnedDevices: WeakSet<GPUDevice> | undefined;

/**
 * Marks a device as the host's (`createEngineFromDeviceAsync`, `setEngineDeviceAsync`): its loss messages name `setEngineDeviceAsync`.
 * @internal
 */
export function noteHostOwnedDevice(device: GPUDevice): void {
  hostOwnedDevices ??= new WeakSet();
  hostOwnedDevices.add(device);
}

/**
 * Settles as `read` does, except that a failure caused by the loss of `device` (a bare `AbortError` from the map)
 * becomes `lostError(message)`: the texture the read copied is gone with the device, so it is not retried on the new
 * one (that would return a frame never drawn). Typed weft errors pass through unchanged.
 * @internal
 */
export async function rejectOnDeviceLossAsync<T>(
  device: GPUDevice,
  read: Promise<T>,
  lostError: (message: string) => Error,
): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof WeftError || !(await isDeviceLostAsync(device))) throw error;
    throw lostError(
      hostOwnedDevices?.has(device)
        ? "the host's GPU device was lost while the read was in flight and the frame it read is gone with it; weft does not replace a device it did not create: create a new one and hand it over with setEngineDeviceAsync(engine, device), then render again and read that frame"
        : 'the GPU device was lost while the read was in flight and the frame it read is gone with it; await whenEngineReadyAsync(engine), render again and read that frame',
    );
  }
}

/**
 * Reads the engine's current frame (offscreen texture, or the canvas texture before it is presented).
 * @throws {EngineError} `device-lost` (as a rejection) when the device is lost before the read completes, or a host-owned device is lost
 */
export function readEngineFrameAsync(engine: Engine, region?: TextureRegion): Promise<Uint8Array> {
  if (engine.deviceLost) return Promise.reject(hostDeviceLostError(engine, 'readEngineFrameAsync'));
  const device = engine.device;
  return rejectOnDeviceLossAsync(
    device,
    readTexturePixelsAsync(device, getEngineColorTexture(engine), region),
    (message) => new EngineError('readEngineFrameAsync', 'device-lost', message),
  );
}
