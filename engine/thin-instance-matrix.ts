import { mat4 } from 'wgpu-matrix';

/**
 * Thin instance `index` of `instances` (16 floats each) as the shaders draw it: its w lanes (3, 7, 11, 15) are a
 * free payload, read as 0, 0, 0, 1. Allocation-free when `dst` is given.
 * @internal
 */
export function copyThinInstanceMatrix(
  instances: ArrayLike<number>,
  index: number,
  dst: Float32Array = new Float32Array(16),
): Float32Array {
  const offset = index * 16;
  for (let lane = 0; lane < 16; lane++) dst[lane] = instances[offset + lane];
  dst[3] = 0;
  dst[7] = 0;
  dst[11] = 0;
  dst[15] = 1;
  return dst;
}

/**
 * `dst` = `world` × thin instance `index` of `instances` (payload lanes read as 0, 0, 0, 1), without allocating.
 * @internal
 */
export function multiplyByThinInstance(
  world: Float32Array,
  instances: ArrayLike<number>,
  index: number,
  dst: Float32Array,
): Float32Array {
  // mat4.multiply reads both operands before writing, so dst may hold the instance matrix.
  return mat4.multiply(world, copyThinInstanceMatrix(instances, index, dst), dst) as Float32Array;
}
