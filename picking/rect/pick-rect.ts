import type { CheckedRule } from '../discard-rules.js';
import type { GpuPicker } from '../gpu-picker.js';
import type { PickingInfo } from '../picking-info.js';
import { type CapturedSource, findCapturedSource } from '../sources/pick-contributors.js';
import type { PickPassRequest } from '../gpu/pick-pass-types.js';
import { checkRectReduceLimits, makeRectIdReducer, setBitIds } from '../gpu/id-bitset-reduce.js';
import { batchRectCandidates } from '../gpu/pick-batches.js';
import { makeRectPlanes, makeRectSnapshot } from './pick-rect-snapshot.js';
import type { PickCulling } from '../sources/pick-source.js';
import { findCandidateIndex, type PickOptions, type PickSnapshot } from '../pick-snapshot.js';
import type { PixelRegion } from '../pick-zoom.js';
import { weftPickSource } from '../sources/weft-pick-source.js';

/** An identity visible in a marquee rectangle: a mesh (and thin instance), or a pick source's entity (and its detail). */
export interface PickedIdentity {
  /** null for a pick source's entity. */
  mesh: PickingInfo['pickedMesh'];
  thinInstanceIndex: number;
  /** The pick source's entity (null for meshes). */
  entity: object | null;
  /** The source's detail for this ID (e.g. `{ spriteIndex }`), null for meshes. */
  entityDetail: Record<string, unknown> | null;
}

/** A marquee ready to run: its pass request (without camera data for sources and culling) and its decoder. */
interface RectPick {
  request: Omit<PickPassRequest, 'view' | 'culling'> & { view: null };
  sources: readonly CapturedSource[];
  /** After the pass: the identities whose IDs the rectangle shows, in ID order (scene order, then sources). */
  decode(maxResults: number): PickedIdentity[];
}

/**
 * Plans a marquee: the meshes / thin instances whose bounds reach into the rectangle's frustum (all of them when
 * `preFilter` is false or the rule moves geometry in WGSL), drawn into a rectangle-sized target through the camera
 * cropped to it, then reduced on the GPU to a bitset of the IDs seen. Only the bitset is read back.
 * @throws {PickError} `limit-exceeded` when the reduce does not fit the device (see `checkRectReduceLimits`)
 * @internal
 */
export function makeRectPick(
  api: string,
  picker: GpuPicker,
  region: PixelRegion,
  viewport: { width: number; height: number },
  viewProjection: Float32Array,
  options: PickOptions,
  rule: CheckedRule | null,
  culling: PickCulling | undefined,
  captureSources: (snapshot: PickSnapshot) => CapturedSource[],
): RectPick {
  const cull = options.preFilter !== false && rule?.rule.worldAdjustWgsl === undefined;
  const planes = cull ? makeRectPlanes(viewProjection, region, viewport.width, viewport.height) : null;
  const snapshot = makeRectSnapshot(api, picker.scene, options, planes);
  const limits = picker.scene.engine.device.limits;
  // A rule may read per-mesh storage or vertex data, which one instanced draw cannot bind per mesh.
  const sceneOrder = rule ? null : batchRectCandidates(snapshot, culling, Math.floor(limits.maxBufferSize / 64));
  const sources = captureSources(snapshot);
  const lastSource = sources[sources.length - 1];
  const lastMesh = snapshot.candidates[snapshot.candidates.length - 1];
  const lastId = lastSource
    ? lastSource.baseId + lastSource.idCount - 1
    : lastMesh
      ? lastMesh.baseId + lastMesh.idCount - 1
      : 0;
  checkRectReduceLimits(
    api,
    limits,
    Math.min(region.width, limits.maxTextureDimension2D),
    Math.min(region.height, limits.maxTextureDimension2D),
    lastId,
  );
  const reducer = makeRectIdReducer(lastId);
  return {
    request: {
      api,
      snapshot,
      viewProjection,
      width: viewport.width,
      height: viewport.height,
      regions: [region],
      layout: 'rect',
      detailed: false,
      rule,
      sources,
      view: null,
      reducer,
    },
    sources,
    decode(maxResults) {
      const meshes: { order: number; identity: PickedIdentity }[] = [];
      const found: PickedIdentity[] = [];
      for (const id of setBitIds(reducer.bits!)) {
        // Without batching, ID order is scene order: the first maxResults IDs are the answer.
        if (!sceneOrder && meshes.length + found.length >= maxResults) break;
        const index = findCandidateIndex(snapshot, id);
        if (index >= 0) {
          const candidate = snapshot.candidates[index];
          const instance = candidate.runs ? id - candidate.baseId : -1;
          // Batching renumbered the meshes: the scene order is the order before it (instances stay in ID order).
          meshes.push({
            order: sceneOrder ? sceneOrder[index] : index,
            identity: {
              mesh: weftPickSource.objectOf(candidate.mesh),
              thinInstanceIndex: instance,
              entity: null,
              entityDetail: null,
            },
          });
          continue;
        }
        if (meshes.length + found.length >= maxResults) break;
        const source = findCapturedSource(sources, id);
        if (source) found.push(sourceIdentity(source, id));
      }
      if (sceneOrder) meshes.sort((a, b) => a.order - b.order);
      return [...meshes.map((m) => m.identity), ...found].slice(0, maxResults);
    },
  };
}

/** @internal The identity of pick-source ID `id` in a marquee: the source's entity and its detail for that ID. */
export function sourceIdentity(source: CapturedSource, id: number): PickedIdentity {
  return {
    mesh: null,
    thinInstanceIndex: -1,
    entity: source.source.entity,
    entityDetail: source.module.resolvePick(source.source.entity, source.captured, id - source.baseId, {
      id: [0, 0, 0],
      depth: 0,
      detail: null,
    }),
  };
}
