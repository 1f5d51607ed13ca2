// The render + pick page of the build-time composition test, shared by its two builds: run-time composition (the
// linker in the bundle) and the weftVariants() plugin (a precomposed table, no linker). Both must give equal results.
import { mat4 } from 'wgpu-matrix';
import type { PrecomposedShaders } from '../../../../composer/precomposed.js';
import {
  createBoxMesh,
  createEngineAsync,
  createMeshFromData,
  createScene,
  makePerspectiveCamera,
  readEngineFrameAsync,
  readRenderTargetPixelsAsync,
  renderFrame,
  runTasks,
  usePrecomposedShaders,
  whenEngineReadyAsync,
} from '../../../../engine/index.js';
import { createGeometryRendererTask, GeometryTextureType } from '../../../../geometry/index.js';
import { createGpuPicker, enableDetailedPicking, pickManyAsync } from '../../../../picking/index.js';

/** What the page reports. */
export type PrecomposedPageResult =
  | {
      frame: number[][];
      picks: { x: number; y: number; hit: boolean; name: string | null; point: number[] | null }[];
      detailed: boolean;
      /** The bytes of the world-normal texel under the box centre. */
      worldNormal: number[];
      missError: string;
    }
  | { error: string };

/** Probed pixels (of a 64×48 frame). */
export const probes: readonly [number, number][] = [
  [32, 24],
  [20, 20],
  [44, 30],
  [2, 2],
  [60, 44],
];

/** Renders a rotated box, picks the probes, draws a world-normal G-buffer; `table` null = run-time composition. */
export async function runPrecomposedPage(table: PrecomposedShaders | null): Promise<PrecomposedPageResult> {
  const canvas = document.querySelector<HTMLCanvasElement>('#gpu')!;
  const engine = await createEngineAsync(navigator.gpu, canvas, { devicePixelRatio: 1 });
  engine.device.addEventListener('uncapturederror', (event) =>
    (window.__weftErrors ??= []).push((event as GPUUncapturedErrorEvent).error.message),
  );
  if (table) {
    usePrecomposedShaders(engine, table);
    // The table's shaders compile on the device first; frames return false until they have.
    await whenEngineReadyAsync(engine);
  }
  const scene = createScene(engine, { clearColor: [0.1, 0.2, 0.3, 1] });
  scene.camera = makePerspectiveCamera({ position: [0, 0, 3], target: [0, 0, 0] });
  createBoxMesh(scene, 'box', {}, { worldMatrix: mat4.multiply(mat4.rotationY(0.5), mat4.rotationX(0.4)) });
  renderFrame(scene);
  const pixels = await readEngineFrameAsync(engine);
  const bgra = engine.colorFormat.startsWith('bgra');
  const frame = probes.map(([x, y]) => {
    const p = pixels.subarray((y * engine.width + x) * 4, (y * engine.width + x) * 4 + 4);
    return bgra ? [p[2], p[1], p[0]] : [p[0], p[1], p[2]];
  });
  const picker = createGpuPicker(scene);
  const detailed = enableDetailedPicking(picker);
  const infos = await pickManyAsync(
    picker,
    probes.map(([x, y]) => ({ x, y })),
  );
  const picks = infos.map((info, i) => ({
    x: probes[i][0],
    y: probes[i][1],
    hit: info.hit,
    name: info.pickedMesh?.name ?? null,
    point: info.pickedPoint ? [...info.pickedPoint].map((v) => Math.round(v * 1e4) / 1e4) : null,
  }));
  const geometry = createGeometryRendererTask(scene, {
    size: { width: engine.width, height: engine.height },
    textureDescriptions: [{ type: GeometryTextureType.WORLD_NORMAL }],
  });
  runTasks(engine, [geometry]);
  const normals = await readRenderTargetPixelsAsync(geometry.geometryWorldNormalTexture!, 0, {
    x: 32,
    y: 24,
    width: 1,
    height: 1,
  });
  const worldNormal = [...normals];
  // A mesh shape the page did not declare (colours, no normals): with the plugin a typed miss, at run time it composes.
  let missError = 'none';
  try {
    createMeshFromData(scene, 'undeclared', { positions: new Float32Array(9), colors: new Float32Array(12).fill(1) });
    renderFrame(scene);
  } catch (error) {
    missError = `${(error as Error).name} ${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
  return { frame, picks, detailed, worldNormal, missError };
}
