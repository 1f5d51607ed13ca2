// three.js clipping (ClippingGroup: its planes clip every descendant) as a weft discard rule. A fragment is dropped
// where three drops it: a union plane with negative distance, or every intersection plane negative.
import type { Object3D, Plane } from 'three';
import type { Mesh as WeftMesh } from '../../engine/mesh.js';
import type { PickDiscardRule } from '../../picking/discard-rules.js';
import { PickError } from '../../picking/pick-errors.js';
import type { DrawableScene } from '../../picking/sources/drawable-types.js';

/** @internal The most planes weft follows on one object (union and intersection together). */
export const maxThreeClipPlanes = 16;

interface ClippingGroupLike extends Object3D {
  isClippingGroup: true;
  enabled: boolean;
  clipIntersection: boolean;
  clippingPlanes: Plane[];
}

/**
 * The planes that clip `object` as three draws it, packed for the rule: [unionCount, intersectionCount, 0, 0], then
 * the union planes and the intersection planes as (normal, constant), written into `out` when given; null when nothing
 * clips it.
 * @throws {PickError} `unsupported` past maxThreeClipPlanes planes
 * @internal
 */
export function clipPlanesOf(api: string, object: Object3D, out?: Float32Array | null): Float32Array | null {
  let unions: Plane[] | null = null;
  let intersections: Plane[] | null = null;
  for (let o: Object3D | null = object.parent; o; o = o.parent) {
    const group = o as ClippingGroupLike;
    if (!group.isClippingGroup || !group.enabled || group.clippingPlanes.length === 0) continue;
    if (group.clipIntersection) (intersections ??= []).push(...group.clippingPlanes);
    else (unions ??= []).push(...group.clippingPlanes);
  }
  if (!unions && !intersections) return null;
  const count = (unions?.length ?? 0) + (intersections?.length ?? 0);
  if (count > maxThreeClipPlanes)
    throw new PickError(
      api,
      'unsupported',
      `"${object.name || object.uuid}" is clipped by ${count} planes of its ClippingGroups; weft-gpu/three follows at most ${maxThreeClipPlanes}`,
    );
  const planes = out ?? new Float32Array(4 * (1 + maxThreeClipPlanes));
  planes.fill(0);
  planes[0] = unions?.length ?? 0;
  planes[1] = intersections?.length ?? 0;
  [...(unions ?? []), ...(intersections ?? [])].forEach((plane, i) =>
    planes.set([plane.normal.x, plane.normal.y, plane.normal.z, plane.constant], 4 + i * 4),
  );
  return planes;
}

const clipWgsl = `
fn pickDiscard(input: PickDiscardInput) -> bool {
  let unions = u32(threeClipPlanes[0].x);
  let intersections = u32(threeClipPlanes[0].y);
  for (var i = 0u; i < unions; i++) {
    let plane = threeClipPlanes[1u + i];
    if (dot(plane.xyz, input.worldPos) + plane.w < 0.0) {
      return true;
    }
  }
  if (intersections == 0u) {
    return false;
  }
  for (var i = 0u; i < intersections; i++) {
    let plane = threeClipPlanes[1u + unions + i];
    if (dot(plane.xyz, input.worldPos) + plane.w >= 0.0) {
      return false;
    }
  }
  return true;
}`;

/**
 * The discard rule of three's clipping: one text (it compiles once), the planes per mesh as storage read from
 * `planesOf` (what the last scene walk found for each object).
 * @internal
 */
export function makeThreeClipRule(
  target: DrawableScene<Object3D>,
  planesOf: (object: Object3D) => Float32Array | null,
): PickDiscardRule {
  const none = new Float32Array(4 * (1 + maxThreeClipPlanes));
  return {
    key: 'weft-three-clipping',
    wgsl: clipWgsl,
    storage: [
      {
        name: 'threeClipPlanes',
        type: `array<vec4f, ${1 + maxThreeClipPlanes}>`,
        data: (mesh: WeftMesh) => {
          const object = target.objectOfMesh.get(mesh);
          return (object && planesOf(object)) || none;
        },
      },
    ],
  };
}
