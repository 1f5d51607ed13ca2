import { describeValue } from '../../composer/errors.js';
import type { Mesh } from '../../engine/mesh.js';
import type { PickViewport } from '../picking-ray.js';
import { CpuPickError } from './cpu-pick-error.js';
import type { EntryAcceptor } from './scene-query.js';

/** Ignores a mesh's thin instances: one index, or the half-open range [start, end). */
export interface CpuPickIgnore {
  mesh: Mesh;
  thinInstances: number | readonly [number, number];
}

/** Options of the synchronous CPU picks (the same filtering rules as the GPU picker). */
export interface CpuPickOptions {
  /** Only meshes it returns true for can be hit (`pickable === false` meshes never are). */
  filter?: (mesh: Mesh) => boolean;
  /** Meshes, or some of a mesh's thin instances, that the pick sees through. */
  ignore?: ReadonlyArray<Mesh | CpuPickIgnore>;
  /** pickSync: the framebuffer x, y refer to; default the engine's backing size. */
  viewport?: PickViewport;
  /** pickSync: x, y are CSS pixels times this ratio (default: backing pixels). */
  devicePixelRatio?: number;
  /** Ray picks: hits must lie in (minDistance, maxDistance) along the ray; default (0, ∞). pickSync uses the camera's near/far planes. */
  minDistance?: number;
  maxDistance?: number;
}

function pickableOnly(mesh: Mesh): boolean {
  return mesh.pickable !== false;
}

/** Checks `options` and compiles pickable/filter/ignore into one entry test. */
export function makeEntryAcceptor(api: string, options: CpuPickOptions): EntryAcceptor {
  if (options === null || typeof options !== 'object')
    throw new CpuPickError(api, 'bad-option', `options ${describeValue(options)} must be an object`);
  const { filter, ignore } = options;
  if (filter === undefined && ignore === undefined) return pickableOnly;
  if (filter !== undefined && typeof filter !== 'function')
    throw new CpuPickError(api, 'bad-option', `filter ${describeValue(filter)} must be a function (mesh) => boolean`);
  if (ignore !== undefined && !Array.isArray(ignore))
    throw new CpuPickError(
      api,
      'bad-option',
      `ignore ${describeValue(ignore)} must be an array of meshes or { mesh, thinInstances }`,
    );
  const ignored = new Map<Mesh, Array<[number, number]> | 'all'>();
  for (const [k, item] of (ignore ?? []).entries()) {
    if (item && typeof item === 'object' && 'thinInstances' in item && 'mesh' in item) {
      const { mesh, thinInstances } = item;
      const range: [number, number] =
        typeof thinInstances === 'number'
          ? [thinInstances, thinInstances + 1]
          : Array.isArray(thinInstances)
            ? [thinInstances[0], thinInstances[1]]
            : [NaN, NaN];
      // Same rule as the GPU picker: a non-empty range inside the mesh's instances.
      if (
        !Number.isInteger(range[0]) ||
        !Number.isInteger(range[1]) ||
        range[0] < 0 ||
        range[1] <= range[0] ||
        range[1] > mesh.thinInstanceCount
      ) {
        throw new CpuPickError(
          api,
          'bad-ignore',
          `ignore[${k}] for mesh ${JSON.stringify(mesh.name)}: thin instances ${describeValue(thinInstances)} must be an index or a [start, end) range inside 0..${mesh.thinInstanceCount}`,
        );
      }
      const list = ignored.get(mesh);
      if (list !== 'all') ignored.set(mesh, [...(list ?? []), range]);
    } else if (item && typeof item === 'object' && 'geometry' in item && 'positions' in item) {
      ignored.set(item, 'all');
    } else {
      throw new CpuPickError(
        api,
        'bad-ignore',
        `ignore[${k}] ${describeValue(item)} must be a mesh or { mesh, thinInstances }`,
      );
    }
  }
  return (mesh, instance) => {
    if (mesh.pickable === false) return false;
    if (filter && !filter(mesh)) return false;
    const rule = ignored.get(mesh);
    if (rule === undefined) return true;
    if (rule === 'all') return false;
    for (const [start, end] of rule) if (instance >= start && instance < end) return false;
    return true;
  };
}

/** Checks and returns (minDistance, maxDistance). */
export function pickRange(api: string, options: CpuPickOptions): [number, number] {
  const min = options.minDistance ?? 0;
  const max = options.maxDistance ?? Infinity;
  if (!(min >= 0) || !(max > min) || Number.isNaN(max)) {
    throw new CpuPickError(
      api,
      'bad-range',
      `minDistance ${describeValue(options.minDistance)} and maxDistance ${describeValue(options.maxDistance)} must satisfy 0 <= minDistance < maxDistance (Infinity allowed)`,
    );
  }
  return [min, max];
}
