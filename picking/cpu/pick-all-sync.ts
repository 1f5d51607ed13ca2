import type { Scene } from '../../engine/scene.js';
import type { PickingInfo } from '../picking-info.js';
import { describeValue } from '../../core/errors.js';
import { CpuPickError, cpuPickOptionError } from './cpu-pick-error.js';
import { checkMaxLayers, pickLayerMargin } from './pick-layer-limits.js';
import type { CpuPickOptions } from './pick-options.js';
import { pickEveryHitSync } from './pick-sync.js';

/** Options of `pickAllSync`: those of `pickManySync` plus how many surfaces to report. */
export interface CpuPickAllOptions extends CpuPickOptions {
  /** Most surfaces to report, nearest first: an integer 1 .. `maxPickLayers` (64); default 8. */
  max?: number;
}

/**
 * Drill-through on the CPU, with `pickAllAsync`'s semantics: every surface under pixel (x, y) along the camera ray
 * (clipped at its near and far planes), nearest first, up to `max` (default 8), each with full triangle detail; faces
 * culled as drawn by default (`culling: 'none'` hits back faces too). Like the GPU pass, a hit less than 2^-18 of its
 * distance behind a reported one (a coplanar duplicate) counts as that one: the first in `pickManySync`'s order is
 * kept. WGSL discard rules are the GPU picker's; use `filter` / `ignore` here.
 * Cost: one ray cast collecting every hit (`pickManySync`), then the first `max` distinct layers.
 * @throws {CpuPickError} `bad-option` for `max` outside 1..64 or not an integer, or an unknown or invalid option; as pickManySync otherwise
 */
export function pickAllSync(scene: Scene, x: number, y: number, options: CpuPickAllOptions = {}): PickingInfo[] {
  const api = 'pickAllSync';
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new CpuPickError(api, 'bad-option', `options ${describeValue(options)} must be an object`);
  const { max: maxOption, ...pickOptions } = options;
  const max = checkMaxLayers(api, maxOption, cpuPickOptionError);
  const layers: PickingInfo[] = [];
  let kept = -Infinity;
  for (const hit of pickEveryHitSync(api, scene, x, y, pickOptions)) {
    if (hit.distance <= kept * (1 + pickLayerMargin)) continue;
    layers.push(hit);
    kept = hit.distance;
    if (layers.length === max) break;
  }
  return layers;
}
