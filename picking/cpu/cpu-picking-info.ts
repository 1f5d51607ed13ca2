import { mat4d, vec3d } from 'wgpu-matrix';
import { findVertexAttribute, type MeshGeometry, readVertexAttribute } from '../../engine/mesh-data.js';
import { makeMissInfo, orientNormalsToRay, type PickingInfo } from '../picking-info.js';
import type { PickingRay } from '../picking-ray.js';
import type { CpuPicker } from './cpu-picker.js';
import type { SceneHit } from './scene-query.js';

type Vec3 = [number, number, number];

interface InfoScratch {
  corners: Float64Array[];
  e1: Float64Array;
  e2: Float64Array;
  n: Float64Array;
  normal: number[];
  normalMatrix: Float64Array;
}

let scratch: InfoScratch | null = null;

function getScratch(): InfoScratch {
  if (scratch) return scratch;
  const v = (): Float64Array => vec3d.create();
  scratch = { corners: [v(), v(), v()], e1: v(), e2: v(), n: v(), normal: [0, 0, 0], normalMatrix: mat4d.create() };
  return scratch;
}

/** normalise(normalMatrix · n), or null when it vanishes. */
function toWorldNormal(s: InfoScratch, n: ArrayLike<number>, normalMatrix: Float64Array): Vec3 | null {
  const w = vec3d.transformMat4Upper3x3(n, normalMatrix, s.e2);
  const length = vec3d.length(w);
  return length > 0 ? [w[0] / length, w[1] / length, w[2] / length] : null;
}

/** Accumulates Σ weights[k] · normal(vertices[k]) into n; false when the mesh has no normals. */
function interpolateNormal(
  geometry: MeshGeometry,
  vertices: readonly number[],
  weights: readonly number[],
  n: Float64Array,
  one: number[],
): boolean {
  const found = findVertexAttribute(geometry, 'normal');
  if (!found) return false;
  vec3d.zero(n);
  const { bytes, arrayStride } = found.buffer;
  if (bytes.byteOffset % 4 === 0) {
    // Normals are float32x3 at 4-byte aligned offsets and strides: one view instead of three DataViews.
    const floats = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
    for (let k = 0; k < 3; k++) {
      const at = (vertices[k] * arrayStride + found.attribute.offset) >> 2;
      for (let a = 0; a < 3; a++) n[a] += floats[at + a] * weights[k];
    }
    return true;
  }
  for (let k = 0; k < 3; k++) {
    readVertexAttribute(geometry, 'normal', vertices[k], one);
    for (let a = 0; a < 3; a++) n[a] += one[a] * weights[k];
  }
  return true;
}

/** Unit normal of the triangle a, b, c by CCW winding, or null when it is degenerate. */
function faceNormal(s: InfoScratch, a: Float64Array, b: Float64Array, c: Float64Array): Vec3 | null {
  const n = vec3d.cross(vec3d.subtract(b, a, s.e1), vec3d.subtract(c, a, s.e2), s.n);
  const length = vec3d.length(n);
  return length > 0 ? [n[0] / length, n[1] / length, n[2] / length] : null;
}

/**
 * The PickingInfo of a CPU hit, with the GPU picker's conventions (picking/detailed-picking.ts): world
 * point and distance from the ray origin, Babylon barycentrics, the local face normal by CCW winding,
 * and world normals (vertex and face) through the inverse-transpose, normalised, then turned to the side the ray came
 * from (`orientNormalsToRay`). Under a mirroring transform the world face normal is the local front's image.
 */
export function makeCpuPickingInfo(
  picker: CpuPicker,
  hit: SceneHit,
  origin: readonly number[],
  direction: readonly number[],
  ray: PickingRay | null,
): PickingInfo {
  const s = getScratch();
  const { entries } = picker;
  const mesh = entries.meshes[hit.entry];
  const b = hit.entry * 16;
  const info = makeMissInfo(ray);
  const indices = mesh.geometry.indices;
  const positions = mesh.positions;
  const w = 1 - hit.u - hit.v;
  const weights = [hit.u, hit.v, w];
  const vertices = [0, 0, 0];
  for (let k = 0; k < 3; k++) {
    const v = indices ? indices[hit.faceId * 3 + k] : hit.faceId * 3 + k;
    vertices[k] = v;
    vec3d.set(positions[v * 3], positions[v * 3 + 1], positions[v * 3 + 2], s.corners[k]);
  }
  info.hit = true;
  info.pickedMesh = mesh;
  info.faceId = hit.faceId;
  info.bu = hit.u;
  info.bv = hit.v;
  info.thinInstanceIndex = entries.instances[hit.entry];
  info.distance = hit.t;
  info.pickedPoint = [
    origin[0] + hit.t * direction[0],
    origin[1] + hit.t * direction[1],
    origin[2] + hit.t * direction[2],
  ];
  const normalMatrix = mat4d.transpose(entries.inverse.subarray(b, b + 16), s.normalMatrix);
  info.pickedFaceNormal = faceNormal(s, s.corners[0], s.corners[1], s.corners[2]);
  if (info.pickedFaceNormal) info.pickedFaceNormalWorld = toWorldNormal(s, info.pickedFaceNormal, normalMatrix);
  const n = s.n;
  if (interpolateNormal(mesh.geometry, vertices, weights, n, s.normal)) {
    const length = vec3d.length(n);
    if (length > 0) {
      info.pickedNormal = [n[0] / length, n[1] / length, n[2] / length];
      info.pickedNormalWorld = toWorldNormal(s, n, normalMatrix);
    }
  }
  orientNormalsToRay(info, direction);
  return info;
}
