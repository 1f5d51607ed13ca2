// What a drawable scene remembers of each drawable between syncs, kept side by side in slot-indexed arrays (one slot
// per entry, for its life) so that a steady sync reads the host's drawable and these arrays, in order, and nothing of
// weft's own meshes. A host that lists its objects in the same order each call finds each one's slot at its place.

/**
 * @internal Offsets of a slot's numbers in `DrawableSlots.numbers`, `slotNumbers` (32 bytes) per slot: what a steady
 * drawable is compared with, and nothing it does not need (a steady sync writes none of it).
 */
export const geometryVersionAt = 0;
/** @internal The drawable's `worldMatrixVersion` as last synced; NaN where it gave none. */
export const worldVersionAt = 1;
/** @internal Its instances' version as last synced; NaN where it had none. */
export const instanceVersionAt = 2;
/** @internal `formOf` as last synced: the shape the mesh was made with × 16 + the look (culling, visibility). */
export const formAt = 3;
/** @internal */
export const slotNumbers = 4;
/** @internal The host's values differ from the slot's `world` values (written back by the update). */
export const worldChangedBit = 1;
/** @internal The host's matrix differs from the mesh's float32 matrix. */
export const movedBit = 2;

/**
 * @internal One drawable's memory, spread over arrays indexed by its slot: what a steady sync compares (numbers, world
 * values, the arrays and buffers the drawable last named) and the mesh made for it.
 */
export interface DrawableSlots<T, D> {
  /** Slots handed out so far (free ones included); the arrays hold `capacity`. */
  used: number;
  capacity: number;
  readonly free: number[];
  /** `slotNumbers` float64 per slot (see the offsets above). */
  numbers: Float64Array;
  /** Per slot: its skin's version as last synced (NaN where it had none). */
  skinVersions: Float64Array;
  /**
   * Per slot: the sync call that last listed it, marked once a sync finds a drawable away from its last place (for
   * a second listing in one call, an error, and for the entries no longer listed, dropped).
   */
  listed: Float64Array;
  /** Per slot, set by the check of a sync for its update (`worldChangedBit`, `movedBit`); 0 between syncs. */
  pending: Uint8Array;
  /** 16 float64 per slot: the host's world matrix as last synced, compared before the mesh's own. */
  world: Float64Array;
  /** The host object of each slot; a freed slot names the slots themselves, which no host object is. */
  readonly object: (T | DrawableSlots<T, D>)[];
  /** The drawable object last synced into the slot (its keys were checked then). */
  readonly drawable: (D | null)[];
  /** The world-matrix array last synced (with `worldVersionAt`, a held version skips the compare by value). */
  readonly worldSource: (ArrayLike<number> | null)[];
  /**
   * The GPU buffers the mesh was made with (vertex buffers', then the index buffer; null where weft copied). Equal
   * lists are one array, so a sync checks a shared host array against a shared list once per call.
   */
  readonly geometryBuffers: (readonly (GPUBuffer | null)[] | null)[];
  /** The host's instance buffer the mesh binds (null: weft's own copy, or no instances). */
  readonly instanceBuffer: (GPUBuffer | null)[];
}

/** @internal Empty slots with room for `capacity`. */
export function makeDrawableSlots<T, D>(capacity: number): DrawableSlots<T, D> {
  return {
    used: 0,
    capacity,
    free: [],
    numbers: new Float64Array(capacity * slotNumbers),
    skinVersions: new Float64Array(capacity),
    listed: new Float64Array(capacity),
    pending: new Uint8Array(capacity),
    world: new Float64Array(capacity * 16),
    object: [],
    drawable: [],
    worldSource: [],
    geometryBuffers: [],
    instanceBuffer: [],
  };
}

/** @internal A slot for a new entry (a freed one first), its arrays grown when full. */
export function takeSlot<T, D>(slots: DrawableSlots<T, D>): number {
  const reused = slots.free.pop();
  if (reused !== undefined) return reused;
  const slot = slots.used++;
  if (slot >= slots.capacity) {
    slots.capacity *= 2;
    const numbers = new Float64Array(slots.capacity * slotNumbers);
    numbers.set(slots.numbers);
    slots.numbers = numbers;
    const world = new Float64Array(slots.capacity * 16);
    world.set(slots.world);
    slots.world = world;
    const skinVersions = new Float64Array(slots.capacity);
    skinVersions.set(slots.skinVersions);
    slots.skinVersions = skinVersions;
    const listed = new Float64Array(slots.capacity);
    listed.set(slots.listed);
    slots.listed = listed;
    const pending = new Uint8Array(slots.capacity);
    pending.set(slots.pending);
    slots.pending = pending;
  }
  return slot;
}

/** @internal Gives a slot back, letting go of what it names. */
export function freeSlotOf<T, D>(slots: DrawableSlots<T, D>, slot: number): void {
  slots.object[slot] = slots;
  slots.drawable[slot] = null;
  slots.worldSource[slot] = null;
  slots.geometryBuffers[slot] = null;
  slots.instanceBuffer[slot] = null;
  slots.free.push(slot);
}

/** @internal Whether a version as given (undefined: none) is the one stored (NaN: none). */
export function sameVersion(given: number | undefined, stored: number): boolean {
  return given === undefined ? Number.isNaN(stored) : given === stored;
}

/** @internal Whether two buffer lists hold the same buffers in the same order. */
export function sameBufferList(a: readonly (GPUBuffer | null)[], b: readonly (GPUBuffer | null)[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * @internal Whether `values[o..o+15]` still hold `given`'s 16 numbers (a world matrix as last seen; a NaN reads as
 * changed): the steady scene's hottest compare, once per drawable per sync and per object per host walk.
 */
export function holdsSixteen(values: Float64Array, o: number, given: ArrayLike<number>): boolean {
  // Written out: no loop in the steady scene's hottest compare.
  return (
    values[o] === given[0] &&
    values[o + 1] === given[1] &&
    values[o + 2] === given[2] &&
    values[o + 3] === given[3] &&
    values[o + 4] === given[4] &&
    values[o + 5] === given[5] &&
    values[o + 6] === given[6] &&
    values[o + 7] === given[7] &&
    values[o + 8] === given[8] &&
    values[o + 9] === given[9] &&
    values[o + 10] === given[10] &&
    values[o + 11] === given[11] &&
    values[o + 12] === given[12] &&
    values[o + 13] === given[13] &&
    values[o + 14] === given[14] &&
    values[o + 15] === given[15]
  );
}
