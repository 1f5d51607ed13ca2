import type { Fragment } from '../fragments/fragment-types.js';
import type { ComposedShader, ComposeSpec } from './compose-shader.js';
import type { PipelineEntry } from './device-caches.js';
import type { RenderPipelineState } from './pipeline-cache.js';

/**
 * What live fragment swaps (`enableLiveFragments`, a dev server's hot edits) record. Null until enabled, so a
 * production page pays one null check per compose and per pipeline creation, and keeps nothing.
 * @internal
 */
export interface LiveRecord {
  /** The spec each composed shader was made from (after substitution), to recompose it with an edited fragment. */
  specs: WeakMap<ComposedShader, ComposeSpec>;
  /** What each cached pipeline was made from; a swap updates `composed`. */
  pipelines: WeakMap<PipelineEntry, { composed: ComposedShader; state: RenderPipelineState }>;
  /** Devices that created a pipeline since enabling (dropped when lost). */
  devices: Set<GPUDevice>;
  /** A swapped-out fragment object → the one that replaced it: later composes of the old object use the new one. */
  replaced: WeakMap<Fragment, Fragment>;
}

let record: LiveRecord | null = null;

/** @internal The live record, or null when live fragments are off. */
export function getLiveRecord(): LiveRecord | null {
  return record;
}

/** @internal Turns recording on (idempotent); returns the record. */
export function startLiveRecord(): LiveRecord {
  record ??= { specs: new WeakMap(), pipelines: new WeakMap(), devices: new Set(), replaced: new WeakMap() };
  return record;
}

/** @internal The newest version of a fragment (itself when it was never swapped out). */
export function latestFragment(live: LiveRecord, fragment: Fragment): Fragment {
  let latest = fragment;
  for (let next = live.replaced.get(latest); next; next = live.replaced.get(latest)) latest = next;
  return latest;
}

/** @internal The spec with swapped-out fragments replaced by their newest versions (the same object when none is). */
export function liveSpec(live: LiveRecord, spec: ComposeSpec): ComposeSpec {
  if (!Array.isArray(spec.fragments) || !spec.fragments.some((f) => f && live.replaced.has(f))) return spec;
  return { ...spec, fragments: spec.fragments.map((f) => (f ? latestFragment(live, f) : f)) };
}

/** @internal Notes a new cache entry and its device (no-op while live fragments are off). */
export function recordLivePipeline(
  device: GPUDevice,
  entry: PipelineEntry,
  composed: ComposedShader,
  state: RenderPipelineState,
): void {
  if (!record) return;
  record.pipelines.set(entry, { composed, state });
  if (record.devices.has(device)) return;
  record.devices.add(device);
  const live = record;
  void device.lost?.then(() => live.devices.delete(device));
}
