import { describeValue } from '../../core/errors.js';
import { checkOptionKeys, checkOptionTypes } from '../../core/options.js';
import type { Camera } from '../../engine/camera.js';
import type { PickCulling } from '../sources/pick-source.js';
import { type CheckedRule, checkDiscardRule } from '../discard-rules.js';
import {
  assertAlive,
  cameraOf,
  captureSceneSources,
  cullingOf,
  type GpuPicker,
  type GpuPickOptions,
  gpuPickOptionKeys,
  gpuPickOptionTypes,
  loadSources,
  pickOptionError,
  runRequest,
  viewportOf,
} from '../gpu-picker.js';
import { PickError } from '../pick-errors.js';
import type { PixelRegion } from '../pick-zoom.js';
import { makePickingRay, type PickViewport, toFramebufferPixel } from '../picking-ray.js';
import { makeContributorViewData } from '../sources/pick-contributors.js';
import { makeRectPick, type PickedIdentity } from './pick-rect.js';

/** Options of `pickRectAsync`: the GPU pick options but overlays, and a cap on the identities returned. */
export type PickRectOptions = Omit<GpuPickOptions, 'overlays' | 'overlayTolerance'> & { maxResults?: number };

/** @internal A marquee call, checked: the pixels it covers, its camera and view-projection, rule and culling. */
interface CheckedRectCall {
  api: string;
  region: PixelRegion;
  viewport: PickViewport;
  camera: Camera;
  viewProjection: Float32Array;
  rule: CheckedRule | null;
  culling: PickCulling;
  maxResults: number;
}

/**
 * @internal Checks a marquee call's picker and options and starts loading newly registered pick sources: the promise
 * to await (null when nothing loads, so the caller goes on without an await and captures the scene as it is at the
 * call). Then `checkRectCall` checks the rest.
 */
export function startRectCall(picker: GpuPicker, options: PickRectOptions | undefined): Promise<void> | null {
  const api = 'pickRectAsync';
  assertAlive(picker, api);
  const rectKeys = Object.keys(gpuPickOptionKeys).filter((k) => k !== 'overlays' && k !== 'overlayTolerance');
  checkOptionKeys(api, options, [...rectKeys, 'maxResults'], pickOptionError);
  checkOptionTypes(api, options, gpuPickOptionTypes, pickOptionError);
  cullingOf(api, options);
  return loadSources(picker, api);
}

/**
 * @internal Checks the rest of a marquee call (rectangle, camera, rule) after `startRectCall`; shared by
 * `pickRectAsync` and the read-everything path of the tests and benchmarks. Synchronous: no await between the checks
 * and the capture.
 */
export function checkRectCall(
  picker: GpuPicker,
  x: number,
  y: number,
  width: number,
  height: number,
  options: PickRectOptions | undefined,
): CheckedRectCall {
  const api = 'pickRectAsync';
  const culling = cullingOf(api, options);
  const viewport = viewportOf(picker, options, api);
  const [x0, y0] = toFramebufferPixel(api, x, y, viewport);
  const ratio = viewport.devicePixelRatio ?? 1;
  const size = (name: string, value: unknown) => {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
      throw new PickError(api, 'out-of-range', `${name} ${describeValue(value)} must be a finite number > 0`);
    return value;
  };
  // Every pixel the rectangle touches: columns floor(x) .. ceil(x + width) − 1, rows likewise.
  const w = Math.ceil((x + size('width', width)) * ratio) - x0;
  const h = Math.ceil((y + size('height', height)) * ratio) - y0;
  if (x0 + w > viewport.width || y0 + h > viewport.height) {
    throw new PickError(
      api,
      'out-of-range',
      `rectangle ${describeValue(width)}×${describeValue(height)} at (${describeValue(x)}, ${describeValue(y)})${ratio !== 1 ? ` × ratio ${ratio}` : ''} covers pixels ${x0}..${x0 + w - 1} × ${y0}..${y0 + h - 1}: it must be at least 1×1 and inside the ${viewport.width}×${viewport.height} framebuffer`,
    );
  }
  const maxResults = options?.maxResults ?? Infinity;
  if (
    typeof maxResults !== 'number' ||
    !(maxResults >= 1) ||
    (maxResults !== Infinity && !Number.isInteger(maxResults))
  )
    throw new PickError(api, 'bad-option', `maxResults ${describeValue(maxResults)} must be an integer >= 1`);
  const camera = cameraOf(picker, api, options);
  const rule = options?.discard !== undefined ? checkDiscardRule(api, options.discard) : null;
  const viewProjection = makePickingRay(camera, x0, y0, {
    width: viewport.width,
    height: viewport.height,
  }).viewProjection;
  return {
    api,
    region: { x: x0, y: y0, width: w, height: h },
    viewport,
    camera,
    viewProjection,
    rule,
    culling,
    maxResults,
  };
}

/**
 * Marquee selection: the deduplicated identities (mesh + thin instance) visible in the rectangle.
 *
 * The rectangle is `x .. x + width` × `y .. y + height` in the same units as `pickAsync` (CSS pixels times
 * `devicePixelRatio` when given) and reads every framebuffer pixel it touches: columns `floor(x)` to
 * `ceil(x + width) − 1` and rows likewise (7.4..12.1 reads columns 7–12; 7..12 reads 7–11). A rectangle larger than
 * the device's texture or buffer limits is read in tiles.
 * @throws {PickError} when the origin is not a finite pixel inside the framebuffer (`bad-coordinates`, `out-of-range`), the size is not a finite number > 0 or the rectangle leaves the framebuffer (`out-of-range`), an option is invalid (`bad-option`, `bad-rule`), the picker is disposed, or (`limit-exceeded`) more meshes are drawn than one pass can hold
 */
export async function pickRectAsync(
  picker: GpuPicker,
  x: number,
  y: number,
  width: number,
  height: number,
  options?: PickRectOptions,
): Promise<PickedIdentity[]> {
  const loading = startRectCall(picker, options);
  if (loading) await loading;
  const call = checkRectCall(picker, x, y, width, height, options);
  const { api, camera, viewProjection, viewport, culling } = call;
  const rect = makeRectPick(
    api,
    picker,
    call.region,
    viewport,
    viewProjection,
    options ?? {},
    call.rule,
    culling,
    (snapshot) => captureSceneSources(picker, api, snapshot, null, camera, options),
  );
  const view = rect.sources.length
    ? makeContributorViewData(camera, viewProjection, viewport.width, viewport.height)
    : null;
  return runRequest(picker, api, { ...rect.request, view, culling }, () => rect.decode(call.maxResults));
}
