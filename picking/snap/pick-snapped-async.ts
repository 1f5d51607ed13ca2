import { mat4 } from 'wgpu-matrix';
import { checkOptionKeys, checkOptionTypes, type OptionKeys } from '../../core/options.js';
import { checkDiscardRule } from '../discard-rules.js';
import { composeInstanceWorld } from '../detailed-picking.js';
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
import { findCandidate, meshAsCaptured, type PickSnapshot, snapshotInstanceMatrix } from '../pick-snapshot.js';
import { getTriangleVertices, type PickingInfo, type SnappedFeature } from '../picking-info.js';
import { makePickingRay, type PickingRay } from '../picking-ray.js';
import { makeRectPlanes, makeRectSnapshot } from '../rect/pick-rect-snapshot.js';
import { makeContributorViewData } from '../sources/pick-contributors.js';
import { weftPickSource as source } from '../sources/weft-pick-source.js';
import { cullSnapCandidates } from './snap-cull.js';
import { getFeatureEdges } from './snap-edges.js';
import { findSnapFeature, type SnapTriangle, type SnapView } from './snap-features.js';
import { type CheckedSnap, checkSnapOption, type SnapOptions } from './snap-options.js';

/** Options of `pickSnappedAsync`: the GPU pick options but overlays, and what to snap to. */
export type SnapPickOptions = Omit<GpuPickOptions, 'overlays' | 'overlayTolerance'> & { snap?: SnapOptions };

// The point pick's keys without the overlays (they take no part), plus `snap`: a key added to the pick is known here too.
const { overlays: _overlays, overlayTolerance: _tolerance, ...pointKeys } = gpuPickOptionKeys;
const snapPickOptionKeys: OptionKeys<SnapPickOptions> = { ...pointKeys, snap: true };

/** The primitive index contributors write: "no triangle detail here". */
const noPrimitive = 0xffffffff;

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
      const sightOrigin = (_: unknown, px: number, py: number) =>
        makePickingRay(camera, px, py, { width, height }, api, undefined, true).origin;
      const snapView: SnapView = {
        viewProjection,
        width,
        height,
        sampleX: ray.sampleX,
        sampleY: ray.sampleY,
        sightOrigin,
      };
      info.snapped = snappedFeature(snapshot, readback, ray, snap, snapView);
      return info;
    },
  );
}

/** The triangles seen in the block, each once, with world corners as drawn; then the feature snapped to. */
function snappedFeature(
  snapshot: PickSnapshot,
  readback: PickReadback,
  ray: PickingRay,
  snap: CheckedSnap,
  view: SnapView,
): SnappedFeature | null {
  const { radius } = snap;
  const size = 2 * radius + 1;
  // Per pick ID, its triangles by face: numbers as keys (no strings made per texel).
  const seen = new Map<number, Map<number, SnapTriangle>>();
  const triangles: SnapTriangle[] = [];
  const owners: { candidate: PickSnapshot['candidates'][number]; instance: number }[] = [];
  const detailWord = readback.detailWord;
  const faceAt = (index: number) =>
    detailWord ? detailWord(index) : (readback.texel(index).detail?.[0] ?? noPrimitive);
  const rows = Math.min(radius, ray.height - 1 - Math.floor(ray.sampleY));
  const columns = Math.min(radius, ray.width - 1 - Math.floor(ray.sampleX));
  for (let dy = Math.max(-radius, -Math.floor(ray.sampleY)); dy <= rows; dy++) {
    let lastId = 0;
    let lastFace = noPrimitive;
    let faces: Map<number, SnapTriangle> | undefined;
    for (let dx = Math.max(-radius, -Math.floor(ray.sampleX)); dx <= columns; dx++) {
      const index = (dy + radius) * size + dx + radius;
      const id = readback.id(index);
      if (id === 0) continue;
      const face = faceAt(index);
      // Neighbouring texels mostly show the triangle their left neighbour shows.
      if (face === noPrimitive || (id === lastId && face === lastFace)) continue;
      if (id !== lastId) {
        faces = seen.get(id);
        if (!faces) seen.set(id, (faces = new Map()));
      }
      lastId = id;
      lastFace = face;
      if (faces!.has(face)) continue;
      const found = findCandidate(snapshot, id);
      if (!found) continue;
      const triangle = makeSnapTriangle(found.candidate, found.instance, id, face);
      faces!.set(face, triangle);
      triangles.push(triangle);
      owners.push(found);
    }
  }
  const winner = findSnapFeature(triangles, view, snap);
  if (!winner) return null;
  const { triangle, k } = winner;
  const owner = owners[triangles.indexOf(triangle)];
  const vertex = winner.kind === 'vertex';
  return {
    kind: winner.kind,
    point: winner.point,
    pixel: winner.pixel,
    pixelDistance: winner.pixelDistance,
    distance: winner.depth,
    mesh: source.objectOf(owner.candidate.mesh) as SnappedFeature['mesh'],
    thinInstanceIndex: owner.instance,
    faceId: triangle.face,
    vertexIndex: vertex ? triangle.vertices[k] : -1,
    edge: vertex ? null : [triangle.vertices[k], triangle.vertices[(k + 1) % 3]],
    edgeParameter: vertex ? 0 : winner.t,
  };
}

/** A seen triangle's world corners (float64 from the captured matrices and pose) and its feature edges. */
function makeSnapTriangle(
  candidate: PickSnapshot['candidates'][number],
  instance: number,
  id: number,
  face: number,
): SnapTriangle {
  const mesh = meshAsCaptured(candidate);
  const world = composeInstanceWorld(
    candidate.worldMatrix,
    instance >= 0 ? snapshotInstanceMatrix(candidate, instance) : null,
  );
  const vertices = getTriangleVertices(mesh, face);
  const deformed = source.isDeformed(mesh);
  const corners = new Float64Array(9);
  const local: [number, number, number] = [0, 0, 0];
  const positions = mesh.positions;
  for (let k = 0; k < 3; k++) {
    const v = vertices[k];
    if (deformed) source.deformVertex(mesh, v, local, Math.max(0, instance));
    else for (let i = 0; i < 3; i++) local[i] = positions[v * 3 + i];
    for (let i = 0; i < 3; i++)
      corners[k * 3 + i] = world[i] * local[0] + world[4 + i] * local[1] + world[8 + i] * local[2] + world[12 + i];
  }
  const flags = getFeatureEdges(candidate.mesh);
  const featureEdges = flags[face * 3] | (flags[face * 3 + 1] << 1) | (flags[face * 3 + 2] << 2);
  return { corners, vertices, featureEdges, id, face };
}
