import { mat4 } from 'wgpu-matrix';
import { checkOptionKeys, checkOptionTypes, type OptionKeys } from '../../core/options.js';
import { checkDiscardRule } from '../discard-rules.js';
import {
  assertAlive,
  cameraOf,
  cullingOf,
  type GpuPicker,
  type GpuPickOptions,
  gpuPickOptionTypes,
  pickOptionError,
  runRequest,
  sceneHierarchyFor,
  viewportOf,
} from '../gpu-picker.js';
import { decodePickTexel } from '../gpu/pick-decode.js';
import { encodeLayeredPickPass } from '../gpu/pick-layers-pass.js';
import { checkMaxLayers } from '../cpu/pick-layer-limits.js';
import { PickError } from '../pick-errors.js';
import { makePickSnapshot } from '../pick-snapshot.js';
import type { PickingInfo } from '../picking-info.js';
import { makePickingRay } from '../picking-ray.js';

/**
 * Options of `pickAllAsync`: those of `pickAsync` about meshes, plus how many surfaces to report. Overlays and pick
 * sources (billboards, splats) are not layered: their options are refused here.
 */
export interface PickAllOptions extends Omit<GpuPickOptions, 'overlays' | 'overlayTolerance' | 'filterSource'> {
  /** Most surfaces to report, nearest first: an integer 1 .. `maxPickLayers` (64); default 8. Each is one pass. */
  max?: number;
}

const pickAllOptionKeys: OptionKeys<PickAllOptions> = {
  max: true,
  filter: true,
  ignore: true,
  preFilter: true,
  viewport: true,
  devicePixelRatio: true,
  discard: true,
  culling: true,
  subpixel: true,
  camera: true,
};

/** The options of pickAsync that name what drill-through never draws. */
const layerlessOptions = ['overlays', 'overlayTolerance', 'filterSource'];

/**
 * Drill-through: every mesh surface under framebuffer pixel (x, y), nearest first, up to `max` (default 8). Layer k is
 * what `pickAsync` would report if the layers in front of it were absent: identity always, triangle detail (face,
 * barycentrics, point, normals, UV) in detailed mode; thin instances, deformed meshes, the discard rule and `culling`
 * (as drawn by default: a closed one-sided mesh shows its front face only) are drawn as a point pick draws them.
 *
 * Cost: depth peeling, `max` passes of the point's pick pass (only the meshes under the ray) in one submit and one
 * readback, on every device (compatibility-mode ones included): pass k clips everything at or in front of layer k − 1
 * on the GPU. Surfaces less than 2^-18 of their depth behind a reported one (coplanar duplicates) count as that one:
 * the one a single pick reports (lowest ID where depths tie). Overlays and pick sources (billboards, splats) are not
 * drawn. The result is shorter than `max` when fewer surfaces are under the pixel (empty on a miss).
 * @throws {PickError} `bad-option` for `max` outside 1..64 or not an integer, an unknown or invalid option (overlay and
 * pick-source options included); `bad-coordinates` for a pixel outside the viewport; `disposed` for a disposed picker
 */
export async function pickAllAsync(
  picker: GpuPicker,
  x: number,
  y: number,
  options?: PickAllOptions,
): Promise<PickingInfo[]> {
  const api = 'pickAllAsync';
  assertAlive(picker, api);
  for (const key of layerlessOptions)
    if (options && typeof options === 'object' && key in options)
      throw new PickError(
        api,
        'bad-option',
        `${key} is not an option of pickAllAsync: drill-through layers meshes only (overlays and pick sources are not drawn); use pickAsync for them`,
      );
  checkOptionKeys(api, options, pickAllOptionKeys, pickOptionError);
  checkOptionTypes(api, options, gpuPickOptionTypes, pickOptionError);
  const { max: maxOption, ...pickOptions } = options ?? {};
  const max = checkMaxLayers(api, maxOption, pickOptionError);
  const culling = cullingOf(api, pickOptions);
  const camera = cameraOf(picker, api, pickOptions);
  const viewport = viewportOf(picker, pickOptions, api);
  const ray = makePickingRay(camera, x, y, viewport, api, undefined, pickOptions.subpixel);
  const rule = pickOptions.discard !== undefined ? checkDiscardRule(api, pickOptions.discard) : null;
  const worldAdjusted = rule?.rule.worldAdjustWgsl !== undefined;
  // A world-adjust hook moves geometry outside its bounds: the ray pre-filter cannot be trusted then.
  const snapshotOptions = worldAdjusted ? { ...pickOptions, preFilter: false } : pickOptions;
  const rays = [ray];
  const snapshot = makePickSnapshot(
    api,
    picker.scene.meshes,
    snapshotOptions,
    rays,
    1,
    picker.scene,
    sceneHierarchyFor(picker.scene, snapshotOptions, rays),
  );
  const inverse = mat4.inverse(ray.viewProjection) as Float32Array;
  return runRequest(
    picker,
    api,
    {
      api,
      snapshot,
      viewProjection: ray.viewProjection,
      width: viewport.width,
      height: viewport.height,
      regions: [{ x: ray.sampleX - 0.5, y: ray.sampleY - 0.5, width: 1, height: 1 }],
      layout: 'row',
      detailed: picker.detailed,
      detailMethod: picker.detailMethod ?? 'primitive-index',
      rule,
      sources: [],
      view: null,
      culling,
    },
    (readback) => {
      const layers: PickingInfo[] = [];
      for (let k = 0; k < max && readback.id(k) !== 0; k++) {
        const info = decodePickTexel(snapshot, ray, inverse, readback.texel(k), worldAdjusted);
        if (info.hit) layers.push(info);
      }
      return layers;
    },
    (gpu, request) => encodeLayeredPickPass(gpu, request, max),
  );
}
