import { buildBvhNodes } from './bvh-build.js';
import { type BvhNodes, bvhSahCost, nodeWords, unionChildBounds } from './bvh-nodes.js';
import type { SceneEntries } from './scene-entries.js';

/** A BVH over scene entries (world bounds); its topology is fixed until the next structural change. */
export interface SceneBvh {
  nodes: BvhNodes;
  /** Leaf position → entry. */
  order: Uint32Array;
}

/** A decision the CPU picker took that changes its cost, stated instead of taken silently. */
export interface CpuPickDiagnostic {
  rule: string;
  consequence: string;
  reason: string;
}

/** Whether to build a scene BVH: by the SAH gate, always, or never (flat scan). */
export type SceneBvhMode = 'auto' | 'always' | 'never';

/** Outcome of `buildSceneBvh`: the hierarchy (or null for a flat scan), its SAH costs and the diagnostic. */
export interface SceneBvhDecision {
  bvh: SceneBvh | null;
  /** Expected entry-box tests per ray that hits the scene: the hierarchy's SAH cost, and a flat scan's (= entries). */
  hierarchyCost: number;
  flatCost: number;
  diagnostic: CpuPickDiagnostic;
}

/** The hierarchy must promise at least this fraction of a flat scan's box tests, to pay for its traversal overhead. */
export const sceneBvhGateRatio = 0.8;

const sceneBuild = { binCount: 12, maxLeafSize: 4, traversalCost: 1, intersectCost: 1 };

/**
 * Builds the scene BVH when the surface-area heuristic says it beats a flat scan of the entries;
 * otherwise declines, and the returned diagnostic says so (rule, consequence, reason).
 */
export function buildSceneBvh(entries: SceneEntries, mode: SceneBvhMode = 'auto'): SceneBvhDecision {
  const flatCost = entries.count;
  const rule = 'scene-bvh-sah-gate';
  if (mode === 'never') {
    return {
      bvh: null,
      hierarchyCost: NaN,
      flatCost,
      diagnostic: {
        rule,
        consequence: `flat scan of ${flatCost} entries per ray`,
        reason: 'sceneBvh option is "never"',
      },
    };
  }
  if (entries.count < 2 && mode === 'auto') {
    return {
      bvh: null,
      hierarchyCost: flatCost,
      flatCost,
      diagnostic: {
        rule,
        consequence: `flat scan of ${flatCost} entries per ray`,
        reason: `${flatCost} entr${flatCost === 1 ? 'y' : 'ies'}: nothing to split`,
      },
    };
  }
  const prims = new Float32Array(entries.bounds);
  for (let e = 0; e < entries.count; e++) {
    // An invalid entry has an empty box; give it the point at the origin so the build stays finite.
    if (!entries.valid[e]) prims.fill(0, e * 6, e * 6 + 6);
  }
  const order = new Uint32Array(entries.count);
  for (let e = 0; e < entries.count; e++) order[e] = e;
  const nodes = buildBvhNodes(prims, order, sceneBuild);
  const bvh: SceneBvh = { nodes, order };
  refitSceneBvh(bvh, entries);
  const hierarchyCost = bvhSahCost(nodes);
  const numbers = `SAH cost ${hierarchyCost.toFixed(2)} box tests per ray vs ${flatCost} for a flat scan (${nodes.nodeCount} nodes, gate ratio ${sceneBvhGateRatio})`;
  if (mode === 'auto' && !(hierarchyCost < flatCost * sceneBvhGateRatio)) {
    return {
      bvh: null,
      hierarchyCost,
      flatCost,
      diagnostic: {
        rule,
        consequence: `declined: flat scan of ${flatCost} entries per ray`,
        reason: `splitting does not beat a flat scan: ${numbers}`,
      },
    };
  }
  const reason =
    mode === 'always' ? `sceneBvh option is "always"; ${numbers}` : `splitting beats a flat scan: ${numbers}`;
  return {
    bvh,
    hierarchyCost,
    flatCost,
    diagnostic: { rule, consequence: `scene BVH over ${flatCost} entries`, reason },
  };
}

/** Recomputes node bounds from the entries' current world bounds, children before parents (topology fixed). */
export function refitSceneBvh(bvh: SceneBvh, entries: SceneEntries): void {
  const { floats, ints, nodeCount } = bvh.nodes;
  const bounds = entries.bounds;
  for (let n = nodeCount - 1; n >= 0; n--) {
    const o = n * nodeWords;
    const count = ints[o + 7];
    if (count === 0) {
      unionChildBounds(floats, ints, n);
      continue;
    }
    for (let k = 0; k < 6; k += 2) {
      floats[o + k] = Infinity;
      floats[o + k + 1] = -Infinity;
    }
    for (let i = ints[o + 6]; i < ints[o + 6] + count; i++) {
      const b = bvh.order[i] * 6;
      for (let k = 0; k < 6; k += 2) {
        if (bounds[b + k] < floats[o + k]) floats[o + k] = bounds[b + k];
        if (bounds[b + k + 1] > floats[o + k + 1]) floats[o + k + 1] = bounds[b + k + 1];
      }
    }
  }
}
