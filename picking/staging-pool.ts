/** Reusable MAP_READ buffers so a warm pick creates no GPU objects, however many are in flight. */
export interface StagingPool {
  readonly device: GPUDevice;
  readonly free: Map<number, GPUBuffer[]>;
  /** Every buffer the pool made (destroyed on dispose). */
  readonly all: Set<GPUBuffer>;
  created: number;
}

/** Makes an empty pool for a device. */
export function makeStagingPool(device: GPUDevice): StagingPool {
  return { device, free: new Map(), all: new Set(), created: 0 };
}

/** Sizes are rounded up to a power of two (≥ 256 bytes) so buffers are reused across similar picks. */
export function stagingSizeClass(bytes: number): number {
  let size = 256;
  while (size < bytes) size *= 2;
  return size;
}

/** Takes a free buffer of at least `bytes`, creating one only when none is free. */
export function acquireStagingBuffer(pool: StagingPool, bytes: number): GPUBuffer {
  const size = stagingSizeClass(bytes);
  const buffer = pool.free.get(size)?.pop();
  if (buffer) return buffer;
  pool.created++;
  const made = pool.device.createBuffer({
    label: `weft:pick-staging:${size}`,
    size,
    usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
  });
  pool.all.add(made);
  return made;
}

/** Returns an unmapped buffer to the pool. */
export function releaseStagingBuffer(pool: StagingPool, buffer: GPUBuffer): void {
  if (!pool.all.has(buffer)) return;
  let list = pool.free.get(buffer.size);
  if (!list) pool.free.set(buffer.size, (list = []));
  list.push(buffer);
}

/** Destroys every buffer the pool made (pending maps reject with an abort). */
export function destroyStagingPool(pool: StagingPool): void {
  for (const buffer of pool.all) buffer.destroy();
  pool.all.clear();
  pool.free.clear();
}
