import { describeValue } from '../../core/errors.js';
import { checkOptionKeys } from '../../core/options.js';
import { createMeshFromData, disposeMesh, type Mesh } from '../../engine/mesh.js';
import type { MeshData } from '../../engine/mesh-data.js';
import { createScene, disposeScene, type Scene } from '../../engine/scene.js';
import { PickError } from '../pick-errors.js';
import { maxPickId } from '../pick-id.js';
import { captureCandidate, type PickSnapshot } from '../pick-snapshot.js';

/**
 * One overlay item as the caller gives it: a mesh it already has (in another scene on the picker's engine; the
 * overlay never disposes it) or geometry the overlay uploads and owns (disposed with the overlay).
 */
export type PickOverlayItemInput =
  | {
      /** The caller's name for the item, returned in `PickingInfo.pickedOverlay.handleId`; unique in the overlay. */
      handleId: number | string;
      /** Drawn with its world matrix as of each pick call; skipped while `pickable` is false or once disposed. */
      mesh: Mesh;
      /** `'on-top'` (default): ignores scene depth and wins within the tolerance; `'scene'`: see `PickOverlayDepth`. */
      depth?: PickOverlayDepth;
    }
  | {
      handleId: number | string;
      /** Triangles the overlay uploads (validated like `createMeshFromData`). */
      geometry: MeshData;
      /** Column-major local → world (default identity); change it later with `setMeshWorldMatrix(item.mesh, m)`. */
      worldMatrix?: ArrayLike<number>;
      depth?: PickOverlayDepth;
    };

/**
 * How an overlay item meets the scene:
 * - `'on-top'`: drawn in a neighbourhood of its own (2·tolerance + 1 pixels square) with no scene depth, like a gizmo
 *   drawn over everything; any of its pixels within the tolerance of the pick point beats the scene;
 * - `'scene'`: depth-tested against the scene at the exact pixel only (hidden behind nearer geometry, no tolerance);
 *   when it is under the pixel it counts as an overlay hit at distance 0.
 */
export type PickOverlayDepth = 'on-top' | 'scene';

/** An overlay item as the overlay holds it. */
export interface PickOverlayItem {
  readonly handleId: number | string;
  /** The caller's mesh, or the one the overlay made from `geometry`. */
  readonly mesh: Mesh;
  readonly depth: PickOverlayDepth;
  /** True when the overlay made the mesh (and disposes it). */
  readonly owned: boolean;
}

/**
 * What an overlay reads and keeps of its picker: a `GpuPicker` is one. Named here so the overlays, which the picker
 * draws, need not import the picker's module.
 */
export interface PickOverlayOwner {
  readonly scene: Scene;
  readonly disposed: boolean;
  /** The owner's overlays, in creation order. */
  readonly overlays: PickOverlay[];
}

/** Items a picker draws over the scene in the same pick pass, with priority (see `createPickOverlay`). */
export interface PickOverlay {
  readonly picker: PickOverlayOwner;
  /** The current items, in priority order for ties (earlier wins). */
  items: readonly PickOverlayItem[];
  disposed: boolean;
  /** Holds the meshes made from `geometry` items (null until the first one). */
  ownScene: Scene | null;
}

/** Which overlay item an overlay hit names and how far from the pick point it was found. */
export interface PickOverlayHit {
  overlay: PickOverlay;
  item: PickOverlayItem;
  /** `item.handleId`. */
  handleId: number | string;
  /** Index of the item in `overlay.items` at the call. */
  itemIndex: number;
  /** Framebuffer-pixel offset (dx, dy) of the winning pixel from the picked pixel; [0, 0] under it. */
  offset: [number, number];
  /** `Math.hypot(...offset)`. */
  pixelDistance: number;
}

/** Default half size of the overlay neighbourhood: 4 gives 9 × 9 framebuffer pixels around the pick point. */
export const defaultOverlayTolerance = 4;
/** Largest `overlayTolerance` a pick accepts (a 33 × 33 neighbourhood). */
export const maxOverlayTolerance = 16;

const itemKeys = { handleId: true, mesh: true, geometry: true, worldMatrix: true, depth: true } as const;

function isMesh(value: unknown): value is Mesh {
  return !!value && typeof value === 'object' && 'geometry' in value && 'positions' in value && 'scene' in value;
}

/** Checks the items before anything is made; then makes the owned meshes (all or none). */
function makeItems(api: string, overlay: PickOverlay, items: unknown): PickOverlayItem[] {
  if (!Array.isArray(items))
    throw new PickError(
      api,
      'bad-option',
      `items ${describeValue(items)} must be an array of { handleId, mesh | geometry }`,
    );
  const engine = overlay.picker.scene.engine;
  const seen = new Set<number | string>();
  items.forEach((item: unknown, i) => {
    const at = `items[${i}]`;
    if (!item || typeof item !== 'object')
      throw new PickError(api, 'bad-option', `${at} ${describeValue(item)} must be { handleId, mesh | geometry }`);
    checkOptionKeys(api, item, itemKeys, (_, m) => new PickError(api, 'bad-option', `${at}: ${m}`));
    const { handleId, mesh, geometry, depth } = item as Record<string, unknown>;
    if (!(typeof handleId === 'string' || (typeof handleId === 'number' && Number.isFinite(handleId))))
      throw new PickError(
        api,
        'bad-option',
        `${at}.handleId ${describeValue(handleId)} must be a string or a finite number`,
      );
    if (seen.has(handleId))
      throw new PickError(
        api,
        'bad-option',
        `${at}.handleId ${describeValue(handleId)} is used twice; handle ids are unique in an overlay`,
      );
    seen.add(handleId);
    if (depth !== undefined && depth !== 'on-top' && depth !== 'scene')
      throw new PickError(api, 'bad-option', `${at}.depth ${describeValue(depth)} must be 'on-top' or 'scene'`);
    if ((mesh === undefined) === (geometry === undefined))
      throw new PickError(api, 'bad-option', `${at} must have exactly one of mesh (a Mesh) or geometry (MeshData)`);
    if (mesh === undefined) return;
    if (!isMesh(mesh)) throw new PickError(api, 'bad-option', `${at}.mesh ${describeValue(mesh)} is not a Mesh`);
    if (mesh.disposed) throw new PickError(api, 'bad-option', `${at}.mesh "${mesh.name}" is disposed`);
    if (mesh.scene.engine !== engine)
      throw new PickError(
        api,
        'bad-option',
        `${at}.mesh "${mesh.name}" belongs to another engine; overlay meshes must share the picker's engine`,
      );
    if (mesh.scene === overlay.picker.scene)
      throw new PickError(
        api,
        'bad-option',
        `${at}.mesh "${mesh.name}" is in the picked scene and would be drawn twice; put overlay meshes in another scene on the same engine`,
      );
    if (mesh.thinInstances)
      throw new PickError(
        api,
        'unsupported',
        `${at}.mesh "${mesh.name}" has thin instances; an overlay item is one mesh without them`,
      );
  });
  const made: Mesh[] = [];
  try {
    return items.map((item: Record<string, unknown>) => {
      const depth = (item.depth as PickOverlayDepth | undefined) ?? 'on-top';
      const handleId = item.handleId as number | string;
      if (item.mesh) return { handleId, mesh: item.mesh as Mesh, depth, owned: false };
      overlay.ownScene ??= createScene(engine);
      const mesh = createMeshFromData(overlay.ownScene, `overlay:${handleId}`, item.geometry as MeshData, {
        worldMatrix: item.worldMatrix as ArrayLike<number> | undefined,
      });
      made.push(mesh);
      return { handleId, mesh, depth, owned: true };
    });
  } catch (error) {
    for (const mesh of made) disposeMesh(mesh);
    throw error;
  }
}

function assertOverlayAlive(overlay: PickOverlay, api: string): void {
  if (!overlay || typeof overlay !== 'object' || !('items' in overlay))
    throw new PickError(
      api,
      'bad-option',
      `overlay ${describeValue(overlay)} is not a PickOverlay (see createPickOverlay)`,
    );
  if (overlay.disposed)
    throw new PickError(api, 'disposed', 'the overlay was disposed; create a new one with createPickOverlay');
  if (overlay.picker.disposed) throw new PickError(api, 'disposed', "the overlay's picker was disposed");
}

/**
 * Registers overlay items (gizmo handles, …) with a picker: every `pickAsync` / `pickManyAsync` draws them in the same
 * pass as the scene, with IDs reserved after the scene's, and an item within `overlayTolerance` pixels of a pick point
 * wins over the scene under it (see `PickingInfo.pickedOverlay`). Overlays of one picker rank in creation order.
 * @throws {PickError} `bad-option` / `unsupported` naming the item and what is allowed; `disposed` for a disposed picker
 * @throws {MeshDataError} when a `geometry` item's data is malformed (nothing is made then)
 */
export function createPickOverlay(picker: PickOverlayOwner, items: readonly PickOverlayItemInput[]): PickOverlay {
  const api = 'createPickOverlay';
  if (!picker || typeof picker !== 'object' || !('overlays' in picker))
    throw new PickError(api, 'bad-option', `picker ${describeValue(picker)} is not a GpuPicker (see createGpuPicker)`);
  if (picker.disposed)
    throw new PickError(api, 'disposed', 'the picker was disposed; create a new one with createGpuPicker(scene)');
  const overlay: PickOverlay = { picker, items: [], disposed: false, ownScene: null };
  overlay.items = Object.freeze(makeItems(api, overlay, items));
  picker.overlays.push(overlay);
  return overlay;
}

/**
 * Replaces the overlay's items (picks already called keep the items they captured). Owned meshes of the old items
 * are disposed once the new ones are made; on a bad item nothing changes.
 * @throws {PickError} as `createPickOverlay`
 */
export function setPickOverlayItems(overlay: PickOverlay, items: readonly PickOverlayItemInput[]): void {
  const api = 'setPickOverlayItems';
  assertOverlayAlive(overlay, api);
  const next = Object.freeze(makeItems(api, overlay, items));
  for (const item of overlay.items) if (item.owned) disposeMesh(item.mesh);
  overlay.items = next;
}

/** Removes the overlay from its picker and frees the GPU buffers of the meshes it made; later calls throw. */
export function disposePickOverlay(overlay: PickOverlay): void {
  if (overlay.disposed) return;
  overlay.disposed = true;
  const list = overlay.picker.overlays;
  const at = list.indexOf(overlay);
  if (at >= 0) list.splice(at, 1);
  if (overlay.ownScene) disposeScene(overlay.ownScene);
  overlay.ownScene = null;
  overlay.items = Object.freeze([]);
}

/** One overlay item drawn by a pick: the snapshot candidate that draws it. */
interface CapturedOverlayItem {
  overlay: PickOverlay;
  item: PickOverlayItem;
  itemIndex: number;
  /** Index in `snapshot.candidates`. */
  candidate: number;
  id: number;
  onTop: boolean;
}

/** @internal The overlays of one pick: their items, ID range and neighbourhood. */
export interface CapturedOverlays {
  items: CapturedOverlayItem[];
  firstId: number;
  /** Half size of the neighbourhood in framebuffer pixels. */
  tolerance: number;
  /** 2 · tolerance + 1 when an on-top item is drawn, else 0 (no neighbourhood). */
  block: number;
}

/** @internal Checks `overlayTolerance` (an integer 0..maxOverlayTolerance). */
export function checkOverlayTolerance(api: string, value: unknown): number {
  if (value === undefined) return defaultOverlayTolerance;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > maxOverlayTolerance)
    throw new PickError(
      api,
      'bad-option',
      `overlayTolerance ${describeValue(value)} must be an integer 0..${maxOverlayTolerance} (framebuffer pixels)`,
    );
  return value;
}

/**
 * Appends the picker's overlay items to the snapshot after the IDs up to `lastId` (meshes and sources): each is a
 * candidate drawn for every point (no ray pre-filter: an item beside the ray must still be seen in the neighbourhood).
 * Null when no item is drawn.
 * @throws {PickError} `limit-exceeded` when the IDs pass 24 bits or the neighbourhood is wider than the device's textures
 * @internal
 */
export function captureOverlays(
  api: string,
  picker: PickOverlayOwner,
  snapshot: PickSnapshot,
  lastId: number,
  tolerance: number,
): CapturedOverlays | null {
  if (picker.overlays.length === 0) return null;
  const items: CapturedOverlayItem[] = [];
  let nextId = lastId + 1;
  for (const overlay of picker.overlays) {
    overlay.items.forEach((item, itemIndex) => {
      if (item.mesh.disposed || item.mesh.pickable === false) return;
      items.push({ overlay, item, itemIndex, candidate: -1, id: nextId++, onTop: item.depth === 'on-top' });
    });
  }
  if (!items.length) return null;
  if (nextId - 1 > maxPickId)
    throw new PickError(
      api,
      'limit-exceeded',
      `the pick needs ${nextId - 1} IDs with its ${items.length} overlay items, more than ${maxPickId} (24-bit RGB); filter meshes or drop overlay items`,
    );
  const block = items.some((i) => i.onTop) ? 2 * tolerance + 1 : 0;
  const maxTexture = picker.scene.engine.device.limits.maxTextureDimension2D;
  if (block + 1 > maxTexture)
    throw new PickError(
      api,
      'limit-exceeded',
      `overlayTolerance ${tolerance} needs ${block + 1}-texel tall pick targets, past maxTextureDimension2D ${maxTexture}`,
    );
  for (const entry of items) {
    entry.candidate = snapshot.candidates.length;
    // Its world matrix and pose are copied now, like a scene mesh's.
    snapshot.candidates.push({ ...captureCandidate(entry.item.mesh, entry.id, 1, null), overlay: entry.item.depth });
    for (const list of snapshot.drawLists) list.push(entry.candidate);
  }
  return { items, firstId: lastId + 1, tolerance, block };
}

/** @internal The captured overlay item owning `id`, if any. */
export function findOverlayItem(overlays: CapturedOverlays | null, id: number): CapturedOverlayItem | null {
  if (!overlays || id < overlays.firstId || id >= overlays.firstId + overlays.items.length) return null;
  return overlays.items[id - overlays.firstId];
}
