import { createForwardRenderTask, type ForwardRenderTask } from './render/forward-render-task.js';
import type { Scene } from './scene.js';
import { runTasks } from './task.js';

const defaultTasks = new WeakMap<Scene, ForwardRenderTask>();

/** Draws the scene with its default forward task into the engine's target; false while the device recovers. */
export function renderFrame(scene: Scene): boolean {
  let task = defaultTasks.get(scene);
  if (!task) {
    task = createForwardRenderTask(scene, { name: 'default-forward' });
    defaultTasks.set(scene, task);
  }
  return runTasks(scene.engine, [task]);
}

/** The default forward task `renderFrame` uses for this scene, if it ran. */
export function getDefaultForwardTask(scene: Scene): ForwardRenderTask | undefined {
  return defaultTasks.get(scene);
}

/** Frees the GPU objects of the scene's default forward task. */
export function disposeDefaultForwardTask(scene: Scene): void {
  defaultTasks.get(scene)?.dispose();
  defaultTasks.delete(scene);
}
