// Renders a weft scene on a canvas with an explicit device-pixel ratio and reports what it read back.
import { mat4 } from 'wgpu-matrix';
import { boxRgb, clearRgb, type EnginePageResult } from './expected.js';
import {
  createBoxMesh,
  createEngineAsync,
  createScene,
  makePerspectiveCamera,
  makeStandardMaterial,
  readEngineFrameAsync,
  renderFrame,
} from '../../../../engine/index.js';

async function run(): Promise<EnginePageResult> {
  const canvas = document.querySelector<HTMLCanvasElement>('#gpu')!;
  const engine = await createEngineAsync(navigator.gpu, canvas, { devicePixelRatio: 2 });
  engine.device.addEventListener('uncapturederror', (event) =>
    (window.__weftErrors ??= []).push((event as GPUUncapturedErrorEvent).error.message),
  );
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
  renderFrame(scene);
  // One read: a canvas texture is only valid until the frame is presented.
  const frame = await readEngineFrameAsync(engine);
  const texel = (x: number, y: number) => frame.subarray((y * engine.width + x) * 4, (y * engine.width + x) * 4 + 4);
  const centre = texel(engine.width / 2, engine.height / 2);
  const corner = texel(1, 1);
  // The read-back frame was not presented; draw once more for the screenshot.
  renderFrame(scene);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const bgra = engine.colorFormat.startsWith('bgra');
  const rgb = (p: Uint8Array) => (bgra ? [p[2], p[1], p[0]] : [p[0], p[1], p[2]]);
  return {
    backing: [canvas.width, canvas.height],
    format: engine.colorFormat,
    adapterFeatures: [...engine.adapter!.features].sort(),
    features: [...engine.features].sort(),
    centre: rgb(centre),
    corner: rgb(corner),
  };
}

run().then(
  (result) => (window.__weftResult = result),
  (error: unknown) =>
    (window.__weftResult = { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
);
