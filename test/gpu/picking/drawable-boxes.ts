// Boxes as a host would hand them to the pick-source seam (its own GPU buffers, world matrices along x), a test camera,
// and references for them: the box a float64 ray through each pixel centre enters first, and the pixels clear of every
// box edge. Shared by the seam's tests.
import { expect } from 'vitest';
import { makeBoxData } from '../../../engine/primitives/box.js';
import {
  createGpuPicker,
  type DrawableScene,
  disposeGpuPicker,
  type PickVertexBuffer,
  pickedObjectOf,
  pickManyAsync,
} from '../../../picking/index.js';
import { cameraPixelRay, rayBox } from '../../support/camera-rays.js';

export type Vec3 = [number, number, number];
export const size: [number, number] = [64, 48];
export const view = { position: [0, 0.5, 9] as Vec3, target: [0, 0, 0] as Vec3, fovY: Math.PI / 4 };

export function gpuBuffer(device: GPUDevice, label: string, data: ArrayBufferView, usage: number): GPUBuffer {
  const bytes = Math.ceil(data.byteLength / 4) * 4;
  const buffer = device.createBuffer({ label, size: bytes, usage: usage | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(buffer, 0, data.buffer, data.byteOffset, bytes);
  return buffer;
}

export const vertexBufferOf = (buffer: GPUBuffer, positions: Float32Array): PickVertexBuffer => ({
  buffer,
  data: positions,
  arrayStride: 12,
  attributes: { position: { format: 'float32x3', offset: 0 } },
});

/**
 * A box of `edge` as one position buffer and an index buffer, on the device, with the drawable fields that name them
 * (`vertexBuffers`, `index`) and `destroy()` for both buffers.
 */
export function boxBuffers(device: GPUDevice, edge: number) {
  const box = makeBoxData({ width: edge, height: edge, depth: edge });
  const positions = Float32Array.from(box.positions!);
  const indices = Uint16Array.from(box.indices!);
  const usage = GPUBufferUsage.STORAGE;
  const vertex = gpuBuffer(device, `box ${edge}:vertices`, positions, GPUBufferUsage.VERTEX | usage);
  const index = gpuBuffer(device, `box ${edge}:indices`, indices, GPUBufferUsage.INDEX | usage);
  return {
    edge,
    positions,
    indices,
    vertex,
    index,
    vertexBuffers: [vertexBufferOf(vertex, positions)],
    indexSource: { buffer: index, data: indices },
    destroy() {
      vertex.destroy();
      index.destroy();
    },
  };
}

export const translation = (x: number, y = 0, z = 0) => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1];

/** Per pixel centre, the object whose box (edge `edge`, centred at its x) the float64 ray enters first; null: none. */
export function referencePicks(
  boxes: { object: string; x: number }[],
  edge: number,
  pixels: { x: number; y: number }[],
) {
  return pixels.map(({ x, y }) => {
    const ray = cameraPixelRay(view, x, y, size[0], size[1]);
    let best: { object: string; t: number } | null = null;
    for (const box of boxes) {
      const h = edge / 2;
      const hit = rayBox(ray, [box.x - h, -h, -h], [box.x + h, h, h]);
      if (hit && (!best || hit.t < best.t)) best = { object: box.object, t: hit.t };
    }
    return best?.object ?? null;
  });
}

/** Pixels whose rays enter every box of the first list by at least 0.05 from an edge, or miss them all cleanly. */
export function clearPixels(boxes: { x: number }[], edges: number[]): { x: number; y: number }[] {
  const pixels: { x: number; y: number }[] = [];
  for (let y = 1; y < size[1]; y += 2)
    for (let x = 1; x < size[0]; x += 2) {
      const ray = cameraPixelRay(view, x, y, size[0], size[1]);
      const clear = edges.every((edge) =>
        boxes.every((box) => {
          const h = edge / 2;
          const grown = rayBox(ray, [box.x - h - 0.05, -h - 0.05, -h - 0.05], [box.x + h + 0.05, h + 0.05, h + 0.05]);
          const shrunk = rayBox(ray, [box.x - h + 0.05, -h + 0.05, -h + 0.05], [box.x + h - 0.05, h - 0.05, h - 0.05]);
          return (grown === null) === (shrunk === null);
        }),
      );
      if (clear) pixels.push({ x, y });
    }
  return pixels;
}

export async function picksOf(target: DrawableScene<string>, pixels: { x: number; y: number }[]) {
  // Enough clear pixels, on boxes and off them, for a wrong scene to show.
  expect(pixels.length).toBeGreaterThan(100);
  const picker = createGpuPicker(target.scene);
  const infos = await pickManyAsync(picker, pixels, { viewport: { width: size[0], height: size[1] } });
  disposeGpuPicker(picker);
  const picks = infos.map((info) => (info.hit ? (pickedObjectOf(target, info)?.object ?? '?') : null));
  expect(picks.filter((p) => p !== null).length).toBeGreaterThan(10);
  return picks;
}
