import { describe, expect } from 'vitest';
import { acquireRenderPipelineAsync, releaseRenderPipeline } from '../../../index.js';
import { composePickShader } from '../../../picking/gpu/pick-shader.js';
import { gpuTest } from '../../support/gpu.js';

const size = 16;

async function readTexture(device: GPUDevice, texture: GPUTexture, bytesPerPixel: number): Promise<ArrayBuffer> {
  const bytesPerRow = Math.ceil((size * bytesPerPixel) / 256) * 256;
  const buffer = device.createBuffer({
    size: bytesPerRow * size,
    usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
  });
  const encoder = device.createCommandEncoder();
  encoder.copyTextureToBuffer({ texture }, { buffer, bytesPerRow }, [size, size]);
  device.queue.submit([encoder.finish()]);
  await buffer.mapAsync(GPUMapMode.READ);
  const mapped = new Uint8Array(buffer.getMappedRange());
  const tight = new Uint8Array(size * size * bytesPerPixel);
  for (let y = 0; y < size; y++)
    tight.set(mapped.subarray(y * bytesPerRow, y * bytesPerRow + size * bytesPerPixel), y * size * bytesPerPixel);
  buffer.unmap();
  buffer.destroy();
  return tight.buffer;
}

describe('pick variant', () => {
  gpuTest(
    'writes the 24-bit id + instance, NDC depth and (primitive, local position) detail per thin instance',
    async ({ engine }) => {
      const { device } = engine;
      const composed = composePickShader(
        { thinInstances: true, primitiveDetail: true },
        { deviceFeatures: device.features },
      );
      const lease = await acquireRenderPipelineAsync(device, composed, {
        targets: composed.targets.map((t) => ({ format: t.format! })),
      });
      const uniform = (data: ArrayBufferView<ArrayBuffer>) => {
        const buffer = device.createBuffer({ size: 256, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
        device.queue.writeBuffer(buffer, 0, data);
        return buffer;
      };
      const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
      const buffers = {
        scene: uniform(new Float32Array([...identity, ...new Array(16).fill(0)])),
        draw: uniform(new Float32Array([...identity, ...identity, 1, 1, 1, 1, 0, 0, 0, 0])),
        pick: uniform(new Uint32Array([0x123456, 0, 0, 0])),
      };
      const sizes: Record<string, number> = { draw: 160, pick: 16 };
      const groups = composed.bindGroups.map((g) =>
        device.createBindGroup({
          layout: lease.bindGroupLayouts[g.group],
          entries: g.bindings.map((b) => ({
            binding: b.binding,
            resource: { buffer: buffers[b.name as keyof typeof buffers], size: sizes[b.name] },
          })),
        }),
      );
      const positions = new Float32Array([-0.4, -0.4, 0.25, 0.4, -0.4, 0.25, 0, 0.4, 0.25]);
      // Two instances shifted to x = -0.5 and x = +0.5; the w lanes carry payload the transform ignores.
      const instances = new Float32Array([
        1, 0, 0, 9, 0, 1, 0, 9, 0, 0, 1, 9, -0.5, 0, 0, 9, 1, 0, 0, 5, 0, 1, 0, 5, 0, 0, 1, 5, 0.5, 0, 0, 5,
      ]);
      const vertexBuffers = [positions, instances].map((data) => {
        const buffer = device.createBuffer({
          size: data.byteLength,
          usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST,
        });
        device.queue.writeBuffer(buffer, 0, data);
        return buffer;
      });
      const targets = composed.targets.map((t) =>
        device.createTexture({
          size: [size, size],
          format: t.format!,
          usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
        }),
      );
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginRenderPass({
        colorAttachments: targets.map((t) => ({
          view: t.createView(),
          loadOp: 'clear' as const,
          storeOp: 'store' as const,
          clearValue: [0, 0, 0, 0],
        })),
      });
      pass.setPipeline(lease.pipeline);
      groups.forEach((group, i) =>
        pass.setBindGroup(
          i,
          group,
          composed.bindGroups[i].entries.filter((e) => e.buffer?.hasDynamicOffset).map(() => 0),
        ),
      );
      composed.vertexBufferSources.forEach((source, slot) => pass.setVertexBuffer(slot, vertexBuffers[source]));
      pass.draw(3, 2);
      pass.end();
      device.queue.submit([encoder.finish()]);
      const [ids, depth, detail] = [
        new Uint8Array(await readTexture(device, targets[0], 4)),
        new Float32Array(await readTexture(device, targets[1], 4)),
        new Uint32Array(await readTexture(device, targets[2], 16)),
      ];
      for (const [x, instance] of [
        [4, 0],
        [11, 1],
      ] as const) {
        const at = 9 * size + x;
        const id = 0x123456 + instance;
        expect(Array.from(ids.subarray(at * 4, at * 4 + 4)), `instance ${instance}`).toEqual([
          id >> 16,
          (id >> 8) & 255,
          id & 255,
          255,
        ]);
        expect(depth[at]).toBeCloseTo(0.25, 6);
        // primitive_index counts within each instance; the local position is the pixel centre minus the instance shift.
        expect(detail[at * 4]).toBe(0);
        const local = new Float32Array(detail.buffer, (at * 4 + 1) * 4, 3);
        const ndcX = ((x + 0.5) / size) * 2 - 1;
        expect(local[0]).toBeCloseTo(ndcX - (instance === 0 ? -0.5 : 0.5), 6);
        expect(local[1]).toBeCloseTo(1 - (9.5 / size) * 2, 6);
        expect(local[2]).toBeCloseTo(0.25, 6);
      }
      expect(Array.from(ids.subarray(0, 4)), 'a miss stays 0').toEqual([0, 0, 0, 0]);
      releaseRenderPipeline(device, lease);
      for (const b of [...Object.values(buffers), ...vertexBuffers]) b.destroy();
      for (const t of targets) t.destroy();
    },
  );
});
