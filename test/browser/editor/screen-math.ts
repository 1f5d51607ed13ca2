// Test-side camera maths, independent of the page's drag code: where world points land on screen and which world
// displacement puts a point under a given pixel.
import type { CameraReport } from '../../../demo/web/test-api';
import { project } from './editor-harness';

type V3 = [number, number, number];

/** a + s·b. */
export const add = (a: readonly number[], b: readonly number[], s = 1): V3 => [
  a[0] + b[0] * s,
  a[1] + b[1] * s,
  a[2] + b[2] * s,
];

/** Unit vector of world axis `i`. */
export const unit = (i: number): V3 => [0, 1, 2].map((k) => (k === i ? 1 : 0)) as V3;

/** Unit screen direction in which world `axis` points at `origin`. */
export function screenDirection(
  camera: CameraReport,
  origin: readonly number[],
  axis: readonly number[],
  length: number,
): { x: number; y: number } {
  const a = project(camera, origin);
  const b = project(camera, add(origin, axis, length));
  const l = Math.hypot(b.x - a.x, b.y - a.y);
  return { x: (b.x - a.x) / l, y: (b.y - a.y) / l };
}

/**
 * The displacement d along `axis` that moves `grab` on screen by `pixels` along the axis' screen direction (the grabbed
 * point stays under the cursor). Bisection on the projection, which is monotonic along a line in front of the camera.
 */
export function axisDisplacementForPixels(
  camera: CameraReport,
  grab: readonly number[],
  axis: readonly number[],
  pixels: number,
): number {
  const start = project(camera, grab);
  const dir = screenDirection(camera, grab, axis, 1e-3);
  const along = (d: number) => {
    const p = project(camera, add(grab, axis, d));
    return (p.x - start.x) * dir.x + (p.y - start.y) * dir.y;
  };
  // Bracket the answer while the point stays in front of the camera, then bisect.
  const sign = Math.sign(pixels);
  let lo = 0;
  let hi = sign * 1e-3;
  while (Math.abs(along(hi)) < Math.abs(pixels)) {
    lo = hi;
    hi *= 2;
    if (project(camera, add(grab, axis, hi)).w <= 0 || Math.abs(hi) > 1e4)
      throw new Error(`no displacement along the axis gives ${pixels} px`);
  }
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (Math.abs(along(mid)) < Math.abs(pixels)) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Screen rectangle (CSS px) covering the 8 projected corners of world boxes. */
export function screenRect(
  camera: CameraReport,
  boxes: { min: number[]; max: number[] }[],
): { x0: number; y0: number; x1: number; y1: number } {
  const r = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (const { min, max } of boxes) {
    for (let c = 0; c < 8; c++) {
      const p = project(camera, [c & 1 ? max[0] : min[0], c & 2 ? max[1] : min[1], c & 4 ? max[2] : min[2]]);
      r.x0 = Math.min(r.x0, p.x);
      r.y0 = Math.min(r.y0, p.y);
      r.x1 = Math.max(r.x1, p.x);
      r.y1 = Math.max(r.y1, p.y);
    }
  }
  return r;
}

/** Whether two screen rectangles overlap. */
export function rectsOverlap(a: ReturnType<typeof screenRect>, b: ReturnType<typeof screenRect>): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/** Lengths of the three basis columns of a column-major 4×4 (the scale per local axis). */
export function columnLengths(m: readonly number[]): V3 {
  return [0, 1, 2].map((c) => Math.hypot(m[c * 4], m[c * 4 + 1], m[c * 4 + 2])) as V3;
}

/** |actual − expected| / |expected|. */
export const relativeError = (actual: number, expected: number) => Math.abs(actual - expected) / Math.abs(expected);
