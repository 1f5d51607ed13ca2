// GPU buffers the Babylon.js picker makes itself: data Babylon.js never uploaded in a form weft can bind (joint indices
// as uint16, morphed positions). Every other vertex, index and instance buffer is Babylon.js's own.

/** @internal The picker's own buffers, by what they were made from; `bytes` counts what they hold now. */
export interface OwnedBuffers {
  device: GPUDevice;
  label: string;
  entries: Map<object, { buffer: GPUBuffer; data: ArrayBufferView; bytes: number }>;
  bytes: number;
}

/** @internal */
export function makeOwnedBuffers(device: GPUDevice, label: string): OwnedBuffers {
  return { device, label, entries: new Map(), bytes: 0 };
}

/**
 * The picker's buffer holding `data` for `key`: made on first use, made again when `data` is another array (the old one
 * is destroyed once the queue has finished the work submitted so far, so a pick in flight keeps reading it).
 * @internal
 */
export function ownedBuffer(owned: OwnedBuffers, key: object, name: string, data: ArrayBufferView): GPUBuffer {
  const known = owned.entries.get(key);
  if (known && known.data === data) return known.buffer;
  if (known) releaseOwned(owned, key);
  const bytes = Math.ceil(data.byteLength / 4) * 4;
  const buffer = owned.device.createBuffer({
    label: `${owned.label}:${name}`,
    size: Math.max(4, bytes),
    usage: GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    mappedAtCreation: true,
  });
  new Uint8Array(buffer.getMappedRange()).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  buffer.unmap();
  owned.entries.set(key, { buffer, data, bytes: Math.max(4, bytes) });
  owned.bytes += Math.max(4, bytes);
  return buffer;
}

/** @internal Drops `key`'s buffer (destroyed after the work already submitted). */
export function releaseOwned(owned: OwnedBuffers, key: object): void {
  const known = owned.entries.get(key);
  if (!known) return;
  owned.entries.delete(key);
  owned.bytes -= known.bytes;
  owned.device.queue.onSubmittedWorkDone().then(
    () => known.buffer.destroy(),
    () => known.buffer.destroy(),
  );
}

/** @internal Drops every buffer. */
export function releaseAllOwned(owned: OwnedBuffers): void {
  for (const key of [...owned.entries.keys()]) releaseOwned(owned, key);
}
