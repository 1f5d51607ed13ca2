import { mapForReadPromptlyAsync } from '../engine/map-prompt.js';
// The floors a GPU pick is measured against in bench/pick.ts and the browser benches: raw WebGPU, no weft code but the
// readback's map, which waits as weft's does (in a page, prompted: engine/map-prompt.ts).
/**
 * The bare cost a pick cannot avoid: one submit and a mapAsync of a 256-byte buffer. Floors map as weft's readbacks do
 * (in a page, prompted while pending: engine/map-prompt.ts), so a floor and a pick wait for the browser alike.
 */
export function makeBareRoundTrip(device: GPUDevice): () => Promise<void> {
  const source = device.createBuffer({ size: 256, usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  const staging = device.createBuffer({ size: 256, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  return async () => {
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(source, 0, staging, 0, 256);
    device.queue.submit([encoder.finish()]);
    await mapForReadPromptlyAsync(device, staging, 256);
    staging.unmap();
  };
}

/** A draw recorded into a floor pass: what it writes before the pass, records in it, and checks in the readback. */
interface FloorDraw {
  prepare(): void;
  record(pass: GPURenderPassEncoder): void;
  /** Given the first byte of the ID texel (its red channel). */
  check(red: number): void;
}

/**
 * The GPU floor of a pick on this device: the same attachments, clears and copies, no weft code; with `draw`, that
 * draw is the only thing recorded in the pass (without it, nothing is drawn).
 */
export function makePickShapedPass(device: GPUDevice, draw?: FloorDraw): () => Promise<void> {
  const make = (format: GPUTextureFormat) =>
    device.createTexture({ size: [1, 1], format, usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  const colors = [make('rgba8unorm'), make('r32float')];
  const views = colors.map((t) => t.createView());
  const depthView = make('depth24plus').createView();
  const staging = device.createBuffer({ size: 1024, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  return async () => {
    draw?.prepare();
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginRenderPass({
      colorAttachments: views.map((view) => ({ view, loadOp: 'clear' as const, storeOp: 'store' as const })),
      depthStencilAttachment: { view: depthView, depthLoadOp: 'clear', depthClearValue: 0, depthStoreOp: 'discard' },
    });
    draw?.record(pass);
    pass.end();
    colors.forEach((texture, i) =>
      encoder.copyTextureToBuffer({ texture }, { buffer: staging, offset: i * 256 }, [1, 1]),
    );
    device.queue.submit([encoder.finish()]);
    await mapForReadPromptlyAsync(device, staging, staging.size);
    if (draw) draw.check(new Uint8Array(staging.getMappedRange(0, 4))[0]);
    staging.unmap();
  };
}

// The hit box of the bench scenes (0.4 wide at the origin), seen from above as the pick's 1×1 zoomed pass sees it:
// clip = zoom × viewProjection × world is what the shader computes; here one precomputed matrix does the same job.
const boxCorners = [-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1, -1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1].map(
  (v) => v * 0.2,
);
const boxTriangles = [
  0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3,
];

/**
 * The pass floor plus the one draw a pick cannot avoid, with no weft code: the same attachments, clears and copies,
 * and one 12-triangle box drawn over the pixel by a minimal pipeline (one uniform matrix written per call, one bind
 * group, vertex and index buffer). What any picker drawing the mesh under the pixel pays on this device.
 */
export function makePickDrawFloor(device: GPUDevice): () => Promise<void> {
  const module = device.createShaderModule({
    code: `@group(0) @binding(0) var<uniform> clipFromLocal: mat4x4f;
@vertex fn vs(@location(0) p: vec3f) -> @builtin(position) vec4f { return clipFromLocal * vec4f(p, 1.0); }
struct Out { @location(0) id: vec4f, @location(1) depth: f32 }
@fragment fn fs(@builtin(position) q: vec4f) -> Out { return Out(vec4f(1.0, 0.0, 0.0, 1.0), q.z); }`,
  });
  const pipeline = device.createRenderPipeline({
    layout: 'auto',
    vertex: {
      module,
      buffers: [{ arrayStride: 12, attributes: [{ shaderLocation: 0, format: 'float32x3', offset: 0 }] }],
    },
    fragment: { module, targets: [{ format: 'rgba8unorm' }, { format: 'r32float' }] },
    primitive: { cullMode: 'back' },
    depthStencil: { format: 'depth24plus', depthWriteEnabled: true, depthCompare: 'greater' },
  });
  const uniform = device.createBuffer({ size: 64, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  const group = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [{ binding: 0, resource: { buffer: uniform } }],
  });
  const upload = (data: Float32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>, usage: number) => {
    const buffer = device.createBuffer({ size: data.byteLength, usage: usage | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(buffer, 0, data);
    return buffer;
  };
  const vertices = upload(new Float32Array(boxCorners), GPUBufferUsage.VERTEX);
  const indices = upload(new Uint16Array(boxTriangles), GPUBufferUsage.INDEX);
  // Looking down -y with reversed depth: x → x, z → -y (screen up), depth from height; the box covers the centre.
  const clipFromLocal = new Float32Array([1, 0, 0, 0, 0, 0, 0.5, 0, 0, -1, 0, 0, 0, 0, 0.5, 1]);
  return makePickShapedPass(device, {
    prepare: () => device.queue.writeBuffer(uniform, 0, clipFromLocal),
    record: (pass) => {
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      pass.setVertexBuffer(0, vertices);
      pass.setIndexBuffer(indices, 'uint16');
      pass.drawIndexed(boxTriangles.length);
    },
    check: (red) => {
      if (red !== 255) throw new Error(`the draw floor's box does not cover the pixel (red ${red})`);
    },
  });
}
