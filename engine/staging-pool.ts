/** Reusable MAP_READ buffers on one device, by power-of-two size class, so warm readbacks create no GPU objects. */
export interface StagingPool {
  readonly device: GPUDevice;
  /** Prefix of the buffers' labels. */
  readonly label: string;
  /** Buffers ready for use, by size class. */
  readonly free: Map<number, GPUBuffer[]>;
  /** Every live buffer the pool made, free or in use. */
  readonly all: Set<GPUBuffer>;
  /** Buffers created so far (for tests and benchmarks). */
  created: number;
  /** Set by `disposeStagingPool`: buffers still in use are destroyed when released. */
  disposed: boolean;
}

/** Creates an empty pool for a device; buffers appear on the first acquire. */
export function createStagingPool(device: GPUDevice, label: string): StagingPool {
  return { device, label, free: new Map(), all: new Set(), created: 0, disposed: false };
}

/** Sizes are rounded up to a power of two (≥ 256 bytes) so buffers are reused across similar reads. */
export function stagingSizeClass(bytes: number): number {
  let size = 256;
  while (size < bytes) size *= 2;
  return size;
}

/** Takes a free buffer of at least `bytes`, creating one only when none is free. */
export function acquireStagingBuffer(pool: StagingPool, bytes: number): GPUBuffer {
  // Rounding up never takes a read that fits the device's buffer limit over it.
  const size = Math.min(stagingSizeClass(bytes), Math.max(bytes, pool.device.limits.maxBufferSize));
  const buffer = pool.free.get(size)?.pop();
  if (buffer) return buffer;
  pool.created++;
  const made = pool.device.createBuffer({
    label: `${pool.label}:staging:${size}`,
    size,
    usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
  });
  pool.all.add(made);
  return made;
}

/** Gives back an unmapped buffer: kept for reuse, or destroyed when the pool was disposed meanwhile. */
export function releaseStagingBuffer(pool: StagingPool, buffer: GPUBuffer): void {
  if (!pool.all.has(buffer)) return;
  if (pool.disposed) {
    discardStagingBuffer(pool, buffer);
    return;
  }
  let list = pool.free.get(buffer.size);
  if (!list) pool.free.set(buffer.size, (list = []));
  list.push(buffer);
}

/** Destroys a buffer that cannot be reused (its map failed) and forgets it. */
export function discardStagingBuffer(pool: StagingPool, buffer: GPUBuffer): void {
  pool.all.delete(buffer);
  buffer.destroy();
}

/** Destroys the free buffers now; buffers in use are destroyed when their read releases them. */
export function disposeStagingPool(pool: StagingPool): void {
  pool.disposed = true;
  for (const list of pool.free.values()) for (const buffer of list) discardStagingBuffer(pool, buffer);
  pool.free.clear();
}
