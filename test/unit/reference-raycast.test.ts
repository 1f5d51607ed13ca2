import { BoxGeometry, BufferGeometry, PerspectiveCamera, Raycaster, SphereGeometry, Vector2, Vector3 } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import { describe, expect, it } from 'vitest';
import { mat4, vec3 } from 'wgpu-matrix';
import {
  castReferenceRay,
  castReferenceRayAll,
  createReferenceScene,
  type ReferenceMesh,
} from '../support/reference-raycast';
import { add, makeFloat64Camera, pixelRay, projectToPixel, scale, sub } from '../support/camera-rays';

type V3 = [number, number, number];
const identity = (): Float32Array => mat4.identity() as Float32Array;

function meshFrom(id: number, geometry: BufferGeometry, extra: Partial<ReferenceMesh> = {}): ReferenceMesh {
  return {
    id,
    positions: geometry.getAttribute('position').array as Float32Array,
    indices: (geometry.index?.array as Uint16Array | Uint32Array | undefined) ?? null,
    normals: geometry.getAttribute('normal')?.array as Float32Array,
    uvs: geometry.getAttribute('uv')?.array as Float32Array,
    worldMatrix: identity(),
    ...extra,
  };
}

function expectVec(actual: readonly number[] | null, expected: readonly number[], digits = 5): void {
  expect(actual).not.toBeNull();
  actual!.forEach((v, i) => expect(v).toBeCloseTo(expected[i], digits));
}

function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Brute-force Möller–Trumbore over every triangle: nearest (faceId, t) or null. */
function bruteForce(pos: Float32Array, idx: ArrayLike<number>, o: V3, d: V3): { faceId: number; t: number } | null {
  let best: { faceId: number; t: number } | null = null;
  const p = (i: number): V3 => [pos[i * 3], pos[i * 3 + 1], pos[i * 3 + 2]];
  for (let f = 0; f < idx.length / 3; f++) {
    const a = p(idx[3 * f]),
      b = p(idx[3 * f + 1]),
      c = p(idx[3 * f + 2]);
    const e1 = vec3.sub(b, a),
      e2 = vec3.sub(c, a);
    const h = vec3.cross(d, e2);
    const det = vec3.dot(e1, h);
    if (Math.abs(det) < 1e-12) continue;
    const s = vec3.sub(o, a);
    const u = vec3.dot(s, h) / det;
    const q = vec3.cross(s, e1);
    const v = vec3.dot(d, q) / det;
    const t = vec3.dot(e2, q) / det;
    if (u < 0 || v < 0 || u + v > 1 || t <= 0) continue;
    if (!best || t < best.t) best = { faceId: f, t };
  }
  return best;
}

describe('reference ray caster', () => {
  it('hits a unit box along -Z at the analytic distance, point and face normal', () => {
    const scene = createReferenceScene([meshFrom(7, new BoxGeometry(1, 1, 1))]);
    const hit = castReferenceRay(scene, [0.1, -0.2, 5], [0, 0, -1])!;
    expect(hit.meshId).toBe(7);
    expect(hit.thinInstanceIndex).toBe(-1);
    expect(hit.distance).toBeCloseTo(4.5, 6);
    expectVec(hit.point, [0.1, -0.2, 0.5]);
    expectVec(hit.faceNormalWorld, [0, 0, 1]);
    expectVec(hit.normalWorld, [0, 0, 1]);
    expect(hit.frontFacing).toBe(true);
    expect(castReferenceRay(scene, [2, 0, 5], [0, 0, -1])).toBeNull();
    expect(castReferenceRay(scene, [0, 0, 5], [0, 0, 1])).toBeNull(); // box is behind the origin
  });

  it('returns every hit of a non-indexed box sorted by distance, back face included', () => {
    const scene = createReferenceScene([meshFrom(1, new BoxGeometry(1, 1, 1).toNonIndexed())]);
    const hits = castReferenceRayAll(scene, [0.1, 0.2, 5], [0, 0, -2]);
    expect(hits.map((h) => h.distance)).toEqual([expect.closeTo(4.5, 6), expect.closeTo(5.5, 6)]);
    expect(hits.map((h) => h.frontFacing)).toEqual([true, false]);
    expectVec(hits[1].faceNormalWorld, [0, 0, -1]);
  });

  it('places a translated, non-uniformly scaled thin instance analytically and ignores payload lanes', () => {
    const world = mat4.translation([0, 1, 0]) as Float32Array;
    const inst0 = mat4.scale(mat4.translation([3, 0, 0]), [2, 1, 0.5]) as Float32Array;
    const inst1 = mat4.translation([-3, 0, 0]) as Float32Array;
    const thin = new Float32Array(32);
    thin.set(inst0, 0);
    thin.set(inst1, 16);
    for (const base of [0, 16]) [3, 7, 11, 15].forEach((lane, i) => (thin[base + lane] = 7 + i * 11)); // payload
    const scene = createReferenceScene([
      meshFrom(3, new BoxGeometry(1, 1, 1), { worldMatrix: world, thinInstances: thin }),
    ]);

    const a = castReferenceRay(scene, [3.8, 1.2, 10], [0, 0, -1])!;
    expect(a.thinInstanceIndex).toBe(0);
    expect(a.distance).toBeCloseTo(9.75, 5); // world distance; the local one would be 19.5
    expectVec(a.point, [3.8, 1.2, 0.25]);
    expectVec(a.faceNormalWorld, [0, 0, 1]);

    const side = castReferenceRay(scene, [10, 1, 0.2], [-1, 0, 0])!;
    expect(side.distance).toBeCloseTo(6, 5); // +X face at 3 + 2 * 0.5 = 4
    expectVec(side.normalWorld, [1, 0, 0]);

    const b = castReferenceRay(scene, [-3, 1.4, -10], [0, 0, 1])!;
    expect(b.thinInstanceIndex).toBe(1);
    expectVec(b.point, [-3, 1.4, -0.5]);
    expect(castReferenceRay(scene, [3, 0.4, 10], [0, 0, -1])).toBeNull(); // below instance 0 (y in 0.5..1.5)
  });

  it('follows the Babylon barycentric convention for position, uv and normal', () => {
    // Corners 3f, 3f+1, 3f+2 reference vertices 2, 0, 1: A0=(0,0,0) A1=(1,0,0) A2=(0,1,0).
    const positions = new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 0]);
    const uvs = new Float32Array([0.7, 0.2, 0.4, 0.4, 0.1, 0.9]);
    const normals = new Float32Array([1, 0, 1, 0, 1, 1, 0, 0, 1]);
    const mesh: ReferenceMesh = {
      id: 9,
      positions,
      indices: new Uint16Array([2, 0, 1]),
      normals,
      uvs,
      worldMatrix: identity(),
    };
    const hit = castReferenceRay(createReferenceScene([mesh]), [0.2, 0.3, 3], [0, 0, -1])!;
    expect(hit.faceId).toBe(0);
    expect(hit.bu).toBeCloseTo(0.5, 6);
    expect(hit.bv).toBeCloseTo(0.2, 6);
    const w = [hit.bu, hit.bv, 1 - hit.bu - hit.bv];
    const attr = (arr: Float32Array, n: number, c: number): number =>
      [2, 0, 1].reduce((s, v, k) => s + arr[v * n + c] * w[k], 0);
    expectVec(
      hit.point,
      [0, 1, 2].map((c) => attr(positions, 3, c)),
    );
    expectVec(hit.uv, [attr(uvs, 2, 0), attr(uvs, 2, 1)]);
    const n = vec3.normalize([0, 1, 2].map((c) => attr(normals, 3, c)));
    expectVec(hit.normalWorld, Array.from(n));
  });

  it('transforms normals by the inverse transpose and culls by world-space winding', () => {
    // Triangle in the plane x + y = 1, CCW seen from +x+y; world scale (2, 1, 1).
    const positions = new Float32Array([1, 0, 0, 0, 1, 0, 0.5, 0.5, 1]);
    const normals = new Float32Array([1, 1, 0, 1, 1, 0, 1, 1, 0]);
    const mesh: ReferenceMesh = {
      id: 1,
      positions,
      indices: null,
      normals,
      worldMatrix: mat4.scaling([2, 1, 1]) as Float32Array,
    };
    const hit = castReferenceRay(createReferenceScene([mesh]), [5, 5, 0.3], [-1, -1, 0])!;
    const expected = Array.from(vec3.normalize([0.5, 1, 0]));
    expectVec(hit.normalWorld, expected);
    expectVec(hit.faceNormalWorld, expected);
    expect(hit.frontFacing).toBe(true);

    const tri = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]); // CCW seen from +Z
    const culled = (world: Float32Array, z: number): boolean =>
      castReferenceRay(
        createReferenceScene([{ id: 2, positions: tri, indices: null, worldMatrix: world, doubleSided: false }]),
        [0.2 * Math.sign(world[0]), 0.2, z],
        [0, 0, -Math.sign(z)],
      ) === null;
    expect(culled(identity(), 3)).toBe(false);
    expect(culled(identity(), -3)).toBe(true);
    const mirror = mat4.scaling([-1, 1, 1]) as Float32Array; // mirroring flips world winding
    expect(culled(mirror, 3)).toBe(true);
    expect(culled(mirror, -3)).toBe(false);
    // frontFace 'determinant': the local CCW side stays the front under a mirror (the agreed draw/pick rule).
    const keptFront = (z: number): boolean =>
      castReferenceRay(
        createReferenceScene([
          { id: 3, positions: tri, indices: null, worldMatrix: mirror, doubleSided: false, frontFace: 'determinant' },
        ]),
        [-0.2, 0.2, z],
        [0, 0, -Math.sign(z)],
      ) !== null;
    expect(keptFront(3)).toBe(true);
    expect(keptFront(-3)).toBe(false);
  });

  it('keeps the caller triangle order for a shuffled index buffer (matches brute force)', () => {
    const sphere = new SphereGeometry(1, 24, 16);
    const original = sphere.index!.array;
    const triCount = original.length / 3;
    const rand = mulberry32(12345);
    const order = Array.from({ length: triCount }, (_, i) => i);
    for (let i = triCount - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    const indices = new Uint32Array(original.length);
    order.forEach((src, dst) =>
      indices.set([original[src * 3], original[src * 3 + 1], original[src * 3 + 2]], dst * 3),
    );
    const before = indices.slice();
    const positions = sphere.getAttribute('position').array as Float32Array;
    const world = mat4.translation([0.3, -0.2, 0.1]) as Float32Array;
    const scene = createReferenceScene([{ id: 5, positions, indices, worldMatrix: world }]);
    expect(indices).toEqual(before); // caller's buffer untouched

    // The trap this guards against: a default (non-indirect) MeshBVH re-sorts the index in place.
    const plain = new BufferGeometry();
    plain.setAttribute('position', sphere.getAttribute('position'));
    plain.setIndex(Array.from(indices));
    new MeshBVH(plain);
    expect(Array.from(plain.index!.array)).not.toEqual(Array.from(before));

    let checked = 0;
    for (let i = 0; i < 200; i++) {
      const target: V3 = [rand() * 1.6 - 0.5, rand() * 1.6 - 1, rand() * 1.6 - 0.7];
      const origin: V3 = [rand() * 8 - 4, rand() * 8 - 4, 4 + rand()];
      const dir = Array.from(vec3.normalize(vec3.sub(target, origin))) as V3;
      const local: V3 = [origin[0] - 0.3, origin[1] + 0.2, origin[2] - 0.1];
      const expected = bruteForce(positions, indices, local, dir);
      const hit = castReferenceRay(scene, origin, dir);
      expect(hit?.faceId ?? null).toBe(expected?.faceId ?? null);
      if (hit && expected) {
        expect(hit.distance).toBeCloseTo(expected.t, 4);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("makes float64 pixel rays and projections that agree with three.js's own camera unprojection", () => {
    const eye: V3 = [2, 3, 6];
    const target: V3 = [0, 0.5, 0];
    const fovY = Math.PI / 3;
    const [width, height] = [101, 61];
    const camera = makeFloat64Camera({ position: eye, target, up: [0, 1, 0], fovY, near: 0.1 }, width, height);
    // three.js: a PerspectiveCamera (fov in degrees) and Raycaster.setFromCamera on NDC of the pixel centre.
    const three = new PerspectiveCamera((fovY * 180) / Math.PI, width / height, 0.1, 1000);
    three.position.set(...eye);
    three.lookAt(new Vector3(...target));
    three.updateMatrixWorld();
    const raycaster = new Raycaster();
    for (const [x, y] of [
      [50, 30],
      [0, 0],
      [100, 60],
      [17.25, 40.5],
    ]) {
      const ray = pixelRay(camera, x, y);
      raycaster.setFromCamera(new Vector2(((x + 0.5) / width) * 2 - 1, 1 - ((y + 0.5) / height) * 2), three);
      expectVec(ray.origin, eye, 12);
      expectVec(ray.direction, raycaster.ray.direction.toArray(), 6); // three unprojects in float32 matrices
      const back = projectToPixel(camera, add(eye, scale(ray.direction, 4.2)))!;
      expect(back.x).toBeCloseTo(x + 0.5, 10);
      expect(back.y).toBeCloseTo(y + 0.5, 10);
    }
    expect(pixelRay(camera, 0, 0).direction[1]).toBeGreaterThan(pixelRay(camera, 50, 30).direction[1]); // top-left looks up
    // Reverse-Z: depth 1 on the near plane, 0 at infinity (near / distance along forward).
    const forward = camera.forward;
    expect(projectToPixel(camera, add(eye, scale(forward, 0.1)))!.depth).toBeCloseTo(1, 12);
    expect(projectToPixel(camera, add(eye, scale(forward, 10)))!.depth).toBeCloseTo(0.01, 12);
    const finite = makeFloat64Camera({ position: eye, target, fovY, near: 0.1, far: 100 }, width, height);
    expect(projectToPixel(finite, add(eye, scale(forward, 100)))!.depth).toBeCloseTo(0, 12);
    expect(projectToPixel(camera, sub(eye, forward))).toBeNull();
  });
});
