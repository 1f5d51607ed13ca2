import type { Fragment } from '../fragments/fragment-types.js';

/**
 * Fragment lists by a key naming their content. A runtime keeps one for as long as its compose cache, so a re-record
 * hands the cache the same fragment objects again and nothing is re-hashed.
 * @internal
 */
export type FragmentLists = Map<string, readonly Fragment[]>;

/**
 * What a pass's shader builder takes besides the description: only `deformationTextures` changes the composed shader.
 * @internal
 */
export interface ShaderSpecOptions {
  /** e.g. `device.features`: a required feature the device lacks is a `missing-feature` error. */
  deviceFeatures?: { has(feature: string): boolean };
  /**
   * Compose the deformation variant that reads morph and VAT playback data from textures: pass
   * `deformationInTextures(device)` (true on a device without vertex-stage storage buffers). Default false.
   */
  deformationTextures?: boolean;
  /** Where to keep and find the fragment lists the builder makes. */
  fragmentLists?: FragmentLists;
}

/** @internal The list kept under `key`, made by `make` the first time; made every time without `lists`. */
export function reuseFragmentList(
  lists: FragmentLists | undefined,
  key: string,
  make: () => readonly Fragment[],
): readonly Fragment[] {
  if (!lists) return make();
  let list = lists.get(key);
  if (!list) lists.set(key, (list = make()));
  return list;
}
