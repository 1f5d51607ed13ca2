import { describeValue } from '../../core/errors.js';
import { checkOptionKeys, type OptionKeys } from '../../core/options.js';
import { makePickFilter, makePickFilterTest, type PickFilterOptions, type ThinInstanceIgnore } from '../pick-filter.js';
import type { PickViewport } from '../picking-ray.js';
import { type Camera, isCamera } from '../../engine/camera.js';
import type { PickCulling } from '../sources/pick-source.js';
import { CpuPickError, cpuPickOptionError } from './cpu-pick-error.js';
import type { EntryAcceptor } from './scene-query.js';

/** Ignores a mesh's thin instances: one index, or the half-open range [start, end). */
export type CpuPickIgnore = ThinInstanceIgnore;

/** Options of the synchronous CPU picks: the GPU picker's filter and ignore, plus the ray's framing. */
export interface CpuPickOptions extends PickFilterOptions {
  /** pickSync: the framebuffer x, y refer to; default the engine's backing size. */
  viewport?: PickViewport;
  /** pickSync: x, y are CSS pixels times this ratio (default: backing pixels). */
  devicePixelRatio?: number;
  /** Ray picks: hits must lie in (minDistance, maxDistance) along the ray; default (0, ∞). pickSync uses the camera's near/far planes. */
  minDistance?: number;
  maxDistance?: number;
  /** Back faces: `'as-drawn'` (default) culls them as the renderers do; `'none'` hits every face. */
  culling?: PickCulling;
  /** pickSync / pickManySync: x, y are exact framebuffer coordinates (pixel i spans i .. i + 1); see `pickAsync`. */
  subpixel?: boolean;
  /** pickSync / pickManySync: the camera to pick through instead of `scene.camera` (weft's own or `makeMatrixCamera`'s). */
  camera?: Camera;
}

/** Checks `options` and compiles pickable/filter/ignore into one entry test. */
const cpuPickOptionKeys: OptionKeys<CpuPickOptions> = {
  filter: true,
  ignore: true,
  viewport: true,
  devicePixelRatio: true,
  minDistance: true,
  maxDistance: true,
  culling: true,
  subpixel: true,
  camera: true,
};

/** True when `options` is a plain object whose enumerable keys are all CpuPickOptions keys (no key array is made). */
function hasOnlyCpuPickKeys(options: object): boolean {
  if (Array.isArray(options) || ArrayBuffer.isView(options)) return false;
  for (const key in options) if (!Object.hasOwn(cpuPickOptionKeys, key)) return false;
  return true;
}

/** @internal Refuses a CPU pick's options that are not an object or hold a key `CpuPickOptions` does not have. */
export function checkCpuPickOptions(api: string, options: CpuPickOptions | undefined): void {
  if (options === undefined) return;
  // A pick checks its options on every call: the common case is answered without allocating; anything else takes the
  // full check, which throws the detailed error (or passes, e.g. for an inherited enumerable key).
  if (options === null || typeof options !== 'object' || !hasOnlyCpuPickKeys(options))
    checkOptionKeys(api, options, cpuPickOptionKeys, cpuPickOptionError);
  const culling = options?.culling;
  if (culling !== undefined && culling !== 'as-drawn' && culling !== 'none')
    throw new CpuPickError(api, 'bad-option', `culling ${describeValue(culling)} must be 'as-drawn' or 'none'`);
  const subpixel = options?.subpixel;
  if (subpixel !== undefined && typeof subpixel !== 'boolean')
    throw new CpuPickError(api, 'bad-option', `subpixel ${describeValue(subpixel)} must be true or false`);
  const camera = options?.camera;
  if (camera !== undefined && !isCamera(camera))
    throw new CpuPickError(
      api,
      'bad-option',
      `camera ${describeValue(camera)} must be a camera (makePerspectiveCamera, makeOrthographicCamera or makeMatrixCamera)`,
    );
}

/**
 * The entry test of `options` (pickable, filter, ignore); without a filter or ignore list it allocates nothing.
 * @internal
 */
export function makeEntryAcceptor(api: string, options: CpuPickOptions): EntryAcceptor {
  const plain = options.filter === undefined && options.ignore === undefined;
  return makePickFilterTest(makePickFilter(api, plain ? undefined : options, CpuPickError));
}

/** @internal Throws unless 0 <= minDistance < maxDistance (the values `pickRange` returns). */
export function checkPickRange(api: string, options: CpuPickOptions, min: number, max: number): void {
  if (!(min >= 0) || !(max > min) || Number.isNaN(max)) {
    throw new CpuPickError(
      api,
      'bad-range',
      `minDistance ${describeValue(options.minDistance)} and maxDistance ${describeValue(options.maxDistance)} must satisfy 0 <= minDistance < maxDistance (Infinity allowed)`,
    );
  }
}

/** @internal Checks and returns (minDistance, maxDistance). */
export function pickRange(api: string, options: CpuPickOptions): [number, number] {
  const min = options.minDistance ?? 0;
  const max = options.maxDistance ?? Infinity;
  checkPickRange(api, options, min, max);
  return [min, max];
}
