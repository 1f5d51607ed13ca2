import { OrthographicCamera as ThreeOrthographicCamera, Raycaster, Vector2 } from 'three';
import { vec4 } from 'wgpu-matrix';
import { describe, expect, test } from 'vitest';
import {
  type Camera,
  dollyCamera,
  EngineError,
  frameCameraOnBounds,
  getCameraProjectionMatrix,
  getCameraViewProjectionMatrix,
  makeMatrixCamera,
  makeOrthographicCamera,
  makePerspectiveCamera,
  orbitCamera,
  panCamera,
  setCameraOrbit,
} from '../../engine/index.js';
import { cameraRayRange, makePickingRay } from '../../picking/picking-ray.js';
import { cameraPixelRay } from '../support/camera-rays.js';
import { lookAt64, orthographic64, orthographicPixelRay, perspective64 } from '../support/camera-matrices64.js';

const project = (m: ArrayLike<number>, p: number[]) => {
  const clip = vec4.transformMat4([p[0], p[1], p[2], 1], m as Float32Array);
  return [clip[0] / clip[3], clip[1] / clip[3], clip[2] / clip[3]];
};

/** Relative agreement of two vectors: |a − b| ≤ tolerance · max(1, |b|). */
function expectClose(a: readonly number[], b: readonly number[], tolerance: number, what: string): void {
  const error = Math.hypot(...a.map((v, i) => v - b[i]));
  expect(error, `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(tolerance * Math.max(1, Math.hypot(...b)));
}

function expectError(run: () => unknown, code: string, message: string | RegExp): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(EngineError);
  expect((caught as EngineError).code).toBe(code);
  expect((caught as Error).message).toMatch(message);
}

const width = 40;
const height = 30;
const samples: [number, number][] = [
  [0.5, 0.5],
  [20, 15],
  [39.5, 29.5],
  [7.25, 22.75],
  [31.5, 3.5],
];

describe('orthographic camera', () => {
  const camera = makeOrthographicCamera({
    position: [3, 2.5, 4],
    target: [0.2, -0.1, 0.3],
    up: [0, 1, 0],
    height: 5,
    near: 0.5,
    far: 30,
  });
  // The reference reads the parameters the camera holds (position and target are float32 there).
  const parameters = { ...camera, position: Array.from(camera.position), target: Array.from(camera.target) };

  test('bad options are typed errors naming the option and what is allowed', () => {
    expectError(() => makeOrthographicCamera({ fovY: 1 } as never), 'bad-option', /fovY/);
    expectError(() => makeOrthographicCamera({ height: 0 }), 'bad-option', 'height 0 must be a finite number > 0');
    expectError(() => makeOrthographicCamera({ far: Infinity }), 'bad-option', /far Infinity must be a finite number/);
    expectError(() => makeOrthographicCamera({ near: 2, far: 1 }), 'bad-option', /greater than near \(2\)/);
    expectError(() => makeOrthographicCamera({ near: Number.NaN }), 'bad-option', 'near NaN must be a finite number');
    expectError(() => makeOrthographicCamera({ position: [1, 1, 1], target: [1, 1, 1] }), 'bad-option', /differ/);
    expectError(() => makeOrthographicCamera({ up: [0, 1] }), 'bad-option', /up .* must be 3 finite numbers/);
  });

  test('reverse-Z: near maps to depth 1, far to 0; height spans NDC y and height × aspect NDC x', () => {
    const flat = makeOrthographicCamera({ position: [0, 0, 0], target: [0, 0, -1], height: 4, near: 0.5, far: 50 });
    const vp = getCameraViewProjectionMatrix(flat, 2);
    expect(project(vp, [0, 0, -0.5])[2]).toBeCloseTo(1, 6);
    expect(project(vp, [0, 0, -50])[2]).toBeCloseTo(0, 6);
    expect(project(vp, [0, 2, -7])[1]).toBeCloseTo(1, 6);
    expect(project(vp, [4, 0, -7])[0]).toBeCloseTo(1, 6);
  });

  test('rays equal a float64 reference built from the parameters and three.js Raycaster', () => {
    const three = new ThreeOrthographicCamera(
      (-parameters.height * (width / height)) / 2,
      (parameters.height * (width / height)) / 2,
      parameters.height / 2,
      -parameters.height / 2,
      parameters.near,
      parameters.far,
    );
    three.position.set(parameters.position[0], parameters.position[1], parameters.position[2]);
    three.lookAt(parameters.target[0], parameters.target[1], parameters.target[2]);
    three.updateMatrixWorld();
    const raycaster = new Raycaster();
    for (const [sx, sy] of samples) {
      const ray = makePickingRay(camera, sx, sy, { width, height }, 'test', undefined, true);
      const reference = orthographicPixelRay(parameters, sx, sy, width, height);
      expectClose(ray.origin, reference.origin, 1e-9, 'origin');
      expectClose(ray.direction, reference.direction, 1e-9, 'direction');
      // three.js starts its orthographic rays on the eye plane (view z = 0) too; it works partly in float32.
      raycaster.setFromCamera(new Vector2((2 * sx) / width - 1, 1 - (2 * sy) / height), three);
      const o = raycaster.ray.origin;
      const d = raycaster.ray.direction;
      expectClose(ray.direction, [d.x, d.y, d.z], 1e-6, 'three direction');
      expectClose(ray.origin, [o.x, o.y, o.z], 1e-6, 'three origin');
      const range = { near: 0, far: 0 };
      cameraRayRange(camera, ray, range);
      expect(range).toEqual({ near: 0.5, far: 30 });
    }
    // Pixel centres by default.
    const centre = makePickingRay(camera, 7, 22, { width, height });
    expectClose(centre.origin, orthographicPixelRay(parameters, 7.5, 22.5, width, height).origin, 1e-9, 'centre');
  });

  test('controls: orbit and pan move it, dolly scales height, framing fits the bounds', () => {
    const moved = makeOrthographicCamera({ position: [0, 0, 5], height: 2 });
    orbitCamera(moved, 0.3, 0.1);
    panCamera(moved, 1, 0);
    dollyCamera(moved, 0.5);
    expect(moved.height).toBe(1);
    const bounds = { min: [-2, -1, -0.5] as [number, number, number], max: [4, 3, 1] as [number, number, number] };
    frameCameraOnBounds(moved, bounds, 1.5);
    const vp = getCameraViewProjectionMatrix(moved, 1.5);
    for (let i = 0; i < 8; i++) {
      const ndc = project(vp, [
        i & 1 ? bounds.max[0] : bounds.min[0],
        i & 2 ? bounds.max[1] : bounds.min[1],
        i & 4 ? bounds.max[2] : bounds.min[2],
      ]);
      expect(Math.abs(ndc[0])).toBeLessThanOrEqual(1);
      expect(Math.abs(ndc[1])).toBeLessThanOrEqual(1);
      expect(ndc[2]).toBeGreaterThan(0);
      expect(ndc[2]).toBeLessThan(1);
    }
  });
});

describe('matrix camera (the host draws it)', () => {
  const position = [1.5, 1.2, 3.5];
  const target = [0.1, 0.2, -0.3];
  const view = lookAt64(position, target);
  const fovY = 0.9;
  const near = 0.2;
  const far = 40;
  const aspect = width / height;

  test('bad options are typed errors naming the option and what is allowed', () => {
    const projection = perspective64(fovY, aspect, near, far, 'reverse');
    expectError(() => makeMatrixCamera({ view, projection, depth: 'reverse', fov: 1 } as never), 'bad-option', /fov/);
    expectError(
      () => makeMatrixCamera({ view: view.slice(0, 15), projection, depth: 'reverse' }),
      'bad-option',
      /view .* must be 16 finite numbers/,
    );
    expectError(
      () => makeMatrixCamera({ view, projection: [...projection.slice(0, 15), Number.NaN], depth: 'reverse' }),
      'bad-option',
      /projection .* must be 16 finite numbers/,
    );
    expectError(
      () => makeMatrixCamera({ view, projection, depth: 'inverted' as never }),
      'bad-option',
      /depth "inverted" must be 'reverse'/,
    );
    expectError(
      () => makeMatrixCamera({ view: new Array(16).fill(0), projection, depth: 'reverse' }),
      'bad-option',
      /view must be invertible/,
    );
    const skewed = [...projection];
    skewed[7] = 0.5;
    expectError(() => makeMatrixCamera({ view, projection: skewed, depth: 'reverse' }), 'bad-option', /last row/);
    // A standard-depth projection declared reverse puts its near plane behind the far one.
    expectError(
      () =>
        makeMatrixCamera({ view, projection: perspective64(fovY, aspect, near, far, 'standard'), depth: 'reverse' }),
      'bad-option',
      /is its depth 'standard'\?/,
    );
  });

  test("weft's camera controls refuse it: the host owns it", () => {
    const camera = makeMatrixCamera({
      view,
      projection: perspective64(fovY, aspect, near, far, 'reverse'),
      depth: 'reverse',
    });
    for (const run of [
      () => orbitCamera(camera, 0.1, 0),
      () => dollyCamera(camera, 2),
      () => panCamera(camera, 1, 0),
      () => setCameraOrbit(camera, { target: [0, 0, 0], radius: 1, yaw: 0, pitch: 0 }),
      () => frameCameraOnBounds(camera, { min: [0, 0, 0], max: [1, 1, 1] }),
    ])
      expectError(run, 'unsupported', /owned by the host/);
  });

  test('perspective matrices (either depth) give the rays and the reverse-Z matrix of the same weft camera', () => {
    const weft = makePerspectiveCamera({ position, target, fovY, near, far });
    const weftViewProjection = getCameraViewProjectionMatrix(weft, aspect);
    for (const depth of ['reverse', 'standard'] as const) {
      const camera = makeMatrixCamera({ view, projection: perspective64(fovY, aspect, near, far, depth), depth });
      const viewProjection = getCameraViewProjectionMatrix(camera, aspect);
      for (let i = 0; i < 16; i++)
        expect(Math.abs(viewProjection[i] - weftViewProjection[i]), `${depth} [${i}]`).toBeLessThanOrEqual(
          4e-7 * Math.max(1, Math.abs(weftViewProjection[i])),
        );
      expect(project(getCameraProjectionMatrix(camera, 7), [0, 0, -near])[2]).toBeCloseTo(1, 6);
      for (const [sx, sy] of samples) {
        const ray = makePickingRay(camera, sx, sy, { width, height }, 'test', undefined, true);
        const reference = cameraPixelRay({ position, target, fovY }, sx - 0.5, sy - 0.5, width, height);
        expectClose(ray.origin, reference.origin, 1e-9, `${depth} origin`);
        expectClose(ray.direction, reference.direction, 1e-9, `${depth} direction`);
        const weftRay = makePickingRay(weft, sx, sy, { width, height }, 'test', undefined, true);
        // weft's camera holds position and target in float32: its rays differ by that rounding.
        expectClose(ray.direction, weftRay.direction, 1e-6, `${depth} direction vs weft`);
        // Near and far planes along the ray: near / cos θ and far / cos θ, as for weft's own camera.
        const range = { near: 0, far: 0 };
        const weftRange = { near: 0, far: 0 };
        cameraRayRange(camera, ray, range);
        cameraRayRange(weft, weftRay, weftRange);
        expect(Math.abs(range.near - weftRange.near)).toBeLessThanOrEqual(1e-6 * weftRange.near);
        expect(Math.abs(range.far - weftRange.far)).toBeLessThanOrEqual(1e-6 * weftRange.far);
      }
    }
  });

  test('orthographic matrices (either depth) give parallel rays from the near plane', () => {
    const parameters = { position, target, height: 3, near: 0.5, far: 25 };
    const weft = makeOrthographicCamera(parameters);
    const weftViewProjection = getCameraViewProjectionMatrix(weft, aspect);
    for (const depth of ['reverse', 'standard'] as const) {
      const camera = makeMatrixCamera({ view, projection: orthographic64(3, aspect, 0.5, 25, depth), depth });
      const viewProjection = getCameraViewProjectionMatrix(camera, aspect);
      for (let i = 0; i < 16; i++)
        expect(Math.abs(viewProjection[i] - weftViewProjection[i]), `${depth} [${i}]`).toBeLessThanOrEqual(
          4e-7 * Math.max(1, Math.abs(weftViewProjection[i])),
        );
      for (const [sx, sy] of samples) {
        const ray = makePickingRay(camera, sx, sy, { width, height }, 'test', undefined, true);
        const reference = orthographicPixelRay(parameters, sx, sy, width, height, true);
        expectClose(ray.origin, reference.origin, 1e-9, `${depth} origin`);
        expectClose(ray.direction, reference.direction, 1e-9, `${depth} direction`);
        const range = { near: 0, far: 0 };
        cameraRayRange(camera, ray, range);
        expect(range.near).toBe(0);
        expect(Math.abs(range.far - 24.5)).toBeLessThanOrEqual(1e-9 * 24.5);
      }
    }
  });

  test('a matrix camera follows new matrix values written into it', () => {
    const camera: Camera = makeMatrixCamera({
      view,
      projection: perspective64(fovY, aspect, near, far, 'reverse'),
      depth: 'reverse',
    });
    const before = makePickingRay(camera, 3, 4, { width, height });
    if (camera.kind !== 'matrices') throw new Error('unreachable');
    camera.view.set(lookAt64([0, 0, 5], [0, 0, 0]));
    const after = makePickingRay(camera, 3, 4, { width, height });
    expect(after.origin).not.toEqual(before.origin);
    expectClose(after.origin, [0, 0, 5], 1e-12, 'new eye');
  });
});
