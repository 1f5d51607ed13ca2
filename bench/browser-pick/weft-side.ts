// The weft half of the bench page: the pick scenes and the G-buffer scene on weft's own engine and device.
import { mat4 } from 'wgpu-matrix';
import {
  createBoxMesh,
  createForwardRenderTask,
  createMeshFromData,
  createScene,
  disposeScene,
  type Engine,
  type ForwardRenderTask,
  makeBoxData,
  makePerspectiveCamera,
  makeSphereData,
  makeStandardMaterial,
  makeTorusData,
  runTasks,
  type Scene,
  type Task,
} from '../../engine/index.js';
import { createGeometryRendererTask, GeometryTextureType } from '../../geometry/index.js';
import {
  createGpuPicker,
  disposeGpuPicker,
  type GpuPicker,
  type PickingInfo,
  pickAsync,
  pickManyAsync,
  pickRectAsync,
} from '../../picking/index.js';
import {
  boxSize,
  centre,
  gbufferColour,
  gbufferPlacement,
  gbufferRowPlacement,
  gridCell,
  type HitKey,
  marquee,
  type PickSceneSpec,
  pickCamera,
  points,
} from './shared.js';

/** The six G-buffer outputs weft renders (depth, two normals, position, reflectivity, albedo). */
export const weftOutputs = [
  GeometryTextureType.NORMALIZED_VIEW_DEPTH,
  GeometryTextureType.VIEW_NORMAL,
  GeometryTextureType.WORLD_NORMAL,
  GeometryTextureType.WORLD_POSITION,
  GeometryTextureType.REFLECTIVITY,
  GeometryTextureType.ALBEDO,
];

export interface WeftPickSide {
  scene: Scene;
  picker: GpuPicker;
}

/** The grid of boxes (separate meshes or thin instances of one) and a GPU picker with default options. */
export function createWeftPickSide(engine: Engine, spec: PickSceneSpec): WeftPickSide {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ ...pickCamera, position: [...pickCamera.position], target: [0, 0, 0] });
  const side = Math.ceil(Math.sqrt(spec.count));
  const size = { width: boxSize, height: boxSize, depth: boxSize };
  if (spec.thin) {
    const matrices = new Float32Array(spec.count * 16);
    for (let i = 0; i < spec.count; i++) matrices.set(mat4.translation(gridCell(i, side)), i * 16);
    createBoxMesh(scene, 'boxes', size, { thinInstances: matrices });
  } else {
    for (let i = 0; i < spec.count; i++)
      createBoxMesh(scene, `box${i}`, size, { worldMatrix: mat4.translation(gridCell(i, side)) });
  }
  return { scene, picker: createGpuPicker(scene) };
}

export function disposeWeftPickSide(side: WeftPickSide): void {
  disposeGpuPicker(side.picker);
  disposeScene(side.scene);
}

function keyOf(mesh: { name: string } | null, thinInstanceIndex: number): HitKey {
  if (!mesh) return '-';
  return thinInstanceIndex >= 0 ? `${mesh.name}#${thinInstanceIndex}` : mesh.name;
}

const infoKey = (info: PickingInfo): HitKey => (info.hit ? keyOf(info.pickedMesh, info.thinInstanceIndex) : '-');

/** The public API as a user calls it, default options. */
export const weftPick = (side: WeftPickSide) => pickAsync(side.picker, centre.x, centre.y);
export const weftPickMany = (side: WeftPickSide) => pickManyAsync(side.picker, points);
export const weftPickRect = (side: WeftPickSide) =>
  pickRectAsync(side.picker, marquee.x, marquee.y, marquee.width, marquee.height);

/** The answers to the three requests, as hit keys (the marquee's sorted). */
export async function weftAnswers(side: WeftPickSide): Promise<{ centre: HitKey; many: HitKey[]; rect: HitKey[] }> {
  const single = await weftPick(side);
  const many = await weftPickMany(side);
  const rect = await weftPickRect(side);
  return {
    centre: infoKey(single),
    many: many.map(infoKey),
    rect: rect.map((identity) => keyOf(identity.mesh, identity.thinInstanceIndex)).sort(),
  };
}

export interface WeftGbufferSide {
  scene: Scene;
  forward: ForwardRenderTask;
  gbuffer: Task;
}

/** 90 lit meshes (spheres, boxes, tori) and a thin-instanced row of 6 spheres in a block that fills the view. */
export function createWeftGbufferSide(engine: Engine): WeftGbufferSide {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [0, 3, 9], target: [0, 0, 0], fovY: 0.9, far: 60 });
  const shapes = [
    makeSphereData({ radius: 0.45, segments: 32, rings: 16 }),
    makeBoxData({ width: 0.8, height: 0.8, depth: 0.8 }),
    makeTorusData({ radius: 0.4, tube: 0.14 }),
  ];
  for (let i = 0; i < 90; i++) {
    const [x, y, z, angle] = gbufferPlacement(i);
    createMeshFromData(scene, `m${i}`, shapes[i % 3], {
      worldMatrix: mat4.multiply(mat4.translation([x, y, z]), mat4.rotationY(angle)),
      material: makeStandardMaterial({ baseColor: gbufferColour(i) }),
    });
  }
  const instances = new Float32Array(6 * 16);
  for (let k = 0; k < 6; k++) instances.set(mat4.translation(gbufferRowPlacement(k)), k * 16);
  createMeshFromData(scene, 'row', shapes[0], { thinInstances: instances });
  // The forward frame draws to the canvas, as the Babylon.js frame does; the G-buffer into its own textures.
  const forward = createForwardRenderTask(scene);
  const gbuffer = createGeometryRendererTask(scene, { textureDescriptions: weftOutputs.map((type) => ({ type })) });
  return { scene, forward, gbuffer };
}

/** One frame of `tasks` in one submit, timed until the queue has finished it. */
export async function weftFrameAsync(engine: Engine, tasks: Task[]): Promise<number> {
  const start = performance.now();
  runTasks(engine, tasks);
  await engine.device.queue.onSubmittedWorkDone();
  return performance.now() - start;
}
