import { describeValue } from '../core/errors.js';
import { checkOptionKeys, type OptionKeys } from '../core/options.js';
import type { ForwardRenderTask } from './render/forward-render-task.js';
import type { Camera } from './camera.js';
import type { Engine } from './engine.js';
import { checkEngineArgument } from './argument-checks.js';
import { EngineError, engineOptionError } from './engine-errors.js';
import { disposeMesh, type Mesh } from './mesh.js';
import type { PickSource } from './pick-sources.js';
import type { SceneChangeLog } from './scene-changes.js';
import { disposeDefaultForwardTask } from './render-frame.js';

/** Meshes, a camera and the light of one rendered world. */
export interface Scene {
  readonly engine: Engine;
  readonly meshes: Mesh[];
  camera: Camera | null;
  clearColor: [number, number, number, number];
  ambientColor: [number, number, number];
  /** Unit direction from surfaces towards the light (world space). */
  lightDirection: [number, number, number];
  lightColor: [number, number, number];
  /** Non-mesh pickables (billboards, splats, …) registered with `registerPickSource`. */
  readonly pickSources: PickSource[];
  /** Bumped on add/remove/re-layout: renderers re-record when it changes. */
  structureVersion: number;
  /** Bumped by every `setMeshWorldMatrix` and `setThinInstances`: pickers skip their refit while it holds. */
  changeVersion: number;
  /** Which meshes those setters touched since `changeLog.base`, so pickers refit only those. */
  readonly changeLog: SceneChangeLog;
  nextMeshId: number;
  disposed: boolean;
  /** The forward task `renderFrame` made for this scene on its first call (null until then). */
  defaultForwardTask: ForwardRenderTask | null;
}

/** Options of `createScene`. */
export interface SceneOptions {
  clearColor?: [number, number, number, number];
  ambientColor?: [number, number, number];
  lightDirection?: [number, number, number];
  lightColor?: [number, number, number];
}

const sceneOptionKeys: OptionKeys<SceneOptions> = {
  clearColor: true,
  ambientColor: true,
  lightDirection: true,
  lightColor: true,
};

function checkTriple(
  api: string,
  name: string,
  value: readonly number[] | undefined,
  fallback: [number, number, number],
): [number, number, number] {
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || value.length !== 3 || !value.every(Number.isFinite))
    throw new EngineError(api, 'bad-option', `${name} ${describeValue(value)} must be 3 finite numbers`);
  return [value[0], value[1], value[2]];
}

/**
 * Creates an empty scene on an engine (CPU state only).
 * @throws {EngineError} when the engine is disposed or an option is invalid
 */
export function createScene(engine: Engine, options: SceneOptions = {}): Scene {
  const api = 'createScene';
  checkEngineArgument(api, engine);
  checkOptionKeys(api, options, sceneOptionKeys, engineOptionError);
  const light = checkTriple(api, 'lightDirection', options.lightDirection, [0.4, 0.8, 0.45]);
  const length = Math.hypot(...light);
  if (length === 0) throw new EngineError(api, 'bad-option', 'lightDirection must not be zero');
  const clear = options.clearColor ?? [0.08, 0.09, 0.11, 1];
  if (!Array.isArray(clear) || clear.length !== 4 || !clear.every(Number.isFinite))
    throw new EngineError(api, 'bad-option', `clearColor ${describeValue(clear)} must be 4 finite numbers`);
  return {
    engine,
    meshes: [],
    pickSources: [],
    camera: null,
    clearColor: [clear[0], clear[1], clear[2], clear[3]],
    ambientColor: checkTriple(api, 'ambientColor', options.ambientColor, [0.25, 0.25, 0.25]),
    lightDirection: [light[0] / length, light[1] / length, light[2] / length],
    lightColor: checkTriple(api, 'lightColor', options.lightColor, [0.75, 0.75, 0.75]),
    structureVersion: 0,
    changeVersion: 0,
    changeLog: { base: 0, meshes: [] },
    nextMeshId: 1,
    disposed: false,
    defaultForwardTask: null,
  };
}

/** Disposes every mesh of the scene (their GPU buffers) and marks it unusable. */
export function disposeScene(scene: Scene): void {
  disposeDefaultForwardTask(scene);
  for (const mesh of [...scene.meshes]) disposeMesh(mesh);
  scene.disposed = true;
}
