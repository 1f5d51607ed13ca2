// The editor's pure pieces, in Node (no browser): generated meshes and the screen / ray maths the drags use.
import { mat4, vec3 } from 'wgpu-matrix';
import { describe, expect, it } from 'vitest';
import { makePerspectiveCamera, getCameraViewProjectionMatrix, type MeshData } from '../../../engine/index.js';
import {
  closestAxisParameter,
  intersectRayPlane,
  makeScreenView,
  projectToScreen,
  screenRay,
  signedAngleAbout,
} from '../../../demo/web/math/rays';
import { makeDodecahedronData } from '../../../demo/web/scene/dodecahedron';
import { makeTorusKnotData } from '../../../demo/web/scene/torus-knot';

/** Every triangle's geometric normal points away from `centre(t)` (outward, CCW front faces). */
function outwardShare(data: MeshData, centreOf: (p: Float32Array) => Float32Array): number {
  const p = data.positions!;
  const idx = data.indices!;
  let outward = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const [a, b, c] = [idx[t], idx[t + 1], idx[t + 2]].map((i) => p.subarray(i * 3, i * 3 + 3));
    const normal = vec3.cross(vec3.subtract(b, a), vec3.subtract(c, a));
    const centroid = vec3.scale(vec3.add(vec3.add(a, b), c), 1 / 3);
    if (vec3.dot(normal, vec3.subtract(centroid, centreOf(centroid))) > 0) outward++;
  }
  return outward / (idx.length / 3);
}

describe('editor scene meshes', () => {
  it('dodecahedron: 12 flat pentagons as 36 outward triangles on the circumsphere', () => {
    const data = makeDodecahedronData(0.6);
    expect(data.indices!.length).toBe(108);
    expect(data.positions!.length / 3).toBe(60);
    for (let i = 0; i < 60; i++) expect(vec3.length(data.positions!.subarray(i * 3, i * 3 + 3))).toBeCloseTo(0.6, 5);
    expect(outwardShare(data, () => vec3.create())).toBe(1);
    // Flat: the five corners of a face share its normal, and that normal is the face's own plane normal.
    const n = data.normals!;
    for (let face = 0; face < 12; face++)
      for (let k = 1; k < 5; k++) expect(n[(face * 5 + k) * 3 + 1]).toBeCloseTo(n[face * 15 + 1], 6);
  });

  it('torus knot: about 16k triangles, wound outward from the tube', () => {
    const data = makeTorusKnotData();
    expect(data.indices!.length / 3).toBe(16384);
    // Ring centres (the mean of each ring's 32 distinct vertices); a triangle's nearest one is its tube centre.
    const p = data.positions!;
    const centres = Array.from({ length: 256 }, (_, ring) => {
      const sum = vec3.create();
      for (let j = 0; j < 32; j++) vec3.add(sum, p.subarray((ring * 33 + j) * 3, (ring * 33 + j) * 3 + 3), sum);
      return vec3.scale(sum, 1 / 32);
    });
    const nearest = (q: Float32Array) =>
      centres.reduce((best, c) => (vec3.distance(c, q) < vec3.distance(best, q) ? c : best));
    expect(outwardShare(data, nearest)).toBe(1);
  });
});

describe('editor ray maths', () => {
  const camera = makePerspectiveCamera({ position: [3, 4, 8], target: [0, 0.5, 0], fovY: 0.75 });
  const view = makeScreenView(
    getCameraViewProjectionMatrix(camera, 800 / 600, mat4.create()),
    camera.position,
    camera.target,
    800,
    600,
  );

  it('a screen ray passes through the world point that projects to its pixel', () => {
    const point = [1.2, 0.3, -0.7];
    const at = projectToScreen(view, point);
    const ray = screenRay(view, at.x, at.y);
    const toPoint = vec3.normalize(vec3.subtract(point, ray.origin));
    expect(vec3.dot(toPoint, ray.direction)).toBeCloseTo(1, 6);
  });

  it('closest points on an axis: the ray through a point of the axis finds that point', () => {
    const origin = [-1, 0.5, 0];
    const axis = [1, 0, 0];
    const at = projectToScreen(view, [-1 + 0.8, 0.5, 0]);
    expect(closestAxisParameter(origin, axis, screenRay(view, at.x, at.y))).toBeCloseTo(0.8, 4);
    expect(
      closestAxisParameter(origin, view.forward, { origin: view.cameraPosition, direction: view.forward }),
    ).toBeNull();
  });

  it('plane hits and signed angles follow the right-hand rule', () => {
    const at = projectToScreen(view, [0.5, 0, 0.25]);
    const hit = intersectRayPlane(screenRay(view, at.x, at.y), [0, 0, 0], [0, 1, 0])!;
    expect(Array.from(hit).map((c) => +c.toFixed(4))).toEqual([0.5, 0, 0.25]);
    expect(signedAngleAbout([0, 1, 0], [1, 0, 0], [0, 0, -1])).toBeCloseTo(Math.PI / 2, 6);
    expect(
      intersectRayPlane({ origin: vec3.create(0, 1, 0), direction: vec3.create(0, 1, 0) }, [0, 0, 0], [0, 1, 0]),
    ).toBeNull();
  });
});
