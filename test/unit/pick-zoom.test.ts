// The pick pass's zoomed camera (makePickZoomedViewProjection) against the zoom written out here in float64: a region
// of the framebuffer stretched over the whole target, magnified about its centre, applied after the camera matrix.
import { describe, expect, test } from 'vitest';
import { makePickZoomedViewProjection } from '../../picking/pick-zoom.js';

/** A column-major 4×4 product a × b in float64. */
function multiply64(a: readonly number[], b: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let column = 0; column < 4; column++)
    for (let row = 0; row < 4; row++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += a[k * 4 + row] * b[column * 4 + k];
      out.push(sum);
    }
  return out;
}

/** The zoom in float64: NDC of the region's centre goes to 0, the region's size to the NDC square, times `magnification`. */
function zoom64(
  region: { x: number; y: number; width: number; height: number },
  width: number,
  height: number,
  magnification: number,
): number[] {
  const scaleX = (width / region.width) * magnification;
  const scaleY = (height / region.height) * magnification;
  const centreX = ((region.x + region.width / 2) / width) * 2 - 1;
  const centreY = 1 - ((region.y + region.height / 2) / height) * 2;
  return [scaleX, 0, 0, 0, 0, scaleY, 0, 0, 0, 0, 1, 0, -scaleX * centreX, -scaleY * centreY, 0, 1];
}

/** A perspective-like camera matrix with every entry set (no zero to hide a wrong term). */
const viewProjection = Float32Array.from([
  1.31, 0.12, -0.21, -0.2, 0.07, 1.74, 0.33, 0.31, -0.52, 0.41, -0.05, -0.95, 0.9, -1.7, 0.1, 6.2,
]);

describe('pick zoom', () => {
  test.each([
    [{ x: 255.5, y: 255.5, width: 1, height: 1 }, 512, 512, 4096],
    [{ x: 10.25, y: 300.75, width: 1, height: 1 }, 640, 480, 4096],
    [{ x: 40, y: 30, width: 60, height: 50 }, 160, 120, 1],
  ])('region %o of %i×%i, magnified %i×: the float64 zoom times the camera', (region, width, height, magnification) => {
    const expected = multiply64(zoom64(region, width, height, magnification), viewProjection);
    const got = makePickZoomedViewProjection(
      region,
      width,
      height,
      magnification,
      viewProjection,
      new Float32Array(16),
    );
    // float32 entries (the zoom's are rounded to float32 before the product, as the shader's uniforms are).
    const largest = Math.max(...expected.map(Math.abs));
    for (let i = 0; i < 16; i++) expect(Math.abs(got[i] - expected[i]), `entry ${i}`).toBeLessThan(largest * 1e-6);
  });

  test("the region's centre is the target's centre: a point projecting there lands at clip x = y = 0", () => {
    const region = { x: 99.5, y: 20.5, width: 1, height: 1 };
    const [width, height] = [200, 100];
    const zoomed = makePickZoomedViewProjection(region, width, height, 4096, viewProjection, new Float32Array(16));
    // A world point whose camera projection is NDC (ndcX, ndcY): solve viewProjection · (p, 1) for two of its
    // coordinates at z = 0.3 (float64), with ndc the region's centre.
    const ndcX = ((region.x + 0.5) / width) * 2 - 1;
    const ndcY = 1 - ((region.y + 0.5) / height) * 2;
    const m = Array.from(viewProjection);
    const z = 0.3;
    // Rows: (m0 - ndcX m3) x + (m4 - ndcX m7) y = -(m8 - ndcX m11) z - (m12 - ndcX m15), and the same for y with ndcY.
    const a = [m[0] - ndcX * m[3], m[4] - ndcX * m[7], m[1] - ndcY * m[3], m[5] - ndcY * m[7]];
    const c = [
      -(m[8] - ndcX * m[11]) * z - (m[12] - ndcX * m[15]),
      -(m[9] - ndcY * m[11]) * z - (m[13] - ndcY * m[15]),
    ];
    const det = a[0] * a[3] - a[1] * a[2];
    const x = (c[0] * a[3] - a[1] * c[1]) / det;
    const y = (a[0] * c[1] - c[0] * a[2]) / det;
    const clip = multiply64(Array.from(zoomed), [x, y, z, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).slice(0, 4);
    // Magnified 4096×, the float32 entries near scale × 4096 ≈ 8·10⁵ carry ulps of ~0.06: the centre lands within a
    // few hundredths of the target's half-width (NDC 1), where a wrong shift would put it thousands of widths away.
    expect(Math.abs(clip[0] / clip[3])).toBeLessThan(0.05);
    expect(Math.abs(clip[1] / clip[3])).toBeLessThan(0.05);
  });
});
