import { createForwardRenderTask, type ForwardRenderTask } from './render/forward-render-task.js';
import { checkSceneArgument } from './argument-checks.js';
import type { Scene } from './scene.js';
import { runTasks } from './task.js';

/** Draws the scene with its default forward task into the engine's target; false while the device recovers. */
export function renderFrame(scene: Scene): boolean {
  checkSceneArgument('renderFrame', scene);
  scene.defaultForwardTask ??= createForwardRenderTask(scene, { name: 'default-forward' });
  return runTasks(scene.engine, [scene.defaultForwardTask]);
}

/** The default forward task `renderFrame` uses for this scene, if it ran. */
export function getDefaultForwardTask(scene: Scene): ForwardRenderTask | undefined {
  return scene.defaultForwardTask ?? undefined;
}

/** @internal Frees the GPU objects of the scene's default forward task. */
export function disposeDefaultForwardTask(scene: Scene): void {
  scene.defaultForwardTask?.dispose();
  scene.defaultForwardTask = null;
}
