import { makeComposeCache } from '../../composer/compose-shader.js';
import { precomposedSourceOf } from '../precomposed-shaders.js';
import { EngineError, engineOptionError } from '../engine-errors.js';
import { checkOptionKeys, type OptionKeys } from '../../core/options.js';
import type { FrameIdHit } from '../frame-ids.js';
import { rejectOnDeviceLossAsync } from '../readback.js';
import { checkSceneArgument } from '../argument-checks.js';
import type { Scene } from '../scene.js';
import type { Task } from '../task.js';
import { executeForwardTask } from './forward-execute.js';
import { type ForwardObjectIds, makeForwardObjectIds, readObjectIdTexel } from './forward-object-ids.js';
import { disposeForwardTask, forwardNeedsRecord, recordForwardTask } from './forward-record.js';
import type { ForwardRenderTaskOptions, ForwardTaskState } from './forward-task-state.js';
import { getEngineUniformLayouts } from '../uniform-layouts.js';

export type { ForwardRenderTaskOptions } from './forward-task-state.js';

/** The forward renderer: draws the scene with the standard material. */
export interface ForwardRenderTask extends Task {
  readonly scene: Scene;
  /** Draw calls encoded by the last `execute()`. */
  drawCount: number;
  /** The object-ID attachment and its frame ranges, when created with `objectIds: true`. */
  readonly objectIds: ForwardObjectIds | null;
}

const forwardTaskOptionKeys: OptionKeys<ForwardRenderTaskOptions> = {
  name: true,
  target: true,
  camera: true,
  meshes: true,
  objectIds: true,
};

/**
 * Creates the forward render task (GPU objects are made in `record()`).
 * @throws {EngineError} when the scene is disposed or an option is invalid
 */
export function createForwardRenderTask(scene: Scene, options: ForwardRenderTaskOptions = {}): ForwardRenderTask {
  checkSceneArgument('createForwardRenderTask', scene);
  checkOptionKeys('createForwardRenderTask', options, forwardTaskOptionKeys, engineOptionError);
  const engine = scene.engine;
  const name = options.name ?? 'forward';
  const objectIds = options.objectIds ? makeForwardObjectIds(`weft:${name}`) : null;
  if (objectIds && options.target && options.target.samples !== 1) {
    throw new EngineError(
      'createForwardRenderTask',
      'bad-option',
      `task "${name}": objectIds needs a single-sample target; render target "${options.target.name}" has ${options.target.samples} samples`,
    );
  }
  const state: ForwardTaskState = {
    name,
    scene,
    engine,
    options,
    objectIds,
    shaderOptions: {
      objectIds: objectIds !== null,
      objectPrimitive: objectIds !== null && engine.features.has('primitive-index'),
    },
    composeCache: makeComposeCache({ precomposed: precomposedSourceOf(engine) }),
    fragmentLists: new Map(),
    recorded: { device: null, structure: -1, size: '', table: -1 },
    pipelines: null,
    draws: [],
    uniforms: {
      sceneBuffer: null,
      drawBuffer: null,
      sceneGroup: null,
      drawGroup: null,
      sceneData: new Float32Array(getEngineUniformLayouts().scene.size / 4),
      drawData: new Float32Array(0),
      drawWords: new Uint32Array(0),
      scratch: new Float32Array(16),
    },
    depthTexture: null,
    textures: new Map(),
    views: new WeakMap(),
  };
  const task: ForwardRenderTask = {
    name,
    scene,
    drawCount: 0,
    objectIds,
    needsRecord: () => forwardNeedsRecord(state),
    record: () => recordForwardTask(state),
    execute(encoder) {
      task.drawCount = executeForwardTask(state, encoder);
    },
    dispose: () => disposeForwardTask(state),
  };
  return task;
}

/** What the task's last executed frame drew at framebuffer pixel (x, y): mesh, thin instance, triangle. No extra pass. */
export function readForwardFrameIdAsync(task: ForwardRenderTask, x: number, y: number): Promise<FrameIdHit> {
  if (!task.objectIds)
    return Promise.reject(
      new EngineError(
        'readForwardFrameIdAsync',
        'not-enabled',
        `task "${task.name}" was created without objectIds: true`,
      ),
    );
  const device = task.scene.engine.device;
  return rejectOnDeviceLossAsync(
    device,
    readObjectIdTexel(task.objectIds, device, task.name, x, y),
    (message) => new EngineError('readForwardFrameIdAsync', 'device-lost', message),
  );
}
