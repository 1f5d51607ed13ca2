// The pick-source seam's vocabulary: what a host describes of each object it draws (PickDrawable), and the drawable
// scene that mirrors a host's list (DrawableScene) with its sync state.
import type { Mesh } from '../../engine/mesh.js';
import type { InterleavedAttribute, VertexSemantic } from '../../engine/mesh-data.js';
import type { Scene } from '../../engine/scene.js';
import type { DrawableSlots } from './drawable-slots.js';

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
  /**
   * How many of the list's places are 1 in `steady`. When every place is (and the list is as long as the last
   * sync's), the host vouches that the list is the last sync's, unchanged: the sync reads none of it.
   */
  steadyCount: number;
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
  /**
   * @internal Syncs that changed what a pick of the scene draws or answers (a mesh made, dropped, moved, re-posed,
   * re-ordered or shown differently). Equal before and after a sync: a pick submitted before it drew the same scene.
   */
  changes: number;
  /** @internal Drawable objects whose keys were checked (a steady host passes the same objects each call). */
  readonly keysChecked: WeakSet<object>;
  /** @internal */
  readonly sync: DrawableSync<T>;
}
