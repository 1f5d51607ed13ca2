/**
 * Reusable MAP_READ buffers on one device, by power-of-two size class, so warm readbacks create no GPU objects.
 *
 * The pool shrinks after a burst. Reads in flight together form an epoch, which ends when none is in flight; each
 * time one ends, the free buffers past `max(stagingFreeMin, the most buffers in use at once in the last
 * stagingPeakEpochs epochs)` are destroyed, least recently used first. A steady load of K concurrent reads keeps K
 * buffers and creates none; after a burst of 1 000, a few single reads bring the pool back to a few buffers.
 * @internal
 */
export interface StagingPool {
  readonly device: GPUDevice;
  /** Prefix of the buffers' labels. */
  readonly label: string;
  /** Buffers ready for use, by size class. */
  readonly free: Map<number, GPUBuffer[]>;
  /** Every live buffer the pool made, free or in use (`all.size` counts them, for tests). */
  readonly all: Set<GPUBuffer>;
  /** The free buffers, least recently released first. */
  readonly idle: Set<GPUBuffer>;
  /** Buffers acquired and not yet released or discarded. */
  inUse: number;
  /** The most buffers in use at once in the current epoch. */
  epochPeak: number;
  /** The peaks of the last `stagingPeakEpochs` finished epochs. */
  readonly peaks: number[];
  /** Buffers created so far (for tests and benchmarks). */
  created: number;
  /** The device's `maxBufferSize`, read once (a native getter). */
  readonly maxBufferSize: number;
  /** Set by `disposeStagingPool`: buffers still in use are destroyed when released. */
  disposed: boolean;
}

/** Free buffers a pool always may keep. */
const stagingFreeMin = 4;
/** Finished epochs whose peak use the pool keeps buffers for. */
const stagingPeakEpochs = 8;

/** @internal Creates an empty pool for a device; buffers appear on the first acquire. */
export function createStagingPool(device: GPUDevice, label: string): StagingPool {
  return {
    device,
    label,
    free: new Map(),
    all: new Set(),
    idle: new Set(),
    inUse: 0,
    epochPeak: 0,
    peaks: [],
    created: 0,
    maxBufferSize: device.limits.maxBufferSize,
    disposed: false,
  };
}

/** A buffer leaves use; when none is left in use the epoch ends and the free buffers past the budget are destroyed. */
function endUse(pool: StagingPool): void {
  pool.inUse = Math.max(0, pool.inUse - 1);
  if (pool.inUse > 0) return;
  pool.peaks.push(pool.epochPeak);
  if (pool.peaks.length > stagingPeakEpochs) pool.peaks.shift();
  pool.epochPeak = 0;
  const budget = Math.max(stagingFreeMin, ...pool.peaks);
  for (const buffer of pool.idle) {
    if (pool.idle.size <= budget) break;
    const list = pool.free.get(buffer.size)!;
    list.splice(list.indexOf(buffer), 1);
    if (list.length === 0) pool.free.delete(buffer.size);
    discardStagingBuffer(pool, buffer);
  }
}

/** Sizes are rounded up to a power of two (≥ 256 bytes) so buffers are reused across similar reads. */
function stagingSizeClass(bytes: number): number {
  let size = 256;
  while (size < bytes) size *= 2;
  return size;
}

/** @internal Takes a free buffer of at least `bytes`, creating one only when none is free. */
export function acquireStagingBuffer(pool: StagingPool, bytes: number): GPUBuffer {
  // Rounding up never takes a read that fits the device's buffer limit over it.
  const size = Math.min(stagingSizeClass(bytes), Math.max(bytes, pool.maxBufferSize));
  const buffer = pool.free.get(size)?.pop();
  pool.inUse++;
  pool.epochPeak = Math.max(pool.epochPeak, pool.inUse);
  if (buffer) {
    pool.idle.delete(buffer);
    return buffer;
  }
  pool.created++;
  const made = pool.device.createBuffer({
    label: `${pool.label}:staging:${size}`,
    size,
    usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
  });
  pool.all.add(made);
  return made;
}

/** @internal Gives back an unmapped buffer: kept for reuse, or destroyed when the pool was disposed meanwhile. */
export function releaseStagingBuffer(pool: StagingPool, buffer: GPUBuffer): void {
  if (!pool.all.has(buffer)) return;
  if (pool.disposed) {
    discardStagingBuffer(pool, buffer);
    return;
  }
  let list = pool.free.get(buffer.size);
  if (!list) pool.free.set(buffer.size, (list = []));
  list.push(buffer);
  pool.idle.add(buffer);
  endUse(pool);
}

/** @internal Destroys a buffer that cannot be reused (its map failed) and forgets it. */
export function discardStagingBuffer(pool: StagingPool, buffer: GPUBuffer): void {
  if (!pool.all.delete(buffer)) return;
  buffer.destroy();
  // A free buffer (trimmed, disposed) leaves the idle set; one in use (its map failed) ends its use.
  if (!pool.idle.delete(buffer)) endUse(pool);
}

/** @internal Destroys the free buffers now; buffers in use are destroyed when their read releases them. */
export function disposeStagingPool(pool: StagingPool): void {
  pool.disposed = true;
  for (const list of pool.free.values()) for (const buffer of list) discardStagingBuffer(pool, buffer);
  pool.free.clear();
}
