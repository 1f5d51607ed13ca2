import type { PickSnapshot } from '../pick-snapshot.js';
import { weftPickSource as source } from '../sources/weft-pick-source.js';

/**
 * Drops the candidates whose local bounds, placed by their world matrix (a box the world-aligned bounds of the scene
 * entries enclose), lie wholly outside one of the block's planes (`makeRectPlanes`): a turned mesh's world-aligned
 * bounds reach far past it. Thin-instanced and deformed candidates are kept as the rectangle snapshot chose them.
 * IDs stay as assigned (in order, so lookups by ID still work).
 * @internal
 */
export function cullSnapCandidates(snapshot: PickSnapshot, planes: Float64Array): PickSnapshot {
  const m = new Float64Array(16);
  const local = new Float64Array(20);
  const candidates = snapshot.candidates.filter((c) => {
    if (c.runs || source.isDeformed(c.mesh)) return true;
    m.set(c.worldMatrix);
    // Each plane in the mesh's local space: (a, b, c, d) · M.
    for (let p = 0; p < 20; p += 4)
      for (let k = 0; k < 4; k++)
        local[p + k] =
          planes[p] * m[k * 4] +
          planes[p + 1] * m[k * 4 + 1] +
          planes[p + 2] * m[k * 4 + 2] +
          planes[p + 3] * m[k * 4 + 3];
    const { min, max } = c.mesh.localBounds;
    for (let p = 0; p < 20; p += 4) {
      const far =
        local[p] * (local[p] > 0 ? max[0] : min[0]) +
        local[p + 1] * (local[p + 1] > 0 ? max[1] : min[1]) +
        local[p + 2] * (local[p + 2] > 0 ? max[2] : min[2]) +
        local[p + 3];
      if (!(far >= 0)) return false;
    }
    return true;
  });
  if (candidates.length === snapshot.candidates.length) return snapshot;
  return { candidates, drawLists: [candidates.map((_, i) => i)] };
}
