// A host pick submitted before the host walk it depends on. Walking a large host scene costs more than the pick's
// GPU round trip, and in a scene that holds still the walk finds nothing to change: so the pass of the scene as the
// last sync left it goes to the GPU first, the walk runs while the GPU draws, and the early answer stands only when
// the walk changed nothing the pass read. The walk still reads the scene at the call (nothing is deferred); a scene
// that changed gets a second pass, drawn from what the walk synced.
import type { MatrixCamera } from '../engine/matrix-camera.js';
import type { DrawableScene } from '../picking/sources/drawable-types.js';

/** @internal What a host picker keeps to decide whether its next pick may go ahead of the walk. */
export interface PickAhead {
  /** The scene and camera of the last pick whose walk changed nothing (null after one that changed something). */
  scene: object | null;
  camera: object | null;
  /** The view, projection, depth convention and viewport the early pass was given (filled by `noteView`). */
  readonly view: Float64Array;
  /** The same after the walk (scratch of `sameView`). */
  readonly after: Float64Array;
}

let aheads: WeakMap<object, PickAhead> | undefined;

/** @internal The pick-ahead state of a host picker, made on its first pick. */
export function pickAheadOf(picker: object): PickAhead {
  aheads ??= new WeakMap();
  let ahead = aheads.get(picker);
  if (!ahead) {
    ahead = { scene: null, camera: null, view: new Float64Array(36), after: new Float64Array(36) };
    aheads.set(picker, ahead);
  }
  return ahead;
}

/** Writes the camera and viewport a pass reads into `out` (36 numbers). */
function writeView(out: Float64Array, camera: MatrixCamera, width: number, height: number, ratio: number): void {
  out.set(camera.view, 0);
  out.set(camera.projection, 16);
  out[32] = camera.depth === 'reverse' ? 1 : 0;
  out[33] = width;
  out[34] = height;
  out[35] = ratio;
}

/** @internal Keeps the camera and viewport an early pass is given. */
export function noteView(ahead: PickAhead, camera: MatrixCamera, width: number, height: number, ratio: number): void {
  writeView(ahead.view, camera, width, height, ratio);
}

/** @internal Whether the camera and viewport after the walk are those the early pass was given (NaN never is). */
export function sameView(
  ahead: PickAhead,
  camera: MatrixCamera,
  width: number,
  height: number,
  ratio: number,
): boolean {
  writeView(ahead.after, camera, width, height, ratio);
  for (let i = 0; i < 36; i++) if (ahead.view[i] !== ahead.after[i]) return false;
  return true;
}

function ignoreRejection(): void {}

/**
 * @internal Submits `early` (a pick of `target` as its last sync left it), then runs `sync` (the host walk and the
 * drawable-scene sync, at the call) while the GPU draws. The early answer is returned when the sync changed nothing in
 * `target` and `sync` says the rest the pass read still holds (camera, viewport, rules); otherwise `again` picks the
 * synced scene and the early answer is dropped. What `sync` throws is thrown (the early pick's outcome is dropped).
 */
export function pickAheadOfSync<R>(
  target: DrawableScene<unknown>,
  early: () => Promise<R>,
  sync: () => boolean,
  again: () => Promise<R>,
): Promise<R> {
  const before = target.changes;
  const first = early();
  let stands: boolean;
  try {
    stands = sync() && target.changes === before;
  } catch (error) {
    first.catch(ignoreRejection);
    throw error;
  }
  if (stands) return first;
  first.catch(ignoreRejection);
  return again();
}
