// What the GPU and CPU drill-throughs (pickAllAsync, pickAllSync) share; no picker code, so either can load it alone.
import { describeValue } from '../../core/errors.js';

/** Most surfaces one drill-through pick reports (`max` of `pickAllAsync` / `pickAllSync` is 1 .. this). */
export const maxPickLayers = 64;

/** @internal Default `max` of `pickAllAsync` / `pickAllSync`. */
export const defaultPickLayers = 8;

/**
 * Relative depth gap below which a surface behind a reported one counts as that one (2^-18): coplanar duplicates are
 * one layer. The GPU pass after a layer clips everything nearer than depth · (1 − margin); redrawn with a rescaled
 * depth row, a surface's depth moves by a few float32 ulps (2^-23 each), and 32 ulps of margin keep it from being
 * found twice. The CPU drill-through merges hits within this fraction of the kept hit's distance.
 * @internal
 */
export const pickLayerMargin = 2 ** -18;

/** @internal The `max` option of a drill-through, checked: an integer 1 .. maxPickLayers (default 8). */
export function checkMaxLayers(api: string, max: unknown, error: (api: string, message: string) => Error): number {
  if (max === undefined) return defaultPickLayers;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > maxPickLayers)
    throw error(
      api,
      `max ${describeValue(max)} must be an integer 1..${maxPickLayers} (the most surfaces reported, nearest first)`,
    );
  return max;
}
