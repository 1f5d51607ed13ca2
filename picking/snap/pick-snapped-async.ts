import { mat4 } from 'wgpu-matrix';
import type { Camera } from '../../engine/camera.js';
import { checkOptionKeys, checkOptionTypes, type OptionKeys } from '../../core/options.js';
import { checkDiscardRule } from '../discard-rules.js';
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
import { decodePickTexel } from '../gpu/pick-decode.js';
import type { PickReadback } from '../gpu/pick-readback.js';
import type { PickDetailMethod } from '../gpu/pick-shader.js';
import { PickError } from '../pick-errors.js';
import { findCandidate, type PickSnapshot } from '../pick-snapshot.js';
import type { PickingInfo, SnappedFeature } from '../picking-info.js';
import { makePickingRay, type PickingRay } from '../picking-ray.js';
import { makeRectPlanes, makeRectSnapshot } from '../rect/pick-rect-snapshot.js';
import { makeContributorViewData } from '../sources/pick-contributors.js';
import { weftPickSource as source } from '../sources/weft-pick-source.js';
import { cullSnapCandidates } from './snap-cull.js';
import type { SnapSight, SnapView } from './snap-candidates.js';
import { findSnapFeature } from './snap-features.js';
import { collectSeenTriangles } from './snap-seen.js';
import { type CheckedSnap, checkSnapOption, type SnapOptions } from './snap-options.js';

/** Options of `pickSnappedAsync`: the GPU pick options but overlays, and what to snap to. */
export type SnapPickOptions = Omit<GpuPickOptions, 'overlays' | 'overlayTolerance'> & { snap?: SnapOptions };

// The point pick's keys without the overlays (they take no part), plus `snap`: a key added to the pick is known here too.
const { overlays: _overlays, overlayTolerance: _tolerance, ...pointKeys } = gpuPickOptionKeys;
const snapPickOptionKeys: OptionKeys<SnapPickOptions> = { ...pointKeys, snap: true };

/**
 * A pick that also snaps, for measuring tools: the `PickingInfo` of pixel (x, y) with triangle detail, plus `snapped`:
 * the nearest visible mesh vertex, feature-edge midpoint or feature-edge point within `snap.radius` pixels (default 8),
 * or null. One pass draws the (2·radius + 1)² pixels around the point with triangle detail (turned on for this pass
 * whatever `enableDetailedPicking` said) and one readback brings them back.
 *
 * - Candidates come from every triangle seen at some pixel of that block (pixels outside the framebuffer do not
 *   count), not only the one under the cursor: its corners on a feature edge, its feature edges' midpoints and their
 *   points nearest the cursor on screen. A feature edge is a boundary edge or one whose faces' normals differ by more
 *   than `snapCreaseAngle` (1°), so the diagonals of flat quads are not snapped to.
 * - A vertex beats a midpoint beats an edge point whenever each is within the radius; among one kind the nearest on
 *   screen wins, then the nearer to the camera.
 * - A candidate must be inside the framebuffer and the depth range, and visible: no triangle seen in the block crosses
 *   its line of sight nearer than the feature by more than 1e-4 of its distance (`snapOcclusionTolerance`), so the
 *   faces meeting at a vertex or a shared edge never hide it.
 * - Positions are exact: computed in float64 from the mesh data, the world and thin-instance matrices and the
 *   skin / morph pose captured at the call, never read from the depth buffer.
 *
 * The hit fields are those of the block's centre pixel (the sample `pickAsync` takes). Overlays take no part.
 * @throws {PickError} what `pickAsync` throws; `bad-option` for a bad `snap` (radius an integer 1..16, `to` a
 * non-empty array of 'vertex', 'midpoint', 'edge'); `unsupported` with a discard rule that moves geometry
 * (`worldAdjustWgsl`), whose snapped positions the CPU cannot compute
 */
export function pickSnappedAsync(
  picker: GpuPicker,
  x: number,
  y: number,
  options?: SnapPickOptions,
): Promise<PickingInfo> {
  return snapPickAsync(picker, x, y, options, 'pickSnappedAsync');
}

/**
 * `pickSnappedAsync` under the name of the API called (`pickAsync` with `snap` loads this module and runs it).
 * `blockOnly`: draw and read the block but skip the snapping (`snapped` stays unset), the floor bench/snapping.ts
 * compares the snap's cost with.
 * @internal
 */
export async function snapPickAsync(
  picker: GpuPicker,
  x: number,
  y: number,
  options: SnapPickOptions | undefined,
  api: string,
  blockOnly = false,
): Promise<PickingInfo> {
  assertAlive(picker, api);
  checkOptionKeys(api, options, snapPickOptionKeys, pickOptionError);
  checkOptionTypes(api, options, gpuPickOptionTypes, pickOptionError);
  const culling = cullingOf(api, options);
  const snap = checkSnapOption(api, options?.snap);
  const loading = loadSources(picker, api);
  if (loading) await loading;
  const camera = cameraOf(picker, api, options);
  const viewport = viewportOf(picker, options, api);
  const ray = makePickingRay(camera, x, y, viewport, api, undefined, options?.subpixel);
  const rule = options?.discard !== undefined ? checkDiscardRule(api, options.discard) : null;
  if (rule?.rule.worldAdjustWgsl !== undefined)
    throw new PickError(
      api,
      'unsupported',
      `discard rule "${rule.rule.key}" moves geometry (worldAdjustWgsl): snapped positions cannot be computed on the CPU; snap without it`,
    );
  const { radius } = snap;
  const size = 2 * radius + 1;
  // Texel (dx, dy) of the block samples the framebuffer at the point + (dx, dy).
  const region = { x: ray.sampleX - 0.5 - radius, y: ray.sampleY - 0.5 - radius, width: size, height: size };
  const { width, height } = viewport;
  const viewProjection = ray.viewProjection;
  const planes = options?.preFilter !== false ? makeRectPlanes(viewProjection, region, width, height) : null;
  const rectSnapshot = makeRectSnapshot(api, picker.scene, options ?? {}, planes);
  const snapshot = planes ? cullSnapCandidates(rectSnapshot, planes) : rectSnapshot;
  const sources = captureSceneSources(picker, api, snapshot, null, camera, options);
  const view = sources.length ? makeContributorViewData(camera, viewProjection, width, height) : null;
  const hasPrimitiveIndex = picker.scene.engine.features.has('primitive-index');
  const detailMethod: PickDetailMethod =
    picker.detailMethod ?? (hasPrimitiveIndex ? 'primitive-index' : 'vertex-index');
  return runRequest(
    picker,
    api,
    {
      api,
      snapshot,
      viewProjection,
      width,
      height,
      regions: [region],
      layout: 'rect',
      detailed: true,
      detailMethod,
      rule,
      sources,
      view,
      culling,
    },
    (readback) => {
      const centre = radius * size + radius;
      const inverse = mat4.inverse(viewProjection) as Float32Array;
      const info = decodePickTexel(snapshot, ray, inverse, readback.texel(centre), false, sources);
      if (blockOnly) return info;
      const snapView: SnapView = {
        viewProjection,
        width,
        height,
        sampleX: ray.sampleX,
        sampleY: ray.sampleY,
        radius: snap.radius,
        sight: sightOf(camera, ray, width, height, api),
      };
      info.snapped = snappedFeature(snapshot, readback, ray, snap, snapView);
      return info;
    },
  );
}

/** The feature snapped to among the triangles seen in the block, as the answer names it. */
function snappedFeature(
  snapshot: PickSnapshot,
  readback: PickReadback,
  ray: PickingRay,
  snap: CheckedSnap,
  view: SnapView,
): SnappedFeature | null {
  const triangles = collectSeenTriangles(snapshot, readback, ray, snap.radius);
  const winner = findSnapFeature(triangles, view, snap.kinds);
  if (!winner) return null;
  const { triangle, k } = winner;
  const owner = findCandidate(snapshot, triangles.ids[triangle])!;
  const vertex = winner.kind === 'vertex';
  const corner = (i: number) => triangles.vertices[triangle * 3 + ((k + i) % 3)];
  return {
    kind: winner.kind,
    point: winner.point,
    pixel: winner.pixel,
    pixelDistance: winner.pixelDistance,
    distance: winner.depth,
    mesh: source.objectOf(owner.candidate.mesh) as SnappedFeature['mesh'],
    thinInstanceIndex: owner.instance,
    faceId: triangles.faces[triangle],
    vertexIndex: vertex ? corner(0) : -1,
    edge: vertex ? null : [corner(0), corner(1)],
    edgeParameter: vertex ? 0 : winner.t,
  };
}

/** Where lines of sight start for the camera (see `SnapSight`): direct for placed cameras, the picking ray otherwise. */
function sightOf(camera: Camera, ray: PickingRay, width: number, height: number, api: string): SnapSight {
  if (camera.kind === 'perspective') return { kind: 'eye', origin: ray.origin };
  if (camera.kind === 'orthographic') return { kind: 'plane', origin: ray.origin, direction: ray.direction };
  return { kind: 'ray', at: (x, y) => makePickingRay(camera, x, y, { width, height }, api, undefined, true).origin };
}
