import { describe, expect, test } from 'vitest';
import { vec3, vec4 } from 'wgpu-matrix';
import { WeftError } from '../../../core/errors.js';
import { PickError } from '../../../picking/pick-errors.js';
import { getCameraViewProjectionMatrix, makePerspectiveCamera } from '../../../engine/camera.js';
import { makePickingRay, toFramebufferPixel } from '../../../picking/picking-ray.js';

const eye = [2, 3, 6];
const target = [0, 0.5, 0];
const fovY = Math.PI / 3;
const width = 101;
const height = 61;
const aspect = width / height;

function expectUnit(actual: readonly number[], expected: ArrayLike<number>, digits = 5): void {
  const e = vec3.normalize([expected[0], expected[1], expected[2]]);
  actual.forEach((v, i) => expect(v).toBeCloseTo(e[i], digits));
  expect(Math.hypot(...actual)).toBeCloseTo(1, 6);
}

/** Camera-space basis: forward, right, true up (right-handed, looking down −Z in view space). */
function basis(): { forward: Float32Array; right: Float32Array; up: Float32Array } {
  const forward = vec3.normalize(vec3.sub(target, eye));
  const right = vec3.normalize(vec3.cross(forward, [0, 1, 0]));
  return { forward, right, up: vec3.cross(right, forward) };
}

/** Analytic direction through the centre of pixel (px, py). */
function analyticDirection(px: number, py: number): Float32Array {
  const { forward, right, up } = basis();
  const tanY = Math.tan(fovY / 2);
  const ndcX = ((px + 0.5) / width) * 2 - 1;
  const ndcY = 1 - ((py + 0.5) / height) * 2;
  return vec3.add(vec3.add(vec3.scale(right, ndcX * tanY * aspect), vec3.scale(up, ndcY * tanY)), forward);
}

function errorCode(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WeftError);
    return (error as WeftError).code;
  }
  throw new Error('expected a WeftError');
}

describe('makePickingRay: the exact inverse of the renderer projection', () => {
  test.each([100, Infinity])('centre pixel looks along the forward axis from the camera (far = %s)', (far) => {
    const camera = makePerspectiveCamera({ position: eye, target, fovY, near: 0.1, far });
    const ray = makePickingRay(camera, 50, 30, { width, height });
    expect(ray.origin).toEqual(eye);
    expectUnit(ray.direction, basis().forward);
    expect([ray.pixelX, ray.pixelY, ray.width, ray.height]).toEqual([50, 30, width, height]);
    expect(Array.from(ray.viewProjection)).toEqual(Array.from(getCameraViewProjectionMatrix(camera, aspect)));
  });

  test.each([
    [0, 0],
    [width - 1, 0],
    [0, height - 1],
    [width - 1, height - 1],
  ])('corner pixel (%i, %i) goes through the frustum corner pixel centre', (px, py) => {
    const camera = makePerspectiveCamera({ position: eye, target, fovY });
    const ray = makePickingRay(camera, px, py, { width, height });
    expectUnit(ray.direction, analyticDirection(px, py));
    // Projecting a point of the ray lands on that pixel's centre in NDC (y up, origin top-left in pixels).
    const p = vec3.add(ray.origin, vec3.scale(ray.direction, 7));
    const clip = vec4.transformMat4([p[0], p[1], p[2], 1], ray.viewProjection);
    expect(((clip[0] / clip[3] + 1) / 2) * width).toBeCloseTo(px + 0.5, 3);
    expect(((1 - clip[1] / clip[3]) / 2) * height).toBeCloseTo(py + 0.5, 3);
  });

  test('top-left looks up and left of the centre; any point inside a pixel maps to that pixel', () => {
    const camera = makePerspectiveCamera({ position: eye, target, fovY });
    const corner = makePickingRay(camera, 0, 0, { width, height });
    const centre = makePickingRay(camera, 50, 30, { width, height });
    expect(vec3.dot(corner.direction, basis().up)).toBeGreaterThan(vec3.dot(centre.direction, basis().up));
    expect(vec3.dot(corner.direction, basis().right)).toBeLessThan(0);
    const inside = makePickingRay(camera, 0.99, 0.01, { width, height });
    expect(inside.direction).toEqual(corner.direction);
  });

  test('CSS pixels are multiplied by devicePixelRatio before choosing the backing pixel', () => {
    const camera = makePerspectiveCamera({ position: eye, target, fovY });
    const viewport = { width: 200, height: 100 };
    const css = makePickingRay(camera, 10.3, 20.7, { ...viewport, devicePixelRatio: 2 });
    expect([css.pixelX, css.pixelY]).toEqual([20, 41]);
    expect(css.direction).toEqual(makePickingRay(camera, 20, 41, viewport).direction);
    expect(toFramebufferPixel('t', 99.9, 49.9, { ...viewport, devicePixelRatio: 2 })).toEqual([199, 99]);
    expect(toFramebufferPixel('t', 33, 10, { ...viewport, devicePixelRatio: 1.5 })).toEqual([49, 15]);
  });

  test('typed errors for NaN, out-of-range pixels, bad viewports and bad ratios', () => {
    const camera = makePerspectiveCamera();
    const vp = { width: 64, height: 32 };
    expect(errorCode(() => makePickingRay(camera, Number.NaN, 1, vp))).toBe('bad-coordinates');
    expect(errorCode(() => makePickingRay(camera, 1, Infinity, vp))).toBe('bad-coordinates');
    expect(errorCode(() => makePickingRay(camera, 64, 0, vp))).toBe('out-of-range');
    expect(errorCode(() => makePickingRay(camera, 0, -0.01, vp))).toBe('out-of-range');
    expect(errorCode(() => makePickingRay(camera, 40, 10, { ...vp, devicePixelRatio: 2 }))).toBe('out-of-range');
    expect(errorCode(() => makePickingRay(camera, 0, 0, { width: 0, height: 32 }))).toBe('bad-option');
    expect(errorCode(() => makePickingRay(camera, 0, 0, { width: 10.5, height: 32 }))).toBe('bad-option');
    expect(errorCode(() => makePickingRay(camera, 0, 0, { width: Number.NaN, height: 32 }))).toBe('bad-option');
    expect(errorCode(() => makePickingRay(camera, 0, 0, { ...vp, devicePixelRatio: 0 }))).toBe('bad-option');
    expect(errorCode(() => makePickingRay(camera, 0, 0, { ...vp, devicePixelRatio: Number.NaN }))).toBe('bad-option');
  });

  test('errors are PickErrors naming the calling API, and points[i] when the caller passes the point index', () => {
    const camera = makePerspectiveCamera();
    const vp = { width: 64, height: 32 };
    const refusal = (run: () => unknown): PickError => {
      try {
        run();
      } catch (error) {
        expect(error).toBeInstanceOf(PickError);
        return error as PickError;
      }
      throw new Error('expected a PickError');
    };
    const nan = refusal(() => makePickingRay(camera, Number.NaN, 1, vp, 'pickManyAsync', 2));
    expect([nan.api, nan.code]).toEqual(['pickManyAsync', 'bad-coordinates']);
    expect(nan.message).toBe('pickManyAsync: points[2]: coordinates (NaN, 1) must be finite numbers');
    const outside = refusal(() => makePickingRay(camera, 64, 0, vp, 'pickSync'));
    expect(outside.message).toMatch(/^pickSync: pixel \(64, 0\) is outside the 64×32 framebuffer/);
    expect(refusal(() => makePickingRay(camera, 1, 1, { width: 0, height: 1 })).api).toBe('makePickingRay');
  });
});
