import { vec3, vec4 } from 'wgpu-matrix';
import { describe, expect, test } from 'vitest';
import {
  dollyCamera,
  EngineError,
  frameCameraOnBounds,
  getCameraOrbit,
  getCameraViewProjectionMatrix,
  makePerspectiveCamera,
  orbitCamera,
  panCamera,
  setCameraOrbit,
} from '../../engine/index.js';

const project = (m: Float32Array, p: number[]) => {
  const clip = vec4.transformMat4([p[0], p[1], p[2], 1], m);
  return [clip[0] / clip[3], clip[1] / clip[3], clip[2] / clip[3]];
};

describe('perspective camera (reverse-Z)', () => {
  test('near plane maps to depth 1, far plane to 0, and an infinite far plane approaches 0', () => {
    const camera = makePerspectiveCamera({ position: [0, 0, 0], target: [0, 0, -1], near: 0.5, far: 50 });
    const vp = getCameraViewProjectionMatrix(camera, 1);
    expect(project(vp, [0, 0, -0.5])[2]).toBeCloseTo(1, 6);
    expect(project(vp, [0, 0, -50])[2]).toBeCloseTo(0, 6);
    const infinite = makePerspectiveCamera({ position: [0, 0, 0], target: [0, 0, -1], near: 0.5 });
    const depth = project(getCameraViewProjectionMatrix(infinite, 1), [0, 0, -5000])[2];
    expect(depth).toBeGreaterThan(0);
    expect(depth).toBeLessThan(1e-3);
  });

  test('the vertical field of view reaches the top edge of NDC; aspect scales x', () => {
    const fovY = 1.0;
    const camera = makePerspectiveCamera({ position: [0, 0, 0], target: [0, 0, -1], fovY });
    const vp = getCameraViewProjectionMatrix(camera, 2);
    const y = Math.tan(fovY / 2) * 3;
    expect(project(vp, [0, y, -3])[1]).toBeCloseTo(1, 5);
    expect(project(vp, [2 * y, 0, -3])[0]).toBeCloseTo(1, 5);
  });

  test('orbit parameters round-trip; orbit, dolly and pan move the camera as described', () => {
    const camera = makePerspectiveCamera();
    setCameraOrbit(camera, { target: [1, 2, 3], radius: 4, yaw: 0.3, pitch: 0.2 });
    const orbit = getCameraOrbit(camera);
    expect(orbit.radius).toBeCloseTo(4, 5);
    expect(orbit.yaw).toBeCloseTo(0.3, 5);
    expect(orbit.pitch).toBeCloseTo(0.2, 5);
    orbitCamera(camera, 0.1, -0.05);
    expect(getCameraOrbit(camera).yaw).toBeCloseTo(0.4, 5);
    expect(getCameraOrbit(camera).pitch).toBeCloseTo(0.15, 5);
    dollyCamera(camera, 0.5);
    expect(getCameraOrbit(camera).radius).toBeCloseTo(2, 5);
    const before = vec3.clone(camera.position);
    panCamera(camera, 1, 0);
    const moved = vec3.subtract(camera.position, before);
    expect(vec3.length(moved)).toBeCloseTo(1, 5);
    // Panning right moves perpendicular to the view direction and keeps the orbit radius.
    expect(vec3.dot(moved, vec3.subtract(camera.target, camera.position))).toBeCloseTo(0, 5);
    expect(getCameraOrbit(camera).radius).toBeCloseTo(2, 5);
  });

  test('framing a box keeps all its corners inside the view', () => {
    const camera = makePerspectiveCamera({ position: [3, 2, 5] });
    const bounds = { min: [-2, -1, -0.5] as [number, number, number], max: [4, 3, 1] as [number, number, number] };
    frameCameraOnBounds(camera, bounds, 1.5);
    const vp = getCameraViewProjectionMatrix(camera, 1.5);
    for (let i = 0; i < 8; i++) {
      const p = [
        i & 1 ? bounds.max[0] : bounds.min[0],
        i & 2 ? bounds.max[1] : bounds.min[1],
        i & 4 ? bounds.max[2] : bounds.min[2],
      ];
      const ndc = project(vp, p);
      expect(Math.abs(ndc[0])).toBeLessThanOrEqual(1);
      expect(Math.abs(ndc[1])).toBeLessThanOrEqual(1);
    }
  });

  test('bad parameters are typed errors that name the value', () => {
    expect(() => makePerspectiveCamera({ fovY: 4 })).toThrow('makePerspectiveCamera: fovY 4 must be in (0, π) radians');
    expect(() => makePerspectiveCamera({ near: 0 })).toThrow(EngineError);
    expect(() => makePerspectiveCamera({ near: 1, far: 0.5 })).toThrow(
      'far 0.5 must be greater than near (1) or Infinity',
    );
    expect(() => makePerspectiveCamera({ position: [0, 0, 0], target: [0, 0, 0] })).toThrow(
      'position and target must differ',
    );
    expect(() => setCameraOrbit(makePerspectiveCamera(), { target: [0, 0, 0], radius: -1, yaw: 0, pitch: 0 })).toThrow(
      'radius -1 must be a finite number > 0',
    );
    expect(() => dollyCamera(makePerspectiveCamera(), 0)).toThrow('dollyCamera: factor 0 must be a finite number > 0');
  });
});
