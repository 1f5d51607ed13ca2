import { makeEmptyAabb, unionAabb } from '../engine/bounds.js';
import { getMeshWorldBounds } from '../engine/mesh.js';
import { readRenderTargetPixelsAsync } from '../engine/render-target.js';
import type { Scene } from '../engine/scene.js';
import { runTasks, type Task } from '../engine/task.js';
import type { BlitRemap } from './blit-pass.js';
import { createCopyToTextureTask } from './copy-to-texture-task.js';
import { GeometryError } from './geometry-errors.js';
import { createGeometryRendererTask, type GeometryRendererTask } from './geometry-renderer-task.js';
import { GEOMETRY_TEXTURE_DESCRIPTIONS, GeometryTextureType } from './geometry-types.js';

/** The strip's outputs, in display order. */
export const geometryStripTypes: readonly GeometryTextureType[] = [
  GeometryTextureType.NORMALIZED_VIEW_DEPTH,
  GeometryTextureType.VIEW_NORMAL,
  GeometryTextureType.WORLD_NORMAL,
  GeometryTextureType.WORLD_POSITION,
  GeometryTextureType.REFLECTIVITY,
  GeometryTextureType.ALBEDO,
];

/** One strip image: rgba8, width × height × 4 bytes, rows top to bottom. */
export interface GeometryStripImage {
  name: string;
  rgba: Uint8Array;
}

/** World positions mapped into the visible meshes' bounds (0..1 per axis); background black. */
function worldPositionRemap(scene: Scene): BlitRemap {
  const box = makeEmptyAabb();
  for (const mesh of scene.meshes) if (mesh.visible) unionAabb(box, getMeshWorldBounds(mesh));
  const extent = [0, 1, 2].map((c) => Math.max(1e-6, box.max[c] - box.min[c]));
  const min = [0, 1, 2].map((c) => (Number.isFinite(box.min[c]) ? box.min[c] : 0));
  return {
    scale: [1 / extent[0], 1 / extent[1], 1 / extent[2], 0],
    bias: [-min[0] / extent[0], -min[1] / extent[1], -min[2] / extent[2], 1],
    maskByAlpha: true,
  };
}

function remapOf(scene: Scene, type: GeometryTextureType): BlitRemap {
  if (type === GeometryTextureType.NORMALIZED_VIEW_DEPTH) return 'depth';
  if (type === GeometryTextureType.VIEW_NORMAL || type === GeometryTextureType.WORLD_NORMAL) return 'normal';
  if (type === GeometryTextureType.WORLD_POSITION) return worldPositionRemap(scene);
  return 'identity';
}

/** Geometry tasks covering `types`: one when the device's bytes-per-sample limit allows, else halves until each fits. */
function createTasksFor(
  scene: Scene,
  types: readonly GeometryTextureType[],
  size: { width: number; height: number },
): GeometryRendererTask[] {
  try {
    return [
      createGeometryRendererTask(scene, {
        name: `geometry-strip-${types.join('-')}`,
        size,
        textureDescriptions: types.map((type) => ({ type })),
      }),
    ];
  } catch (error) {
    if (!(error instanceof GeometryError) || error.code !== 'limit-exceeded' || types.length < 2) throw error;
    const half = Math.ceil(types.length / 2);
    return [...createTasksFor(scene, types.slice(0, half), size), ...createTasksFor(scene, types.slice(half), size)];
  }
}

/**
 * Renders the demo strip: six rgba8 images of the scene's G-buffer (normalized view depth, view normal, world normal,
 * world position, reflectivity, albedo), each through a copy-to-texture task (a remapping blit for float attachments).
 * On a device limited to WebGPU's default 32 bytes per sample (`requiredLimits: { maxColorAttachmentBytesPerSample: 32 }`)
 * the outputs are split over two geometry passes; on a default engine (the adapter's limit, e.g. 64 or more) they share
 * one.
 * @throws {GeometryError} when the scene has no camera
 */
export async function renderGeometryStripAsync(
  scene: Scene,
  size: { width: number; height: number },
): Promise<GeometryStripImage[]> {
  if (!scene.camera)
    throw new GeometryError('renderGeometryStripAsync', 'no-camera', 'the scene has no camera; set scene.camera first');
  const geometry = createTasksFor(scene, geometryStripTypes, size);
  const tasks: Task[] = [...geometry];
  try {
    const copies = geometryStripTypes.map((type) => {
      const { accessor, name } = GEOMETRY_TEXTURE_DESCRIPTIONS[type];
      const source = geometry
        .map((task) => task[accessor as keyof GeometryRendererTask])
        .find(Boolean) as GeometryRendererTask['geometryAlbedoTexture'];
      const copy = createCopyToTextureTask(scene, {
        name: `strip-${name}`,
        sourceTexture: source!,
        remap: remapOf(scene, type),
      });
      tasks.push(copy);
      return { name, copy };
    });
    runTasks(scene.engine, tasks);
    return await Promise.all(
      copies.map(async ({ name, copy }) => ({ name, rgba: await readRenderTargetPixelsAsync(copy.outputTexture) })),
    );
  } finally {
    for (const task of tasks) task.dispose();
  }
}
