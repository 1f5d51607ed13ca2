import { vec4 } from 'wgpu-matrix';
import { computeTriangleDetail, composeInstanceWorld } from '../detailed-picking.js';
import { decodePickId, type PickTexel } from '../pick-id.js';
import { type CapturedSource, findCapturedSource } from '../sources/pick-contributors.js';
import { type CapturedOverlays, findOverlayItem } from '../sources/pick-overlays.js';
import type { PickReadback } from './pick-readback.js';
import { findCandidate, meshAsCaptured, type PickSnapshot, snapshotInstanceMatrix } from '../pick-snapshot.js';
import { makeMissInfo, orientNormalsToRay, type PickingInfo } from '../picking-info.js';
import type { PickingRay } from '../picking-ray.js';
import { weftPickSource } from '../sources/weft-pick-source.js';

/** The primitive index contributors write: "no triangle detail here". */
const noPrimitiveSentinel = 0xffffffff;

/** @internal Turns one read-back texel into a PickingInfo using the snapshot taken at encode time. */
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
  info.pickedMesh = weftPickSource.objectOf(candidate.mesh);
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

/**
 * The overlay item that wins at point `point`, or null (the scene texel decides then). Candidates: on-top items in the
 * point's neighbourhood (pixels outside the framebuffer do not count) and a `scene`-depth item under the exact pixel.
 * The smallest pixel distance wins, then the nearest depth, then the lowest ID (overlay creation order, then item
 * order), so equal distances resolve the same way on every run.
 * @internal
 */
export function decodeOverlayHit(
  overlays: CapturedOverlays,
  readback: PickReadback,
  point: number,
  ray: PickingRay,
  inverseViewProjection: Float32Array,
): PickingInfo | null {
  const found: { best: { id: number; d2: number; dx: number; dy: number; texel: PickTexel } | null } = { best: null };
  const consider = (id: number, dx: number, dy: number, read: () => PickTexel) => {
    const best = found.best;
    const d2 = dx * dx + dy * dy;
    if (best && d2 > best.d2) return;
    const texel = read();
    // Reverse-Z: a larger depth is nearer.
    if (
      best &&
      d2 === best.d2 &&
      (texel.depth < best.texel.depth || (texel.depth === best.texel.depth && id > best.id))
    )
      return;
    found.best = { id, d2, dx, dy, texel };
  };
  const sceneId = readback.id(point);
  if (findOverlayItem(overlays, sceneId)) consider(sceneId, 0, 0, () => readback.texel(point));
  const t = overlays.block ? overlays.tolerance : -1;
  for (let dy = -t; dy <= t; dy++) {
    const py = ray.pixelY + dy;
    if (py < 0 || py >= ray.height) continue;
    for (let dx = -t; dx <= t; dx++) {
      const px = ray.pixelX + dx;
      if (px < 0 || px >= ray.width) continue;
      const id = readback.blockId(point, dx, dy);
      if (id !== 0 && findOverlayItem(overlays, id)) consider(id, dx, dy, () => readback.blockTexel(point, dx, dy));
    }
  }
  if (!found.best) return null;
  const { id, dx, dy, texel } = found.best;
  const captured = findOverlayItem(overlays, id)!;
  // The neighbourhood is centred on the sample, so texel (dx, dy) samples the framebuffer at sample + (dx, dy).
  const ndcX = ((ray.sampleX + dx) / ray.width) * 2 - 1;
  const ndcY = 1 - ((ray.sampleY + dy) / ray.height) * 2;
  const clip = vec4.transformMat4([ndcX, ndcY, texel.depth, 1], inverseViewProjection);
  const info = makeMissInfo(texel.detail ? ray : null);
  info.hit = true;
  info.pickedPoint = [clip[0] / clip[3], clip[1] / clip[3], clip[2] / clip[3]];
  info.distance = Math.hypot(
    info.pickedPoint[0] - ray.origin[0],
    info.pickedPoint[1] - ray.origin[1],
    info.pickedPoint[2] - ray.origin[2],
  );
  info.pickedOverlay = {
    overlay: captured.overlay,
    item: captured.item,
    handleId: captured.item.handleId,
    itemIndex: captured.itemIndex,
    offset: [dx, dy],
    pixelDistance: Math.hypot(dx, dy),
  };
  return info;
}
