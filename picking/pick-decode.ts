import { vec4 } from 'wgpu-matrix';
import { computeTriangleDetail, composeInstanceWorld } from './detailed-picking.js';
import { decodePickId } from './pick-id.js';
import { type CapturedSource, findCapturedSource } from './pick-contributors.js';
import { findCandidate, meshAsCaptured, type PickSnapshot, snapshotInstanceMatrix } from './pick-snapshot.js';
import { makeMissInfo, orientNormalsToRay, type PickingInfo } from './picking-info.js';
import type { PickingRay } from './picking-ray.js';

/** The primitive index contributors write: "no triangle detail here". */
export const noPrimitiveSentinel = 0xffffffff;

/** One texel of each pick attachment, as read back. */
export interface PickTexel {
  /** r, g, b bytes of the rgba8unorm ID attachment. */
  id: [number, number, number];
  /** NDC depth (reverse-Z) from the r32float attachment. */
  depth: number;
  /** (primitive_index, local x, y, z bits) from the rgba32uint attachment, or null in basic mode. */
  detail: Uint32Array | null;
}

/** Turns one read-back texel into a PickingInfo using the snapshot taken at encode time. */
export function decodePickTexel(
  snapshot: PickSnapshot,
  ray: PickingRay,
  inverseViewProjection: Float32Array,
  texel: PickTexel,
  worldAdjusted = false,
  sources: readonly CapturedSource[] = [],
): PickingInfo {
  const id = decodePickId(texel.id[0], texel.id[1], texel.id[2]);
  if (id === 0) return makeMissInfo(texel.detail ? ray : null);
  const found = findCandidate(snapshot, id);
  const source = found ? null : findCapturedSource(sources, id);
  if (!found && !source) return makeMissInfo(texel.detail ? ray : null);
  const ndcX = (ray.sampleX / ray.width) * 2 - 1;
  const ndcY = 1 - (ray.sampleY / ray.height) * 2;
  const clip = vec4.transformMat4([ndcX, ndcY, texel.depth, 1], inverseViewProjection);
  const point: [number, number, number] = [clip[0] / clip[3], clip[1] / clip[3], clip[2] / clip[3]];
  const info = makeMissInfo(null);
  info.hit = true;
  info.pickedPoint = point;
  info.distance = Math.hypot(point[0] - ray.origin[0], point[1] - ray.origin[1], point[2] - ray.origin[2]);
  if (texel.detail) info.ray = ray;
  if (source) {
    // A contributor's hit: it names its own entity and detail; no mesh, no triangle.
    info.pickedEntity = source.source.entity;
    info.entityDetail = source.module.resolvePick(source.source.entity, source.captured, id - source.baseId, texel);
    return info;
  }
  const { candidate, instance } = found!;
  info.pickedMesh = candidate.mesh;
  info.thinInstanceIndex = instance;
  if (texel.detail && texel.detail[0] !== noPrimitiveSentinel) {
    const floats = new Float32Array(texel.detail.buffer, texel.detail.byteOffset + 4, 3);
    const world = composeInstanceWorld(
      candidate.worldMatrix,
      instance >= 0 ? snapshotInstanceMatrix(candidate, instance) : null,
    );
    // A deformed mesh's detail uses the pose captured at the call, as drawn.
    const detail = computeTriangleDetail(
      meshAsCaptured(candidate),
      texel.detail[0],
      [floats[0], floats[1], floats[2]],
      world,
    );
    info.faceId = texel.detail[0];
    Object.assign(info, detail);
    orientNormalsToRay(info, ray.direction);
    if (worldAdjusted) {
      // A world-adjust hook moves vertices in WGSL the CPU cannot run: the displaced surface's normals are unknown.
      info.pickedNormal = info.pickedNormalWorld = info.pickedFaceNormal = info.pickedFaceNormalWorld = null;
    }
  }
  return info;
}
