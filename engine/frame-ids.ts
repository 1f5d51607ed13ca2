import { describeValue } from '../composer/errors.js';
import type { Mesh } from './mesh.js';
import { EngineError } from './engine-errors.js';

/** Ids `first … first + count - 1` belong to `mesh` (its thin instances in order; count 1 without instances). */
export interface FrameIdRange {
  readonly first: number;
  readonly count: number;
  readonly mesh: Mesh;
  readonly thinInstanced: boolean;
}

/** What one pixel of the ID output held in the frame it was read from. */
export type FrameIdHit =
  | { hit: false; id: 0 }
  | { hit: true; id: number; mesh: Mesh; thinInstanceIndex: number; primitiveIndex: number };

/** The ID ranges of a recorded draw list, sorted by first id; immutable, so a frame can keep a reference to it. */
export function makeFrameIdRanges(draws: readonly { mesh: Mesh }[]): readonly FrameIdRange[] {
  let next = 1;
  return Object.freeze(
    draws.map(({ mesh }) => {
      const count = mesh.thinInstances ? mesh.thinInstanceCount : 1;
      const range = Object.freeze({ first: next, count, mesh, thinInstanced: mesh.thinInstances !== null });
      next += count;
      return range;
    }),
  );
}

/** Resolves an id against a frame's ranges (binary search); unknown ids are a miss. */
export function resolveFrameId(ranges: readonly FrameIdRange[], id: number, primitive: number): FrameIdHit {
  let low = 0;
  let high = ranges.length - 1;
  while (id > 0 && low <= high) {
    const mid = (low + high) >> 1;
    const range = ranges[mid];
    if (id < range.first) high = mid - 1;
    else if (id >= range.first + range.count) low = mid + 1;
    else
      return {
        hit: true,
        id,
        mesh: range.mesh,
        thinInstanceIndex: range.thinInstanced ? id - range.first : -1,
        primitiveIndex: primitive === 0xffffffff ? -1 : primitive,
      };
  }
  return { hit: false, id: 0 };
}

/** Staging buffers reused by frame-ID reads on one device. */
export interface FrameIdReader {
  device: GPUDevice | null;
  free: GPUBuffer[];
  label: string;
}

/** Makes an empty reader (buffers appear on the first read). */
export function makeFrameIdReader(label: string): FrameIdReader {
  return { device: null, free: [], label };
}

/** Destroys the reader's staging buffers. */
export function disposeFrameIdReader(reader: FrameIdReader): void {
  for (const buffer of reader.free) buffer.destroy();
  reader.free = [];
  reader.device = null;
}

/**
 * Copies texel (x, y) of the ID texture as it is after every submitted frame and resolves it with that frame's
 * ranges (captured by the caller synchronously, with the copy). No render pass; one staging buffer from the pool.
 */
export async function readFrameIdTexel(
  reader: FrameIdReader,
  device: GPUDevice,
  texture: GPUTexture,
  ranges: readonly FrameIdRange[],
  x: number,
  y: number,
): Promise<FrameIdHit> {
  const api = 'readFrameIdAsync';
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= texture.width || y >= texture.height) {
    throw new EngineError(
      api,
      'bad-pixel',
      `pixel (${describeValue(x)}, ${describeValue(y)}) is outside the ${texture.width}×${texture.height} frame; pass integer framebuffer pixels, origin top-left`,
    );
  }
  if (reader.device !== device) {
    disposeFrameIdReader(reader);
    reader.device = device;
  }
  const staging =
    reader.free.pop() ??
    device.createBuffer({
      label: `${reader.label}:frame-id-staging`,
      size: 256,
      usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
    });
  const encoder = device.createCommandEncoder({ label: `${reader.label}:frame-id-read` });
  encoder.copyTextureToBuffer(
    { texture, origin: { x, y } },
    { buffer: staging, bytesPerRow: 256 },
    { width: 1, height: 1 },
  );
  device.queue.submit([encoder.finish()]);
  try {
    await staging.mapAsync(GPUMapMode.READ);
  } catch (error) {
    staging.destroy();
    throw error;
  }
  const words = new Uint32Array(staging.getMappedRange(0, 8));
  const id = words[0];
  const primitive = texture.format === 'r32uint' ? 0xffffffff : words[1];
  staging.unmap();
  if (reader.device === device) reader.free.push(staging);
  else staging.destroy();
  return resolveFrameId(ranges, id, primitive);
}
