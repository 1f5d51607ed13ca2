// The scene the pick-sources page draws and the Node test re-creates for its reference (shared numbers only).
import { quat } from 'wgpu-matrix';

export const cameraPosition: [number, number, number] = [1.5, 2, 8];
export const fovY = 0.7;
export const size = { width: 96, height: 72 };

/** Sprites in a 4 × 3 grid, axis-locked to +Y. */
export function spritePositions(): Float32Array {
  const positions: number[] = [];
  for (let row = 0; row < 3; row++) for (let col = 0; col < 4; col++) positions.push(col * 1.3 - 2, row * 1.1 - 1, 0);
  return new Float32Array(positions);
}

/** Two splats below the sprites; the second is too faint to pick. */
export function splatOptions() {
  return {
    centers: new Float32Array([-0.8, -2.2, 0.5, 1.2, -2.2, 0.5]),
    scales: new Float32Array([0.6, 0.3, 0.3, 0.6, 0.3, 0.3]),
    rotations: new Float32Array([...quat.fromEuler(0.2, 0.5, 0.1, 'xyz'), ...quat.identity()]),
    opacities: new Float32Array([0.9, 0.05]),
  };
}

/** What the page reports: per sampled pixel, what the GPU picker said. */
export type PickSourcesPageResult =
  | { adapterFeatures: string[]; picks: { x: number; y: number; hit: string; point: number[] | null }[] }
  | { error: string };
