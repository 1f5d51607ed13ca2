import { createSplatPickFragment, createSplatQuadFragment, splatItemBytes, splatParamsBytes } from '../fragments/splat-pick.js';
import { createContributorGpu, disposeContributorGpu, drawContributorItems } from '../picking/contributor-gpu.js';
import type { PickTexel } from '../picking/pick-decode.js';
import { type ContributorCaptureRequest, createContributorBaseFragments, type PickContributor } from '../picking/pick-contributors.js';
import { packSplat, splatParams, splatReach, splatWorldScale } from './splat-items.js';
import type { SplatMesh } from './splat-mesh.js';

/** The splats one pick draws, copied at the call, with the mesh's matrices and threshold. */
export interface CapturedSplats {
  items: ArrayBuffer;
  drawn: number;
  params: Float32Array<ArrayBuffer>;
}

/** Copies the splats whose opacity can reach the threshold and whose bounding sphere a pick ray crosses. */
export function capturePick(mesh: SplatMesh, request: ContributorCaptureRequest): { idCount: number; captured: CapturedSplats } | null {
  if (mesh.disposed || !mesh.pickable || mesh.count === 0) return null;
  const items = new ArrayBuffer(mesh.count * splatItemBytes);
  const world = mesh.worldMatrix;
  const scale = splatWorldScale(world);
  const rays = request.preFilter ? request.rays : null;
  let drawn = 0;
  for (let i = 0; i < mesh.count; i++) {
    const radius = splatReach(mesh, i, mesh.pickOpacityThreshold, scale);
    if (radius === 0) continue;
    if (rays) {
      const [x, y, z] = [mesh.centers[i * 3], mesh.centers[i * 3 + 1], mesh.centers[i * 3 + 2]];
      const centre = [0, 1, 2].map((r) => world[r] * x + world[4 + r] * y + world[8 + r] * z + world[12 + r]);
      const near = rays.some((ray) => {
        const d = [centre[0] - ray.origin[0], centre[1] - ray.origin[1], centre[2] - ray.origin[2]];
        const along = d[0] * ray.direction[0] + d[1] * ray.direction[1] + d[2] * ray.direction[2];
        return along >= -radius && d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - along * along <= radius * radius;
      });
      if (!near) continue;
    }
    packSplat(mesh, i, items, drawn++);
  }
  if (drawn === 0) return null;
  return { idCount: mesh.count, captured: { items: items.slice(0, drawn * splatItemBytes), drawn, params: splatParams(mesh, mesh.pickOpacityThreshold) } };
}

/** The splat contributor on one device. */
export function createPickContributor(device: GPUDevice): PickContributor<CapturedSplats> {
  const gpu = createContributorGpu(device, { label: 'weft:splats:pick', fragments: [...createContributorBaseFragments(), createSplatQuadFragment(), createSplatPickFragment()], itemsBinding: 'splatItems', paramsBinding: 'splatParams', paramsBytes: splatParamsBytes });
  return {
    encode: (captured, context) => drawContributorItems(gpu, context, new Uint8Array(captured.items), captured.drawn, captured.params, 6),
    dispose: () => disposeContributorGpu(gpu),
  };
}

/** A splat hit names its splat and, in detailed mode, the opacity the ray met (≥ the threshold). */
export function resolvePick(_mesh: SplatMesh, _captured: CapturedSplats, localId: number, texel: PickTexel): Record<string, unknown> {
  if (!texel.detail) return { splatIndex: localId };
  return { splatIndex: localId, opacity: new Float32Array(texel.detail.buffer, texel.detail.byteOffset + 8, 1)[0] };
}
