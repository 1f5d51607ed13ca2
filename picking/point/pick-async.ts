import { type GpuPicker, type GpuPickOptions, pickManyAsync } from '../gpu-picker.js';
import type { PickingInfo } from '../picking-info.js';
import type { SnapOptions } from '../snap/snap-options.js';

/** Options of `pickAsync`: the GPU pick options, and `snap` to also snap to the nearest feature around the point. */
export type PointPickOptions = GpuPickOptions & {
  /**
   * Snap for measuring tools: the result's `snapped` is the nearest visible vertex, feature-edge midpoint or
   * feature-edge point within `snap.radius` pixels (see `pickSnappedAsync`, which this runs). Overlays take no part.
   */
  snap?: SnapOptions;
};

type SnapPick = typeof import('../snap/pick-snapped-async.js').snapPickAsync;

// The snap code, loaded on the first pick that snaps: a page that never snaps never loads it.
let snapPick: SnapPick | null = null;
let snapPickLoading: Promise<SnapPick> | null = null;

function loadSnapPickAsync(): Promise<SnapPick> {
  snapPickLoading ??= import('../snap/pick-snapped-async.js').then(
    (module) => (snapPick = module.snapPickAsync),
    (error: unknown) => {
      snapPickLoading = null;
      throw error;
    },
  );
  return snapPickLoading;
}

/**
 * What is under framebuffer pixel (x, y): identity always, triangle detail in detailed mode. With `snap`, also
 * `snapped` (and triangle detail whatever `enableDetailedPicking` said), exactly as `pickSnappedAsync` answers.
 *
 * The snap code is loaded by the first call with `snap` (a dynamic import, so a bundle that never snaps does not carry
 * it); that first call captures the scene once it has loaded, every later one at the call. Import `pickSnappedAsync`
 * for a capture at the call from the first snap on.
 * @throws {PickError} when the pixel is not finite or outside the viewport, an option is unknown or invalid, a discard rule does not compile (naming its key, line and column), or the picker is disposed; with `snap`, what `pickSnappedAsync` throws (`overlays` and `overlayTolerance` are then unknown options)
 */
export function pickAsync(picker: GpuPicker, x: number, y: number, options?: PointPickOptions): Promise<PickingInfo> {
  // Not an async function (a warm pick pays no extra promise and generator): what it throws it returns rejected.
  try {
    if (options?.snap !== undefined) return snapAsync(picker, x, y, options);
    return pickManyAsync(
      picker,
      [{ x, y }],
      options && 'snap' in options ? withoutSnap(options) : options,
      'pickAsync',
    ).then(firstInfo);
  } catch (error) {
    return Promise.reject(error);
  }
}

function firstInfo(infos: PickingInfo[]): PickingInfo {
  return infos[0];
}

async function snapAsync(picker: GpuPicker, x: number, y: number, options: PointPickOptions): Promise<PickingInfo> {
  const snap = snapPick ?? (await loadSnapPickAsync());
  return snap(picker, x, y, options, 'pickAsync');
}

/** The options less an explicit `snap: undefined`, which the point pick would call unknown. */
function withoutSnap(options: PointPickOptions): GpuPickOptions {
  const { snap: _, ...rest } = options;
  return rest;
}
