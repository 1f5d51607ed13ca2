// What the marquee tests check a pickRectAsync result against: the float64 reference of test/support/box-rays.ts.
import { expect } from 'vitest';
import type { PickedIdentity } from '../../picking/index.js';
import type { RefRect } from './box-rays.js';

/** A marquee identity as the reference names it: the mesh, and `#instance` for a thin instance. */
export const rectKeyOf = (f: PickedIdentity) =>
  `${f.mesh!.name}${f.thinInstanceIndex >= 0 ? `#${f.thinInstanceIndex}` : ''}`;

/** A seeded generator of numbers in [0, 1) (mulberry32), so random layouts are the same on every run. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The result is the reference's union of first hits (ambiguous pixel centres may go either way), deduplicated, in
 * scene order (`order`: mesh names in scene order; thin instances by index within their mesh).
 */
export function expectRectReference(
  found: readonly PickedIdentity[],
  ref: RefRect,
  order: readonly string[],
  where: string,
): void {
  const keys = found.map(rectKeyOf);
  // The tolerance decides only a few pixels near an edge or a depth tie.
  expect(ref.ambiguous, `${where}: ambiguous pixels`).toBeLessThanOrEqual(Math.max(2, ref.pixels * 0.02));
  expect(new Set(keys).size, `${where}: deduplicated`).toBe(keys.length);
  expect(
    [...ref.certain].filter((k) => !keys.includes(k)),
    `${where}: missing`,
  ).toEqual([]);
  expect(
    keys.filter((k) => !ref.possible.has(k)),
    `${where}: not visible`,
  ).toEqual([]);
  const rank = (k: string) => order.indexOf(k.split('#')[0]) * 1e6 + Number(k.split('#')[1] ?? -1);
  expect(keys, `${where}: ID order`).toEqual([...keys].sort((a, b) => rank(a) - rank(b)));
}
