// GPU buffers a host-engine picker makes itself: data the host never uploaded in a form weft can bind (Babylon.js's joint
// indices as uint16 and morphed positions; three.js geometry where its buffers lack STORAGE). Every other vertex, index
// and instance buffer is the host's own. A replaced buffer is destroyed once the work already submitted is done.

/** @internal The picker's own buffers, by what they were made from; `bytes` counts what they hold now. */
export interface OwnedBuffers {
  device: GPUDevice;
  label: string;
  entries: Map<object, { buffer: GPUBuffer; data: ArrayBufferView; stamp: unknown; bytes: number }>;
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
  return ownedCopy(owned, key, name, data, () => data).buffer;
}

/**
 * The picker's buffer for `key` while `stamp` (a version, the data array …) stays the same; when it changes, `make`
 * gives the bytes of a new buffer and the old one is released as `ownedBuffer` releases it.
 * @internal
 */
export function ownedCopy(
  owned: OwnedBuffers,
  key: object,
  name: string,
  stamp: unknown,
  make: () => ArrayBufferView,
): { buffer: GPUBuffer; data: ArrayBufferView } {
  const known = owned.entries.get(key);
  if (known && known.stamp === stamp) return known;
  if (known) releaseOwned(owned, key);
  const data = make();
  const bytes = Math.max(4, Math.ceil(data.byteLength / 4) * 4);
  const buffer = owned.device.createBuffer({
    label: `${owned.label}:${name}`,
    size: bytes,
    usage: GPUBufferUsage.VERTEX | GPUBufferUsage.INDEX | GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    mappedAtCreation: true,
  });
  new Uint8Array(buffer.getMappedRange()).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  buffer.unmap();
  const entry = { buffer, data, stamp, bytes };
  owned.entries.set(key, entry);
  owned.bytes += bytes;
  return entry;
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
