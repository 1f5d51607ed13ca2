// The pick-source seam: a host engine describes what it draws — its own GPU buffers, layouts, matrices, instances and
// skin — and the pickers pick that, drawing the host's buffers where they live. A drawable scene keeps one weft mesh
// per described object, bound to the host's buffers (no second upload), and syncs it by versions on each call.
import { describeValue } from '../../core/errors.js';
import type { Camera } from '../../engine/camera.js';
import type { Engine } from '../../engine/engine.js';
import { makeStandardMaterial, type StandardMaterial } from '../../engine/material.js';
import {
  checkMatrix,
  checkThinInstances,
  createMeshFromData,
  disposeMesh,
  type Mesh,
  setMeshHostBuffers,
  setMeshWorldMatrix,
  setThinInstances,
} from '../../engine/mesh.js';
import type { InterleavedAttribute, VertexSemantic } from '../../engine/mesh-data.js';
import { checkMeshHostBuffers } from '../../engine/mesh-host-buffers.js';
import { createScene, disposeScene, type Scene } from '../../engine/scene.js';
import { makeSkeleton, type Skeleton } from '../../engine/skeleton.js';
import { PickError } from '../pick-errors.js';

/** One vertex buffer of a drawable: the host's GPU buffer, the CPU bytes it holds, and how its attributes lie. */
export interface PickVertexBuffer {
  /**
   * The host's GPU buffer, bound as it is; `null` where the host has none weft can bind (e.g. a format weft does not
   * read, converted in `data`): weft uploads its own copy of `data`.
   */
  buffer: GPUBuffer | null;
  /** The bytes the GPU buffer holds (bounds, CPU picks and pick detail read them). */
  data: ArrayBuffer | ArrayBufferView;
  arrayStride: number;
  attributes: Partial<Record<VertexSemantic, InterleavedAttribute>>;
}

/**
 * What a picker needs of one thing a host draws: the seam between a host engine's scene and weft's pickers. Buffers
 * are drawn where they live; `object` comes back with each pick (`pickedObjectOf`).
 */
export interface PickDrawable<T = unknown> {
  /** The host's own object (a three.js Mesh, a Babylon AbstractMesh, your record): picks hand it back. */
  object: T;
  /** Shown in error messages (default `drawable <index>`). */
  name?: string;
  /** The vertex buffers as the host binds them; joints/weights (uint16x4 / float32x4) here make a skinned drawable. */
  vertexBuffers: readonly PickVertexBuffer[];
  /** The index buffer and its data; `buffer: null` where the host's cannot be bound (weft uploads a copy). */
  index?: { buffer: GPUBuffer | null; data: Uint16Array | Uint32Array } | null;
  /**
   * Bump when the bytes in the buffers change: the drawable is made again from them. Default 0. (A different
   * `GPUBuffer` object is noticed by itself.)
   */
  geometryVersion?: number;
  /** Column-major local → world, as drawn (compared by value on each sync, unless `worldMatrixVersion` says it held). */
  worldMatrix: ArrayLike<number>;
  /**
   * A number the host changes whenever it writes `worldMatrix` (Babylon.js's `Matrix.updateFlag`). When given, a sync
   * that sees the same `worldMatrix` array with the same version skips the compare by value; omit it and every sync
   * compares.
   */
  worldMatrixVersion?: number;
  /**
   * Instances drawn from one geometry: 16 float32 per instance (column-major, as three.js `InstancedMesh` and
   * Babylon thin instances store them). `buffer`: the host's GPU copy, bound as it is (omit it and weft uploads its
   * own). Bump `version` when the matrices change.
   */
  instances?: { matrices: Float32Array; version: number; buffer?: GPUBuffer | null } | null;
  /** Skinning matrices (mesh space: joint transform × inverse bind), 16 floats per bone; bump `version` on change. */
  skin?: { boneMatrices: Float32Array; version: number } | null;
  /**
   * Morph targets as drawn: per target a position delta per vertex (xyz float32; optional normal deltas), and the
   * current weights (read on every sync). The deltas are CPU data weft uploads once per `geometryVersion` (hosts keep
   * theirs in textures weft cannot bind); change the target count or data by bumping `geometryVersion`.
   */
  morph?: { positions: readonly Float32Array[]; normals?: readonly Float32Array[]; weights: ArrayLike<number> } | null;
  /** Culling as drawn: one-sided (`false`, back faces culled, counter-clockwise front) or double-sided. Default false. */
  doubleSided?: boolean;
  /**
   * The mesh-local front winding as the host draws it: `'ccw'` (default; three.js `FrontSide`) or `'cw'` (Babylon.js's
   * meshes, three.js `BackSide`). A mirroring world or instance matrix flips it on screen, as in every weft pass.
   */
  frontFace?: GPUFrontFace;
  /** Whether it is drawn (default true); a hidden drawable is never picked. */
  visible?: boolean;
  /** Whether picks see it (default true). */
  pickable?: boolean;
}

interface DrawableEntry<T> {
  object: T;
  mesh: Mesh;
  geometryVersion: number;
  instanceVersion: number;
  skinVersion: number;
  material: StandardMaterial;
  /** The sync call that last listed it (a second listing in one call is an error; after a sync, not listed: dropped). */
  listed: number;
  /** Set by the check of this sync: the world matrix differs from the mesh's. */
  moved: boolean;
  /** The host's world-matrix array and version the mesh's matrix was last found equal to (see `worldMatrixVersion`). */
  worldSource: ArrayLike<number> | null;
  worldVersion: number | undefined;
  /** The drawable object last synced into it (its keys were checked then). */
  drawable: PickDrawable<T>;
  /** Its 16 slots in the scene's `worldValues`: the host's world matrix as last synced, compared first. */
  slot: number;
  /** Set by the check of this sync: the host's values differ from `worldValues` (written back by the update). */
  worldChanged: boolean;
  // What a steady sync compares, kept here so that it reads the entry and not the mesh and its parts.
  /** The GPU buffers the mesh was made with (vertex buffers', then the index buffer), null where weft copied. */
  geometryBuffers: (GPUBuffer | null)[];
  skinned: boolean;
  morphTargetCount: number;
  /** The host's instance buffer the mesh binds (null: weft's own copy, or no instances). */
  instanceBuffer: GPUBuffer | null;
  doubleSided: boolean;
  frontFace: GPUFrontFace;
  visible: boolean;
  pickable: boolean;
}

/** A weft scene that mirrors a host's drawables (see `syncDrawableScene`); pick it with any weft picker. */
export interface DrawableScene<T = unknown> {
  readonly scene: Scene;
  readonly entries: Map<T, DrawableEntry<T>>;
  readonly objectOfMesh: WeakMap<Mesh, T>;
  syncs: number;
  disposed: boolean;
  /** @internal Sync calls made (failed ones too). */
  calls: number;
  /** @internal Drawable objects whose keys were checked (a steady host passes the same objects each call). */
  readonly keysChecked: WeakSet<object>;
  /** @internal Per-call scratch, one slot per drawable: its entry and the mesh made for it. */
  readonly planEntries: (DrawableEntry<T> | undefined)[];
  readonly planMade: (Mesh | null)[];
  /** @internal Per-call scratch: whether the entry at that place has something to apply (else it is left as it is). */
  readonly planUpdate: boolean[];
  /** @internal Per-call scratch: the meshes in the drawables' order. */
  readonly planOrder: Mesh[];
  /** @internal The entries in the last sync's order: a steady host lists its objects in the same order each call. */
  readonly lastOrder: DrawableEntry<T>[];
  /**
   * @internal Every entry's host world matrix as last synced (float64, 16 per slot), side by side: a steady scene's
   * compare reads this one array instead of each mesh's own matrix.
   */
  worldValues: Float64Array;
  /** @internal Slots of `worldValues` given back by dropped entries. */
  readonly freeSlots: number[];
  /** @internal Slots handed out so far (free ones included). */
  slotsUsed: number;
}

/**
 * Creates an empty drawable scene on the engine's device (the host's device: see `createEngineFromDeviceAsync`).
 * `camera` becomes the scene's camera; pickers also take a camera per call.
 */
export function createDrawableScene<T = unknown>(engine: Engine, camera: Camera | null = null): DrawableScene<T> {
  const scene = createScene(engine);
  scene.camera = camera;
  return {
    scene,
    entries: new Map(),
    objectOfMesh: new WeakMap(),
    syncs: 0,
    disposed: false,
    calls: 0,
    keysChecked: new WeakSet(),
    planEntries: [],
    planMade: [],
    planUpdate: [],
    planOrder: [],
    lastOrder: [],
    worldValues: new Float64Array(16 * 64),
    freeSlots: [],
    slotsUsed: 0,
  };
}

const drawableKeys: readonly string[] = [
  'object',
  'name',
  'vertexBuffers',
  'index',
  'geometryVersion',
  'worldMatrix',
  'worldMatrixVersion',
  'instances',
  'skin',
  'morph',
  'doubleSided',
  'frontFace',
  'visible',
  'pickable',
];

function checkDrawable<T>(
  api: string,
  target: DrawableScene<T>,
  drawable: PickDrawable<T>,
  at: number,
  keysKnown: boolean,
): void {
  if (!keysKnown && !target.keysChecked.has(drawable)) {
    for (const key of Object.keys(drawable))
      if (!drawableKeys.includes(key))
        throw new PickError(
          api,
          'bad-option',
          `drawables[${at}].${key} is not a PickDrawable key; allowed: ${drawableKeys.join(', ')}`,
        );
    target.keysChecked.add(drawable);
  }
  const d = drawable;
  if (!Array.isArray(d.vertexBuffers) || d.vertexBuffers.length === 0)
    throw new PickError(
      api,
      'bad-option',
      `drawables[${at}].vertexBuffers ${describeValue(d.vertexBuffers)} must list the drawable's vertex buffers`,
    );
  if (d.instances != null && (!(d.instances.matrices instanceof Float32Array) || !Number.isFinite(d.instances.version)))
    throw new PickError(
      api,
      'bad-option',
      `drawables[${at}].instances must be { matrices: Float32Array, version: number, buffer? }`,
    );
  const morph = d.morph;
  const bufferAt = Array.isArray(morph?.positions) ? morph.positions.findIndex(isGpuBufferLike) : -1;
  if (bufferAt >= 0)
    throw new PickError(
      api,
      'bad-option',
      `drawables[${at}].morph.positions[${bufferAt}] is a GPUBuffer; morph deltas are CPU data (Float32Array) that weft uploads itself, into textures on a device without vertex-stage storage buffers (a compatibility-mode device, maxStorageBuffersInVertexStage 0), where a storage buffer cannot be bound in the vertex stage: pass the deltas as Float32Array`,
    );
  if (
    morph != null &&
    (!Array.isArray(morph.positions) ||
      morph.positions.length === 0 ||
      !morph.positions.every((p) => p instanceof Float32Array) ||
      morph.weights == null ||
      morph.weights.length !== morph.positions.length)
  )
    throw new PickError(
      api,
      'bad-option',
      `drawables[${at}].morph must be { positions: Float32Array[] (one or more targets), normals?, weights } with one weight per target`,
    );
  if (d.worldMatrixVersion !== undefined && typeof d.worldMatrixVersion !== 'number')
    throw new PickError(
      api,
      'bad-option',
      `drawables[${at}].worldMatrixVersion ${describeValue(d.worldMatrixVersion)} must be a number (or left out)`,
    );
  if (d.frontFace !== undefined && d.frontFace !== 'ccw' && d.frontFace !== 'cw')
    throw new PickError(
      api,
      'bad-option',
      `drawables[${at}].frontFace ${describeValue(d.frontFace)} must be 'ccw' or 'cw'`,
    );
  if (d.skin != null && (!(d.skin.boneMatrices instanceof Float32Array) || d.skin.boneMatrices.length % 16 !== 0))
    throw new PickError(
      api,
      'bad-option',
      `drawables[${at}].skin.boneMatrices must be a Float32Array of 16 floats per bone`,
    );
}

/** A GPUBuffer, told by its shape (Node's WebGPU globals may be absent when this runs). */
function isGpuBufferLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'mapAsync' in value && 'usage' in value;
}

/** A hidden drawable is never picked (weft's own meshes keep `visible` and `pickable` apart; a host's hidden is gone). */
function pickableAsDrawn(drawable: PickDrawable<unknown>): boolean {
  return (drawable.pickable ?? true) && (drawable.visible ?? true);
}

function drawableMaterial(drawable: PickDrawable<unknown>): StandardMaterial {
  return makeStandardMaterial({ doubleSided: drawable.doubleSided === true, frontFace: drawable.frontFace ?? 'ccw' });
}

function makeDrawableMesh<T>(target: DrawableScene<T>, drawable: PickDrawable<T>, at: number): Mesh {
  const name = drawable.name ?? `drawable ${at}`;
  let skeleton: Skeleton | undefined;
  if (drawable.skin) {
    skeleton = makeSkeleton(drawable.skin.boneMatrices.length / 16, `${name}:skin`);
    skeleton.matrices.set(drawable.skin.boneMatrices);
  }
  const material = drawableMaterial(drawable);
  const mesh = createMeshFromData(
    target.scene,
    name,
    {
      interleaved: drawable.vertexBuffers.map((b) => ({
        data: b.data,
        arrayStride: b.arrayStride,
        attributes: b.attributes,
      })),
      ...(drawable.index ? { indices: drawable.index.data } : {}),
    },
    {
      material,
      worldMatrix: drawable.worldMatrix,
      visible: drawable.visible ?? true,
      pickable: pickableAsDrawn(drawable),
      ...(drawable.instances ? { thinInstances: drawable.instances.matrices } : {}),
      ...(skeleton ? { skeleton } : {}),
      ...(drawable.morph
        ? {
            morphTargets: {
              positions: drawable.morph.positions,
              ...(drawable.morph.normals ? { normals: drawable.morph.normals } : {}),
            },
            morphWeights: drawable.morph.weights,
          }
        : {}),
      hostBuffers: {
        vertexBuffers: drawable.vertexBuffers.map((b) => b.buffer ?? null),
        indexBuffer: drawable.index?.buffer ?? null,
        instanceBuffer: drawable.instances?.buffer ?? null,
      },
    },
  );
  target.objectOfMesh.set(mesh, drawable.object);
  return mesh;
}

/**
 * Whether the drawable names the GPU buffers the mesh was made with (`made`: its vertex buffers', then its index
 * buffer); a new buffer object makes the mesh again.
 */
function sameGeometryBuffers(made: readonly (GPUBuffer | null)[], drawable: PickDrawable<unknown>): boolean {
  const vertexBuffers = drawable.vertexBuffers;
  const count = vertexBuffers.length;
  if (made.length !== count + 1) return false;
  for (let i = 0; i < count; i++) if (made[i] !== (vertexBuffers[i].buffer ?? null)) return false;
  return made[count] === (drawable.index?.buffer ?? null);
}

/** A slot of `worldValues` for a new entry, holding `matrix`. */
function takeWorldSlot(target: DrawableScene<unknown>, matrix: ArrayLike<number>): number {
  let slot = target.freeSlots.pop();
  if (slot === undefined) {
    slot = target.slotsUsed++;
    if (slot * 16 >= target.worldValues.length) {
      const grown = new Float64Array(target.worldValues.length * 2);
      grown.set(target.worldValues);
      target.worldValues = grown;
    }
  }
  for (let i = 0; i < 16; i++) target.worldValues[slot * 16 + i] = matrix[i];
  return slot;
}

/** Whether the host's matrix still holds the values last synced into `slot` (a NaN reads as changed). */
function sameWorldValues(values: Float64Array, slot: number, given: ArrayLike<number>): boolean {
  const o = slot * 16;
  for (let i = 0; i < 16; i++) if (values[o + i] !== given[i]) return false;
  return true;
}

/** Whether the mesh's float32 world matrix already holds `given` (as float32: hosts keep float64 matrices). */
function sameMatrix(a: ArrayLike<number>, given: ArrayLike<number>): boolean {
  // `!==`: a NaN reads as moved, and the check of the moved matrix refuses it.
  for (let i = 0; i < 16; i++) if (a[i] !== Math.fround(given[i])) return false;
  return true;
}

/**
 * Makes the drawable scene mirror `drawables` as they are now: new objects get a mesh bound to their buffers, objects
 * no longer listed are dropped, and the rest follow their world matrix (by value), instances, skin and geometry (by
 * version), visibility and culling. The list's order is the pick ID order. Call it before each pick (it costs one
 * pass over the list and uploads only changed skin matrices).
 * @throws {PickError} `bad-option` naming the drawable and the key; {MeshDataError} naming the buffer or matrix that
 * does not fit. Everything is checked (and new meshes made) before anything changes: on an error the scene is as it
 * was before the call.
 */
export function syncDrawableScene<T>(target: DrawableScene<T>, drawables: readonly PickDrawable<T>[]): void {
  const api = 'syncDrawableScene';
  if (target.disposed) throw new PickError(api, 'disposed', 'the drawable scene was disposed');
  if (!Array.isArray(drawables))
    throw new PickError(api, 'bad-option', `drawables ${describeValue(drawables)} must be an array of PickDrawable`);
  const call = ++target.calls;
  // Reused arrays, written by index (emptying and refilling them would reallocate their storage on every sync).
  const entries = target.planEntries;
  const madeFor = target.planMade;
  const updates = target.planUpdate;
  const order = target.planOrder;
  const lastOrder = target.lastOrder;
  const count = drawables.length;
  if (entries.length < count) entries.length = madeFor.length = updates.length = order.length = count;
  let newcomers: Set<T> | undefined;
  let planned = 0;
  try {
    for (let at = 0; at < count; at++) {
      const drawable = drawables[at];
      if (drawable === null || typeof drawable !== 'object')
        throw new PickError(
          api,
          'bad-option',
          `drawables[${at}] ${describeValue(drawable)} must be a PickDrawable object`,
        );
      const guess = lastOrder[at];
      const entry = guess?.object === drawable.object ? guess : target.entries.get(drawable.object);
      checkDrawable(api, target, drawable, at, entry?.drawable === drawable);
      const twice = entry ? entry.listed === call : (newcomers ??= new Set()).has(drawable.object);
      if (twice)
        throw new PickError(api, 'bad-option', `drawables[${at}].object is listed twice; each object is one drawable`);
      if (entry) entry.listed = call;
      else newcomers!.add(drawable.object);
      const rebuild =
        !entry ||
        entry.geometryVersion !== (drawable.geometryVersion ?? 0) ||
        entry.skinned !== !!drawable.skin ||
        entry.morphTargetCount !== (drawable.morph?.positions.length ?? 0) ||
        !sameGeometryBuffers(entry.geometryBuffers, drawable);
      entries[at] = entry;
      if (rebuild) {
        updates[at] = false;
        madeFor[at] = makeDrawableMesh(target, drawable, at);
      } else {
        updates[at] = checkUpdate(api, target, entry, drawable, at);
        madeFor[at] = null;
        // A steady entry is done here, so the second pass need not read it again. (Hints and scratch only: a later
        // throw leaves the scene as it was.)
        entry.drawable = drawable;
        lastOrder[at] = entry;
        order[at] = entry.mesh;
      }
      planned = at + 1;
    }
  } catch (error) {
    for (let at = 0; at < planned; at++) {
      const made = madeFor[at];
      if (made) disposeMesh(made);
      entries[at] = undefined;
      madeFor[at] = null;
    }
    throw error;
  }
  target.syncs++;
  for (let at = 0; at < count; at++) {
    const made = madeFor[at];
    if (!made) {
      if (updates[at]) updateEntry(target, entries[at]!, drawables[at]);
      entries[at] = undefined;
      continue;
    }
    const drawable = drawables[at];
    const entry = entries[at];
    entries[at] = undefined;
    madeFor[at] = null;
    if (entry) {
      disposeMesh(entry.mesh);
      target.freeSlots.push(entry.slot);
    }
    const fresh: DrawableEntry<T> = {
      object: drawable.object,
      mesh: made,
      geometryVersion: drawable.geometryVersion ?? 0,
      instanceVersion: drawable.instances?.version ?? -1,
      skinVersion: drawable.skin?.version ?? -1,
      material: made.material,
      listed: call,
      moved: false,
      worldSource: drawable.worldMatrix,
      worldVersion: drawable.worldMatrixVersion,
      drawable,
      slot: takeWorldSlot(target as DrawableScene<unknown>, drawable.worldMatrix),
      worldChanged: false,
      geometryBuffers: [...(made.hostBuffers?.vertexBuffers ?? []), made.hostBuffers?.indexBuffer ?? null],
      skinned: !!made.skeleton,
      morphTargetCount: made.morphTargets?.count ?? 0,
      instanceBuffer: made.hostBuffers?.instanceBuffer ?? null,
      doubleSided: made.material.doubleSided,
      frontFace: made.material.frontFace ?? 'ccw',
      visible: made.visible,
      pickable: made.pickable,
    };
    target.entries.set(drawable.object, fresh);
    lastOrder[at] = fresh;
    order[at] = made;
  }
  lastOrder.length = count;
  if (target.entries.size > count)
    for (const [object, entry] of target.entries)
      if (entry.listed !== call) {
        disposeMesh(entry.mesh);
        target.freeSlots.push(entry.slot);
        target.entries.delete(object);
      }
  const meshes = target.scene.meshes;
  let same = meshes.length === count;
  for (let i = 0; same && i < count; i++) same = meshes[i] === order[i];
  if (!same) {
    meshes.length = count;
    for (let i = 0; i < count; i++) meshes[i] = order[i];
    target.scene.structureVersion++;
  }
  // Let go of meshes a shorter list no longer names (the order array keeps its length).
  for (let i = count; i < order.length && order[i] !== undefined; i++) order[i] = undefined as unknown as Mesh;
}

/** Everything `updateEntry` would refuse, checked before the sync changes anything. */
function checkUpdate<T>(
  api: string,
  target: DrawableScene<T>,
  entry: DrawableEntry<T>,
  drawable: PickDrawable<T>,
  at: number,
): boolean {
  const mesh = entry.mesh;
  // What did not change was checked when it was set: a steady scene costs a compare per drawable, not a check (and
  // not even the compare where the host versions its matrices).
  const version = drawable.worldMatrixVersion;
  const held = version !== undefined && version === entry.worldVersion && drawable.worldMatrix === entry.worldSource;
  // Values equal to the last synced ones need no float32 compare with the mesh (nor a look at its matrix).
  entry.worldChanged = !held && !sameWorldValues(target.worldValues, entry.slot, drawable.worldMatrix);
  entry.moved = entry.worldChanged && !sameMatrix(mesh.worldMatrix, drawable.worldMatrix);
  if (entry.moved) checkMatrix(api, mesh.name, `drawables[${at}].worldMatrix`, drawable.worldMatrix);
  const instances = drawable.instances;
  const instanceChange = (instances?.version ?? -1) !== entry.instanceVersion;
  if (instances && instanceChange) checkThinInstances(api, mesh.name, instances.matrices);
  if (instanceChange || (instances?.buffer ?? null) !== entry.instanceBuffer)
    checkMeshHostBuffers(api, mesh.name, mesh.geometry, instances ? instances.matrices.length / 16 : 0, {
      ...mesh.hostBuffers!,
      instanceBuffer: instances?.buffer ?? null,
    });
  const skin = drawable.skin;
  if (skin && mesh.skeleton && skin.boneMatrices.length !== mesh.skeleton.matrices.length)
    throw new PickError(
      api,
      'bad-option',
      `drawables[${at}].skin.boneMatrices holds ${skin.boneMatrices.length / 16} bones, the drawable was made with ${mesh.skeleton.boneCount}; bump geometryVersion to change the bone count`,
    );
  // Whether `updateEntry` has anything to apply.
  return (
    entry.worldChanged ||
    drawable.worldMatrix !== entry.worldSource ||
    version !== entry.worldVersion ||
    instanceChange ||
    (instances?.buffer ?? null) !== entry.instanceBuffer ||
    (skin != null && skin.version !== entry.skinVersion) ||
    drawable.morph != null ||
    (drawable.doubleSided === true) !== entry.doubleSided ||
    (drawable.frontFace ?? 'ccw') !== entry.frontFace ||
    (drawable.visible ?? true) !== entry.visible ||
    pickableAsDrawn(drawable) !== entry.pickable
  );
}

/** Applies a checked drawable to its mesh (`checkUpdate` ran): nothing here throws. */
function updateEntry<T>(target: DrawableScene<T>, entry: DrawableEntry<T>, drawable: PickDrawable<T>): void {
  const mesh = entry.mesh;
  if (entry.moved) setMeshWorldMatrix(mesh, drawable.worldMatrix);
  if (entry.worldChanged) {
    const o = entry.slot * 16;
    for (let i = 0; i < 16; i++) target.worldValues[o + i] = drawable.worldMatrix[i];
  }
  entry.worldSource = drawable.worldMatrix;
  entry.worldVersion = drawable.worldMatrixVersion;
  const instanceVersion = drawable.instances?.version ?? -1;
  const hostInstances = drawable.instances?.buffer ?? null;
  if (instanceVersion !== entry.instanceVersion) {
    setThinInstances(mesh, drawable.instances?.matrices ?? null);
    entry.instanceVersion = instanceVersion;
  }
  // Only a different buffer re-binds (and drops the mesh's GPU wrapper); new matrices in the same buffer do not.
  if (hostInstances !== entry.instanceBuffer) {
    setMeshHostBuffers(mesh, { ...mesh.hostBuffers!, instanceBuffer: hostInstances });
    entry.instanceBuffer = hostInstances;
  }
  const skin = drawable.skin;
  if (skin && mesh.skeleton && skin.version !== entry.skinVersion) {
    mesh.skeleton.matrices.set(skin.boneMatrices);
    mesh.skeleton.version++;
    entry.skinVersion = skin.version;
  }
  const weights = drawable.morph?.weights;
  if (weights) for (let i = 0; i < weights.length; i++) mesh.morphWeights[i] = weights[i];
  const doubleSided = drawable.doubleSided === true;
  const frontFace = drawable.frontFace ?? 'ccw';
  if (entry.doubleSided !== doubleSided || entry.frontFace !== frontFace) {
    entry.material = drawableMaterial(drawable);
    mesh.material = entry.material;
    entry.doubleSided = doubleSided;
    entry.frontFace = frontFace;
  }
  const visible = drawable.visible ?? true;
  const pickable = pickableAsDrawn(drawable);
  if (entry.visible !== visible || entry.pickable !== pickable) {
    mesh.visible = entry.visible = visible;
    mesh.pickable = entry.pickable = pickable;
  }
}

/**
 * The host object a pick landed on, and its instance (-1 when the drawable has no instances); null for a miss or a
 * mesh that is not this scene's.
 */
export function pickedObjectOf<T>(
  target: DrawableScene<T>,
  picked: { pickedMesh?: Mesh | null; mesh?: Mesh | null; thinInstanceIndex: number },
): { object: T; instance: number } | null {
  const mesh = picked.pickedMesh ?? picked.mesh ?? null;
  if (!mesh || !target.objectOfMesh.has(mesh)) return null;
  return { object: target.objectOfMesh.get(mesh) as T, instance: picked.thinInstanceIndex };
}

/** Drops the scene's meshes (the host's buffers are left as they are); later syncs throw. */
export function disposeDrawableScene(target: DrawableScene): void {
  if (target.disposed) return;
  target.disposed = true;
  target.entries.clear();
  target.lastOrder.length = 0;
  target.freeSlots.length = 0;
  disposeScene(target.scene);
}
