import { describe, expect, test } from 'vitest';
import { PickError } from '../../picking/index.js';
import {
  pickPassDrawBudget,
  pickTileTexelBudget,
  splitPickPoints,
  splitPickRect,
} from '../../picking/gpu/pick-pass-split.js';
import type { PickPassLimits } from '../../picking/gpu/pick-pass-types.js';

/** WebGPU's default limits (what the engine's device has on lavapipe). */
const defaults: PickPassLimits = { maxBufferSize: 268_435_456, maxTextureDimension2D: 8192 };
/** 512 B of draw uniforms and 512 B of point uniforms a slot (the pick pass's layout). */
const slotBytes = 512;

/** Checks a plan against the limits, independently of the planner: coverage, bounds, and greedy maximality. */
function checkPlan(lengths: number[], plan: { first: number; count: number }[], limits: PickPassLimits): void {
  const maxDraws = Math.floor(limits.maxBufferSize / slotBytes);
  let next = 0;
  for (const [b, { first, count }] of plan.entries()) {
    expect(first, `batch ${b} starts where the last ended`).toBe(next);
    expect(count).toBeGreaterThanOrEqual(1);
    const draws = lengths.slice(first, first + count).reduce((a, n) => a + n, 0);
    expect(count).toBeLessThanOrEqual(limits.maxTextureDimension2D);
    expect(count * slotBytes).toBeLessThanOrEqual(limits.maxBufferSize);
    expect(draws * slotBytes).toBeLessThanOrEqual(limits.maxBufferSize);
    if (count > 1) expect(draws).toBeLessThanOrEqual(pickPassDrawBudget);
    // Adding the next point would break a bound (the plan uses no more passes than it must, greedily).
    if (first + count < lengths.length) {
      const more = draws + lengths[first + count];
      expect(count + 1 > limits.maxTextureDimension2D || more > Math.min(maxDraws, pickPassDrawBudget)).toBe(true);
    }
    next = first + count;
  }
  expect(next).toBe(lengths.length);
}

describe('pick pass split plan', () => {
  test('1 100 points × 500 overlapping meshes (282 MB of draw uniforms) split into passes within the limits', () => {
    const lengths = Array.from({ length: 1100 }, () => 500);
    expect(1100 * 500 * slotBytes).toBeGreaterThan(defaults.maxBufferSize);
    const plan = splitPickPoints('pickManyAsync', lengths, defaults, false);
    checkPlan(lengths, plan, defaults);
    expect(plan.length).toBe(Math.ceil(1100 / Math.floor(pickPassDrawBudget / 500)));
  });

  test('10 000 points of one draw split at maxTextureDimension2D', () => {
    const lengths = Array.from({ length: 10_000 }, () => 1);
    expect(splitPickPoints('pickManyAsync', lengths, defaults, true)).toEqual([
      { first: 0, count: 8192 },
      { first: 8192, count: 1808 },
    ]);
  });

  test('with 9 × 9 overlay neighbourhoods a pass holds floor(maxTextureDimension2D / 9) points', () => {
    const lengths = Array.from({ length: 2000 }, () => 1);
    // 8192 / 9 = 910 points side by side; the 10-row staging of 910 × 9 texels fits 256 MB.
    expect(splitPickPoints('pickManyAsync', lengths, defaults, true, 9)).toEqual([
      { first: 0, count: 910 },
      { first: 910, count: 910 },
      { first: 1820, count: 180 },
    ]);
    // maxBufferSize 32 KiB: 16 points would stage 10 rows × (3 + 3 + 9) × 256 B = 38 400 B; 8 points stage 23 040 B.
    const small = { maxBufferSize: 32768, maxTextureDimension2D: 8192 };
    expect(splitPickPoints('pickManyAsync', Array(20).fill(1), small, true, 9)).toEqual([
      { first: 0, count: 8 },
      { first: 8, count: 8 },
      { first: 16, count: 4 },
    ]);
  });

  test('lowered limits: uneven draw lists respect the buffer and texture bounds', () => {
    const limits = { maxBufferSize: 512 * 1000, maxTextureDimension2D: 64 };
    let seed = 7;
    const lengths = Array.from({ length: 500 }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % 400;
    });
    checkPlan(lengths, splitPickPoints('pickManyAsync', lengths, limits, false), limits);
    // A point alone past the draw budget but within the buffer bound gets a pass of its own.
    const big = [3, pickPassDrawBudget + 5, 3];
    expect(splitPickPoints('pickManyAsync', big, defaults, false)).toEqual([
      { first: 0, count: 1 },
      { first: 1, count: 1 },
      { first: 2, count: 1 },
    ]);
  });

  test('a single point whose draw list alone is past maxBufferSize is a typed limit-exceeded error', () => {
    const tooMany = defaults.maxBufferSize / slotBytes + 1;
    const call = () => splitPickPoints('pickManyAsync', [1, 2, 3, tooMany], defaults, false);
    expect(call).toThrow(PickError);
    expect(call).toThrow(/points\[3\].*524289.*maxBufferSize 268435456/);
    try {
      call();
    } catch (error) {
      expect((error as PickError).code).toBe('limit-exceeded');
      expect((error as PickError).api).toBe('pickManyAsync');
    }
    expect(() => splitPickRect('pickRectAsync', { x: 0, y: 0, width: 4, height: 4 }, tooMany, defaults, false)).toThrow(
      /the rectangle draws 524289 meshes/,
    );
  });

  test('an 8292 × 1 rectangle is two tiles; a big one is tiled within every bound, each pixel once', () => {
    expect(splitPickRect('pickRectAsync', { x: 0, y: 0, width: 8292, height: 1 }, 1, defaults, false)).toEqual([
      { x: 0, y: 0, width: 8192, height: 1 },
      { x: 8192, y: 0, width: 100, height: 1 },
    ]);
    const cases: [PickPassLimits, { x: number; y: number; width: number; height: number }][] = [
      [
        { maxBufferSize: 2048, maxTextureDimension2D: 16 },
        { x: 3, y: 5, width: 40, height: 30 },
      ],
      [defaults, { x: 10, y: 20, width: 9000, height: 700 }],
    ];
    for (const [limits, region] of cases) {
      const tiles = splitPickRect('pickRectAsync', region, 1, limits, false);
      const seen = new Uint8Array(region.width * region.height);
      for (const t of tiles) {
        expect(t.width).toBeLessThanOrEqual(limits.maxTextureDimension2D);
        expect(t.height).toBeLessThanOrEqual(limits.maxTextureDimension2D);
        expect(t.width * t.height).toBeLessThanOrEqual(pickTileTexelBudget);
        // ID (4 B) and depth value (4 B) rows, each padded to 256 B.
        expect(2 * Math.ceil((t.width * 4) / 256) * 256 * t.height).toBeLessThanOrEqual(limits.maxBufferSize);
        for (let y = t.y; y < t.y + t.height; y++)
          for (let x = t.x; x < t.x + t.width; x++) seen[(y - region.y) * region.width + (x - region.x)]++;
      }
      expect(seen.every((n) => n === 1)).toBe(true);
    }
  });
});
