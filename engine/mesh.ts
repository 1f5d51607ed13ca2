import { mat4 } from 'wgpu-matrix';
import { describeValue } from '../core/errors.js';
import { checkOptionKeys, checkOptionTypes, describeArgument, type OptionKeys } from '../core/options.js';
import { type Aabb, computePositionsAabb, makeEmptyAabb, transformAabb, unionAabb } from './bounds.js';
import { checkMeshArgument, checkSceneArgument } from './argument-checks.js';
import { EngineError, engineOptionError, MeshDataError } from './engine-errors.js';
import { isStandardMaterial, makeStandardMaterial, type StandardMaterial } from './material.js';
import { extractPositions, makeMeshGeometry, type MeshData, type MeshGeometry } from './mesh-data.js';
import type { Skeleton } from './skeleton.js';
import type { VertexAnimation } from './vertex-animation-types.js';
import { type MeshDeformationGpu, disposeMeshDeformation } from './mesh-deformation.js';
import { checkDeformation, checkVertexAnimation, type MeshMorphTargets } from './mesh-deformation-checks.js';
import { checkDeformationTexels } from './mesh-deformation-textures.js';

export type { MeshMorphTargets } from './mesh-deformation-checks.js';
import type { Engine } from './engine.js';
import type { Scene } from './scene.js';
import { recordMeshChange } from './scene-changes.js';
import { copyThinInstanceMatrix } from './thin-instance-matrix.js';
import { checkMeshHostBuffers, type MeshHostBuffers } from './mesh-host-buffers.js';

/** GPU copies of a mesh's data on one device (rebuilt lazily after device loss). */
export interface MeshGpu {
  device: GPUDevice;
  vertexBuffers: GPUBuffer[];
  indexBuffer: GPUBuffer | null;
  instanceBuffer: GPUBuffer | null;
  instanceCapacity: number;
  uploadedInstanceVersion: number;
  /** True when the vertex and index buffers are the host's (`mesh.hostBuffers`): weft never destroys them. */
  hostOwned?: boolean;
}

/**
 * A Float32Array that may only be read: index writes and the mutating methods are type errors. The mesh owns it and
 * changes it only through its setters (`setMeshWorldMatrix`), which bump the versions pickers and renderers check.
 */
export interface ReadonlyFloat32Array extends Float32Array<ArrayBuffer> {
  readonly [index: number]: number;
  set: never;
  fill: never;
  copyWithin: never;
  reverse: never;
  sort: never;
}

/** A drawable triangle mesh with CPU data retained for bounds and picking. */
export interface Mesh {
  readonly uniqueId: number;
  name: string;
  readonly scene: Scene;
  readonly geometry: MeshGeometry;
  /** Local positions, xyz per vertex (a tight copy even for interleaved meshes). */
  readonly positions: Float32Array;
  readonly localBounds: Aabb;
  material: StandardMaterial;
  /**
   * Column-major local → world transform, read-only: change it with `setMeshWorldMatrix` (which bumps `worldVersion`
   * and the scene's `changeVersion`, so pickers refit only when something moved). Writes through a cast or a `dst`
   * argument are not seen.
   */
  readonly worldMatrix: ReadonlyFloat32Array;
  /** Bumped by every `setMeshWorldMatrix`. */
  readonly worldVersion: number;
  pickable: boolean;
  visible: boolean;
  /**
   * 16 floats per instance; the w lanes (3, 7, 11, 15) are a free payload, drawn as 0, 0, 0, 1. Read-only: change
   * instances with `setThinInstances` (which bumps `thinInstanceVersion`, so the renderer re-uploads and pickers
   * refit); an edit through a cast is neither drawn nor picked.
   */
  readonly thinInstances: ReadonlyFloat32Array | null;
  readonly thinInstanceCount: number;
  readonly thinInstanceVersion: number;
  gpu: MeshGpu | null;
  /** Bones of a skinned mesh (null when not skinned). */
  skeleton: Skeleton | null;
  morphTargets: MeshMorphTargets | null;
  /** One weight per morph target; edit in place, the renderers upload it every frame. */
  morphWeights: Float32Array;
  /** Baked per-frame bones (VAT) the mesh's joints index (null when not VAT-animated). */
  readonly vertexAnimation: VertexAnimation | null;
  /** 12 floats per playback record (one per thin instance, else one); edit in place, uploaded every frame. Empty without VAT. */
  readonly vertexAnimationPlayback: Float32Array<ArrayBuffer>;
  /** Time (seconds) of the vertex animation; set it, the renderers and picks use it as of their next frame / pick. */
  vertexAnimationTime: number;
  /** GPU bones, morph and VAT data (see mesh-deformation.ts). */
  deformationGpu: MeshDeformationGpu | null;
  /** The host's GPU buffers this mesh is drawn from (null: weft uploads its own copies); see `setMeshHostBuffers`. */
  readonly hostBuffers: Readonly<MeshHostBuffers> | null;
  disposed: boolean;
}

/** Options of `createMeshFromData`. */
export interface MeshOptions {
  material?: StandardMaterial;
  worldMatrix?: ArrayLike<number>;
  pickable?: boolean;
  visible?: boolean;
  thinInstances?: Float32Array;
  /** Bones the mesh's joints index; required with joints/weights. */
  skeleton?: Skeleton;
  /** Morph targets: per target a position delta per vertex (xyz), optional normal deltas. */
  morphTargets?: { positions: readonly Float32Array[]; normals?: readonly Float32Array[] };
  /** Initial morph weights (default 0 each); later change `mesh.morphWeights` in place. */
  morphWeights?: ArrayLike<number>;
  /** Baked bones per frame (`makeVertexAnimation`); the mesh needs joints/weights. Not with `skeleton` or `morphTargets`. */
  vertexAnimation?: VertexAnimation;
  /**
   * Playback records, 12 floats each (one per thin instance, else one): clip A (fromFrame, toFrame, offset, speed),
   * clip B (same), (weightB, 0, 0, 0). Default: every instance plays all frames, speed 1, no blend.
   */
  vertexAnimationPlayback?: ArrayLike<number>;
  /**
   * Draw from buffers the host engine already holds instead of uploading `data` (no second copy on the GPU): one per
   * vertex buffer of the data, the index buffer, optionally the thin-instance matrices. weft never writes or destroys
   * them. The CPU data stays what bounds, CPU picks and pick detail read, so it must equal the buffers' contents.
   */
  hostBuffers?: MeshHostBuffers;
}

const meshOptionKeys: OptionKeys<MeshOptions> = {
  material: true,
  worldMatrix: true,
  pickable: true,
  visible: true,
  thinInstances: true,
  skeleton: true,
  morphTargets: true,
  morphWeights: true,
  vertexAnimation: true,
  vertexAnimationPlayback: true,
  hostBuffers: true,
};

/**
 * The arguments every `create*Mesh(scene, name, options?, meshOptions?)` shares: a Scene, `name` a non-empty string (an
 * options object passed in its place is named as such) and `meshOptions` with `MeshOptions` keys only. EngineError
 * `bad-option` naming `api`.
 * @internal
 */
export function checkMeshArguments(
  api: string,
  scene: unknown,
  name: unknown,
  meshOptions: MeshOptions | undefined,
): void {
  checkSceneArgument(api, scene);
  if (typeof name !== 'string' || name.length === 0)
    throw new EngineError(
      api,
      'bad-option',
      `name ${describeArgument(name)} must be a non-empty string; the call is ${api}(scene, name, options?, meshOptions?)`,
    );
  checkOptionKeys(api, meshOptions, meshOptionKeys, engineOptionError, 'meshOptions');
}

/** @internal A 4×4 of 16 finite numbers, copied to float32; a MeshDataError naming `field` otherwise. */
export function checkMatrix(api: string, name: string, field: string, matrix: ArrayLike<number>): Float32Array {
  if (matrix?.length !== 16 || !Array.from(matrix).every(Number.isFinite)) {
    throw new MeshDataError(
      api,
      name,
      field,
      `expected 16 finite numbers (column-major 4×4), got ${describeValue(matrix)}`,
    );
  }
  return Float32Array.from(matrix);
}

/** @internal Thin-instance matrices checked (16 floats each, finite but the payload lanes) and copied. */
export function checkThinInstances(api: string, name: string, matrices: Float32Array): Float32Array<ArrayBuffer> {
  if (!(matrices instanceof Float32Array) || matrices.length === 0 || matrices.length % 16 !== 0) {
    throw new MeshDataError(
      api,
      name,
      'thinInstances',
      `expected a Float32Array of 16 floats per instance, got ${describeValue(matrices)}`,
    );
  }
  for (let i = 0; i < matrices.length; i++) {
    if ((i & 3) !== 3 && !Number.isFinite(matrices[i])) {
      throw new MeshDataError(
        api,
        name,
        'thinInstances',
        `instance ${Math.floor(i / 16)} lane ${i % 16} is not finite (${matrices[i]})`,
      );
    }
  }
  return new Float32Array(matrices);
}

/** Bytes per thin instance in the instance vertex buffer (one column-major 4×4 float32 matrix). */
const instanceBytes = 64;

/**
 * The most thin instances one mesh can hold on `device`: its instance buffer (64 B each, bound as a vertex buffer)
 * must fit `maxBufferSize`. Infinity when the limit is unknown (no device yet; `ensureMeshGpu` checks again).
 */
function maxThinInstances(device: GPUDevice | undefined): number {
  const limit = device?.limits?.maxBufferSize;
  return typeof limit === 'number' ? Math.floor(limit / instanceBytes) : Number.POSITIVE_INFINITY;
}

function instanceLimitMessage(count: number, device: GPUDevice): string {
  const limit = device.limits.maxBufferSize;
  return `${count} instances need ${count * instanceBytes} bytes (64 per instance), over the device's maxBufferSize ${limit} (at most ${maxThinInstances(device)} instances per mesh); split them across meshes`;
}

/** Vertex and index buffers must each fit the device's `maxBufferSize` too. */
function checkGeometryLimit(api: string, scene: Scene, name: string, geometry: MeshGeometry): void {
  const device = (scene.engine as Partial<Engine> | undefined)?.device;
  const limit = device?.limits?.maxBufferSize;
  if (typeof limit !== 'number') return;
  const sized: Array<[string, number]> = geometry.buffers.map((b) => [
    geometry.interleaved ? 'interleaved.data' : `${b.attributes[0].semantic} buffer`,
    b.bytes.byteLength,
  ]);
  if (geometry.indices) sized.push(['indices', geometry.indices.byteLength]);
  for (const [field, bytes] of sized) {
    if (bytes > limit)
      throw new MeshDataError(
        api,
        name,
        field,
        `${geometry.vertexCount} vertices need a ${bytes}-byte buffer, over the device's maxBufferSize ${limit}; split the mesh`,
      );
  }
}

/**
 * On a device that keeps deformation data in textures (no vertex-stage storage buffers): the morph deltas and VAT
 * playback of these options must fit one texture. Runs before the deltas are packed (options not yet checked count 0).
 */
function checkDeformationTextureLimit(
  api: string,
  scene: Scene,
  name: string,
  vertexCount: number,
  options: MeshOptions,
): void {
  const device = (scene.engine as Partial<Engine> | undefined)?.device;
  if (!device) return;
  const positions = options.morphTargets?.positions;
  const targets = Array.isArray(positions) ? positions.length : 0;
  const instances = options.thinInstances instanceof Float32Array ? Math.floor(options.thinInstances.length / 16) : 1;
  checkDeformationTexels(api, name, device, {
    morphDeltas: targets * vertexCount * (options.morphTargets?.normals ? 2 : 1),
    morphWeights: targets,
    vatPlayback: options.vertexAnimation ? instances * 3 : 0,
  });
}

function checkInstanceLimit(api: string, scene: Scene, name: string, matrices: unknown): void {
  if (!(matrices instanceof Float32Array)) return;
  const count = Math.floor(matrices.length / 16);
  const device = (scene.engine as Partial<Engine> | undefined)?.device;
  if (device && count > maxThinInstances(device))
    throw new MeshDataError(api, name, 'thinInstances', instanceLimitMessage(count, device));
}

/**
 * No option of `createMeshFromData` takes `null`: a left-out option gets its default (identity world matrix, no thin
 * instances, no skeleton, …), and `null` is refused like any other wrong value rather than read as "default".
 */
function checkNullOptions(api: string, name: string, options: MeshOptions): void {
  for (const [key, value] of Object.entries(options))
    if (value === null)
      throw new MeshDataError(api, name, key, 'null is not allowed; leave the option out for its default');
}

/**
 * Validates the data, then adds a mesh to the scene; nothing is added when validation fails.
 * @throws {MeshDataError} when the data is malformed (the message names the mesh and the field); the scene is left unchanged
 */
export function createMeshFromData(scene: Scene, name: string, data: MeshData, options: MeshOptions = {}): Mesh {
  const api = 'createMeshFromData';
  checkSceneArgument(api, scene);
  if (typeof name !== 'string' || name.length === 0)
    throw new MeshDataError(
      api,
      typeof name === 'string' ? name : '',
      'name',
      `a mesh needs a non-empty string name, got ${describeArgument(name)}`,
    );
  checkOptionKeys(api, options, meshOptionKeys, engineOptionError);
  checkNullOptions(api, name, options);
  checkOptionTypes(api, options, { pickable: 'boolean', visible: 'boolean' }, engineOptionError);
  if (options.material !== undefined && !isStandardMaterial(options.material))
    throw new MeshDataError(
      api,
      name,
      'material',
      `${describeValue(options.material)} is not a material; pass one made by makeStandardMaterial()`,
    );
  const geometry = makeMeshGeometry(name, data, api);
  checkInstanceLimit(api, scene, name, options.thinInstances);
  checkGeometryLimit(api, scene, name, geometry);
  checkDeformationTextureLimit(api, scene, name, geometry.vertexCount, options);
  const deformation = checkDeformation(api, name, geometry, options);
  const worldMatrix =
    options.worldMatrix !== undefined ? checkMatrix(api, name, 'worldMatrix', options.worldMatrix) : mat4.identity();
  const thinInstances =
    options.thinInstances !== undefined ? checkThinInstances(api, name, options.thinInstances) : null;
  const playback = checkVertexAnimation(
    api,
    scene,
    name,
    geometry,
    options,
    thinInstances ? thinInstances.length / 16 : 1,
  );
  const hostBuffers =
    options.hostBuffers !== undefined
      ? checkMeshHostBuffers(api, name, geometry, thinInstances ? thinInstances.length / 16 : 0, options.hostBuffers)
      : null;
  const positions = extractPositions(geometry);
  const mesh: Mesh = {
    uniqueId: scene.nextMeshId++,
    name,
    scene,
    geometry,
    positions,
    localBounds: computePositionsAabb(positions),
    material: options.material ?? makeStandardMaterial(),
    worldMatrix: worldMatrix as ReadonlyFloat32Array,
    worldVersion: 0,
    pickable: options.pickable ?? true,
    visible: options.visible ?? true,
    thinInstances: thinInstances as ReadonlyFloat32Array | null,
    thinInstanceCount: thinInstances ? thinInstances.length / 16 : 0,
    thinInstanceVersion: 0,
    gpu: null,
    skeleton: deformation.skeleton,
    morphTargets: deformation.morph,
    morphWeights: deformation.weights,
    vertexAnimation: options.vertexAnimation ?? null,
    vertexAnimationPlayback: playback,
    vertexAnimationTime: 0,
    deformationGpu: null,
    hostBuffers,
    disposed: false,
  };
  scene.meshes.push(mesh);
  scene.structureVersion++;
  return mesh;
}

/**
 * Replaces (or with null removes) the thin instances: 16 floats each, w lanes are payload. A VAT mesh whose instance
 * count changes needs `vertexAnimationPlayback` too (12 floats per instance; one record without instances).
 * @throws {MeshDataError} when the matrices or the playback have the wrong length or hold non-finite values
 */
export function setThinInstances(
  mesh: Mesh,
  matrices: Float32Array | null,
  vertexAnimationPlayback?: ArrayLike<number>,
): void {
  const api = 'setThinInstances';
  checkMeshArgument(api, mesh);
  checkInstanceLimit(api, mesh.scene, mesh.name, matrices);
  const next = matrices ? checkThinInstances(api, mesh.name, matrices) : null;
  const countChanged = (next ? next.length / 16 : 0) !== mesh.thinInstanceCount;
  const vat = mesh.vertexAnimation;
  const records = next ? next.length / 16 : 1;
  const device = (mesh.scene.engine as Partial<Engine> | undefined)?.device;
  if (vat && device)
    checkDeformationTexels(api, mesh.name, device, { morphDeltas: 0, morphWeights: 0, vatPlayback: records * 3 });
  if (!vat && vertexAnimationPlayback !== undefined)
    throw new MeshDataError(api, mesh.name, 'vertexAnimationPlayback', 'is given but the mesh has no vertex animation');
  if (vat && vertexAnimationPlayback === undefined && mesh.vertexAnimationPlayback.length !== records * 12) {
    throw new MeshDataError(
      api,
      mesh.name,
      'vertexAnimationPlayback',
      `is missing: the mesh's vertex animation has ${mesh.vertexAnimationPlayback.length / 12} playback records and the new instances need ${records} (12 floats each)`,
    );
  }
  if (vat && vertexAnimationPlayback !== undefined)
    Object.assign(mesh, {
      vertexAnimationPlayback: vat.checkPlayback(api, mesh.name, vertexAnimationPlayback, records),
    });
  const writable = mesh as {
    thinInstances: Float32Array | null;
    thinInstanceCount: number;
    thinInstanceVersion: number;
  };
  writable.thinInstances = next;
  writable.thinInstanceCount = next ? next.length / 16 : 0;
  writable.thinInstanceVersion++;
  recordMeshChange(mesh.scene, mesh);
  if (countChanged) mesh.scene.structureVersion++;
}

/**
 * Sets the world matrix (column-major 4×4): the only way to move a mesh. Bumps `mesh.worldVersion` and the scene's
 * `changeVersion`, so a pick with `refit: 'auto'` refits only after something moved.
 * @throws {MeshDataError} when the matrix is not 16 finite numbers
 */
export function setMeshWorldMatrix(mesh: Mesh, matrix: ArrayLike<number>): void {
  checkMeshArgument('setMeshWorldMatrix', mesh);
  const world = checkMatrix('setMeshWorldMatrix', mesh.name, 'worldMatrix', matrix);
  const writable = mesh as { worldMatrix: Float32Array; worldVersion: number };
  writable.worldMatrix = world;
  writable.worldVersion++;
  recordMeshChange(mesh.scene, mesh);
}

/**
 * Instance `index`'s matrix with its payload lanes replaced by 0, 0, 0, 1 (as the shader uses it).
 * @throws {MeshDataError} when the instance index is out of range
 */
export function getThinInstanceMatrix(
  mesh: Mesh,
  index: number,
  dst: Float32Array = new Float32Array(16),
): Float32Array {
  if (!mesh.thinInstances || !Number.isInteger(index) || index < 0 || index >= mesh.thinInstanceCount) {
    throw new MeshDataError(
      'getThinInstanceMatrix',
      mesh.name,
      'index',
      `${describeValue(index)} is not an instance index in 0..${mesh.thinInstanceCount - 1}`,
    );
  }
  return copyThinInstanceMatrix(mesh.thinInstances, index, dst);
}

/** The four payload lanes (3, 7, 11, 15) of thin instance `index`. */
export function getThinInstancePayload(mesh: Mesh, index: number): [number, number, number, number] {
  const m = mesh.thinInstances!.subarray(index * 16, index * 16 + 16);
  return [m[3], m[7], m[11], m[15]];
}

/** World bounds of one thin instance (mesh world × instance matrix). */
export function getThinInstanceWorldBounds(mesh: Mesh, index: number): Aabb {
  const world = mat4.multiply(mesh.worldMatrix, getThinInstanceMatrix(mesh, index));
  return transformAabb(mesh.localBounds, world);
}

/** World bounds of the mesh: the union over its thin instances when it has them. */
export function getMeshWorldBounds(mesh: Mesh): Aabb {
  if (!mesh.thinInstances) return transformAabb(mesh.localBounds, mesh.worldMatrix);
  const box = makeEmptyAabb();
  for (let i = 0; i < mesh.thinInstanceCount; i++) unionAabb(box, getThinInstanceWorldBounds(mesh, i));
  return box;
}

/** Destroys the mesh's GPU buffers and removes it from its scene. */
export function disposeMesh(mesh: Mesh): void {
  checkMeshArgument('disposeMesh', mesh);
  if (mesh.disposed) return;
  disposeMeshGpu(mesh);
  const list = mesh.scene.meshes;
  const at = list.indexOf(mesh);
  if (at >= 0) list.splice(at, 1);
  mesh.scene.structureVersion++;
  mesh.disposed = true;
}

/** @internal Destroys the mesh's GPU copies (they are rebuilt by the next `ensureMeshGpu`). */
export function disposeMeshGpu(mesh: Mesh): void {
  disposeMeshDeformation(mesh);
  if (!mesh.gpu) return;
  if (mesh.gpu.hostOwned) {
    if (mesh.gpu.instanceBuffer !== (mesh.hostBuffers?.instanceBuffer ?? null)) mesh.gpu.instanceBuffer?.destroy();
    mesh.gpu.vertexBuffers.forEach((buffer, i) => {
      if (mesh.hostBuffers?.vertexBuffers[i] !== buffer) buffer.destroy();
    });
    if (mesh.gpu.indexBuffer !== (mesh.hostBuffers?.indexBuffer ?? null)) mesh.gpu.indexBuffer?.destroy();
    mesh.gpu = null;
    return;
  }
  for (const buffer of mesh.gpu.vertexBuffers) buffer.destroy();
  mesh.gpu.indexBuffer?.destroy();
  mesh.gpu.instanceBuffer?.destroy();
  mesh.gpu = null;
}

function uploadBuffer(device: GPUDevice, label: string, bytes: Uint8Array, usage: GPUBufferUsageFlags): GPUBuffer {
  const size = Math.max(4, Math.ceil(bytes.byteLength / 4) * 4);
  const buffer = device.createBuffer({ label, size, usage: usage | GPUBufferUsage.COPY_DST, mappedAtCreation: true });
  new Uint8Array(buffer.getMappedRange()).set(bytes);
  buffer.unmap();
  return buffer;
}

function uploadIndices(device: GPUDevice, label: string, indices: Uint16Array | Uint32Array): GPUBuffer {
  const bytes = new Uint8Array(indices.buffer, indices.byteOffset, indices.byteLength);
  return uploadBuffer(device, label, bytes, GPUBufferUsage.INDEX | GPUBufferUsage.STORAGE);
}

/** Returns the mesh's GPU buffers on `device`, creating them when missing or on a new device. */
export function ensureMeshGpu(mesh: Mesh, device: GPUDevice): MeshGpu {
  if (mesh.gpu && mesh.gpu.device === device && mesh.gpu.instanceCapacity >= mesh.thinInstanceCount) return mesh.gpu;
  if (mesh.gpu && mesh.gpu.device !== device) mesh.gpu = null; // the old device is gone with its buffers
  if (mesh.thinInstanceCount > maxThinInstances(device))
    throw new MeshDataError(
      'ensureMeshGpu',
      mesh.name,
      'thinInstances',
      instanceLimitMessage(mesh.thinInstanceCount, device),
    );
  disposeMeshGpu(mesh);
  const label = `weft:mesh:${mesh.name}`;
  const { geometry } = mesh;
  if (mesh.hostBuffers) return ensureHostMeshGpu(mesh, device, label);
  const usage = GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE;
  mesh.gpu = {
    device,
    vertexBuffers: geometry.buffers.map((b, i) => uploadBuffer(device, `${label}:vertices${i}`, b.bytes, usage)),
    indexBuffer: geometry.indices ? uploadIndices(device, `${label}:indices`, geometry.indices) : null,
    instanceBuffer: mesh.thinInstances
      ? uploadBuffer(
          device,
          `${label}:instances`,
          new Uint8Array(mesh.thinInstances.buffer),
          GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE,
        )
      : null,
    instanceCapacity: mesh.thinInstanceCount,
    uploadedInstanceVersion: mesh.thinInstanceVersion,
  };
  return mesh.gpu;
}

/** The GPU side of a mesh drawn from its host's buffers: bound as they are; weft uploads only instances it must. */
function ensureHostMeshGpu(mesh: Mesh, device: GPUDevice, label: string): MeshGpu {
  const host = mesh.hostBuffers!;
  const hostInstances = host.instanceBuffer ?? null;
  if (hostInstances && hostInstances.size < mesh.thinInstanceCount * instanceBytes)
    throw new MeshDataError(
      'ensureMeshGpu',
      mesh.name,
      'hostBuffers.instanceBuffer',
      `holds ${hostInstances.size} bytes; the mesh's ${mesh.thinInstanceCount} thin instances need ${mesh.thinInstanceCount * instanceBytes} (give the larger buffer with setMeshHostBuffers)`,
    );
  mesh.gpu = {
    device,
    vertexBuffers: host.vertexBuffers.map(
      (buffer, i) =>
        buffer ??
        uploadBuffer(
          device,
          `${label}:vertices${i}`,
          mesh.geometry.buffers[i].bytes,
          GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE,
        ),
    ),
    indexBuffer:
      host.indexBuffer ??
      (mesh.geometry.indices ? uploadIndices(device, `${label}:indices`, mesh.geometry.indices) : null),
    instanceBuffer:
      hostInstances ??
      (mesh.thinInstances
        ? uploadBuffer(
            device,
            `${label}:instances`,
            new Uint8Array(mesh.thinInstances.buffer),
            GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE,
          )
        : null),
    instanceCapacity: mesh.thinInstanceCount,
    uploadedInstanceVersion: mesh.thinInstanceVersion,
    hostOwned: true,
  };
  return mesh.gpu;
}

/**
 * Points the mesh at (other) host buffers, or back at weft's own copies (null), checked as `createMeshFromData`
 * checks them; the next draw or pick binds them.
 * @throws {MeshDataError} naming the buffer that does not fit the mesh's data (the mesh is left as it was)
 */
export function setMeshHostBuffers(mesh: Mesh, buffers: MeshHostBuffers | null): void {
  const api = 'setMeshHostBuffers';
  checkMeshArgument(api, mesh);
  const checked =
    buffers === null ? null : checkMeshHostBuffers(api, mesh.name, mesh.geometry, mesh.thinInstanceCount, buffers);
  disposeMeshGpu(mesh);
  (mesh as { hostBuffers: Readonly<MeshHostBuffers> | null }).hostBuffers = checked;
}

/** @internal Writes changed thin-instance matrices into the existing instance buffer (no allocation). */
export function syncThinInstances(mesh: Mesh): void {
  const gpu = mesh.gpu;
  if (!gpu?.instanceBuffer || !mesh.thinInstances || gpu.uploadedInstanceVersion === mesh.thinInstanceVersion) return;
  // The host keeps its own instance buffer current.
  if (gpu.instanceBuffer === mesh.hostBuffers?.instanceBuffer) return;
  gpu.device.queue.writeBuffer(gpu.instanceBuffer, 0, mesh.thinInstances);
  gpu.uploadedInstanceVersion = mesh.thinInstanceVersion;
}
