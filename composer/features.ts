import type { FeatureRequirement, Fragment, FragmentBuiltin } from '../fragments/fragment-types.js';
import type { Conditions } from './conditions.js';
import { describeValue } from '../core/errors.js';
import { ComposeError } from './errors.js';
import { activeItems } from './fragment-graph.js';

/** @internal WGSL `enable` extension of each device feature that needs one. */
export const enableOfFeature: Readonly<Record<string, string>> = {
  'clip-distances': 'clip_distances',
  'dual-source-blending': 'dual_source_blending',
  'primitive-index': 'primitive_index',
  'shader-f16': 'f16',
  subgroups: 'subgroups',
};

const featureOfBuiltin: Partial<Record<FragmentBuiltin['builtin'], GPUFeatureName>> = {
  primitive_index: 'primitive-index',
};

/** A device feature a composed shader needs, with the fragments that need it. */
export interface ComposedFeature {
  feature: GPUFeatureName;
  fragments: string[];
}

/**
 * Collects the active `requires` (plus features implied by builtins, e.g. primitive_index), sorted by name.
 * @internal
 */
export function collectFeatures(
  api: string,
  ordered: readonly Fragment[],
  conditions: Conditions,
  builtins: readonly { builtin: FragmentBuiltin['builtin']; fragments: string[] }[],
): ComposedFeature[] {
  const byName = new Map<string, string[]>();
  const add = (feature: string, id: string) => {
    const ids = byName.get(feature) ?? [];
    if (!ids.includes(id)) ids.push(id);
    byName.set(feature, ids);
  };
  for (const fragment of ordered) {
    for (const r of activeItems<FeatureRequirement>(api, fragment, fragment.requires, conditions)) {
      if (typeof r?.feature !== 'string' || !/^[a-z0-9-]+$/.test(r.feature)) {
        throw new ComposeError(
          api,
          'invalid-fragment',
          [fragment.id],
          `fragment "${fragment.id}" requires feature ${describeValue(r?.feature)}; expected a GPUFeatureName such as "primitive-index"`,
        );
      }
      add(r.feature, fragment.id);
    }
  }
  for (const b of builtins) {
    const feature = featureOfBuiltin[b.builtin];
    if (feature) for (const id of b.fragments) add(feature, id);
  }
  return [...byName]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([feature, fragments]) => ({ feature: feature as GPUFeatureName, fragments }));
}

/** @internal Throws ComposeError `missing-feature` naming the fragments when the device lacks a required feature. */
export function checkDeviceFeatures(
  api: string,
  required: readonly ComposedFeature[],
  device: { has(feature: string): boolean },
): void {
  for (const { feature, fragments } of required) {
    if (!device.has(feature)) {
      const iterable = device as unknown as Partial<Iterable<string>>;
      const available =
        typeof iterable[Symbol.iterator] === 'function'
          ? [...(iterable as Iterable<string>)].sort().join(', ') || 'none'
          : 'unknown';
      throw new ComposeError(
        api,
        'missing-feature',
        fragments,
        `fragment ${fragments.map((id) => `"${id}"`).join(', ')} requires device feature "${feature}", which the device lacks; request it in requestDevice({ requiredFeatures }) on an adapter that has it, or compose without the fragment (device features: ${available})`,
      );
    }
  }
}
