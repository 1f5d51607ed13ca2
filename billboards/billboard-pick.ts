import { billboardParamsBytes, billboardSpriteBytes, createBillboardPickFragment, createBillboardQuadFragment } from '../fragments/billboard-pick.js';
import { createContributorGpu, disposeContributorGpu, drawContributorItems } from '../picking/contributor-gpu.js';
import { type ContributorCaptureRequest, createContributorBaseFragments, type PickContributor } from '../picking/pick-contributors.js';
import { billboardParams, packBillboardSprite } from './billboard-items.js';
import type { BillboardSystem } from './billboard-system.js';

/** The sprites one pick draws, copied at the call, and the orientation they had. */
export interface CapturedBillboards {
  sprites: ArrayBuffer;
  drawn: number;
  params: Float32Array<ArrayBuffer>;
}

/** Whether any ray comes within `radius` of the centre (a sprite never leaves the sphere through its corners). */
function raysNearSphere(rays: NonNullable<ContributorCaptureRequest['rays']>, x: number, y: number, z: number, radius: number): boolean {
  for (const ray of rays) {
    const dx = x - ray.origin[0];
    const dy = y - ray.origin[1];
    const dz = z - ray.origin[2];
    const along = dx * ray.direction[0] + dy * ray.direction[1] + dz * ray.direction[2];
    const distanceSquared = dx * dx + dy * dy + dz * dz - along * along;
    if (along >= -radius && distanceSquared <= radius * radius) return true;
  }
  return false;
}

/** Copies the sprites near the pick rays (all of them for a marquee or without the pre-filter). */
export function capturePick(system: BillboardSystem, request: ContributorCaptureRequest): { idCount: number; captured: CapturedBillboards } | null {
  if (system.disposed || !system.pickable || system.count === 0) return null;
  const sprites = new ArrayBuffer(system.count * billboardSpriteBytes);
  const rays = request.preFilter ? request.rays : null;
  let drawn = 0;
  for (let i = 0; i < system.count; i++) {
    const [x, y, z] = [system.positions[i * 3], system.positions[i * 3 + 1], system.positions[i * 3 + 2]];
    if (rays && !raysNearSphere(rays, x, y, z, 0.5 * Math.hypot(system.sizes[i * 2], system.sizes[i * 2 + 1]))) continue;
    packBillboardSprite(system, i, sprites, drawn++);
  }
  if (drawn === 0) return null;
  return { idCount: system.count, captured: { sprites: sprites.slice(0, drawn * billboardSpriteBytes), drawn, params: billboardParams(system) } };
}

/** The billboard contributor on one device. */
export function createPickContributor(device: GPUDevice): PickContributor<CapturedBillboards> {
  const gpu = createContributorGpu(device, { label: 'weft:billboards:pick', fragments: [...createContributorBaseFragments(), createBillboardQuadFragment(), createBillboardPickFragment()], itemsBinding: 'billboardSprites', paramsBinding: 'billboardParams', paramsBytes: billboardParamsBytes });
  return {
    encode: (captured, context) => drawContributorItems(gpu, context, new Uint8Array(captured.sprites), captured.drawn, captured.params, 6),
    dispose: () => disposeContributorGpu(gpu),
  };
}

/** A billboard hit names its sprite. */
export function resolvePick(_system: BillboardSystem, _captured: CapturedBillboards, localId: number): Record<string, unknown> {
  return { spriteIndex: localId };
}

