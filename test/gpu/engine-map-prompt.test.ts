import { expect } from 'vitest';
import { mapForReadPromptlyAsync } from '../../engine/map-prompt.js';
import { gpuTest } from '../support/gpu.js';

// The browser prompt while a readback's map is pending (engine/map-prompt.ts): maps still resolve with the copied
// bytes, maps of one device in flight share one prompt, the prompt stops when they settle (also when one fails), and
// outside a page (Node) nothing is prompted. A page is simulated by a `document` global on a real Dawn device.

function countEmptySubmits(device: GPUDevice): { count: () => number; restore: () => void } {
  const queue = device.queue;
  const submit = queue.submit;
  let empty = 0;
  queue.submit = function (this: GPUQueue, buffers: Iterable<GPUCommandBuffer>) {
    if ([...buffers].length === 0) empty++;
    return submit.call(this, buffers);
  };
  return { count: () => empty, restore: () => void (queue.submit = submit) };
}

/** Staging buffers with a copy of `values[i]` each, submitted behind a 64 MiB copy so their maps stay pending a while. */
function copiedBuffers(device: GPUDevice, values: number[]): GPUBuffer[] {
  const encoder = device.createCommandEncoder();
  const size = 64 * 1024 * 1024;
  const bulk = device.createBuffer({ size, usage: GPUBufferUsage.COPY_SRC });
  const bulkCopy = device.createBuffer({ size, usage: GPUBufferUsage.COPY_DST });
  encoder.copyBufferToBuffer(bulk, 0, bulkCopy, 0, size);
  const stagings = values.map((value) => {
    const source = device.createBuffer({ size: 256, usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(source, 0, new Uint32Array(64).fill(value));
    const staging = device.createBuffer({ size: 256, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    encoder.copyBufferToBuffer(source, 0, staging, 0, 256);
    return staging;
  });
  device.queue.submit([encoder.finish()]);
  bulk.destroy();
  bulkCopy.destroy();
  return stagings;
}

const tasks = (n: number) =>
  new Promise<void>((resolve) => {
    let left = n;
    const next = () => (--left <= 0 ? resolve() : setTimeout(next, 0));
    setTimeout(next, 0);
  });

async function asPage<T>(body: () => Promise<T>): Promise<T> {
  const global = globalThis as { document?: unknown };
  const had = 'document' in global;
  const before = global.document;
  global.document = {};
  try {
    return await body();
  } finally {
    if (had) global.document = before;
    else delete global.document;
  }
}

gpuTest('in a page, pending maps of a device share one prompt that stops once they settle', async ({ engine }) => {
  const device = engine.device;
  const submits = countEmptySubmits(device);
  try {
    await asPage(async () => {
      const values = [7, 11, 13];
      const stagings = copiedBuffers(device, values);
      await Promise.all(stagings.map((b) => mapForReadPromptlyAsync(device, b, 256)));
      stagings.forEach((b, i) => {
        expect([...new Uint32Array(b.getMappedRange(0, 256))]).toEqual(new Array(64).fill(values[i]));
        b.unmap();
      });
      const prompted = submits.count();
      // Each map sends its request with one empty submit; the prompt adds its own while the maps are pending.
      expect(prompted).toBeGreaterThan(values.length);
      await tasks(5);
      const settled = submits.count();
      // One prompt for the three maps: at most one more empty submit after they settled, then none.
      expect(settled - prompted).toBeLessThanOrEqual(1);
      await tasks(10);
      expect(submits.count()).toBe(settled);

      // A failed map (its buffer destroyed) settles too, and the prompt stops.
      const [doomed] = copiedBuffers(device, [3]);
      const failing = mapForReadPromptlyAsync(device, doomed, 256);
      doomed.destroy();
      await expect(failing).rejects.toBeDefined();
      await tasks(3);
      const afterFailure = submits.count();
      await tasks(10);
      expect(submits.count()).toBe(afterFailure);

      // The next map is prompted again and reads its bytes.
      const [next] = copiedBuffers(device, [5]);
      await mapForReadPromptlyAsync(device, next, 256);
      expect(new Uint32Array(next.getMappedRange(0, 256))[63]).toBe(5);
      next.unmap();
    });
  } finally {
    submits.restore();
  }
});

gpuTest('outside a page (Node), a map is not prompted', async ({ engine }) => {
  const device = engine.device;
  const submits = countEmptySubmits(device);
  try {
    const [staging] = copiedBuffers(device, [9]);
    await mapForReadPromptlyAsync(device, staging, 256);
    expect(new Uint32Array(staging.getMappedRange(0, 256))[0]).toBe(9);
    staging.unmap();
    await tasks(5);
    expect(submits.count()).toBe(0);
  } finally {
    submits.restore();
  }
});
