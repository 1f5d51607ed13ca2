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
import {
  type DrawableSlots,
  formAt,
  freeSlotOf,
  geometryVersionAt,
  instanceVersionAt,
  makeDrawableSlots,
  movedBit,
  sameBufferList,
  sameVersion,
  slotNumbers,
  takeSlot,
  worldChangedBit,
  worldVersionAt,
  holdsSixteen,
} from './drawable-slots.js';

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

/**
 * @internal The sync's memory: the slots (drawable-slots.ts), the slot listed at each place of the last sync, and
 * per-call scratch.
 */
export interface DrawableSync<T> {
  readonly slots: DrawableSlots<T, PickDrawable<T>>;
  /** Per slot, the mesh made for its drawable. */
  readonly meshOf: (Mesh | null)[];
  /** Per place of the last successful sync, the slot of the drawable listed there (`placeCount` of them). */
  places: Int32Array;
  placeCount: number;
  /** Per-call scratch, per place: its slot (-1: new), the mesh made for it, whether it has something to apply. */
  planSlots: Int32Array;
  readonly planMade: (Mesh | null)[];
  planUpdate: Uint8Array;
  /** A made-with buffer list some drawable of this call names (a new mesh with equal buffers shares it). */
  verifiedBuffers: readonly (GPUBuffer | null)[] | null;
  /** The buffer list of the last mesh this call made (the next equal one shares it). */
  madeBuffers: readonly (GPUBuffer | null)[] | null;
  /** The call number of the last successful sync (a hint speaks of the state that sync left). */
  syncedCall: number;
  /** Places the last call took on the host's word (`SteadyHint`), checked no further. */
  steadySkipped: number;
}

/**
 * @internal What a host adapter vouches for, per place of the list it passes (host-neutral: the three.js walk fills
 * it; a Babylon.js one can). `steady[at] === 1`: `drawables[at]` is the same drawable object, at the same place, as in
 * the last successful sync of this scene, and nothing it describes changed since — geometry and buffers, world matrix
 * (values and array), instances, skin, morph weights, culling, visibility. Such a place costs the sync two reads; any
 * other value (or a place past the array) is checked as without a hint. The hint is ignored whole when the previous
 * call failed, and a place whose slot does not hold that drawable object is checked in full.
 */
export interface SteadyHint {
  steady: Uint8Array;
}

/** A weft scene that mirrors a host's drawables (see `syncDrawableScene`); pick it with any weft picker. */
export interface DrawableScene<T = unknown> {
  readonly scene: Scene;
  readonly objectOfMesh: WeakMap<Mesh, T>;
  syncs: number;
  disposed: boolean;
  /** @internal Each listed object's slot. */
  readonly slotOf: Map<T, number>;
  /** @internal Sync calls made (failed ones too). */
  calls: number;
  /** @internal Drawable objects whose keys were checked (a steady host passes the same objects each call). */
  readonly keysChecked: WeakSet<object>;
  /** @internal */
  readonly sync: DrawableSync<T>;
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
    objectOfMesh: new WeakMap(),
    syncs: 0,
    disposed: false,
    slotOf: new Map(),
    calls: 0,
    keysChecked: new WeakSet(),
    sync: {
      slots: makeDrawableSlots(64),
      meshOf: [],
      places: new Int32Array(64),
      placeCount: 0,
      planSlots: new Int32Array(64),
      planMade: [],
      planUpdate: new Uint8Array(64),
      verifiedBuffers: null,
      madeBuffers: null,
      syncedCall: 0,
      steadySkipped: 0,
    },
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

/** `doubleSided | cw << 1 | visible << 2 | pickable << 3`, as drawn (a hidden drawable is not pickable). */
function lookOf(drawable: PickDrawable<unknown>): number {
  const visible = drawable.visible ?? true;
  return (
    (drawable.doubleSided === true ? 1 : 0) |
    (drawable.frontFace === 'cw' ? 2 : 0) |
    (visible ? 4 : 0) |
    (visible && (drawable.pickable ?? true) ? 8 : 0)
  );
}

/** `skinned | morph target count << 1`: what a mesh is made with besides its buffers. */
function shapeOf(drawable: PickDrawable<unknown>): number {
  return (drawable.skin ? 1 : 0) | ((drawable.morph?.positions.length ?? 0) << 1);
}

/** The shape × 16 + the look: both in one number, compared at once while neither changes. */
function formOf(drawable: PickDrawable<unknown>): number {
  return shapeOf(drawable) * 16 + lookOf(drawable);
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

/** Whether a drawable's vertex buffers are, in order, those a mesh was made with (`made` ends with its index buffer). */
function namesVertexBuffers(made: readonly (GPUBuffer | null)[], vertexBuffers: readonly PickVertexBuffer[]): boolean {
  for (let i = 0; i < vertexBuffers.length; i++) if (made[i] !== (vertexBuffers[i].buffer ?? null)) return false;
  return true;
}

/** Whether the mesh's float32 world matrix already holds `given` (as float32: hosts keep float64 matrices). */
function sameMatrix(a: ArrayLike<number>, given: ArrayLike<number>): boolean {
  // `!==`: a NaN reads as moved, and the check of the moved matrix refuses it.
  for (let i = 0; i < 16; i++) if (a[i] !== Math.fround(given[i])) return false;
  return true;
}

/** Grows the per-place arrays to hold `count` places (the places of the last sync kept). */
function growPlaces<T>(sync: DrawableSync<T>, count: number): void {
  const length = Math.max(count, sync.places.length * 2);
  const places = new Int32Array(length);
  places.set(sync.places);
  sync.places = places;
  sync.planSlots = new Int32Array(length);
  sync.planUpdate = new Uint8Array(length);
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
  syncDrawableSceneHinted(target, drawables, undefined);
}

/**
 * @internal `syncDrawableScene` with a host adapter's word on the places that did not change (`SteadyHint`): the same
 * behaviour, errors included, with the steady places taken as they are. Kept apart so the public signature stays two
 * arguments.
 */
export function syncDrawableSceneHinted<T>(
  target: DrawableScene<T>,
  drawables: readonly PickDrawable<T>[],
  hint: SteadyHint | undefined,
): void {
  const api = 'syncDrawableScene';
  if (target.disposed) throw new PickError(api, 'disposed', 'the drawable scene was disposed');
  if (!Array.isArray(drawables))
    throw new PickError(api, 'bad-option', `drawables ${describeValue(drawables)} must be an array of PickDrawable`);
  const call = ++target.calls;
  const sync = target.sync;
  // The hint speaks of the state the last sync left: after a failed call, the scene may hold an older one.
  const steady = hint !== undefined && sync.syncedCall === call - 1 ? hint.steady : null;
  let skipped = 0;
  const slots = sync.slots;
  const count = drawables.length;
  if (sync.places.length < count) growPlaces(sync, count);
  // Reused arrays, written by index (emptying and refilling them would reallocate their storage on every sync).
  const planSlots = sync.planSlots;
  const planMade = sync.planMade;
  const planUpdate = sync.planUpdate;
  const places = sync.places;
  const placeCount = sync.placeCount;
  // Slots are only taken after the checks: these arrays stay the slots' own during them.
  const numbers = slots.numbers;
  const objects = slots.object;
  const listed = slots.listed;
  let newcomers: Set<T> | undefined;
  let planned = 0;
  let pending = 0;
  // Whether a place lists another slot than in the last sync (else the scene's mesh order stands, unless remade).
  let replaced = count !== placeCount;
  // Listed slots are marked (to find a second listing, and after the sync the entries no longer listed) once a place
  // lists another object than in the last sync: while every object is at its place, none is listed twice or dropped.
  let marking = count !== placeCount;
  let verifiedBuffers: readonly (GPUBuffer | null)[] | null = null;
  let verifiedVertexBuffers: readonly PickVertexBuffer[] | null = null;
  try {
    for (let at = 0; at < count; at++) {
      const drawable = drawables[at];
      if (steady !== null && steady[at] === 1 && at < placeCount) {
        // The host vouches for it: its slot is the one listed here last time, holding this very drawable object.
        const slot = places[at];
        // (A slot's drawable is only ever set with its object: no read of the drawable itself.)
        if (slots.drawable[slot] === drawable) {
          if (marking) markListed(api, listed, slot, call, at);
          planSlots[at] = slot;
          planUpdate[at] = 0;
          planned = at + 1;
          skipped++;
          continue;
        }
      }
      if (drawable === null || typeof drawable !== 'object')
        throw new PickError(
          api,
          'bad-option',
          `drawables[${at}] ${describeValue(drawable)} must be a PickDrawable object`,
        );
      const object = drawable.object;
      // A steady host lists each object at its place of the last sync: its slot is found there, without a lookup.
      let slot = at < placeCount ? places[at] : -1;
      if (slot < 0 || objects[slot] !== object) {
        slot = target.slotOf.get(object) ?? -1;
        replaced = true;
        if (!marking) {
          marking = true;
          for (let before = 0; before < at; before++) listed[planSlots[before]] = call;
        }
      }
      const known = slot >= 0 && slots.drawable[slot] === drawable;
      checkDrawable(api, target, drawable, at, known);
      if (slot >= 0) {
        // A mark only (each call has its own number): a later throw leaves the scene as it was.
        if (marking) markListed(api, listed, slot, call, at);
      } else {
        if (newcomers?.has(object))
          throw new PickError(
            api,
            'bad-option',
            `drawables[${at}].object is listed twice; each object is one drawable`,
          );
        (newcomers ??= new Set()).add(object);
      }
      planSlots[at] = slot;
      // Made again for another geometry version, shape or buffer (a new buffer object is noticed by itself).
      let remake = slot < 0;
      if (!remake) {
        const o = slot * slotNumbers;
        const made = slots.geometryBuffers[slot]!;
        const vertexBuffers = drawable.vertexBuffers;
        const last = vertexBuffers.length;
        const form = formOf(drawable);
        const was = numbers[o + formAt];
        remake =
          numbers[o + geometryVersionAt] !== (drawable.geometryVersion ?? 0) ||
          (form !== was && form >> 4 !== was >> 4) ||
          made.length !== last + 1 ||
          made[last] !== (drawable.index?.buffer ?? null);
        // An array of vertex buffers that drawables share is read once per call against the list their meshes share
        // (the host's arrays cannot change during the call).
        if (!remake && (made !== verifiedBuffers || vertexBuffers !== verifiedVertexBuffers)) {
          remake = !namesVertexBuffers(made, vertexBuffers);
          if (!remake) {
            verifiedBuffers = made;
            verifiedVertexBuffers = vertexBuffers;
          }
        }
      }
      if (remake) {
        planUpdate[at] = 0;
        planMade[at] = makeDrawableMesh(target, drawable, at);
        pending++;
        replaced = true;
      } else {
        // A hint: its keys were checked just now.
        if (!known) slots.drawable[slot] = drawable;
        const update = checkUpdate(api, sync, slot, drawable, at);
        planUpdate[at] = update ? 1 : 0;
        if (update) pending++;
      }
      planned = at + 1;
    }
  } catch (error) {
    for (let at = 0; at < planned; at++) {
      const made = planMade[at];
      if (made) disposeMesh(made);
      else if (planSlots[at] >= 0) slots.pending[planSlots[at]] = 0;
      planMade[at] = null;
    }
    forgetVerified(sync);
    throw error;
  }
  target.syncs++;
  sync.syncedCall = call;
  sync.steadySkipped = skipped;
  sync.verifiedBuffers = verifiedBuffers;
  if (pending > 0)
    for (let at = 0; at < count; at++) {
      const made = planMade[at];
      if (made) {
        planMade[at] = null;
        planSlots[at] = installMesh(target, planSlots[at], drawables[at], made, call);
      } else if (planUpdate[at] !== 0) updateSlot(sync, planSlots[at], drawables[at]);
    }
  // This call's plan is the next call's places.
  sync.places = planSlots;
  sync.planSlots = places;
  sync.placeCount = count;
  if (marking && target.slotOf.size > count) dropUnlisted(target, call);
  forgetVerified(sync);
  const meshes = target.scene.meshes;
  const meshOf = sync.meshOf;
  let same = meshes.length === count;
  if (replaced) for (let i = 0; same && i < count; i++) same = meshes[i] === meshOf[planSlots[i]];
  if (!same) {
    meshes.length = count;
    for (let i = 0; i < count; i++) meshes[i] = meshOf[planSlots[i]]!;
    target.scene.structureVersion++;
  }
}

/** Marks `slot` listed by sync `call` (place `at`), refusing an object this call has already listed. */
function markListed(api: string, listed: Float64Array, slot: number, call: number, at: number): void {
  if (listed[slot] === call)
    throw new PickError(api, 'bad-option', `drawables[${at}].object is listed twice; each object is one drawable`);
  listed[slot] = call;
}

/** Lets go of the host's arrays the call verified (they are not kept past it). */
function forgetVerified<T>(sync: DrawableSync<T>): void {
  sync.verifiedBuffers = sync.madeBuffers = null;
}

/** Drops the entries the sync `call` did not list. */
function dropUnlisted<T>(target: DrawableScene<T>, call: number): void {
  const sync = target.sync;
  const slots = sync.slots;
  for (const [object, slot] of target.slotOf)
    if (slots.listed[slot] !== call) {
      disposeMesh(sync.meshOf[slot]!);
      sync.meshOf[slot] = null;
      freeSlotOf(slots, slot);
      target.slotOf.delete(object);
    }
}

/** Puts a mesh made for `drawable` in its slot (a new one for a new object; the old mesh is disposed); returns it. */
function installMesh<T>(target: DrawableScene<T>, slot: number, drawable: PickDrawable<T>, made: Mesh, call: number) {
  const sync = target.sync;
  const slots = sync.slots;
  if (slot >= 0) disposeMesh(sync.meshOf[slot]!);
  else {
    slot = takeSlot(slots);
    target.slotOf.set(drawable.object, slot);
  }
  slots.object[slot] = drawable.object;
  sync.meshOf[slot] = made;
  slots.drawable[slot] = drawable;
  slots.worldSource[slot] = drawable.worldMatrix;
  const buffers = [...(made.hostBuffers?.vertexBuffers ?? []), made.hostBuffers?.indexBuffer ?? null];
  const shared = sync.verifiedBuffers ?? sync.madeBuffers;
  slots.geometryBuffers[slot] = shared && sameBufferList(shared, buffers) ? shared : (sync.madeBuffers = buffers);
  slots.instanceBuffer[slot] = made.hostBuffers?.instanceBuffer ?? null;
  const numbers = slots.numbers;
  const o = slot * slotNumbers;
  numbers[o + geometryVersionAt] = drawable.geometryVersion ?? 0;
  numbers[o + worldVersionAt] = drawable.worldMatrixVersion ?? Number.NaN;
  numbers[o + instanceVersionAt] = drawable.instances?.version ?? Number.NaN;
  numbers[o + formAt] = formOf(drawable);
  slots.skinVersions[slot] = drawable.skin?.version ?? Number.NaN;
  slots.listed[slot] = call;
  slots.pending[slot] = 0;
  const world = slots.world;
  for (let i = 0; i < 16; i++) world[slot * 16 + i] = drawable.worldMatrix[i];
  return slot;
}

/**
 * Everything `updateSlot` would refuse, checked before the sync changes anything; returns whether it has anything to
 * apply. A steady drawable is compared with its slot's numbers and world values, not checked, and its mesh is not
 * read (not even compared where the host versions its matrices).
 */
function checkUpdate<T>(api: string, sync: DrawableSync<T>, slot: number, drawable: PickDrawable<T>, at: number) {
  const slots = sync.slots;
  const numbers = slots.numbers;
  const o = slot * slotNumbers;
  const source = drawable.worldMatrix;
  const version = drawable.worldMatrixVersion;
  const sameSource = source === slots.worldSource[slot];
  const held = version !== undefined && version === numbers[o + worldVersionAt] && sameSource;
  // Values equal to the last synced ones need no float32 compare with the mesh (nor a look at its matrix).
  const worldChanged = !held && !holdsSixteen(slots.world, slot * 16, source);
  let moved = false;
  if (worldChanged) {
    const mesh = sync.meshOf[slot]!;
    moved = !sameMatrix(mesh.worldMatrix, source);
    if (moved) checkMatrix(api, mesh.name, `drawables[${at}].worldMatrix`, source);
  }
  if (worldChanged) slots.pending[slot] = worldChangedBit | (moved ? movedBit : 0);
  const instances = drawable.instances;
  const instanceChange = !sameVersion(instances?.version, numbers[o + instanceVersionAt]);
  const instanceBuffer = instances?.buffer ?? null;
  const rebind = instanceBuffer !== slots.instanceBuffer[slot];
  if (instanceChange || rebind) {
    const mesh = sync.meshOf[slot]!;
    if (instances && instanceChange) checkThinInstances(api, mesh.name, instances.matrices);
    checkMeshHostBuffers(api, mesh.name, mesh.geometry, instances ? instances.matrices.length / 16 : 0, {
      ...mesh.hostBuffers!,
      instanceBuffer,
    });
  }
  const skin = drawable.skin;
  const skinChange = skin != null && skin.version !== slots.skinVersions[slot];
  const skeleton = skinChange ? sync.meshOf[slot]!.skeleton : undefined;
  if (skin && skeleton && skin.boneMatrices.length !== skeleton.matrices.length)
    throw new PickError(
      api,
      'bad-option',
      `drawables[${at}].skin.boneMatrices holds ${skin.boneMatrices.length / 16} bones, the drawable was made with ${skeleton.boneCount}; bump geometryVersion to change the bone count`,
    );
  return (
    worldChanged ||
    !sameSource ||
    !sameVersion(version, numbers[o + worldVersionAt]) ||
    instanceChange ||
    rebind ||
    skinChange ||
    drawable.morph != null ||
    lookOf(drawable) !== (numbers[o + formAt] & 15)
  );
}

/** Applies a checked drawable to its slot and mesh (`checkUpdate` ran): nothing here throws. */
function updateSlot<T>(sync: DrawableSync<T>, slot: number, drawable: PickDrawable<T>): void {
  const slots = sync.slots;
  const numbers = slots.numbers;
  const o = slot * slotNumbers;
  const mesh = sync.meshOf[slot]!;
  const pending = slots.pending[slot];
  slots.pending[slot] = 0;
  if (pending & movedBit) setMeshWorldMatrix(mesh, drawable.worldMatrix);
  if (pending & worldChangedBit) for (let i = 0; i < 16; i++) slots.world[slot * 16 + i] = drawable.worldMatrix[i];
  slots.worldSource[slot] = drawable.worldMatrix;
  numbers[o + worldVersionAt] = drawable.worldMatrixVersion ?? Number.NaN;
  const instances = drawable.instances;
  if (!sameVersion(instances?.version, numbers[o + instanceVersionAt])) {
    setThinInstances(mesh, instances?.matrices ?? null);
    numbers[o + instanceVersionAt] = instances?.version ?? Number.NaN;
  }
  // Only a different buffer re-binds (and drops the mesh's GPU wrapper); new matrices in the same buffer do not.
  const hostInstances = instances?.buffer ?? null;
  if (hostInstances !== slots.instanceBuffer[slot]) {
    setMeshHostBuffers(mesh, { ...mesh.hostBuffers!, instanceBuffer: hostInstances });
    slots.instanceBuffer[slot] = hostInstances;
  }
  const skin = drawable.skin;
  if (skin && mesh.skeleton && skin.version !== slots.skinVersions[slot]) {
    mesh.skeleton.matrices.set(skin.boneMatrices);
    mesh.skeleton.version++;
    slots.skinVersions[slot] = skin.version;
  }
  const weights = drawable.morph?.weights;
  if (weights) for (let i = 0; i < weights.length; i++) mesh.morphWeights[i] = weights[i];
  const look = lookOf(drawable);
  const was = numbers[o + formAt] & 15;
  if (look !== was) {
    if ((look ^ was) & 3) mesh.material = drawableMaterial(drawable);
    mesh.visible = (look & 4) !== 0;
    mesh.pickable = (look & 8) !== 0;
    numbers[o + formAt] = numbers[o + formAt] - was + look;
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
  target.slotOf.clear();
  target.sync.placeCount = 0;
  target.sync.planMade.length = 0;
  const slots = target.sync.slots;
  for (let slot = 0; slot < slots.used; slot++) if (slots.object[slot] !== slots) freeSlotOf(slots, slot);
  target.sync.meshOf.length = 0;
  disposeScene(target.scene);
}
