import type { Mesh } from '../../engine/mesh.js';
import {
  createRowWrappedTexture,
  deformationInTextures,
  writeRowWrapped,
} from '../../engine/mesh-deformation-textures.js';

/** The task's copy of a thin-instanced mesh's previous matrices: a second instance buffer owned by the task. */
interface PreviousInstances {
  buffer: GPUBuffer;
  count: number;
  /** The mesh's matrices as of this task's last frame, and their version. */
  last: Float32Array<ArrayBuffer>;
  lastVersion: number;
  /** Version of the data the GPU buffer holds (-1: nothing yet). */
  bufferVersion: number;
}

/** The task's previous bones and morph weights (or VAT playback and time) of a deformed mesh (task-owned GPU copies + CPU copies). */
interface PreviousDeformation {
  bones: GPUTexture | null;
  weights: GPUBuffer | null;
  lastBones: Float32Array<ArrayBuffer>;
  lastWeights: Float32Array<ArrayBuffer>;
  /** VAT: previous playback records and `(time, 0, 0, 0)`; `vatTime` stages the current time when there is no history. */
  vatPlayback: GPUBuffer | null;
  vatInfo: GPUBuffer | null;
  /** On a device without vertex-stage storage buffers: the previous weights and playback in row-wrapped textures. */
  weightTexture: GPUTexture | null;
  vatPlaybackTexture: GPUTexture | null;
  lastVatPlayback: Float32Array<ArrayBuffer>;
  lastVatTime: Float32Array<ArrayBuffer>;
  vatTime: Float32Array<ArrayBuffer>;
  /**
   * Bind resources by name: `prevBoneTexture`, `prevMorphWeights`, `prevVatPlayback`, `prevVatInfo` (the texture
   * variants `prevMorphWeightTexture`, `prevVatPlaybackTexture`).
   */
  resources: Record<string, GPUBindingResource>;
}

/** @internal Velocity history of one mesh in one task. */
export interface MeshVelocityHistory {
  previousWorld: Float32Array;
  /** False until the mesh was drawn (included, visible) in this task's previous frame. */
  valid: boolean;
  instances: PreviousInstances | null;
  deformation: PreviousDeformation | null;
}

/** @internal A task's velocity state: local to the task, advanced only by its own execute(). */
export interface VelocityHistory {
  enabled: boolean;
  previousDepth: boolean;
  excluded: Set<Mesh>;
  /** False until the task has executed once (and after a resize or device change). */
  hasCamera: boolean;
  previousViewProjection: Float32Array;
  meshes: Map<Mesh, MeshVelocityHistory>;
}

/** @internal Makes an empty velocity history (CPU only). */
export function makeVelocityHistory(): VelocityHistory {
  return {
    enabled: false,
    previousDepth: false,
    excluded: new Set(),
    hasCamera: false,
    previousViewProjection: new Float32Array(16),
    meshes: new Map(),
  };
}

/** @internal Forgets every motion (next frame writes zero) and drops GPU buffers; call on device change or dispose. */
export function resetVelocityHistory(history: VelocityHistory, destroyBuffers: boolean): void {
  history.hasCamera = false;
  for (const entry of history.meshes.values()) {
    entry.valid = false;
    if (entry.instances && destroyBuffers) entry.instances.buffer.destroy();
    entry.instances = null;
    if (destroyBuffers) destroyPreviousDeformation(entry.deformation);
    entry.deformation = null;
  }
  history.meshes.clear();
}

/**
 * Record-time: the history entry of a drawn mesh, kept across re-records; a thin-instanced mesh gets a task-owned
 * previous-instance buffer (re-made, and the history invalidated, when its instance count or device changed).
 * @internal
 */
export function ensureMeshVelocityHistory(
  history: VelocityHistory,
  device: GPUDevice,
  label: string,
  mesh: Mesh,
): MeshVelocityHistory {
  let entry = history.meshes.get(mesh);
  if (!entry) {
    entry = { previousWorld: new Float32Array(16), valid: false, instances: null, deformation: null };
    history.meshes.set(mesh, entry);
  }
  const count = mesh.thinInstances ? mesh.thinInstanceCount : 0;
  if (entry.instances && entry.instances.count !== count) {
    entry.instances.buffer.destroy();
    entry.instances = null;
    entry.valid = false;
  }
  if (count > 0 && !entry.instances) {
    entry.instances = {
      buffer: device.createBuffer({
        label: `${label}:previous-instances:${mesh.name}`,
        size: count * 64,
        usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST,
      }),
      count,
      last: new Float32Array(count * 16),
      lastVersion: -1,
      bufferVersion: -1,
    };
    entry.valid = false;
  }
  if (entry.deformation && entry.deformation.lastVatPlayback.length !== mesh.vertexAnimationPlayback.length) {
    destroyPreviousDeformation(entry.deformation); // the VAT instance count changed
    entry.deformation = null;
  }
  if ((mesh.skeleton || mesh.morphTargets || mesh.vertexAnimation) && !entry.deformation) {
    const bones = mesh.skeleton
      ? device.createTexture({
          label: `${label}:previous-bones:${mesh.name}`,
          size: [4, mesh.skeleton.boneCount],
          format: 'rgba32float',
          usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
        })
      : null;
    const textures = deformationInTextures(device);
    const weights =
      mesh.morphTargets && !textures
        ? device.createBuffer({
            label: `${label}:previous-morph-weights:${mesh.name}`,
            size: Math.max(16, Math.ceil(mesh.morphTargets.count / 4) * 16),
            usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
          })
        : null;
    const weightTexture =
      mesh.morphTargets && textures
        ? createRowWrappedTexture(
            device,
            `${label}:previous-morph-weights:${mesh.name}`,
            mesh.morphTargets.count,
            'r32float',
          )
        : null;
    const vat = mesh.vertexAnimation !== null;
    const records = mesh.vertexAnimationPlayback.length / 12;
    const playbackTexture =
      vat && textures
        ? createRowWrappedTexture(device, `${label}:previous-vat-playback:${mesh.name}`, records * 3, 'rgba32float')
        : null;
    const playback =
      vat && !textures
        ? device.createBuffer({
            label: `${label}:previous-vat-playback:${mesh.name}`,
            size: mesh.vertexAnimationPlayback.byteLength,
            usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
          })
        : null;
    const info = vat
      ? device.createBuffer({
          label: `${label}:previous-vat-info:${mesh.name}`,
          size: 16,
          usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
        })
      : null;
    entry.deformation = {
      bones,
      weights,
      vatPlayback: playback,
      vatInfo: info,
      weightTexture,
      vatPlaybackTexture: playbackTexture,
      lastBones: new Float32Array(mesh.skeleton ? mesh.skeleton.boneCount * 16 : 0),
      lastWeights: new Float32Array(mesh.morphWeights.length),
      lastVatPlayback: new Float32Array(mesh.vertexAnimationPlayback.length),
      lastVatTime: new Float32Array(4),
      vatTime: new Float32Array(4),
      resources: {
        ...(bones ? { prevBoneTexture: bones.createView() } : {}),
        ...(weights ? { prevMorphWeights: { buffer: weights } } : {}),
        ...(weightTexture ? { prevMorphWeightTexture: weightTexture.createView() } : {}),
        ...(info ? { prevVatInfo: { buffer: info } } : {}),
        ...(playback ? { prevVatPlayback: { buffer: playback } } : {}),
        ...(playbackTexture ? { prevVatPlaybackTexture: playbackTexture.createView() } : {}),
      },
    };
    entry.valid = false;
  }
  return entry;
}

function destroyPreviousDeformation(previous: PreviousDeformation | null): void {
  previous?.bones?.destroy();
  previous?.weights?.destroy();
  previous?.vatPlayback?.destroy();
  previous?.vatInfo?.destroy();
  previous?.weightTexture?.destroy();
  previous?.vatPlaybackTexture?.destroy();
}

/** @internal Drops entries (and buffers) of meshes no longer drawn. */
export function pruneVelocityHistory(history: VelocityHistory, drawn: ReadonlySet<Mesh>): void {
  for (const [mesh, entry] of history.meshes) {
    if (drawn.has(mesh)) continue;
    entry.instances?.buffer.destroy();
    destroyPreviousDeformation(entry.deformation);
    history.meshes.delete(mesh);
  }
}

/**
 * Execute-time, per draw: writes previousWorld and previousViewProjection at `offset` (floats) of `out` and brings the
 * previous-instance buffer up to date. A mesh without history (first frame, re-included, excluded, hidden) gets the
 * current matrices, so its motion is exactly zero. Allocates nothing. Returns true when the draw's motion is exactly
 * zero by construction (no history, or the same world and instance matrices, camera and deformation state as the
 * previous frame), so the still variant may draw it.
 * @internal
 */
export function writeMeshVelocity(
  queue: GPUQueue,
  history: VelocityHistory,
  entry: MeshVelocityHistory,
  mesh: Mesh,
  viewProjection: Float32Array,
  out: Float32Array,
  offset: number,
): boolean {
  const moving = entry.valid && history.hasCamera && !history.excluded.has(mesh);
  out.set(moving ? entry.previousWorld : mesh.worldMatrix, offset);
  out.set(moving ? history.previousViewProjection : viewProjection, offset + 16);
  const deformation = entry.deformation;
  if (deformation) {
    // Without history the previous deformation is the current one: zero motion.
    if (deformation.bones && mesh.skeleton)
      queue.writeTexture(
        { texture: deformation.bones },
        moving ? deformation.lastBones : mesh.skeleton.matrices,
        { bytesPerRow: 64 },
        [4, mesh.skeleton.boneCount],
      );
    const weights = (moving ? deformation.lastWeights : mesh.morphWeights) as Float32Array<ArrayBuffer>;
    if (deformation.weights && mesh.morphWeights.length) queue.writeBuffer(deformation.weights, 0, weights);
    if (deformation.weightTexture && mesh.morphWeights.length)
      writeRowWrapped(queue, deformation.weightTexture, weights);
    if (deformation.vatInfo) {
      deformation.vatTime[0] = mesh.vertexAnimationTime;
      const playback = moving ? deformation.lastVatPlayback : mesh.vertexAnimationPlayback;
      if (deformation.vatPlayback) queue.writeBuffer(deformation.vatPlayback, 0, playback);
      if (deformation.vatPlaybackTexture) writeRowWrapped(queue, deformation.vatPlaybackTexture, playback);
      queue.writeBuffer(deformation.vatInfo, 0, moving ? deformation.lastVatTime : deformation.vatTime);
    }
  }
  const previous = entry.instances;
  const still =
    !moving ||
    (sameValues(entry.previousWorld, mesh.worldMatrix) &&
      sameValues(history.previousViewProjection, viewProjection) &&
      (!previous || previous.lastVersion === mesh.thinInstanceVersion) &&
      (!deformation || sameDeformation(deformation, mesh)));
  if (!previous || !mesh.thinInstances) return still;
  if (moving) {
    if (previous.bufferVersion !== previous.lastVersion) {
      queue.writeBuffer(previous.buffer, 0, previous.last);
      previous.bufferVersion = previous.lastVersion;
    }
  } else if (previous.bufferVersion !== mesh.thinInstanceVersion) {
    queue.writeBuffer(previous.buffer, 0, mesh.thinInstances);
    previous.bufferVersion = mesh.thinInstanceVersion;
  }
  return still;
}

function sameValues(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The previous bones, morph weights and VAT playback / time equal the current ones. */
function sameDeformation(previous: PreviousDeformation, mesh: Mesh): boolean {
  return (
    (!mesh.skeleton || sameValues(previous.lastBones, mesh.skeleton.matrices)) &&
    sameValues(previous.lastWeights, mesh.morphWeights) &&
    sameValues(previous.lastVatPlayback, mesh.vertexAnimationPlayback) &&
    (!mesh.vertexAnimation || previous.lastVatTime[0] === mesh.vertexAnimationTime)
  );
}

/** @internal Execute-time, after the frame: what was drawn becomes the previous state of this mesh. */
export function advanceMeshVelocity(history: VelocityHistory, entry: MeshVelocityHistory, mesh: Mesh): void {
  entry.previousWorld.set(mesh.worldMatrix);
  entry.valid = mesh.visible && !history.excluded.has(mesh);
  if (entry.deformation) {
    if (mesh.skeleton) entry.deformation.lastBones.set(mesh.skeleton.matrices);
    entry.deformation.lastWeights.set(mesh.morphWeights);
    entry.deformation.lastVatPlayback.set(mesh.vertexAnimationPlayback);
    entry.deformation.lastVatTime[0] = mesh.vertexAnimationTime;
  }
  const previous = entry.instances;
  if (previous && mesh.thinInstances && previous.lastVersion !== mesh.thinInstanceVersion) {
    previous.last.set(mesh.thinInstances);
    previous.lastVersion = mesh.thinInstanceVersion;
  }
}
