import { makeComposeCache } from '../composer/compose-shader.js';
import { precomposedSourceOf } from '../engine/precomposed-shaders.js';
import { describeValue } from '../core/errors.js';
import { checkOptionKeys, type OptionKeys } from '../core/options.js';
import { composeGeometryShader } from './geometry-shader.js';
import type { Mesh } from '../engine/mesh.js';
import type { RenderTarget } from '../engine/render-target.js';
import { checkSceneArgument, describeWeftArgument } from '../engine/argument-checks.js';
import type { Scene } from '../engine/scene.js';
import type { Task } from '../engine/task.js';
import { makeGeometryBlitFragment } from '../fragments/geometry-blit.js';
import { makeGeometryFragments, type GeometryOutputName } from '../fragments/geometry-fragments.js';
import {
  disposeFrameIdReader,
  type FrameIdHit,
  createFrameIdReader,
  readFrameIdTexelAsync,
} from '../engine/frame-ids.js';
import { geometrySceneBufferBytes, makeTextureGroupCache } from './geometry-draws.js';
import { GeometryError, geometryOptionError } from './geometry-errors.js';
import { executeGeometryTask } from './geometry-execute.js';
import {
  geometryTaskMeshes,
  isGeometryTransparent,
  recordGeometryTask,
  releaseGeometryDeviceObjects,
} from './geometry-record.js';
import { makeGeometryTargets } from './geometry-targets.js';
import type { GeometryRendererTaskConfig, GeometryTaskState } from './geometry-task-state.js';
import {
  GEOMETRY_OBJECT_ID_DESCRIPTION,
  GEOMETRY_TEXTURE_DESCRIPTIONS,
  GeometryTextureType,
} from './geometry-types.js';
import {
  type GeometryAttachmentPlan,
  normalizeGeometryRequests,
  planGeometryAttachments,
} from './geometry-validation.js';
import { makeVelocityHistory } from './velocity/velocity-history.js';
import { rejectOnDeviceLossAsync } from '../engine/readback.js';
import { meshUsesClockwise } from '../engine/winding.js';

export type { GeometryRendererTaskConfig, GeometryRendererTextureDescription } from './geometry-task-state.js';

/** The geometry renderer: a typed MRT G-buffer of the scene, one single-attachment render target per output. */
export interface GeometryRendererTask extends Task {
  readonly scene: Scene;
  /** Internal state (read by this module's functions and by tests). */
  readonly state: GeometryTaskState;
  /** Every attachment in MRT location order. */
  readonly outputTarget: RenderTarget;
  readonly attachments: readonly GeometryAttachmentPlan[];
  readonly geometryIrradianceTexture: RenderTarget | null;
  readonly geometryWorldPositionTexture: RenderTarget | null;
  readonly geometryLocalPositionTexture: RenderTarget | null;
  readonly geometryReflectivityTexture: RenderTarget | null;
  readonly geometryViewDepthTexture: RenderTarget | null;
  readonly geometryNormalizedViewDepthTexture: RenderTarget | null;
  readonly geometryScreenspaceDepthTexture: RenderTarget | null;
  readonly geometryViewNormalTexture: RenderTarget | null;
  readonly geometryWorldNormalTexture: RenderTarget | null;
  readonly geometryAlbedoTexture: RenderTarget | null;
  readonly geometryLinearVelocityTexture: RenderTarget | null;
  readonly geometryMeshBlendTagTexture: RenderTarget | null;
  readonly geometryObjectIdTexture: RenderTarget | null;
  /** Draw calls encoded by the last execute(). */
  drawCount: number;
}

const api = 'createGeometryRendererTask';

const configKeys: OptionKeys<GeometryRendererTaskConfig> = {
  name: true,
  meshes: true,
  camera: true,
  size: true,
  samples: true,
  depthTexture: true,
  depthLoad: true,
  textureDescriptions: true,
  reverseCulling: true,
  transparentMeshes: true,
  objectId: true,
  reflectivity: true,
  blendTag: true,
};

function checkConfig(
  scene: Scene,
  config: GeometryRendererTaskConfig,
): { samples: 1 | 4; objectId: GPUTextureFormat | null } {
  checkSceneArgument(api, scene, geometryOptionError);
  if (!config || typeof config !== 'object')
    throw new GeometryError(
      api,
      'bad-option',
      `config ${describeValue(config)} must be an object with textureDescriptions`,
    );
  checkOptionKeys(api, config, configKeys, geometryOptionError, 'config');
  if (typeof config.objectId === 'object')
    checkOptionKeys(api, config.objectId, ['format'], geometryOptionError, 'objectId');
  const samples = config.samples ?? 1;
  if (samples !== 1 && samples !== 4)
    throw new GeometryError(api, 'bad-option', `samples ${describeValue(samples)} is not allowed; use 1 or 4`);
  const size = config.size ?? 'canvas';
  if (size !== 'canvas') {
    const max = scene.engine.device.limits.maxTextureDimension2D;
    for (const [key, value] of [
      ['width', size?.width],
      ['height', size?.height],
    ] as const) {
      if (!Number.isInteger(value) || value! < 1 || value! > max)
        throw new GeometryError(
          api,
          'bad-size',
          `size.${key} ${describeValue(value)} must be an integer in 1..${max} (or size: 'canvas')`,
        );
    }
  }
  if (config.depthLoad && !config.depthTexture)
    throw new GeometryError(api, 'bad-option', 'depthLoad needs a shared depthTexture to load from');
  if (config.depthTexture && !config.depthTexture.depthFormat)
    throw new GeometryError(
      api,
      'no-depth',
      `depthTexture "${config.depthTexture.name}" has no depth attachment; create it with a depthFormat`,
    );
  const objectId = config.objectId
    ? config.objectId === true
      ? GEOMETRY_OBJECT_ID_DESCRIPTION.defaultFormat
      : (config.objectId.format ?? GEOMETRY_OBJECT_ID_DESCRIPTION.defaultFormat)
    : null;
  return { samples, objectId };
}

/**
 * Creates the geometry renderer task. Validates everything it can before any pipeline exists (attachment formats,
 * the maxColorAttachmentBytesPerSample rule with alignment, MESH_BLEND_TAG, multisampling, blending); GPU objects
 * are made in record().
 * @throws {GeometryError} when the outputs, formats, sample count or attachment bytes per sample are invalid for the device
 */
export function createGeometryRendererTask(scene: Scene, config: GeometryRendererTaskConfig): GeometryRendererTask {
  const { samples, objectId } = checkConfig(scene, config);
  const engine = scene.engine;
  const name = config.name ?? 'geometry';
  const unordered = normalizeGeometryRequests(api, config.textureDescriptions, objectId);
  const outputs = unordered.map(
    (r) => (r.type === 'objectId' ? 'objectId' : GEOMETRY_TEXTURE_DESCRIPTIONS[r.type].name) as GeometryOutputName,
  );
  const fragments = makeGeometryFragments(outputs);
  const cache = makeComposeCache({ precomposed: precomposedSourceOf(engine) });
  const objectPrimitive = objectId !== null && engine.features.has('primitive-index');
  // The composer orders the outputs (locations); the plan is checked in that order, as the device will check it.
  const probe = composeGeometryShader(
    { outputs, normals: false, uvs: false, colors: false, thinInstances: false, objectPrimitive },
    { cache, fragments, deviceFeatures: engine.features },
  );
  const requests = probe.targets.map((t) => unordered[outputs.indexOf(t.name as GeometryOutputName)]);
  const { device, adapter } = engine;
  const plan = planGeometryAttachments(requests, {
    api,
    samples,
    maxColorAttachments: device.limits.maxColorAttachments,
    maxColorAttachmentBytesPerSample: device.limits.maxColorAttachmentBytesPerSample,
    adapterMaxColorAttachmentBytesPerSample: adapter?.limits.maxColorAttachmentBytesPerSample ?? null,
    float32Blendable: engine.features.has('float32-blendable'),
    blended: (config.transparentMeshes?.length ?? 0) > 0,
  });
  const targets = makeGeometryTargets(engine, name, plan, samples, config.depthTexture?.depthFormat ?? 'depth32float');
  const state: GeometryTaskState = {
    name,
    scene,
    engine,
    config: { ...config },
    setup: {
      samples,
      requests,
      plan,
      outputs,
      fragmentLists: new Map(),
      blitFragments: [makeGeometryBlitFragment()],
      cache,
      objectPrimitive,
      hasVelocity: outputs.includes('linearVelocity'),
    },
    targets,
    velocity: makeVelocityHistory(),
    textureGroups: makeTextureGroupCache(),
    recorded: { device: null, structure: -1, width: 0, height: 0, depth: null, meshes: [], count: 0, table: 0 },
    pipelines: null,
    draws: [],
    ids: { ranges: [], frameRanges: null, reader: createFrameIdReader(`weft:${name}`) },
    uniforms: {
      sceneBuffer: null,
      drawBuffer: null,
      sceneGroup: null,
      drawGroup: null,
      groupsFor: { layout0: null, layout1: null, drawBuffer: null },
      drawData: new Float32Array(0),
      drawWords: new Uint32Array(0),
      sceneData: new Float32Array(geometrySceneBufferBytes / 4),
      matrices: {
        view: new Float32Array(16),
        projection: new Float32Array(16),
        viewProjection: new Float32Array(16),
        scratch: new Float32Array(16),
      },
    },
    pass: { descriptor: null, resolveBlits: [] },
    disposed: false,
  };
  const alias = (type: GeometryTextureType) => {
    const at = plan.find((a) => a.type === type);
    return at ? targets.aliases[at.location] : null;
  };
  const objectIdAt = plan.find((a) => a.type === 'objectId');
  const task: GeometryRendererTask = {
    name,
    scene,
    state,
    outputTarget: targets.mrt,
    attachments: plan,
    drawCount: 0,
    geometryIrradianceTexture: alias(GeometryTextureType.IRRADIANCE),
    geometryWorldPositionTexture: alias(GeometryTextureType.WORLD_POSITION),
    geometryLocalPositionTexture: alias(GeometryTextureType.LOCAL_POSITION),
    geometryReflectivityTexture: alias(GeometryTextureType.REFLECTIVITY),
    geometryViewDepthTexture: alias(GeometryTextureType.VIEW_DEPTH),
    geometryNormalizedViewDepthTexture: alias(GeometryTextureType.NORMALIZED_VIEW_DEPTH),
    geometryScreenspaceDepthTexture: alias(GeometryTextureType.SCREENSPACE_DEPTH),
    geometryViewNormalTexture: alias(GeometryTextureType.VIEW_NORMAL),
    geometryWorldNormalTexture: alias(GeometryTextureType.WORLD_NORMAL),
    geometryAlbedoTexture: alias(GeometryTextureType.ALBEDO),
    geometryLinearVelocityTexture: alias(GeometryTextureType.LINEAR_VELOCITY),
    geometryMeshBlendTagTexture: alias(GeometryTextureType.MESH_BLEND_TAG),
    geometryObjectIdTexture: objectIdAt ? targets.aliases[objectIdAt.location] : null,
    needsRecord: () => geometryNeedsRecord(state),
    record() {
      assertAlive(state, 'GeometryRendererTask.record');
      recordGeometryTask(state);
    },
    execute(encoder) {
      assertAlive(state, 'GeometryRendererTask.execute');
      task.drawCount = executeGeometryTask(state, encoder);
    },
    dispose: () => disposeGeometryTask(state),
  };
  return task;
}

function assertAlive(state: GeometryTaskState, where: string): void {
  if (state.disposed) throw new GeometryError(where, 'disposed', `geometry task "${state.name}" was disposed`);
}

/** The task's state when `task` is a geometry task; `bad-option` naming what was passed in its place otherwise. */
function taskStateOf(task: GeometryRendererTask, where: string): GeometryTaskState {
  const state = (task as Partial<GeometryRendererTask> | null)?.state;
  if (!state || typeof state !== 'object' || typeof state.disposed !== 'boolean')
    throw new GeometryError(
      where,
      'bad-option',
      `task is ${describeWeftArgument(task)}; pass the task made by createGeometryRendererTask(scene, config)`,
    );
  return state;
}

function aliveTaskState(task: GeometryRendererTask, where: string): GeometryTaskState {
  const state = taskStateOf(task, where);
  assertAlive(state, where);
  return state;
}

/** True when the device, scene structure, size, shared depth, mesh list, a material or a transparency changed since the last record. */
function geometryNeedsRecord(state: GeometryTaskState): boolean {
  if (
    state.recorded.device !== state.engine.device ||
    state.recorded.structure !== state.scene.structureVersion ||
    state.recorded.table !== (state.setup.cache.precomposed?.generation ?? 0)
  )
    return true;
  const size = state.config.size;
  const fixed = size && size !== 'canvas';
  if (
    (fixed ? size.width : state.engine.width) !== state.recorded.width ||
    (fixed ? size.height : state.engine.height) !== state.recorded.height
  )
    return true;
  const shared = state.config.depthTexture;
  if (shared && shared.textures?.depth !== state.recorded.depth) return true;
  const meshes = geometryTaskMeshes(state);
  if (meshes.length !== state.recorded.meshes.length) return true;
  for (let i = 0; i < meshes.length; i++) if (meshes[i] !== state.recorded.meshes[i]) return true;
  for (const draw of state.draws) {
    // A mesh (or instance) that started mirroring needs its clockwise pipeline, which only record() may create.
    if (!draw.mirroredLease && draw.mesh.visible && meshUsesClockwise(draw.mesh)) return true;
    if (
      draw.material !== draw.mesh.material ||
      draw.mesh.disposed ||
      draw.transparent !== isGeometryTransparent(state, draw.mesh)
    )
      return true;
  }
  return false;
}

function disposeGeometryTask(state: GeometryTaskState): void {
  if (state.disposed) return;
  releaseGeometryDeviceObjects(state);
  disposeFrameIdReader(state.ids.reader);
  state.recorded.device = null;
  state.disposed = true;
  for (const target of [state.targets.mrt, ...state.targets.aliases]) target.disposed = true;
}

/** Options of `enableGeometryVelocity`. */
export interface GeometryVelocityOptions {
  /** Write the previous positive view depth into LINEAR_VELOCITY z (needs a float RGBA format and a perspective camera). */
  previousDepth?: boolean;
}

/**
 * Configures LINEAR_VELOCITY before the task's first record (requesting the type already turns velocity on).
 * @throws {GeometryError} when the task has already recorded
 */
export function enableGeometryVelocity(task: GeometryRendererTask, options: GeometryVelocityOptions = {}): void {
  const where = 'enableGeometryVelocity';
  const state = aliveTaskState(task, where);
  checkOptionKeys(where, options, ['previousDepth'] satisfies (keyof GeometryVelocityOptions)[], geometryOptionError);
  if (state.recorded.count > 0)
    throw new GeometryError(
      where,
      'already-recorded',
      `task "${state.name}" has already recorded; call enableGeometryVelocity right after createGeometryRendererTask, before the first frame`,
    );
  const attachment = state.setup.plan.find((a) => a.type === GeometryTextureType.LINEAR_VELOCITY);
  if (!attachment)
    throw new GeometryError(
      where,
      'not-enabled',
      `task "${state.name}" has no LINEAR_VELOCITY attachment; add { type: GeometryTextureType.LINEAR_VELOCITY } to textureDescriptions`,
    );
  if (options.previousDepth && !['rgba16float', 'rgba32float'].includes(attachment.format)) {
    throw new GeometryError(
      where,
      'bad-format',
      `previousDepth writes z, which needs a float RGBA LINEAR_VELOCITY format (rgba16float or rgba32float); the task uses ${JSON.stringify(attachment.format)}`,
    );
  }
  const camera = state.config.camera ?? state.scene.camera;
  if (options.previousDepth && camera && camera.kind !== 'perspective')
    throw new GeometryError(
      where,
      'bad-option',
      `previousDepth needs a perspective camera; got ${String(camera.kind)}`,
    );
  state.velocity.previousDepth = options.previousDepth === true;
}

/** Excluded meshes write zero velocity in this task (their history restarts when included again). */
export function excludeFromVelocity(task: GeometryRendererTask, mesh: Mesh): void {
  taskStateOf(task, 'excludeFromVelocity');
  task.state.velocity.excluded.add(mesh);
}

/** Gives an excluded mesh its velocity back; its first frame after inclusion writes zero motion. */
export function includeInVelocity(task: GeometryRendererTask, mesh: Mesh): void {
  taskStateOf(task, 'includeInVelocity');
  task.state.velocity.excluded.delete(mesh);
}

/**
 * What covered pixel (x, y) in the last frame this task rendered: mesh, thin instance and primitive, from the
 * object-ID output and that frame's ID snapshot. No extra pass: one texel copy and a map.
 */
export function readGeometryFrameIdAsync(task: GeometryRendererTask, x: number, y: number): Promise<FrameIdHit> {
  const where = 'readGeometryFrameIdAsync';
  const state = aliveTaskState(task, where);
  const target = task.geometryObjectIdTexture;
  if (!target)
    return Promise.reject(
      new GeometryError(
        where,
        'not-enabled',
        `task "${state.name}" has no object-ID output; create it with objectId: true`,
      ),
    );
  const ranges = state.ids.frameRanges;
  if (!ranges || !target.textures || state.recorded.device !== state.engine.device)
    return Promise.reject(
      new GeometryError(
        where,
        'no-frame',
        `task "${state.name}" has not rendered a frame on the current device yet; run it first`,
      ),
    );
  const device = state.engine.device;
  return rejectOnDeviceLossAsync(
    device,
    readFrameIdTexelAsync(state.ids.reader, device, target.textures.colors[0], ranges, x, y),
    (message) => new GeometryError(where, 'device-lost', message),
  );
}
