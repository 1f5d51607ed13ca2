// Answer checks for the CPU picking bench: both libraries must report the same nearest triangle on sampled rays.

/** The triangle as its sorted vertex indices, so weft's faceId (original index order) and three-mesh-bvh's faceIndex
 * (into the index it reordered in place) compare as the same face. */
export function faceKey(index: ArrayLike<number>, face: number): string {
  const a = index[face * 3];
  const b = index[face * 3 + 1];
  const c = index[face * 3 + 2];
  const lo = Math.min(a, b, c);
  const hi = Math.max(a, b, c);
  return `${lo},${a + b + c - lo - hi},${hi}`;
}

export interface Agreement {
  checked: number;
  /** Hit on one side and miss on the other, or distances apart by more than the tolerance. */
  mismatches: number;
  /** Same distance, a different (adjacent) triangle: a ray through a shared edge or vertex. */
  ties: number;
  hits: number;
}

export function makeAgreement(): Agreement {
  return { checked: 0, mismatches: 0, ties: 0, hits: 0 };
}

/** Records one ray; `t` = Infinity for a miss; keys from `faceKey` (or object + face). */
export function agree(a: Agreement, weftT: number, weftKey: string, threeT: number, threeKey: string): void {
  a.checked++;
  const weftHit = weftT < Infinity;
  if (weftHit) a.hits++;
  if (weftHit !== threeT < Infinity) a.mismatches++;
  else if (!weftHit) return;
  else if (Math.abs(weftT - threeT) > 1e-4 * (1 + Math.abs(threeT))) a.mismatches++;
  else if (weftKey !== threeKey) a.ties++;
}

export function describeAgreement(a: Agreement): string {
  return `${a.mismatches} mismatches / ${a.checked} rays checked (${a.ties} edge ties), ${((100 * a.hits) / a.checked).toFixed(1)} % hit`;
}

/** Throws when answers differ on more than 0.1 % of the sampled rays: a wrong answer is not benched. */
export function requireAgreement(what: string, a: Agreement): void {
  if (a.mismatches > a.checked * 0.001)
    throw new Error(`${what}: the libraries disagree (${describeAgreement(a)}); not benching wrong answers`);
}
