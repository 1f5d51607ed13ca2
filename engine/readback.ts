import { describeValue } from '../composer/errors.js';
import { type Engine, getEngineColorTexture } from './engine.js';
import { EngineError } from './engine-errors.js';
import { getTexelByteSize } from './texture-formats.js';

/** A region of a texture, in texels (origin top-left). */
export interface TextureRegion {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  mipLevel?: number;
}

/** Reads texels from a COPY_SRC texture into tightly packed bytes (row padding removed). */
export async function readTexturePixels(
  device: GPUDevice,
  texture: GPUTexture,
  region: TextureRegion = {},
): Promise<Uint8Array> {
  const api = 'readTexturePixels';
  const bytesPerTexel = getTexelByteSize(texture.format);
  if (!bytesPerTexel)
    throw new EngineError(
      api,
      'unreadable-format',
      `format ${describeValue(texture.format)} cannot be read back by weft`,
    );
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
      'bad-region',
      `region x=${x} y=${y} ${width}×${height} is outside the ${fullWidth}×${fullHeight} texture`,
    );
  }
  const rowBytes = width * bytesPerTexel;
  const paddedRowBytes = Math.ceil(rowBytes / 256) * 256;
  const staging = device.createBuffer({
    label: 'weft:readback',
    size: paddedRowBytes * height,
    usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
  });
  try {
    const encoder = device.createCommandEncoder({ label: 'weft:readback' });
    encoder.copyTextureToBuffer(
      { texture, mipLevel, origin: { x, y } },
      { buffer: staging, bytesPerRow: paddedRowBytes, rowsPerImage: height },
      { width, height },
    );
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const mapped = new Uint8Array(staging.getMappedRange());
    const out = new Uint8Array(rowBytes * height);
    for (let row = 0; row < height; row++)
      out.set(mapped.subarray(row * paddedRowBytes, row * paddedRowBytes + rowBytes), row * rowBytes);
    staging.unmap();
    return out;
  } finally {
    staging.destroy();
  }
}

/** Reads the engine's current frame (offscreen texture, or the canvas texture before it is presented). */
export function readEngineFrame(engine: Engine, region?: TextureRegion): Promise<Uint8Array> {
  return readTexturePixels(engine.device, getEngineColorTexture(engine), region);
}
