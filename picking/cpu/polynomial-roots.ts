/** @internal Value of Σ coefficients[i]·x^i (Horner). */
export function evaluatePolynomial(coefficients: readonly number[], x: number): number {
  let value = 0;
  for (let i = coefficients.length - 1; i >= 0; i--) value = value * x + coefficients[i];
  return value;
}

function derivative(coefficients: readonly number[]): number[] {
  return coefficients.slice(1).map((c, i) => c * (i + 1));
}

/** A root of p in [a, b] where p(a), p(b) have opposite signs: bisection to the last representable bit. */
function bracketedRoot(p: readonly number[], a: number, b: number, fa: number): number {
  for (let i = 0; i < 200; i++) {
    const m = 0.5 * (a + b);
    if (m <= a || m >= b) break;
    const fm = evaluatePolynomial(p, m);
    if (fm === 0) return m;
    if (fm < 0 === fa < 0) {
      a = m;
      fa = fm;
    } else {
      b = m;
    }
  }
  return 0.5 * (a + b);
}

/**
 * Real roots of Σ coefficients[i]·x^i inside [lo, hi], ascending. Robust by construction rather than by
 * closed form: the roots of p' split [lo, hi] into monotonic pieces (found recursively), each holding at
 * most one root, found by bisection; a derivative root where |p| ≤ `touch` counts as a double (tangent) root.
 * @internal
 */
export function polynomialRootsInInterval(
  coefficients: readonly number[],
  lo: number,
  hi: number,
  touch = 0,
): number[] {
  let p = coefficients.slice();
  while (p.length > 0 && p[p.length - 1] === 0) p = p.slice(0, -1);
  if (p.length < 2 || !(lo <= hi)) return [];
  if (p.length === 2) {
    const root = -p[0] / p[1];
    return root >= lo && root <= hi ? [root] : [];
  }
  const critical = polynomialRootsInInterval(derivative(p), lo, hi);
  const points = [lo, ...critical.filter((c) => c > lo && c < hi), hi];
  const roots: number[] = [];
  const push = (r: number): void => {
    if (roots.length === 0 || r > roots[roots.length - 1]) roots.push(r);
  };
  let fa = evaluatePolynomial(p, points[0]);
  if (fa === 0) push(points[0]);
  for (let k = 1; k < points.length; k++) {
    const a = points[k - 1];
    const b = points[k];
    const fb = evaluatePolynomial(p, b);
    if (fa !== 0 && fb !== 0 && fa < 0 !== fb < 0) push(bracketedRoot(p, a, b, fa));
    else if (fb === 0 || (k < points.length - 1 && Math.abs(fb) <= touch)) push(b);
    fa = fb;
  }
  return roots;
}
