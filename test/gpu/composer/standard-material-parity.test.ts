import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import { composeStandardMaterial, type ComposedShader } from '../../../composer/index.js';
import { makeStandardMaterialWgsl, type StandardShaderVariant, standardVertexLocations } from '../../../engine/render/standard-material-wgsl.js';
import { gpuTest } from '../../support/gpu.js';

// The composed standard material must draw what the forward renderer's hand-written WGSL draws: same pixels.
const size = 48;
const random = (() => {
  let s = 12345;
  return () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
})();
// A small fan of triangles tilted towards the camera, with varied normals, uvs and colours.
const triangles = 10;
const positions = new Float32Array(triangles * 9);
const normals = new Float32Array(triangles * 9);
const uvs = new Float32Array(triangles * 6);
const colors = new Float32Array(triangles * 12);
for (let t = 0; t < triangles; t++) {
  const a0 = (t / triangles) * Math.PI * 2;
  const a1 = ((t + 1) / triangles) * Math.PI * 2;
  const corners = [[0, 0, 0.4], [Math.cos(a0), Math.sin(a0), -0.2], [Math.cos(a1), Math.sin(a1), -0.2]];
  corners.forEach((p, i) => {
    positions.set(p, t * 9 + i * 3);
    const n = [p[0] + random() * 0.4 - 0.2, p[1] + random() * 0.4 - 0.2, 1];
    const l = Math.hypot(n[0], n[1], n[2]);
    normals.set(n.map((v) => v / l), t * 9 + i * 3);
    uvs.set([p[0] * 0.5 + 0.5, p[1] * 0.5 + 0.5], t * 6 + i * 2);
    colors.set([random(), random(), random(), 1], t * 12 + i * 4);
  });
}
// Two thin instances: the second rotated, scaled non-uniformly and shifted; w lanes carry a payload the transform must ignore.
const instances = new Float32Array([...mat4.translation([-0.6, 0, 0]), ...mat4.multiply(mat4.translation([0.7, 0.2, -0.3]), mat4.multiply(mat4.rotationZ(0.7), mat4.scaling([0.6, 1.2, 0.8])))]);
instances[3] = 7;
instances[16 + 7] = 3;

interface Gpu {
  device: GPUDevice;
  buffers: Record<'position' | 'normal' | 'uv' | 'color' | 'instance' | 'scene' | 'draw', GPUBuffer>;
  texture: GPUTexture;
  sampler: GPUSampler;
}

function upload(device: GPUDevice, data: Float32Array<ArrayBuffer>, usage: number): GPUBuffer {
  const buffer = device.createBuffer({ label: 'parity', size: Math.max(256, data.byteLength), usage: usage | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(buffer, 0, data);
  return buffer;
}

function setup(device: GPUDevice, unlit: boolean): Gpu {
  const viewProjection = mat4.multiply(mat4.perspectiveReverseZ(0.9, 1, 0.1, 20), mat4.lookAt([0.4, -1.2, 3], [0, 0, 0], [0, 1, 0]));
  const scene = new Float32Array(32);
  scene.set(viewProjection, 0);
  scene.set([0.4, -1.2, 3, 1, 0.3, 0.5, 0.8, 0, 0.7, 0.6, 0.5, 0, 0.2, 0.25, 0.3, 0], 16);
  const world = mat4.multiply(mat4.rotationX(0.3), mat4.scaling([1, 0.9, 1.1]));
  const draw = new Float32Array(40);
  draw.set(world, 0);
  draw.set(mat4.transpose(mat4.inverse(world)), 16);
  draw.set([0.9, 0.8, 0.7, 1], 32);
  new Uint32Array(draw.buffer)[36] = unlit ? 1 : 0;
  const texture = device.createTexture({ label: 'parity', size: [2, 2], format: 'rgba8unorm', usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
  device.queue.writeTexture({ texture }, new Uint8Array([255, 255, 255, 255, 255, 128, 64, 255, 64, 200, 255, 255, 180, 180, 180, 255]), { bytesPerRow: 8 }, [2, 2]);
  return {
    device,
    texture,
    sampler: device.createSampler({ magFilter: 'linear', minFilter: 'linear', addressModeU: 'repeat', addressModeV: 'repeat' }),
    buffers: {
      position: upload(device, positions, GPUBufferUsage.VERTEX), normal: upload(device, normals, GPUBufferUsage.VERTEX), uv: upload(device, uvs, GPUBufferUsage.VERTEX),
      color: upload(device, colors, GPUBufferUsage.VERTEX), instance: upload(device, instances, GPUBufferUsage.VERTEX),
      scene: upload(device, scene, GPUBufferUsage.UNIFORM), draw: upload(device, draw, GPUBufferUsage.UNIFORM),
    },
  };
}

const strides = { position: 12, normal: 12, uv: 8, color: 16 } as const;
const formats = { position: 'float32x3', normal: 'float32x3', uv: 'float32x2', color: 'float32x4' } as const;

/** Draws with one shader + layout description and returns the pixels. */
async function draw(gpu: Gpu, code: string, groups: GPUBindGroupLayoutEntry[][], textureBinding: number, vertexBuffers: GPUVertexBufferLayout[], feeds: (keyof Gpu['buffers'])[], instanceCount: number): Promise<Uint8Array> {
  const { device } = gpu;
  const layouts = groups.map((entries) => device.createBindGroupLayout({ entries }));
  const module = device.createShaderModule({ code });
  const pipeline = device.createRenderPipeline({
    layout: device.createPipelineLayout({ bindGroupLayouts: layouts }),
    vertex: { module, entryPoint: 'vertexMain', buffers: vertexBuffers },
    fragment: { module, entryPoint: 'fragmentMain', targets: [{ format: 'rgba8unorm' }] },
    primitive: { topology: 'triangle-list', cullMode: 'none' },
    depthStencil: { format: 'depth24plus', depthWriteEnabled: true, depthCompare: 'greater' },
  });
  const color = device.createTexture({ size: [size, size], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  const depth = device.createTexture({ size: [size, size], format: 'depth24plus', usage: GPUTextureUsage.RENDER_ATTACHMENT });
  const readback = device.createBuffer({ size: 256 * size, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ view: color.createView(), loadOp: 'clear', storeOp: 'store', clearValue: { r: 0.1, g: 0.2, b: 0.3, a: 1 } }],
    depthStencilAttachment: { view: depth.createView(), depthLoadOp: 'clear', depthClearValue: 0, depthStoreOp: 'store' },
  });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: layouts[0], entries: [{ binding: 0, resource: { buffer: gpu.buffers.scene } }] }));
  pass.setBindGroup(1, device.createBindGroup({ layout: layouts[1], entries: [{ binding: 0, resource: { buffer: gpu.buffers.draw, size: 160 } }] }), [0]);
  pass.setBindGroup(2, device.createBindGroup({ layout: layouts[2], entries: [{ binding: textureBinding, resource: gpu.texture.createView() }, { binding: 1 - textureBinding, resource: gpu.sampler }] }));
  feeds.forEach((name, slot) => pass.setVertexBuffer(slot, gpu.buffers[name]));
  pass.draw(triangles * 3, instanceCount);
  pass.end();
  encoder.copyTextureToBuffer({ texture: color }, { buffer: readback, bytesPerRow: 256 }, [size, size]);
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const pixels = new Uint8Array(readback.getMappedRange().slice(0));
  readback.unmap();
  for (const t of [color, depth]) t.destroy();
  readback.destroy();
  return pixels;
}

function drawEngine(gpu: Gpu, variant: StandardShaderVariant): Promise<Uint8Array> {
  const present = (['position', 'normal', 'uv', 'color'] as const).filter((s) => s === 'position' || variant[`${s}s` as 'normals']);
  const buffers: GPUVertexBufferLayout[] = present.map((s) => ({ arrayStride: strides[s], attributes: [{ shaderLocation: standardVertexLocations[s], offset: 0, format: formats[s] }] }));
  if (variant.thinInstances) buffers.push({ arrayStride: 64, stepMode: 'instance', attributes: [0, 1, 2, 3].map((i) => ({ shaderLocation: standardVertexLocations.instance0 + i, offset: i * 16, format: 'float32x4' as const })) });
  const all = GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT;
  const groups: GPUBindGroupLayoutEntry[][] = [
    [{ binding: 0, visibility: all, buffer: { type: 'uniform' } }],
    [{ binding: 0, visibility: all, buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: 160 } }],
    [{ binding: 0, visibility: GPUShaderStage.FRAGMENT, texture: {} }, { binding: 1, visibility: GPUShaderStage.FRAGMENT, sampler: {} }],
  ];
  return draw(gpu, makeStandardMaterialWgsl(variant), groups, 0, buffers, [...present, ...(variant.thinInstances ? ['instance' as const] : [])], variant.thinInstances ? 2 : 1);
}

function drawComposed(gpu: Gpu, composed: ComposedShader, instanced: boolean): Promise<Uint8Array> {
  // Which of this test's buffers feeds each composed vertex buffer slot (the thin-instance columns share one).
  const feeds = composed.vertexBuffers.map((_, slot) => composed.vertexInputs.find((v) => v.buffer === slot)!.semantic.replace(/^instance\d$/, 'instance') as keyof Gpu['buffers']);
  const textureBinding = composed.bindGroups[2].bindings.find((b) => b.name === 'baseTexture')!.binding;
  return draw(gpu, composed.code, composed.bindGroups.map((g) => g.entries), textureBinding, composed.vertexBuffers as GPUVertexBufferLayout[], feeds, instanced ? 2 : 1);
}

describe('standard material parity', () => {
  gpuTest('all 16 composed variants draw the same pixels as the hand-written forward WGSL (lit), and the full variant unlit', async ({ engine }) => {
    for (const unlit of [false, true]) {
      const gpu = setup(engine.device, unlit);
      for (let bits = 0; bits < (unlit ? 1 : 16); bits++) {
        const variant = unlit ? { normals: true, uvs: true, colors: true, thinInstances: true } : { normals: !!(bits & 1), uvs: !!(bits & 2), colors: !!(bits & 4), thinInstances: !!(bits & 8) };
        const reference = await drawEngine(gpu, variant);
        const composed = await drawComposed(gpu, composeStandardMaterial(variant), variant.thinInstances);
        let drawn = 0;
        let worst = 0;
        for (let i = 0; i < reference.length; i += 4) {
          if (reference[i] !== 26 || reference[i + 1] !== 51 || reference[i + 2] !== 77) drawn++;
          for (let c = 0; c < 4; c++) worst = Math.max(worst, Math.abs(reference[i + c] - composed[i + c]));
        }
        expect(drawn, `${JSON.stringify(variant)} draws something`).toBeGreaterThan(200);
        expect(worst, `${JSON.stringify(variant)} largest channel difference`).toBeLessThanOrEqual(1);
      }
      for (const buffer of Object.values(gpu.buffers)) buffer.destroy();
      gpu.texture.destroy();
    }
  });
});
