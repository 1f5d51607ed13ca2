import {
  makePickDiscardRuleFragment,
  makePickWorldAdjustFragment,
  type PickRuleStorageBinding,
} from '../../fragments/pick-discard.js';
import { makePickFragments } from '../../fragments/standard-material.js';
import type { ComposeSpec } from '../../composer/compose-shader.js';
import { registerVariant, type VariantRegistry } from '../../composer/variant-registry.js';

/** @internal A pick discard rule as shader source only (what `weft compose/validate --rule` and the snapshots need). */
export interface PickRuleSource {
  /** Variant name prefix. */
  name: string;
  wgsl: string;
  worldAdjustWgsl?: string;
  storage?: readonly PickRuleStorageBinding[];
}

/** One combination of the pick pass a rule can be composed into. */
interface PickRuleVariant {
  thinInstances: boolean;
  primitiveDetail: boolean;
  vertexData: boolean;
  worldAdjust: boolean;
}

/**
 * A sample rule used for weft's own snapshots: a clip plane, a per-instance hidden flag and a displacement.
 * @internal
 */
export const samplePickRule: PickRuleSource = {
  name: 'pick-rule-sample',
  wgsl: `fn pickDiscard(input: PickDiscardInput) -> bool {
  let clipped = dot(input.worldPos, vec3f(0.0, 1.0, 0.0)) > 2.0;
  let hidden = input.hasThinInstance == 1u && input.instanceExtras.x > 0.5;
  return clipped || hidden || flags[0] > 0.5;
}`,
  worldAdjustWgsl: `fn adjustPickWorld(input: PickWorldInput) -> vec3f {
  return input.worldPos + normalize(input.worldPos - input.origin) * input.vertexData.x * 0.1;
}`,
  storage: [{ name: 'flags', type: 'array<f32>', vertex: false }],
};

/** The compose spec of a rule in one pick variant (tight vertex layout: position, instance columns, vertex data). */
function pickRuleSpec(rule: PickRuleSource, variant: PickRuleVariant): ComposeSpec {
  const storage = rule.storage ?? [];
  const adjust = variant.worldAdjust && rule.worldAdjustWgsl !== undefined;
  return {
    fragments: [
      ...makePickFragments(),
      makePickDiscardRuleFragment(rule.wgsl, storage),
      ...(adjust ? [makePickWorldAdjustFragment(rule.worldAdjustWgsl!, storage)] : []),
    ],
    conditions: {
      thinInstances: variant.thinInstances,
      primitiveDetail: variant.primitiveDetail,
      pickDiscard: true,
      pickWorldAdjust: adjust,
      pickVertexData: variant.vertexData,
    },
  };
}

/**
 * Registers the 16 pick variants of a rule: basic/detail × regular/thin × with/without vertex data × with/without world adjust.
 * @internal
 */
export function registerPickRuleVariants(
  registry: VariantRegistry,
  rule: PickRuleSource = samplePickRule,
): VariantRegistry {
  for (let bits = 0; bits < 16; bits++) {
    const variant: PickRuleVariant = {
      primitiveDetail: !!(bits & 1),
      thinInstances: !!(bits & 2),
      vertexData: !!(bits & 4),
      worldAdjust: !!(bits & 8),
    };
    if (variant.worldAdjust && rule.worldAdjustWgsl === undefined) continue;
    const name = [
      rule.name,
      variant.primitiveDetail ? 'detail' : 'basic',
      variant.thinInstances ? 'thin' : 'regular',
      variant.vertexData && 'vertex-data',
      variant.worldAdjust && 'world-adjust',
    ]
      .filter(Boolean)
      .join('-');
    registerVariant(registry, {
      name,
      description: `pick discard rule ${JSON.stringify(variant)}`,
      spec: () => pickRuleSpec(rule, variant),
    });
  }
  return registry;
}
