// Smoke page: raw WebGPU draws a triangle over the left half of a 64×64 canvas, reads back one
// row of the canvas texture and publishes the outcome in `window.__weftResult`.
import { CANVAS_SIZE, CLEAR_RGB, TRIANGLE_RGB } from './colours';

export type Rgba = [number, number, number, number];

export type SmokeResult =
  | {
      adapterInfo: { vendor: string; architecture: string; device: string; description: string };
      features: string[];
      canvasFormat: GPUTextureFormat;
      /** RGBA (0–255) of the canvas texture at (16, 32) and (48, 32), swizzled from the canvas format. */
      pixelLeft: Rgba;
      pixelRight: Rgba;
    }
  | { error: string };

const shader = /* wgsl */ `
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  // Right edge on x = 0 spans beyond the viewport; the apex at x = -3 is clipped away.
  var p = array<vec2f, 3>(vec2f(0.0, -3.0), vec2f(0.0, 3.0), vec2f(-3.0, 0.0));
  return vec4f(p[i], 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4f {
  return vec4f(${TRIANGLE_RGB.map((c) => `${c}.0 / 255.0`).join(', ')}, 1.0);
}`;

function nextFrame(): Promise<void> {
  return new Promise((done) => requestAnimationFrame(() => done()));
}

async function run(): Promise<SmokeResult> {
  window.__weftErrors ??= [];
  if (!navigator.gpu) return { error: 'navigator.gpu is undefined (WebGPU is off)' };
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) return { error: 'navigator.gpu.requestAdapter() returned null' };
  const device = await adapter.requestDevice();
  device.onuncapturederror = (event) => window.__weftErrors!.push(`uncaptured: ${event.error.message}`);
  void device.lost.then((info) => {
    if (info.reason !== 'destroyed') window.__weftErrors!.push(`device lost: ${info.message}`);
  });

  const canvas = document.querySelector<HTMLCanvasElement>('#gpu');
  const context = canvas?.getContext('webgpu');
  if (!canvas || !context) return { error: 'no #gpu canvas or no webgpu context' };
  canvas.width = CANVAS_SIZE; // explicit: ignore devicePixelRatio
  canvas.height = CANVAS_SIZE;
  const format = navigator.gpu.getPreferredCanvasFormat();
  if (format !== 'rgba8unorm' && format !== 'bgra8unorm') return { error: `unexpected canvas format ${format}` };
  context.configure({
    device,
    format,
    alphaMode: 'opaque',
    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
  });

  const module = device.createShaderModule({ code: shader });
  const pipeline = device.createRenderPipeline({
    layout: 'auto',
    vertex: { module, entryPoint: 'vs' },
    fragment: { module, entryPoint: 'fs', targets: [{ format }] },
    primitive: { topology: 'triangle-list' },
  });
  const rowBytes = CANVAS_SIZE * 4; // 256: already a multiple of COPY_BYTES_PER_ROW_ALIGNMENT
  const readback = device.createBuffer({ size: rowBytes, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });

  const texture = context.getCurrentTexture();
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginRenderPass({
    colorAttachments: [
      {
        view: texture.createView(),
        clearValue: { r: CLEAR_RGB[0] / 255, g: CLEAR_RGB[1] / 255, b: CLEAR_RGB[2] / 255, a: 1 },
        loadOp: 'clear',
        storeOp: 'store',
      },
    ],
  });
  pass.setPipeline(pipeline);
  pass.draw(3);
  pass.end();
  const row = CANVAS_SIZE / 2;
  encoder.copyTextureToBuffer(
    { texture, origin: { x: 0, y: row } },
    { buffer: readback, bytesPerRow: rowBytes },
    { width: CANVAS_SIZE, height: 1 },
  );
  device.queue.submit([encoder.finish()]);

  await readback.mapAsync(GPUMapMode.READ);
  const bytes = new Uint8Array(readback.getMappedRange().slice(0));
  readback.unmap();
  readback.destroy();
  const pixel = (x: number): Rgba => {
    const [a, b, c, d] = bytes.subarray(x * 4, x * 4 + 4);
    return format === 'bgra8unorm' ? [c, b, a, d] : [a, b, c, d];
  };

  // Let the compositor present the frame before the test takes a screenshot.
  await nextFrame();
  await nextFrame();
  const info = adapter.info;
  return {
    adapterInfo: {
      vendor: info.vendor,
      architecture: info.architecture,
      device: info.device,
      description: info.description,
    },
    features: [...adapter.features].sort(),
    canvasFormat: format,
    pixelLeft: pixel(CANVAS_SIZE / 4),
    pixelRight: pixel((CANVAS_SIZE * 3) / 4),
  };
}

run().then(
  (result) => (window.__weftResult = result),
  (error: unknown) =>
    (window.__weftResult = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
);
