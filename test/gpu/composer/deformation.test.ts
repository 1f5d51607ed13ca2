import { describe, expect } from 'vitest';
import {
  acquireRenderPipelineAsync,
  type ComposedShader,
  composeShader,
  releaseRenderPipeline,
} from '../../../index.js';
import { deformationSpec } from '../../../engine/deformation-variants.js';
import { gpuTest } from '../../support/gpu.js';

const size = 32;
const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** Renders an unlit white quad through a composed deformation variant (identity camera) and returns coverage per pixel. */
async function renderDeformed(
  device: GPUDevice,
  composed: ComposedShader,
  inputs: Record<string, ArrayBufferView<ArrayBuffer>>,
  extra: Record<string, GPUBindingResource>,
): Promise<boolean[]> {
  const lease = await acquireRenderPipelineAsync(device, composed, {
    targets: [{ format: 'rgba8unorm' }],
    primitive: { topology: 'triangle-list' },
  });
  const owned: (GPUBuffer | GPUTexture)[] = [];
  const buffer = (data: ArrayBufferView<ArrayBuffer>, usage: GPUBufferUsageFlags) => {
    const b = device.createBuffer({
      size: Math.max(256, Math.ceil(data.byteLength / 4) * 4),
      usage: usage | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(b, 0, data);
    owned.push(b);
    return b;
  };
  const white = device.createTexture({
    size: [1, 1],
    format: 'rgba8unorm',
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
  });
  device.queue.writeTexture({ texture: white }, new Uint8Array([255, 255, 255, 255]), { bytesPerRow: 4 }, [1, 1]);
  owned.push(white);
  const draw = new Float32Array(64);
  draw.set(identity, 0);
  draw.set(identity, 16);
  draw.set([1, 1, 1, 1], 32);
  new Uint32Array(draw.buffer)[36] = 1; // unlit
  const resources: Record<string, GPUBindingResource> = {
    scene: { buffer: buffer(new Float32Array([...identity, ...new Array(16).fill(0)]), GPUBufferUsage.UNIFORM) },
    draw: { buffer: buffer(draw, GPUBufferUsage.UNIFORM), size: 160 },
    baseTexture: white.createView(),
    baseSampler: device.createSampler(),
    ...extra,
  };
  const groups = composed.bindGroups.map((g) =>
    device.createBindGroup({
      layout: lease.bindGroupLayouts[g.group],
      entries: g.bindings.map((b) => ({ binding: b.binding, resource: resources[b.name] })),
    }),
  );
  const target = device.createTexture({
    size: [size, size],
    format: 'rgba8unorm',
    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
  });
  owned.push(target);
  const readback = device.createBuffer({ size: 256 * size, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  owned.push(readback);
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginRenderPass({
    colorAttachments: [
      { view: target.createView(), loadOp: 'clear', storeOp: 'store', clearValue: { r: 0, g: 0, b: 0, a: 1 } },
    ],
  });
  pass.setPipeline(lease.pipeline);
  groups.forEach((group, i) =>
    pass.setBindGroup(
      i,
      group,
      composed.bindGroups[i].entries.filter((e) => e.buffer?.hasDynamicOffset).map(() => 0),
    ),
  );
  composed.vertexInputs.forEach((input) =>
    pass.setVertexBuffer(input.buffer, buffer(inputs[input.semantic], GPUBufferUsage.VERTEX)),
  );
  pass.draw(6);
  pass.end();
  encoder.copyTextureToBuffer({ texture: target }, { buffer: readback, bytesPerRow: 256 }, [size, size]);
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const bytes = new Uint8Array(readback.getMappedRange().slice(0));
  readback.unmap();
  releaseRenderPipeline(device, lease);
  for (const o of owned) o.destroy();
  return Array.from({ length: size * size }, (_, i) => bytes[Math.floor(i / size) * 256 + (i % size) * 4] > 128);
}

/** Pixel-centre coverage of an axis-aligned rectangle in clip space (origin top-left, y up in clip space). */
function expectedRect(x0: number, x1: number, y0: number, y1: number): boolean[] {
  return Array.from({ length: size * size }, (_, i) => {
    const x = (((i % size) + 0.5) / size) * 2 - 1;
    const y = 1 - ((Math.floor(i / size) + 0.5) / size) * 2;
    return x > x0 && x < x1 && y > y0 && y < y1;
  });
}

// A quad from (-0.5, -0.5) to (0.5, 0.5): vertices 0, 3, 5 on the left edge, 1, 2, 4 on the right.
const quad = new Float32Array([
  -0.5, -0.5, 0.5, 0.5, -0.5, 0.5, 0.5, 0.5, 0.5, -0.5, -0.5, 0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0.5,
]);
const normals = new Float32Array(18).fill(0).map((_, i) => (i % 3 === 2 ? 1 : 0));
const right = [1, 2, 4];

function boneTexture(device: GPUDevice, matrices: number[][]): GPUTexture {
  const texture = device.createTexture({
    size: [4, matrices.length],
    format: 'rgba32float',
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
  });
  device.queue.writeTexture({ texture }, new Float32Array(matrices.flat()), { bytesPerRow: 64 }, [4, matrices.length]);
  return texture;
}

describe('deformation fragments on Dawn', () => {
  gpuTest('skinning with 4 and 8 influences moves vertices by the blended bone matrices', async ({ engine }) => {
    const { device } = engine;
    const shift = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.4, 0, 0, 1]; // bone 1: +0.4 in x
    const bones = boneTexture(device, [identity, shift, identity]);
    const joints = new Uint16Array(24);
    const weights = new Float32Array(24);
    for (let v = 0; v < 6; v++) {
      joints.set(right.includes(v) ? [1, 2, 0, 0] : [0, 2, 0, 0], v * 4);
      weights.set([1, 0, 0, 0], v * 4);
    }
    const skin4 = await renderDeformed(
      device,
      composeShader(deformationSpec({ skin: 4, morph: false })),
      { position: quad, normal: normals, joints, weights },
      { boneTexture: bones.createView() },
    );
    expect(skin4).toEqual(expectedRect(-0.5, 0.9, -0.5, 0.5));
    // Eight influences: half of the right edge's weight moves to the second set, on the same shifting bone.
    const weights4 = weights.map((w, i) => (right.includes(Math.floor(i / 4)) && i % 4 === 0 ? 0.5 : w));
    const joints2 = new Uint16Array(24).map((_, i) => (i % 4 === 0 ? 1 : 0));
    const weights2 = new Float32Array(24).map((_, i) => (right.includes(Math.floor(i / 4)) && i % 4 === 0 ? 0.5 : 0));
    const skin8 = await renderDeformed(
      device,
      composeShader(deformationSpec({ skin: 8, morph: false })),
      { position: quad, normal: normals, joints, weights: weights4, joints2, weights2 },
      { boneTexture: bones.createView() },
    );
    expect(skin8).toEqual(expectedRect(-0.5, 0.9, -0.5, 0.5));
    bones.destroy();
  });

  gpuTest('morph targets add weighted deltas, before skinning', async ({ engine }) => {
    const { device } = engine;
    // Target 0 lifts the top edge by 0.6, target 1 pushes the right edge by 0.4; weights 0.5 and 1.
    const deltas = new Float32Array(2 * 6 * 4 * 2);
    for (let v = 0; v < 6; v++) {
      if (quad[v * 3 + 1] > 0) deltas[(0 * 6 + v) * 4 + 1] = 0.6;
      if (right.includes(v)) deltas[(1 * 6 + v) * 4] = 0.4;
    }
    const storage = (data: ArrayBufferView<ArrayBuffer>, usage: GPUBufferUsageFlags) => {
      const b = device.createBuffer({ size: Math.max(256, data.byteLength), usage: usage | GPUBufferUsage.COPY_DST });
      device.queue.writeBuffer(b, 0, data);
      return b;
    };
    const morph = {
      morphDeltas: { buffer: storage(deltas, GPUBufferUsage.STORAGE) },
      morphWeights: { buffer: storage(new Float32Array([0.5, 1]), GPUBufferUsage.STORAGE) },
      morphInfo: { buffer: storage(new Uint32Array([2, 6, 0, 0]), GPUBufferUsage.UNIFORM) },
    };
    const morphed = await renderDeformed(
      device,
      composeShader(deformationSpec({ skin: 0, morph: true, morphNormals: true })),
      { position: quad, normal: normals },
      morph,
    );
    expect(morphed).toEqual(expectedRect(-0.5, 0.9, -0.5, 0.8));
    // Then skinning: every vertex on a bone that halves x. Morph first gives a right edge at (0.5 + 0.4) / 2;
    // skinning first would give 0.5 / 2 + 0.4.
    const halveX = [0.5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    const bones = boneTexture(device, [halveX]);
    const both = await renderDeformed(
      device,
      composeShader(deformationSpec({ skin: 4, morph: true, morphNormals: true })),
      {
        position: quad,
        normal: normals,
        joints: new Uint16Array(24),
        weights: new Float32Array(24).map((_, i) => (i % 4 === 0 ? 1 : 0)),
      },
      { ...morph, boneTexture: bones.createView() },
    );
    expect(both).toEqual(expectedRect(-0.25, 0.45, -0.5, 0.8));
    bones.destroy();
    for (const b of Object.values(morph)) b.buffer.destroy();
  });
});
