// Picks every pixel of a small scene with triangle detail on (SwiftShader has no primitive-index: the vertex-index
// path) and reports each pick for the Node test to check against its reference.
import {
  createEngineAsync,
  createMeshFromData,
  createScene,
  makePerspectiveCamera,
  setThinInstances,
} from '../../../../engine/index.js';
import { createGpuPicker, enableDetailedPicking, getPickedUV, pickManyAsync } from '../../../../picking/index.js';
import { cameraPosition, type DetailPageResult, type DetailPick, detailMeshes, fovY } from './scene.js';

async function run(): Promise<DetailPageResult> {
  const canvas = document.querySelector<HTMLCanvasElement>('#gpu')!;
  const engine = await createEngineAsync(navigator.gpu, canvas, { devicePixelRatio: 1 });
  engine.device.addEventListener('uncapturederror', (event) =>
    (window.__weftErrors ??= []).push((event as GPUUncapturedErrorEvent).error.message),
  );
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: cameraPosition, target: [0, 0, 0], fovY });
  for (const m of detailMeshes()) {
    const mesh = createMeshFromData(scene, m.name, m.data, { worldMatrix: m.world });
    if (m.thinInstances) setThinInstances(mesh, m.thinInstances);
  }
  const picker = createGpuPicker(scene);
  const enabled = enableDetailedPicking(picker);
  const points: { x: number; y: number }[] = [];
  for (let y = 0; y < engine.height; y++) for (let x = 0; x < engine.width; x++) points.push({ x, y });
  const picks: DetailPick[] = [];
  for (let i = 0; i < points.length; i += 512) {
    const infos = await pickManyAsync(picker, points.slice(i, i + 512));
    infos.forEach((info, k) =>
      picks.push({
        ...points[i + k],
        mesh: info.pickedMesh?.name ?? null,
        instance: info.thinInstanceIndex,
        faceId: info.faceId,
        bu: info.bu,
        bv: info.bv,
        point: info.pickedPoint,
        normal: info.pickedNormalWorld,
        uv: getPickedUV(info),
      }),
    );
  }
  return { adapterFeatures: [...engine.adapter!.features].sort(), enabled, method: picker.detailMethod, picks };
}

run().then(
  (result) => (window.__weftResult = result),
  (error: unknown) =>
    (window.__weftResult = { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
);
