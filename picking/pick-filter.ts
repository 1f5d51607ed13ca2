import { describeValue } from '../core/errors.js';
import type { Mesh } from '../engine/mesh.js';
import type { PickSubject } from './sources/pick-source.js';
import { weftPickSource as source } from './sources/weft-pick-source.js';

/** Leaves out some of a mesh's thin instances: one index, or the half-open range [start, end). */
export interface ThinInstanceIgnore {
  mesh: Mesh;
  thinInstances: number | readonly [number, number];
}

/** Leave out a mesh, or some of its thin instances. */
export type PickIgnore = Mesh | ThinInstanceIgnore;

/** The filtering options every pick accepts, GPU or CPU. */
export interface PickFilterOptions {
  /** Only meshes for which this returns true are candidates (`pickable === false` meshes never are). */
  filter?: (mesh: Mesh) => boolean;
  /** Ignored meshes consume no ID and are seen through; ignored thin instances are not drawn and never occlude. */
  ignore?: readonly PickIgnore[];
}

/** The class a picker throws bad options as: `PickError` for the GPU API, `CpuPickError` for the CPU API. */
type PickOptionErrorClass = new (api: string, code: 'bad-option' | 'bad-ignore', message: string) => Error;

/** Thin-instance ranges [start, end) left out of one mesh. */
type InstanceRanges = readonly (readonly [number, number])[];

/** @internal Filtering options checked once and compiled: the filter, and what is ignored per mesh. */
export interface PickFilter {
  readonly filter: ((mesh: Mesh) => boolean) | null;
  /** Per mesh (the source's object): `'all'` when ignored whole, else its ignored thin-instance ranges. */
  readonly ignored: ReadonlyMap<object, 'all' | InstanceRanges>;
}

const noRanges: InstanceRanges = [];

function isMesh(value: unknown): value is Mesh {
  return !!value && typeof value === 'object' && 'geometry' in value && 'positions' in value;
}

/** The [start, end) range an ignore entry names, or null when it is not a non-empty range inside the mesh's instances. */
function instanceRange(mesh: Mesh, spec: unknown): [number, number] | null {
  const range: [number, number] =
    typeof spec === 'number' ? [spec, spec + 1] : Array.isArray(spec) ? [spec[0], spec[1]] : [NaN, NaN];
  const inside =
    Number.isInteger(range[0]) &&
    Number.isInteger(range[1]) &&
    range[0] >= 0 &&
    range[1] > range[0] &&
    range[1] <= mesh.thinInstanceCount;
  return inside ? range : null;
}

let unfiltered: PickFilter | null = null;

/** The filter of a pick without options, made once (it is read-only): picks skip a Map per call. */
function noFilter(): PickFilter {
  unfiltered ??= { filter: null, ignored: new Map() };
  return unfiltered;
}

/** @internal Checks `options.filter` and `options.ignore` once (throwing `errorClass` errors) and compiles them. */
export function makePickFilter(
  api: string,
  options: PickFilterOptions | undefined,
  errorClass: PickOptionErrorClass,
): PickFilter {
  if (options === undefined) return noFilter();
  if (options === null || typeof options !== 'object')
    throw new errorClass(api, 'bad-option', `options ${describeValue(options)} must be an object`);
  const { filter, ignore } = options;
  if (filter !== undefined && typeof filter !== 'function')
    throw new errorClass(api, 'bad-option', `filter ${describeValue(filter)} must be a function (mesh) => boolean`);
  if (ignore !== undefined && !Array.isArray(ignore))
    throw new errorClass(
      api,
      'bad-option',
      `ignore ${describeValue(ignore)} must be an array of meshes or { mesh, thinInstances }`,
    );
  if (filter === undefined && ignore === undefined) return noFilter();
  const ignored = new Map<Mesh, 'all' | [number, number][]>();
  for (const [k, entry] of (ignore ?? []).entries()) {
    if (isMesh(entry)) {
      ignored.set(entry, 'all');
      continue;
    }
    if (!entry || typeof entry !== 'object' || !('thinInstances' in entry) || !isMesh(entry.mesh))
      throw new errorClass(
        api,
        'bad-ignore',
        `ignore[${k}] ${describeValue(entry)} must be a mesh or { mesh, thinInstances }`,
      );
    const { mesh, thinInstances } = entry;
    const range = instanceRange(mesh, thinInstances);
    if (!range)
      throw new errorClass(
        api,
        'bad-ignore',
        `ignore[${k}] for mesh ${JSON.stringify(mesh.name)}: thin instances ${describeValue(thinInstances)} must be an index or a [start, end) range inside 0..${mesh.thinInstanceCount}`,
      );
    const ranges = ignored.get(mesh);
    if (ranges === undefined) ignored.set(mesh, [range]);
    else if (ranges !== 'all') ranges.push(range);
  }
  return { filter: filter ?? null, ignored };
}

/** @internal Whether `mesh` can be picked at all: pickable, kept by the filter and not ignored whole. */
export function pickFilterKeepsMesh(filter: PickFilter, mesh: PickSubject): boolean {
  if (mesh.pickable === false) return false;
  const object = source.objectOf(mesh);
  if (filter.filter && !filter.filter(object)) return false;
  return filter.ignored.get(object) !== 'all';
}

/** @internal The thin-instance ranges ignored on a mesh the filter keeps (empty when none). */
export function ignoredInstanceRanges(filter: PickFilter, mesh: PickSubject): InstanceRanges {
  const ranges = filter.ignored.get(source.objectOf(mesh));
  return ranges === undefined || ranges === 'all' ? noRanges : ranges;
}

/** @internal Whether thin instance `instance` lies in one of `ranges`. */
export function isInstanceInRanges(ranges: InstanceRanges, instance: number): boolean {
  for (const [start, end] of ranges) if (instance >= start && instance < end) return true;
  return false;
}

function pickableOnly(mesh: PickSubject): boolean {
  return mesh.pickable !== false;
}

/**
 * The compiled filter as one test of (mesh, thin instance); `instance` is -1 for a mesh without thin instances.
 * @internal
 */
export function makePickFilterTest(filter: PickFilter): (mesh: PickSubject, instance: number) => boolean {
  if (filter.filter === null && filter.ignored.size === 0) return pickableOnly;
  return (mesh, instance) =>
    pickFilterKeepsMesh(filter, mesh) && !isInstanceInRanges(ignoredInstanceRanges(filter, mesh), instance);
}
