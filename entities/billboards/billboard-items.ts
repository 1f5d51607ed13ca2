import { billboardSpriteBytes } from '../../fragments/billboard-pick.js';
import type { BillboardSystem } from './billboard-system.js';

/**
 * Writes sprite `index` of the system into slot `slot` of a `BillboardSprite` array (pick pass and renderer share it).
 * @internal
 */
export function packBillboardSprite(system: BillboardSystem, index: number, data: ArrayBuffer, slot: number): void {
  const at = (slot * billboardSpriteBytes) / 4;
  const floats = new Float32Array(data);
  floats[at] = system.positions[index * 3];
  floats[at + 1] = system.positions[index * 3 + 1];
  floats[at + 2] = system.positions[index * 3 + 2];
  new Uint32Array(data)[at + 3] = index;
  floats[at + 4] = system.sizes[index * 2];
  floats[at + 5] = system.sizes[index * 2 + 1];
  for (let c = 0; c < 4; c++) floats[at + 8 + c] = system.colors[index * 4 + c];
}

/** @internal The `BillboardParams` of a system: sprite-up axis and whether sprites are axis-locked. */
export function billboardParams(system: BillboardSystem, out = new Float32Array(4)): Float32Array<ArrayBuffer> {
  out.set([...system.axis, system.orientation === 'axis' ? 1 : 0]);
  return out as Float32Array<ArrayBuffer>;
}
