import { describeValue } from '../core/errors.js';
import type { Mesh } from './mesh.js';
import { EngineError } from './engine-errors.js';
import { readTextureRegionAsync } from './readback.js';
import { createStagingPool, disposeStagingPool, type StagingPool } from './staging-pool.js';
import { getTexelByteSize } from './texture-formats.js';

/**
 * Ids `first … first + count - 1` belong to `mesh` (its thin instances in order; count 1 without instances).
 * @internal
 */
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

/**
 * The ID ranges of a recorded draw list, sorted by first id; immutable, so a frame can keep a reference to it.
 * @internal
 */
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
function resolveFrameId(ranges: readonly FrameIdRange[], id: number, primitive: number): FrameIdHit {
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

/** @internal Staging buffers reused by frame-ID reads: a pool on the device of the last read. */
export interface FrameIdReader {
  pool: StagingPool | null;
  label: string;
}

/** @internal Makes an empty reader (buffers appear on the first read). */
export function createFrameIdReader(label: string): FrameIdReader {
  return { pool: null, label };
}

/** @internal Destroys the reader's staging buffers (a read in flight destroys its own when it completes). */
export function disposeFrameIdReader(reader: FrameIdReader): void {
  if (reader.pool) disposeStagingPool(reader.pool);
  reader.pool = null;
}

/**
 * Copies texel (x, y) of the ID texture as it is after every submitted frame and resolves it with that frame's
 * ranges (captured by the caller synchronously, with the copy). No render pass; one staging buffer from the pool.
 * @internal
 */
export async function readFrameIdTexelAsync(
  reader: FrameIdReader,
  device: GPUDevice,
  texture: GPUTexture,
  ranges: readonly FrameIdRange[],
  x: number,
  y: number,
): Promise<FrameIdHit> {
  const api = 'readGeometryFrameIdAsync';
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= texture.width || y >= texture.height) {
    throw new EngineError(
      api,
      'out-of-range',
      `pixel (${describeValue(x)}, ${describeValue(y)}) is outside the ${texture.width}×${texture.height} frame; pass integer framebuffer pixels, origin top-left`,
    );
  }
  if (reader.pool?.device !== device) {
    disposeFrameIdReader(reader);
    reader.pool = createStagingPool(device, `${reader.label}:frame-id`);
  }
  const source = { texture, x, y, width: 1, height: 1, mipLevel: 0 };
  const [id, primitive] = await readTextureRegionAsync(
    reader.pool,
    source,
    getTexelByteSize(texture.format) ?? 8,
    (mapped) => new Uint32Array(mapped.buffer, mapped.byteOffset, 2).slice(),
  );
  return resolveFrameId(ranges, id, texture.format === 'r32uint' ? 0xffffffff : primitive);
}
