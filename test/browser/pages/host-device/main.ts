// The host owns the device and the canvas context; weft's engine adopts both, survives the host's device loss and
// draws again on the device the host hands over.
import { mat4 } from 'wgpu-matrix';
import {
  createBoxMesh,
  createEngineFromDeviceAsync,
  createScene,
  EngineError,
  makePerspectiveCamera,
  makeStandardMaterial,
  readEngineFrameAsync,
  renderFrame,
  setEngineDeviceAsync,
} from '../../../../engine/index.js';
import { boxRgb, clearRgb } from '../engine/expected.js';
import type { HostDevicePageResult } from './expected.js';

async function hostDevice(label: string): Promise<GPUDevice> {
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) throw new Error('no WebGPU adapter');
  const device = await adapter.requestDevice({ label });
  device.addEventListener('uncapturederror', (event) =>
    (window.__weftErrors ??= []).push((event as GPUUncapturedErrorEvent).error.message),
  );
  return device;
}

async function run(): Promise<HostDevicePageResult> {
  const canvas = document.querySelector<HTMLCanvasElement>('#gpu')!;
  const context = canvas.getContext('webgpu')!;
  const first = await hostDevice('host-first');
  const engine = await createEngineFromDeviceAsync(first, context, { devicePixelRatio: 2 });
  const scene = createScene(engine, { clearColor: [clearRgb[0] / 255, clearRgb[1] / 255, clearRgb[2] / 255, 1] });
  scene.camera = makePerspectiveCamera({ position: [0, 0, 3], target: [0, 0, 0] });
  createBoxMesh(
    scene,
    'box',
    {},
    {
      worldMatrix: mat4.rotationZ(0.2),
      material: makeStandardMaterial({ baseColor: boxRgb.map((c) => c / 255), unlit: true }),
    },
  );
  const bgra = engine.colorFormat.startsWith('bgra');
  const rgb = (p: Uint8Array) => (bgra ? [p[2], p[1], p[0]] : [p[0], p[1], p[2]]);
  const read = async () => {
    renderFrame(scene);
    const frame = await readEngineFrameAsync(engine);
    const texel = (x: number, y: number) => frame.subarray((y * engine.width + x) * 4, (y * engine.width + x) * 4 + 4);
    return { centre: rgb(texel(engine.width / 2, engine.height / 2)), corner: rgb(texel(1, 1)) };
  };
  const before = await read();
  first.destroy();
  await first.lost;
  let refused = '';
  try {
    renderFrame(scene);
  } catch (error) {
    refused = error instanceof EngineError ? error.code : String(error);
  }
  const second = await hostDevice('host-second');
  await setEngineDeviceAsync(engine, second);
  const after = await read();
  // The read-back frame was not presented; draw once more for the screenshot.
  renderFrame(scene);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return {
    backing: [canvas.width, canvas.height],
    owner: engine.deviceOwner,
    sameDevice: engine.device === second,
    refused,
    before,
    after,
  };
}

run().then(
  (result) => (window.__weftResult = result),
  (error: unknown) =>
    (window.__weftResult = { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
);
