// Float nodes and leaf-order face ids of any triangle BVH, for tests that walk the tree: a 'compact' BVH's quantised
// boxes as floats rounded outwards (what its queries test against), its leaves' faces read from the leaf stream.
import type { BvhNodes } from '../../../picking/cpu/bvh/bvh-nodes.js';
import { expandCompactBvh } from '../../../picking/cpu/bvh/compact-bvh.js';
import type { TriangleBvh } from '../../../picking/cpu/index.js';

export function bvhView(bvh: TriangleBvh): { nodes: BvhNodes; faceIds: Uint16Array | Uint32Array } {
  if (bvh.compact !== null) return expandCompactBvh(bvh.compact, null);
  return { nodes: bvh.nodes!, faceIds: bvh.faceIds! };
}
