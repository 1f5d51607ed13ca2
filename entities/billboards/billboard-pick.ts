import { billboardParamsBytes, billboardSpriteBytes } from '../../fragments/billboard-pick.js';
import type { PrecomposedSource } from '../../composer/precomposed.js';
import {
  createContributorGpu,
  disposeContributorGpu,
  drawContributorItems,
} from '../../picking/sources/contributor-gpu.js';
import {
  type ContributorCaptureRequest,
  type PickContributor,
  raysNearSphere,
} from '../../picking/sources/pick-contributors.js';
import { billboardParams, packBillboardSprite } from './billboard-items.js';
import { billboardPickSpec } from './billboard-shaders.js';
import type { BillboardSystem } from './billboard-system.js';

/** @internal The sprites one pick draws, copied at the call, and the orientation they had. */
export interface CapturedBillboards {
  sprites: ArrayBuffer;
  drawn: number;
  params: Float32Array<ArrayBuffer>;
}

/** @internal Copies the sprites near the pick rays (all of them for a marquee or without the pre-filter). */
export function capturePick(
  system: BillboardSystem,
  request: ContributorCaptureRequest,
): { idCount: number; captured: CapturedBillboards } | null {
  if (system.disposed || !system.pickable || system.count === 0) return null;
  const rays = request.preFilter ? request.rays : null;
  const drawn: number[] = [];
  for (let i = 0; i < system.count; i++) {
    const p = system.positions;
    if (
      !rays ||
      raysNearSphere(
        rays,
        p[i * 3],
        p[i * 3 + 1],
        p[i * 3 + 2],
        0.5 * Math.hypot(system.sizes[i * 2], system.sizes[i * 2 + 1]),
      )
    )
      drawn.push(i);
  }
  if (drawn.length === 0) return null;
  const sprites = new ArrayBuffer(drawn.length * billboardSpriteBytes);
  drawn.forEach((index, slot) => packBillboardSprite(system, index, sprites, slot));
  return { idCount: system.count, captured: { sprites, drawn: drawn.length, params: billboardParams(system) } };
}

/** @internal The billboard contributor on one device. */
export function createPickContributor(
  device: GPUDevice,
  precomposed: PrecomposedSource | null = null,
): PickContributor<CapturedBillboards> {
  const gpu = createContributorGpu(device, {
    precomposed,
    label: 'weft:billboards:pick',
    shaderSpec: billboardPickSpec,
    variantName: (detailed) => (detailed ? 'billboard-pick-detail' : 'billboard-pick'),
    itemsBinding: 'billboardSprites',
    paramsBinding: 'billboardParams',
    paramsBytes: billboardParamsBytes,
  });
  return {
    encode: (captured, context) =>
      drawContributorItems(gpu, context, new Uint8Array(captured.sprites), captured.drawn, captured.params, 6),
    dispose: () => disposeContributorGpu(gpu),
  };
}

/** @internal A billboard hit names its sprite. */
export function resolvePick(
  _system: BillboardSystem,
  _captured: CapturedBillboards,
  localId: number,
): Record<string, unknown> {
  return { spriteIndex: localId };
}
