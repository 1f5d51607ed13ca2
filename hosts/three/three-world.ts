// three's `scene.updateMatrixWorld()` done inside the adapter's walk, object by object, for the objects whose local
// transform, matrix, parent or world matrix changed since the last walk: three recomposes and remultiplies every
// object on every call, which at 10 000 meshes costs more than the pick. Each object's result is the one three's call
// would leave (same float64 operations on the same values), and each world matrix gets a version the seam can trust.
import { Object3D } from 'three';
import { holdsSixteen } from '../../picking/sources/drawable-slots.js';

/**
 * Numbers kept per walk place, in one stream: the place's flags, its world-matrix version, the local values or matrix
 * (16), then the world matrix last seen (16). A steady object's check reads the first 12 of them.
 */
const stride = 34;
const flagsAt = 0;
const versionAt = 1;
const localAt = 2;
const worldAt = 18;

const derivedFlag = 1;
const keptFlag = 2;
const composedFlag = 4;
/** The walk keeps this object's world itself and never reads three's (see `updateObjectWorld`). */
const ownedFlag = 8;

/** @internal Bits `updateObjectWorld` returns. */
export const forceBelow = 1;
/** @internal The object's world matrix differs from the one the last walk saw there (or the place is new). */
export const worldChanged = 2;

/**
 * @internal What the walks remember per place of the object walk (every object, hidden ones too, in scene order):
 * the object and parent there, the world matrix last seen, the local values (position, quaternion, scale) or the local
 * matrix the world was derived from, and whether the world still is `parent.world × matrix` of those values.
 */
export interface WorldPlaces {
  /** Per place, the object there and its parent, side by side (place `at`: entries 2at and 2at + 1): one stream. */
  objects: (Object3D | null)[];
  /**
   * Per place (`stride` numbers): its flags — `derivedFlag` where the world matrix was derived by a walk from the kept
   * local values and has not been touched since; `keptFlag` where local values of this object are kept,
   * `composedFlag` too where they are position, quaternion and scale (else the matrix); `ownedFlag` where the last walk
   * took the kept world as the object's world without reading three's —, the version of the world matrix there (a new
   * number from `nextVersion` at each change seen), the local values, the world matrix.
   */
  values: Float64Array;
  /** Places `values` has room for. */
  capacity: number;
  nextVersion: number;
  /** Matrix work done by the last walk (composes + products), for tests and benches. */
  computed: number;
  /** three's own `Object3D.prototype.updateMatrixWorld`, read once (a prototype's property costs a lookup). */
  readonly threeUpdate: Object3D['updateMatrixWorld'];
}

/** @internal */
export function makeWorldPlaces(): WorldPlaces {
  return {
    objects: [],
    values: new Float64Array(64 * stride),
    capacity: 64,
    nextVersion: 1,
    computed: 0,
    threeUpdate: Object3D.prototype.updateMatrixWorld,
  };
}

/** @internal Forgets every place (the next walk derives everything again, as three would). */
export function forgetWorldPlaces(places: WorldPlaces): void {
  places.objects.length = 0;
  places.values.fill(0);
}

/** Room for place `at`. */
function reserve(places: WorldPlaces, at: number): void {
  if (at < places.capacity) return;
  const length = Math.max(at + 1, places.capacity * 2);
  const values = new Float64Array(length * stride);
  values.set(places.values);
  places.values = values;
  places.capacity = length;
}

/** @internal The place of `object` in the last walk, -1 when it was not walked. */
export function worldPlaceOf(places: WorldPlaces, object: Object3D): number {
  const objects = places.objects;
  for (let i = 0; i < objects.length; i += 2) if (objects[i] === object) return i / 2;
  return -1;
}

/** @internal The version of the world matrix at place `at` (see WorldPlaces.values). */
export function worldVersionAt(places: WorldPlaces, at: number): number {
  return places.values[at * stride + versionAt];
}

function keep16(values: Float64Array, o: number, given: ArrayLike<number>): void {
  for (let i = 0; i < 16; i++) values[o + i] = given[i];
}

/** Whether position, quaternion and scale hold the kept values (what `updateMatrix` composes; NaN reads as changed). */
function sameLocal(values: Float64Array, o: number, object: Object3D): boolean {
  const p = object.position;
  const q = object.quaternion;
  const s = object.scale;
  return (
    values[o] === p.x &&
    values[o + 1] === p.y &&
    values[o + 2] === p.z &&
    values[o + 3] === q.x &&
    values[o + 4] === q.y &&
    values[o + 5] === q.z &&
    values[o + 6] === q.w &&
    values[o + 7] === s.x &&
    values[o + 8] === s.y &&
    values[o + 9] === s.z
  );
}

function keepLocal(values: Float64Array, o: number, object: Object3D): void {
  const p = object.position;
  const q = object.quaternion;
  const s = object.scale;
  values[o] = p.x;
  values[o + 1] = p.y;
  values[o + 2] = p.z;
  values[o + 3] = q.x;
  values[o + 4] = q.y;
  values[o + 5] = q.z;
  values[o + 6] = q.w;
  values[o + 7] = s.x;
  values[o + 8] = s.y;
  values[o + 9] = s.z;
}

/**
 * @internal Writes the kept world of place `at` into its object's `matrixWorld` where the walk owns it: three's array
 * may hold a hand-written matrix there, which three's own update would overwrite with this one before reading it.
 * Called before anything of the walk reads the matrix (a child's product, an override's update).
 */
export function settleWorld(places: WorldPlaces, at: number, object: Object3D): void {
  if (at < 0 || (places.values[at * stride + flagsAt] & ownedFlag) === 0) return;
  const values = places.values;
  const o = at * stride + worldAt;
  const world = object.matrixWorld.elements;
  if (!holdsSixteen(values, o, world)) for (let i = 0; i < 16; i++) world[i] = values[o + i];
}

/** @internal Copies the world matrix the walk knows at place `at` into `out` (16 numbers). */
export function copyWorld(places: WorldPlaces, at: number, out: Float64Array): void {
  const values = places.values;
  const o = at * stride + worldAt;
  for (let i = 0; i < 16; i++) out[i] = values[o + i];
}

/** @internal Whether three calls the object's own `updateMatrixWorld` (a Camera, a SkinnedMesh, a helper, yours). */
export function updatesItsOwnWorld(places: WorldPlaces, object: Object3D): boolean {
  return object.updateMatrixWorld !== places.threeUpdate;
}

/** The flags of a place whose world the last walk derived from kept position, quaternion and scale, and owns. */
const steadyFlags = derivedFlag | keptFlag | composedFlag | ownedFlag;

/**
 * @internal Whether `object` at place `at` is where the last walk left it, composes its world from position, quaternion
 * and scale that have not changed, and three would do nothing to its world that the last walk did not (what
 * `updateObjectWorld` finds for a steady object, without its other cases): true means its world neither changed nor
 * needs work, and three passes `force` to its children. The caller knows three's update reaches it (`updated` false)
 * and that its parent's world did not change this walk.
 */
export function steadyOwnedWorld(places: WorldPlaces, object: Object3D, at: number): boolean {
  const objects = places.objects;
  if (at >= places.capacity || objects[2 * at] !== object) return false;
  const o = at * stride;
  const values = places.values;
  return (
    values[o + flagsAt] === steadyFlags &&
    objects[2 * at + 1] === object.parent &&
    object.matrixAutoUpdate &&
    object.matrixWorldAutoUpdate &&
    !object.matrixWorldNeedsUpdate &&
    object.pivot === null &&
    object.updateMatrixWorld === places.threeUpdate &&
    sameLocal(values, o + localAt, object)
  );
}

/**
 * Does for `object`, at place `at` of the object walk (its parent at `parentAt`, -1 outside the walk), what three's
 * `updateMatrixWorld(force)` does for it alone (children excluded), skipping the compose and the product where they
 * would write the values already there: the world matrix is derived again only when the place is new, the local values
 * (`matrixAutoUpdate`) or the matrix changed, the parent's world changed this walk, or someone wrote `matrixWorld` since
 * the last walk where three would keep what was written.
 * An object with `matrixAutoUpdate` and `matrixWorldAutoUpdate` gets its world recomposed by three on every update, so
 * a `matrixWorld` written by hand is never drawn: its three array is not read (the walk's costliest compare); the
 * kept world is its world, the one its drawable and its children's products use (`settleWorld`, `copyWorld`).
 * `updated`: three's own method already updated it (an ancestor or itself overrides `updateMatrixWorld`, or the scene
 * is not auto-updated): only its world matrix is compared. Returns `forceBelow` (three's `force` for its children)
 * and `worldChanged` bits.
 * @internal
 */
export function updateObjectWorld(
  places: WorldPlaces,
  object: Object3D,
  at: number,
  parentAt: number,
  force: boolean,
  parentChanged: boolean,
  updated: boolean,
): number {
  reserve(places, at);
  const values = places.values;
  const o = at * stride;
  const parent = object.parent;
  const objects = places.objects;
  const known = objects[2 * at] === object && objects[2 * at + 1] === parent;
  if (!known) {
    objects[2 * at] = object;
    objects[2 * at + 1] = parent;
  }
  const world = object.matrixWorld.elements;
  const flags = values[o + flagsAt];
  const auto = object.matrixAutoUpdate;
  // A bone's matrixWorld is read by its skeleton, outside the walk: kept where three would leave it.
  const owned = !updated && auto && object.matrixWorldAutoUpdate && (object as { isBone?: boolean }).isBone !== true;
  // Whether the world matrix holds what the last walk saw there (a hand-written one does not, where three keeps it).
  let worldSame = known && (owned ? (flags & derivedFlag) !== 0 : holdsSixteen(values, o + worldAt, world));
  let derived = worldSame && (flags & derivedFlag) !== 0;
  // The kept local values are of the kind this object composes from now (matrixAutoUpdate may have been toggled).
  let kept = known ? flags & (keptFlag | composedFlag) : 0;
  const localKnown = kept === (auto ? keptFlag | composedFlag : keptFlag);
  if (!updated) {
    // three composes `matrix` on every call: composed again here only when what it composes from changed (a pivot is
    // rare: composed every walk). A matrix written by hand under matrixAutoUpdate is overwritten by three before use,
    // so it is never read here without composing first.
    let composed = false;
    if (auto) {
      if (!localKnown || object.pivot !== null || !sameLocal(values, o + localAt, object)) {
        object.updateMatrix();
        keepLocal(values, o + localAt, object);
        kept = keptFlag | composedFlag;
        composed = true;
        derived = false;
      }
    } else if (!localKnown || !holdsSixteen(values, o + localAt, object.matrix.elements)) {
      keep16(values, o + localAt, object.matrix.elements);
      kept = keptFlag;
      derived = false;
    }
    if (parentChanged) derived = false;
    if (auto || object.matrixWorldNeedsUpdate || force) {
      if (object.matrixWorldAutoUpdate) {
        if (!derived) {
          if (auto && !composed) object.updateMatrix();
          if (parent === null) object.matrixWorld.copy(object.matrix);
          else {
            settleWorld(places, parentAt, parent);
            object.matrixWorld.multiplyMatrices(parent.matrixWorld, object.matrix);
          }
          places.computed++;
          derived = true;
          worldSame = known && holdsSixteen(values, o + worldAt, world);
        }
      } else derived = false;
      // Written only when set: a write per object per walk costs as much as the compares.
      if (object.matrixWorldNeedsUpdate) object.matrixWorldNeedsUpdate = false;
      force = true;
    }
  } else derived = false;
  const changed = !worldSame;
  if (changed) {
    keep16(values, o + worldAt, world);
    values[o + versionAt] = places.nextVersion++;
  }
  const next = (derived ? derivedFlag : 0) | (owned && derived ? ownedFlag : 0) | kept;
  if (flags !== next) values[o + flagsAt] = next;
  return (force ? forceBelow : 0) | (changed ? worldChanged : 0);
}
