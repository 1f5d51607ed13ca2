// The side panel's "last pick": what a click hit, as plain numbers (basic picks leave the triangle fields empty).
import { getPickedNormal, getPickedUV, type PickingInfo } from '../../../picking/index.js';

/** A pick result for display and tests. */
export interface PickReport {
  /** CSS pixel that was picked. */
  x: number;
  y: number;
  hit: boolean;
  mesh: string | null;
  /** Thin instance index, -1 for none. */
  instance: number;
  /** Triangle index, -1 on a miss (detail is on on every adapter). */
  face: number;
  bu: number | null;
  bv: number | null;
  point: [number, number, number] | null;
  distance: number | null;
  normal: [number, number, number] | null;
  uv: [number, number] | null;
  /** True when the pick had triangle detail. */
  detailed: boolean;
}

/** Summarises a PickingInfo for the panel. */
export function makePickReport(info: PickingInfo, x: number, y: number): PickReport {
  const detailed = info.hit && info.faceId >= 0;
  return {
    x,
    y,
    hit: info.hit,
    mesh: info.pickedMesh?.name ?? null,
    instance: info.thinInstanceIndex,
    face: info.faceId,
    bu: detailed ? info.bu : null,
    bv: detailed ? info.bv : null,
    point: info.pickedPoint,
    distance: info.hit ? info.distance : null,
    normal: detailed ? getPickedNormal(info, true) : null,
    uv: detailed ? getPickedUV(info) : null,
    detailed,
  };
}
