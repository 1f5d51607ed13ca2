// The pick-source seam: a host engine describes what it draws — its own GPU buffers, layouts, matrices, instances and
// skin — and the pickers pick that, drawing the host's buffers where they live. A drawable scene keeps one weft mesh
// per described object, bound to the host's buffers (no second upload), and syncs it by versions on each call.
import { describeValue } from '../../core/errors.js';
import type { Camera } from '../../engine/camera.js';
import type { Engine } from '../../engine/engine.js';
import { disposeMesh, type Mesh } from '../../engine/mesh.js';
import { createScene, disposeScene } from '../../engine/scene.js';
import { PickError } from '../pick-errors.js';
import { formAt, freeSlotOf, geometryVersionAt, makeDrawableSlots, slotNumbers } from './drawable-slots.js';
import type { DrawableScene, DrawableSync, PickDrawable, PickVertexBuffer, SteadyHint } from './drawable-types.js';
import { checkDrawable, formOf, makeDrawableMesh, namesVertexBuffers } from './drawable-mesh.js';
import { checkUpdate, installMesh, updateSlot } from './drawable-slot-update.js';

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
    changes: 0,
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
  if (steady !== null && count > 0 && count === sync.placeCount && hint!.steadyCount === count) {
    // The host vouches for the whole list as the last sync left it: every place keeps its slot and drawable, and
    // nothing any of them describes changed. That sync's plan stands as it is.
    target.syncs++;
    sync.syncedCall = call;
    sync.steadySkipped = count;
    return;
  }
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
  const dropping = marking && target.slotOf.size > count;
  if (dropping) dropUnlisted(target, call);
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
  if (pending > 0 || dropping || !same) target.changes++;
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
