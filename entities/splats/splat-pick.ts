import { splatItemBytes, splatParamsBytes } from '../../fragments/splat-pick.js';
import type { PrecomposedSource } from '../../composer/precomposed.js';
import {
  createContributorGpu,
  disposeContributorGpu,
  drawContributorItems,
} from '../../picking/sources/contributor-gpu.js';
import type { PickTexel } from '../../picking/pick-id.js';
import {
  type ContributorCaptureRequest,
  type PickContributor,
  raysNearSphere,
} from '../../picking/sources/pick-contributors.js';
import { packSplat, splatParams, splatReach, splatWorldScale } from './splat-items.js';
import type { SplatMesh } from './splat-mesh.js';
import { splatPickSpec } from './splat-shaders.js';

/** @internal The splats one pick draws, copied at the call, with the mesh's matrices and threshold. */
export interface CapturedSplats {
  items: ArrayBuffer;
  drawn: number;
  params: Float32Array<ArrayBuffer>;
}

/** @internal Copies the splats whose opacity can reach the threshold and whose bounding sphere a pick ray crosses. */
export function capturePick(
  mesh: SplatMesh,
  request: ContributorCaptureRequest,
): { idCount: number; captured: CapturedSplats } | null {
  if (mesh.disposed || !mesh.pickable || mesh.count === 0) return null;
  const w = mesh.worldMatrix;
  const scale = splatWorldScale(w);
  const rays = request.preFilter ? request.rays : null;
  const drawn: number[] = [];
  for (let i = 0; i < mesh.count; i++) {
    const radius = splatReach(mesh, i, mesh.pickOpacityThreshold, scale);
    if (radius === 0) continue;
    const [x, y, z] = [mesh.centers[i * 3], mesh.centers[i * 3 + 1], mesh.centers[i * 3 + 2]];
    if (
      !rays ||
      raysNearSphere(
        rays,
        w[0] * x + w[4] * y + w[8] * z + w[12],
        w[1] * x + w[5] * y + w[9] * z + w[13],
        w[2] * x + w[6] * y + w[10] * z + w[14],
        radius,
      )
    )
      drawn.push(i);
  }
  if (drawn.length === 0) return null;
  const items = new ArrayBuffer(drawn.length * splatItemBytes);
  drawn.forEach((index, slot) => packSplat(mesh, index, items, slot));
  return {
    idCount: mesh.count,
    captured: { items, drawn: drawn.length, params: splatParams(mesh, mesh.pickOpacityThreshold) },
  };
}

/** @internal The splat contributor on one device. */
export function createPickContributor(
  device: GPUDevice,
  precomposed: PrecomposedSource | null = null,
): PickContributor<CapturedSplats> {
  const gpu = createContributorGpu(device, {
    precomposed,
    label: 'weft:splats:pick',
    shaderSpec: splatPickSpec,
    variantName: (detailed) => (detailed ? 'splat-pick-detail' : 'splat-pick'),
    itemsBinding: 'splatItems',
    paramsBinding: 'splatParams',
    paramsBytes: splatParamsBytes,
  });
  return {
    encode: (captured, context) =>
      drawContributorItems(gpu, context, new Uint8Array(captured.items), captured.drawn, captured.params, 6),
    dispose: () => disposeContributorGpu(gpu),
  };
}

/** @internal A splat hit names its splat and, in detailed mode, the opacity the ray met (≥ the threshold). */
export function resolvePick(
  _mesh: SplatMesh,
  _captured: CapturedSplats,
  localId: number,
  texel: PickTexel,
): Record<string, unknown> {
  if (!texel.detail) return { splatIndex: localId };
  return { splatIndex: localId, opacity: new Float32Array(texel.detail.buffer, texel.detail.byteOffset + 8, 1)[0] };
}
