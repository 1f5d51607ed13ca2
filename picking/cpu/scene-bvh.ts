import { buildBvhNodes } from './bvh/bvh-build.js';
import {
  type BvhNodes,
  bvhSahCost,
  nodeCountWord,
  nodeFirst,
  nodeFirstWord,
  nodeLeafCount,
  nodeWords,
  unionChildBounds,
} from './bvh/bvh-nodes.js';
import type { SceneEntries } from './scene-entries.js';

/** @internal A BVH over scene entries (world bounds); its topology is fixed until the next structural change. */
export interface SceneBvh {
  nodes: BvhNodes;
  /** Leaf position → entry. */
  order: Uint32Array;
  /** Node → parent (-1 for the root) and entry → its leaf, made on the first partial refit. */
  links: { parents: Int32Array; leafOf: Int32Array } | null;
}

/** A decision the CPU picker took that changes its cost, stated instead of taken silently. */
export interface CpuPickDiagnostic {
  rule: string;
  consequence: string;
  reason: string;
}

/** Whether to build a scene BVH: by the SAH gate, always, or never (flat scan). */
export type SceneBvhMode = 'auto' | 'always' | 'never';

/** @internal Outcome of `buildSceneBvh`: the hierarchy (or null for a flat scan), its SAH costs and the diagnostic. */
export interface SceneBvhDecision {
  bvh: SceneBvh | null;
  /** Expected entry-box tests per ray that hits the scene: the hierarchy's SAH cost, and a flat scan's (= entries). */
  hierarchyCost: number;
  flatCost: number;
  diagnostic: CpuPickDiagnostic;
}

/**
 * The hierarchy must promise at least this fraction of a flat scan's box tests, to pay for its traversal overhead.
 * @internal
 */
export const sceneBvhGateRatio = 0.8;

const sceneBuild = { binCount: 12, maxLeafSize: 4, traversalCost: 1, intersectCost: 1 };

/**
 * Builds the scene BVH when the surface-area heuristic says it beats a flat scan of the entries;
 * otherwise declines, and the returned diagnostic says so (rule, consequence, reason).
 * @internal
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
  const bvh: SceneBvh = { nodes, order, links: null };
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

/**
 * Recomputes node bounds from the entries' current world bounds, children before parents (topology fixed).
 * @internal
 */
export function refitSceneBvh(bvh: SceneBvh, entries: SceneEntries): void {
  const { floats, ints, nodeCount } = bvh.nodes;
  const bounds = entries.bounds;
  for (let n = nodeCount - 1; n >= 0; n--) {
    const o = n * nodeWords;
    const count = ints[o + nodeCountWord];
    if (count === 0) {
      unionChildBounds(floats, ints, n);
      continue;
    }
    for (let k = 0; k < 6; k += 2) {
      floats[o + k] = Infinity;
      floats[o + k + 1] = -Infinity;
    }
    for (let i = ints[o + nodeFirstWord]; i < ints[o + nodeFirstWord] + count; i++) {
      const b = bvh.order[i] * 6;
      for (let k = 0; k < 6; k += 2) {
        if (bounds[b + k] < floats[o + k]) floats[o + k] = bounds[b + k];
        if (bounds[b + k + 1] > floats[o + k + 1]) floats[o + k + 1] = bounds[b + k + 1];
      }
    }
  }
}

/** Past this fraction of the entries changed, one sweep over every node beats walking up from each leaf. */
const partialRefitLimit = 1 / 16;

function linksOf(bvh: SceneBvh): NonNullable<SceneBvh['links']> {
  if (bvh.links) return bvh.links;
  const { ints, nodeCount } = bvh.nodes;
  const parents = new Int32Array(nodeCount).fill(-1);
  const leafOf = new Int32Array(bvh.order.length).fill(-1);
  for (let n = 0; n < nodeCount; n++) {
    const o = n * nodeWords;
    const count = nodeLeafCount(ints, o);
    const first = nodeFirst(ints, o);
    if (count === 0) {
      parents[first] = n;
      parents[first + 1] = n;
    } else for (let i = first; i < first + count; i++) leafOf[bvh.order[i]] = n;
  }
  bvh.links = { parents, leafOf };
  return bvh.links;
}

function refitLeaf(bvh: SceneBvh, bounds: Float32Array, leaf: number): void {
  // Twin of picking/cpu/scene-bvh.ts:refitSceneBvh (kept equal by test/unit/cpu-picking/twins.test.ts: partial scene refit equals a full one)
  const { floats, ints } = bvh.nodes;
  const o = leaf * nodeWords;
  for (let k = 0; k < 6; k += 2) {
    floats[o + k] = Infinity;
    floats[o + k + 1] = -Infinity;
  }
  for (let i = ints[o + nodeFirstWord]; i < ints[o + nodeFirstWord] + ints[o + nodeCountWord]; i++) {
    const b = bvh.order[i] * 6;
    for (let k = 0; k < 6; k += 2) {
      if (bounds[b + k] < floats[o + k]) floats[o + k] = bounds[b + k];
      if (bounds[b + k + 1] > floats[o + k + 1]) floats[o + k + 1] = bounds[b + k + 1];
    }
  }
}

/**
 * Refits only the leaves holding `changed` entries and their ancestors (topology fixed); many changes take the
 * full sweep instead. Each walk recomputes its whole path to the root, so shared ancestors end up exact whatever
 * the order of the walks.
 * @internal
 */
export function refitSceneBvhEntries(bvh: SceneBvh, entries: SceneEntries, changed: readonly number[]): void {
  if (changed.length > bvh.order.length * partialRefitLimit) {
    refitSceneBvh(bvh, entries);
    return;
  }
  const { parents, leafOf } = linksOf(bvh);
  const { floats, ints } = bvh.nodes;
  for (const e of changed) {
    const leaf = leafOf[e];
    if (leaf < 0) continue;
    refitLeaf(bvh, entries.bounds, leaf);
    for (let n = parents[leaf]; n >= 0; n = parents[n]) unionChildBounds(floats, ints, n);
  }
}
