import { mat3 } from 'wgpu-matrix';
import type { PickSubject } from './sources/pick-source.js';
import { weftPickSource as source } from './sources/weft-pick-source.js';
import { getTriangleVertices } from './picking-info.js';

type Vec3 = [number, number, number];

/** Triangle detail computed from the known primitive only: no scan, no ray/triangle search. */
interface TriangleDetail {
  bu: number;
  bv: number;
  pickedNormal: Vec3 | null;
  pickedNormalWorld: Vec3 | null;
  /** Null on a VAT mesh (its per-frame normal transform is not run on the CPU), like the other normals. */
  pickedFaceNormal: Vec3 | null;
  pickedFaceNormalWorld: Vec3 | null;
}

function readPosition(mesh: PickSubject, vertex: number): Vec3 {
  const p = mesh.positions;
  return [p[vertex * 3], p[vertex * 3 + 1], p[vertex * 3 + 2]];
}

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];

function normalise(v: Vec3): Vec3 {
  const length = Math.hypot(v[0], v[1], v[2]);
  return length > 0 ? [v[0] / length, v[1] / length, v[2] / length] : [0, 0, 0];
}

/**
 * Barycentrics of `point` (mesh-local, on or near the triangle's plane) in the Babylon.js
 * convention: point = bu·A0 + bv·A1 + (1 − bu − bv)·A2, found by least squares in the plane.
 */
function computeBarycentrics(a0: Vec3, a1: Vec3, a2: Vec3, point: Vec3): [number, number] {
  // Solve point − A2 = bu (A0 − A2) + bv (A1 − A2).
  const e0 = sub(a0, a2);
  const e1 = sub(a1, a2);
  const d = sub(point, a2);
  const d00 = dot(e0, e0);
  const d01 = dot(e0, e1);
  const d11 = dot(e1, e1);
  const d20 = dot(d, e0);
  const d21 = dot(d, e1);
  const denominator = d00 * d11 - d01 * d01;
  if (denominator === 0) return [1 / 3, 1 / 3];
  return [(d11 * d20 - d01 * d21) / denominator, (d00 * d21 - d01 * d20) / denominator];
}

/** Inverse-transpose of the upper 3×3 of a world matrix: maps local normals to world. */
function makeNormalMatrix(world: Float32Array): Float32Array {
  return mat3.transpose(mat3.inverse(mat3.fromMat4(world)));
}

function transformNormal(normalMatrix: Float32Array, n: Vec3): Vec3 {
  // wgpu-matrix mat3 is padded to 12 floats: columns at 0, 4, 8.
  const m = normalMatrix;
  return normalise([
    m[0] * n[0] + m[4] * n[1] + m[8] * n[2],
    m[1] * n[0] + m[5] * n[1] + m[9] * n[2],
    m[2] * n[0] + m[6] * n[1] + m[10] * n[2],
  ]);
}

/**
 * bu/bv and local/world normals of triangle `faceId` at the local hit point (normals null for a VAT mesh).
 * @internal
 */
export function computeTriangleDetail(
  mesh: PickSubject,
  faceId: number,
  localPoint: Vec3,
  world: Float32Array,
): TriangleDetail {
  const [i0, i1, i2] = getTriangleVertices(mesh, faceId);
  const a0 = readPosition(mesh, i0);
  const a1 = readPosition(mesh, i1);
  const a2 = readPosition(mesh, i2);
  const [bu, bv] = computeBarycentrics(a0, a1, a2, localPoint);
  if (!source.hasCpuNormals(mesh))
    return { bu, bv, pickedNormal: null, pickedNormalWorld: null, pickedFaceNormal: null, pickedFaceNormalWorld: null };
  const normalMatrix = makeNormalMatrix(world);
  // A deformed mesh: the face normal of that one triangle as deformed now (O(1) CPU work); barycentrics stay rest-space.
  const [d0, d1, d2] = source.isDeformed(mesh)
    ? [
        source.deformVertex(mesh, i0, [0, 0, 0], 0),
        source.deformVertex(mesh, i1, [0, 0, 0], 0),
        source.deformVertex(mesh, i2, [0, 0, 0], 0),
      ]
    : [a0, a1, a2];
  const faceNormal = normalise(cross(sub(d1, d0), sub(d2, d0)));
  let pickedNormal: Vec3 | null = null;
  let pickedNormalWorld: Vec3 | null = null;
  if (source.findAttribute(mesh.geometry, 'normal')) {
    // A deformed mesh interpolates its corners' normals as deformed now (morph normal deltas, bone blend), as drawn.
    const deformed = source.isDeformed(mesh);
    const corner = (i: number) => {
      if (deformed) return source.deformNormal(mesh, i)!;
      const n = [0, 0, 0];
      source.readAttribute(mesh.geometry, 'normal', i, n);
      return n;
    };
    const n0 = corner(i0);
    const n1 = corner(i1);
    const n2 = corner(i2);
    const w = 1 - bu - bv;
    const local: Vec3 = [0, 1, 2].map((c) => bu * n0[c] + bv * n1[c] + w * n2[c]) as Vec3;
    pickedNormal = normalise(local);
    pickedNormalWorld = transformNormal(normalMatrix, local);
  }
  return {
    bu,
    bv,
    pickedNormal,
    pickedNormalWorld,
    pickedFaceNormal: faceNormal,
    pickedFaceNormalWorld: transformNormal(normalMatrix, faceNormal),
  };
}

/** @internal World matrix of a candidate: mesh world × instance (payload lanes read as 0, 0, 0, 1). */
export function composeInstanceWorld(world: Float32Array, instance: Float32Array | null): Float32Array {
  return instance ? source.multiplyByInstance(world, instance, 0, new Float32Array(16)) : world;
}
