import { mat4 } from 'wgpu-matrix';
import { splatItemBytes, splatParamsBytes } from '../../fragments/splat-pick.js';
import type { SplatMesh } from './splat-mesh.js';

/** @internal Writes splat `index` into slot `slot` of a `SplatItem` array (pick pass and renderer share it). */
export function packSplat(mesh: SplatMesh, index: number, data: ArrayBuffer, slot: number): void {
  const at = (slot * splatItemBytes) / 4;
  const floats = new Float32Array(data);
  for (let c = 0; c < 3; c++) {
    floats[at + c] = mesh.centers[index * 3 + c];
    floats[at + 8 + c] = mesh.scales[index * 3 + c];
    floats[at + 12 + c] = mesh.colors[index * 3 + c];
  }
  new Uint32Array(data)[at + 3] = index;
  for (let c = 0; c < 4; c++) floats[at + 4 + c] = mesh.rotations[index * 4 + c];
  floats[at + 11] = mesh.opacities[index];
  floats[at + 15] = 1;
}

/**
 * Largest factor by which the world matrix stretches a length (bounded by its upper 3×3's Frobenius norm).
 * @internal
 */
export function splatWorldScale(world: Float32Array): number {
  let sum = 0;
  for (let c = 0; c < 3; c++) for (let r = 0; r < 3; r++) sum += world[c * 4 + r] ** 2;
  return Math.sqrt(sum);
}

/**
 * Radius of splat `index` in world units out to where its opacity falls to `cutoff` (0 when it never reaches it).
 * @internal
 */
export function splatReach(mesh: SplatMesh, index: number, cutoff: number, worldScale: number): number {
  const opacity = mesh.opacities[index];
  if (opacity < cutoff) return 0;
  return (
    Math.sqrt(2 * Math.log(opacity / cutoff)) *
    Math.max(mesh.scales[index * 3], mesh.scales[index * 3 + 1], mesh.scales[index * 3 + 2]) *
    worldScale
  );
}

/** @internal The `SplatParams` of a mesh with an opacity cut-off. */
export function splatParams(
  mesh: SplatMesh,
  cutoff: number,
  out = new Float32Array(splatParamsBytes / 4),
): Float32Array<ArrayBuffer> {
  out.set(mesh.worldMatrix, 0);
  out.set(mat4.inverse(mesh.worldMatrix), 16);
  out.set([cutoff, splatWorldScale(mesh.worldMatrix), 0, 0], 32);
  return out as Float32Array<ArrayBuffer>;
}
