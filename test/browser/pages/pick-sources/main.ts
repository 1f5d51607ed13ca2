// Picks billboards and splats through weft's GPU picker in Chromium: the contributors load by dynamic import here too.
import { createBillboardSystem, getPickedSpriteIndex } from '../../../../entities/billboards/index.js';
import { createEngineAsync, createScene, makePerspectiveCamera } from '../../../../engine/index.js';
import { createGpuPicker, pickManyAsync } from '../../../../picking/index.js';
import { createSplatMesh, getPickedSplatIndex } from '../../../../entities/splats/index.js';
import { cameraPosition, fovY, type PickSourcesPageResult, size, splatOptions, spritePositions } from './scene.js';

async function run(): Promise<PickSourcesPageResult> {
  const canvas = document.querySelector<HTMLCanvasElement>('#gpu')!;
  const engine = await createEngineAsync(navigator.gpu, canvas, { devicePixelRatio: 1 });
  engine.device.addEventListener('uncapturederror', (event) =>
    (window.__weftErrors ??= []).push((event as GPUUncapturedErrorEvent).error.message),
  );
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: cameraPosition, target: [0, 0, 0], fovY, far: 100 });
  const sprites = createBillboardSystem(scene, 'sprites', {
    positions: spritePositions(),
    sizes: [0.9, 0.7],
    orientation: 'axis',
  });
  const splats = createSplatMesh(scene, 'splats', splatOptions());
  const picker = createGpuPicker(scene);
  const points = Array.from({ length: size.width * size.height }, (_, i) => ({
    x: i % size.width,
    y: Math.floor(i / size.width),
  }));
  const infos = await pickManyAsync(picker, points);
  const picks = infos.map((info, i) => ({
    ...points[i],
    hit: !info.hit
      ? 'miss'
      : info.pickedEntity === sprites
        ? `sprite#${getPickedSpriteIndex(info)}`
        : info.pickedEntity === splats
          ? `splat#${getPickedSplatIndex(info)}`
          : 'other',
    point: info.pickedPoint,
  }));
  return { adapterFeatures: [...engine.adapter!.features].sort(), picks };
}

run().then(
  (result) => (window.__weftResult = result),
  (error: unknown) =>
    (window.__weftResult = { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
);
