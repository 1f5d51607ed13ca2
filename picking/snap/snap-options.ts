import { describeValue } from '../../core/errors.js';
import { checkOptionKeys, type OptionKeys } from '../../core/options.js';
import { PickError } from '../pick-errors.js';
import type { SnapKind } from '../picking-info.js';

/** What `pickSnappedAsync` snaps to and how far it looks. */
export interface SnapOptions {
  /** Search radius in framebuffer pixels around the point: an integer 1..`maxSnapRadius`, default 8. */
  radius?: number;
  /** The kinds of feature that may be snapped to (default all three); the priority between them is fixed. */
  to?: readonly SnapKind[];
}

/** The default snap radius, in framebuffer pixels. */
export const defaultSnapRadius = 8;
/** The largest snap radius: the snap pass draws a (2·radius + 1)² block around the point. */
export const maxSnapRadius = 16;

/** @internal The snap option, checked: radius and the kinds allowed, in priority order. */
export interface CheckedSnap {
  radius: number;
  /** vertex, midpoint, edge: whether each kind is allowed. */
  kinds: { vertex: boolean; midpoint: boolean; edge: boolean };
}

const snapOptionKeys: OptionKeys<SnapOptions> = { radius: true, to: true };
const snapKinds: readonly SnapKind[] = ['vertex', 'midpoint', 'edge'];

/**
 * Checks the `snap` option of a snapping pick.
 * @throws {PickError} `bad-option` naming the bad value and what is allowed
 * @internal
 */
export function checkSnapOption(api: string, snap: SnapOptions | undefined): CheckedSnap {
  checkOptionKeys(api, snap, snapOptionKeys, (_, message) => new PickError(api, 'bad-option', message), 'snap');
  const radius = snap?.radius ?? defaultSnapRadius;
  if (typeof radius !== 'number' || !Number.isInteger(radius) || radius < 1 || radius > maxSnapRadius)
    throw new PickError(
      api,
      'bad-option',
      `snap.radius ${describeValue(radius)} must be an integer 1..${maxSnapRadius} (framebuffer pixels)`,
    );
  const to = snap?.to ?? snapKinds;
  const allowed = `a non-empty array of 'vertex', 'midpoint', 'edge'`;
  if (!Array.isArray(to) || to.length === 0)
    throw new PickError(api, 'bad-option', `snap.to ${describeValue(to)} must be ${allowed}`);
  const bad = to.findIndex((kind) => !snapKinds.includes(kind));
  if (bad >= 0)
    throw new PickError(api, 'bad-option', `snap.to[${bad}] ${describeValue(to[bad])} must be one of ${allowed}`);
  return {
    radius,
    kinds: { vertex: to.includes('vertex'), midpoint: to.includes('midpoint'), edge: to.includes('edge') },
  };
}
