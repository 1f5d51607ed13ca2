import { splatItemBytes, splatParamsBytes } from '../../fragments/splat-pick.js';
import {
  checkEntityRenderTaskOptions,
  createEntityRenderTask,
  type EntityRenderTaskOptions,
} from '../entity-render-task.js';
import type { Task } from '../../engine/task.js';
import { packSplat, splatParams } from './splat-items.js';
import type { SplatMesh } from './splat-mesh.js';
import { splatColorSpec } from './splat-shaders.js';

/** Opacity below which the renderer ignores a splat's tail (one 8-bit step). */
export const splatRenderCutoff = 1 / 255;

/**
 * The simple splat renderer: each splat's peak opacity along the pixel ray, premultiplied colour blended back to
 * front (splats sorted by their centre's distance along the view direction every frame), depth-tested against the
 * meshes at the peak's depth, no depth writes.
 */
export function createSplatRenderTask(mesh: SplatMesh, options: EntityRenderTaskOptions): Task {
  checkEntityRenderTaskOptions('createSplatRenderTask', options);
  const params = new Float32Array(splatParamsBytes / 4);
  let depths = new Float32Array(0);
  let order = new Uint32Array(0);
  return createEntityRenderTask(
    mesh.scene,
    { name: `splats:${mesh.name}`, ...options },
    {
      label: `splats:${mesh.name}`,
      shaderSpec: splatColorSpec,
      variantName: 'splat-color',
      itemsBinding: 'splatItems',
      paramsBinding: 'splatParams',
      paramsBytes: splatParamsBytes,
      itemBytes: splatItemBytes,
      blend: {
        color: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha' },
        alpha: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha' },
      },
      depthWrite: false,
      capacity: () => mesh.count,
      fill(items, view) {
        if (mesh.disposed) return 0;
        if (order.length < mesh.count) {
          depths = new Float32Array(mesh.count);
          order = new Uint32Array(mesh.count);
        }
        const w = mesh.worldMatrix;
        const [cx, cy, cz] = view.cameraPosition;
        // Forward = up × right (the camera looks down −Z of its view space).
        const [rx, ry, rz] = view.cameraRight;
        const [ux, uy, uz] = view.cameraUp;
        const [fx, fy, fz] = [uy * rz - uz * ry, uz * rx - ux * rz, ux * ry - uy * rx];
        for (let i = 0; i < mesh.count; i++) {
          const [x, y, z] = [mesh.centers[i * 3], mesh.centers[i * 3 + 1], mesh.centers[i * 3 + 2]];
          const px = w[0] * x + w[4] * y + w[8] * z + w[12] - cx;
          const py = w[1] * x + w[5] * y + w[9] * z + w[13] - cy;
          const pz = w[2] * x + w[6] * y + w[10] * z + w[14] - cz;
          depths[i] = px * fx + py * fy + pz * fz;
          order[i] = i;
        }
        const sorted = order.subarray(0, mesh.count).sort((a, b) => depths[b] - depths[a]);
        sorted.forEach((index, slot) => packSplat(mesh, index, items, slot));
        return mesh.count;
      },
      params: () => splatParams(mesh, splatRenderCutoff, params),
    },
  );
}
