import type { PickGeometry } from '../sources/pick-source.js';
import { weftPickSource as source } from '../sources/weft-pick-source.js';
import type { PickingInfo } from '../picking-info.js';
import type { PickingRay } from '../picking-ray.js';
import type { CpuPicker } from './cpu-picker.js';
import type { SceneHit } from './scene-query.js';

type Vec3 = [number, number, number];

/** Where a geometry's float32x3 normals are, as one float view: floats[vertex · stride + offset + axis]. */
interface NormalAccess {
  floats: Float32Array;
  stride: number;
  offset: number;
}

let normalAccess: WeakMap<Uint8Array, NormalAccess> | null = null;

/**
 * The geometry's vertex normals as a float view (cached per vertex buffer, so a hit makes no view and no lookup
 * object), or null when it has none. Normals are float32x3 at 4-byte aligned offsets and strides (mesh-data.ts packs
 * them so); bytes that do not start 4-byte aligned are copied into an aligned view on every hit instead.
 */
function findNormals(geometry: PickGeometry): NormalAccess | null {
  const { buffers } = geometry;
  for (let b = 0; b < buffers.length; b++) {
    const buffer = buffers[b];
    const { attributes } = buffer;
    for (let a = 0; a < attributes.length; a++) {
      if (attributes[a].semantic !== 'normal') continue;
      const bytes = buffer.bytes;
      const stride = buffer.arrayStride >> 2;
      const offset = attributes[a].offset >> 2;
      // Rare (a caller's unaligned view): a fresh aligned copy, so in-place edits of the normals are always seen.
      if (bytes.byteOffset % 4 !== 0) return { floats: new Float32Array(bytes.slice().buffer), stride, offset };
      normalAccess ??= new WeakMap();
      let found = normalAccess.get(bytes);
      if (!found) {
        found = { floats: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2), stride, offset };
        normalAccess.set(bytes, found);
      }
      return found;
    }
  }
  return null;
}

/**
 * The PickingInfo of a CPU hit, with the GPU picker's conventions (picking/detailed-picking.ts): world
 * point and distance from the ray origin, Babylon barycentrics, the local face normal by CCW winding,
 * and world normals (vertex and face) through the inverse-transpose, normalised, then turned to the side the ray came
 * from (the rule of `orientNormalsToRay`). Under a mirroring transform the world face normal is the local front's image.
 * Computed in scalars: the returned object and its vectors are all a hit allocates.
 * @internal
 */
export function makeCpuPickingInfo(
  picker: CpuPicker,
  hit: SceneHit,
  origin: readonly number[],
  direction: readonly number[],
  ray: PickingRay | null,
): PickingInfo {
  const { entries } = picker;
  const e = hit.entry;
  const mesh = entries.meshes[e];
  const { geometry } = mesh;
  const indices = geometry.indices;
  const P = mesh.positions;
  const f = hit.faceId * 3;
  // The corners from the query's leaf copy when it kept one (the same float32 values, still in cache after the query;
  // on a large mesh the index and position reads would miss it), else from the positions through the leaf index copy
  // (equally hot) or the mesh's index.
  const T = hit.leaf >= 0 ? hit.triangles : null;
  const L = hit.leaf >= 0 ? hit.leafIndices : null;
  let ax: number;
  let ay: number;
  let az: number;
  let e1x: number;
  let e1y: number;
  let e1z: number;
  let e2x: number;
  let e2y: number;
  let e2z: number;
  if (T !== null) {
    const c = hit.leaf * 9;
    ax = T[c];
    ay = T[c + 1];
    az = T[c + 2];
    e1x = T[c + 3] - ax;
    e1y = T[c + 4] - ay;
    e1z = T[c + 5] - az;
    e2x = T[c + 6] - ax;
    e2y = T[c + 7] - ay;
    e2z = T[c + 8] - az;
  } else {
    const l = hit.leaf * 3;
    const a = (L !== null ? L[l] : indices ? indices[f] : f) * 3;
    const b = (L !== null ? L[l + 1] : indices ? indices[f + 1] : f + 1) * 3;
    const c = (L !== null ? L[l + 2] : indices ? indices[f + 2] : f + 2) * 3;
    ax = P[a];
    ay = P[a + 1];
    az = P[a + 2];
    e1x = P[b] - ax;
    e1y = P[b + 1] - ay;
    e1z = P[b + 2] - az;
    e2x = P[c] - ax;
    e2y = P[c + 1] - ay;
    e2z = P[c + 2] - az;
  }
  // World normals through the inverse-transpose: w[r] = Σ_c n[c] · inverse[r · 4 + c] (the inverse is column-major).
  const M = entries.inverse;
  const m = e * 16;
  const dx = direction[0];
  const dy = direction[1];
  const dz = direction[2];
  // Face normal: the unit CCW normal (b − a) × (c − a), and its world image; the sign that faces the ray.
  let fx = e1y * e2z - e1z * e2y;
  let fy = e1z * e2x - e1x * e2z;
  let fz = e1x * e2y - e1y * e2x;
  const faceLength = Math.sqrt(fx * fx + fy * fy + fz * fz);
  let face: Vec3 | null = null;
  let faceWorld: Vec3 | null = null;
  if (faceLength > 0) {
    fx /= faceLength;
    fy /= faceLength;
    fz /= faceLength;
    const wx = fx * M[m] + fy * M[m + 1] + fz * M[m + 2];
    const wy = fx * M[m + 4] + fy * M[m + 5] + fz * M[m + 6];
    const wz = fx * M[m + 8] + fy * M[m + 9] + fz * M[m + 10];
    const worldLength = Math.sqrt(wx * wx + wy * wy + wz * wz);
    const flip = worldLength > 0 && (wx / worldLength) * dx + (wy / worldLength) * dy + (wz / worldLength) * dz > 0;
    face = flip ? [-fx, -fy, -fz] : [fx, fy, fz];
    if (worldLength > 0)
      faceWorld = flip
        ? [-(wx / worldLength), -(wy / worldLength), -(wz / worldLength)]
        : [wx / worldLength, wy / worldLength, wz / worldLength];
  }

  // Vertex normal: Σ weights · normals (u weights corner 0, v corner 1), unit, then its world image; turned to the
  // face normal's side.
  let vertex: Vec3 | null = null;
  let vertexWorld: Vec3 | null = null;
  const normals = findNormals(geometry);
  if (normals) {
    const { floats: N, stride, offset } = normals;
    const v0 = indices ? indices[f] : f;
    const v1 = indices ? indices[f + 1] : f + 1;
    const v2 = indices ? indices[f + 2] : f + 2;
    const u = hit.u;
    const v = hit.v;
    const w = 1 - u - v;
    const a0 = v0 * stride + offset;
    const a1 = v1 * stride + offset;
    const a2 = v2 * stride + offset;
    let nx = 0;
    let ny = 0;
    let nz = 0;
    nx += N[a0] * u;
    ny += N[a0 + 1] * u;
    nz += N[a0 + 2] * u;
    nx += N[a1] * v;
    ny += N[a1 + 1] * v;
    nz += N[a1 + 2] * v;
    nx += N[a2] * w;
    ny += N[a2 + 1] * w;
    nz += N[a2 + 2] * w;
    const length = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (length > 0) {
      const wx = nx * M[m] + ny * M[m + 1] + nz * M[m + 2];
      const wy = nx * M[m + 4] + ny * M[m + 5] + nz * M[m + 6];
      const wz = nx * M[m + 8] + ny * M[m + 9] + nz * M[m + 10];
      const worldLength = Math.sqrt(wx * wx + wy * wy + wz * wz);
      const ux = wx / worldLength;
      const uy = wy / worldLength;
      const uz = wz / worldLength;
      const flip =
        worldLength > 0 && faceWorld !== null && ux * faceWorld[0] + uy * faceWorld[1] + uz * faceWorld[2] < 0;
      vertex = flip ? [-(nx / length), -(ny / length), -(nz / length)] : [nx / length, ny / length, nz / length];
      if (worldLength > 0) vertexWorld = flip ? [-ux, -uy, -uz] : [ux, uy, uz];
    }
  }
  const t = hit.t;
  // The keys in makeMissInfo's order: one object shape for every PickingInfo, GPU or CPU, hit or miss.
  return {
    hit: true,
    distance: t,
    pickedPoint: [origin[0] + t * dx, origin[1] + t * dy, origin[2] + t * dz],
    pickedNormal: vertex,
    pickedNormalWorld: vertexWorld,
    pickedFaceNormal: face,
    pickedFaceNormalWorld: faceWorld,
    pickedMesh: source.objectOf(mesh),
    pickedEntity: null,
    entityDetail: null,
    faceId: hit.faceId,
    bu: hit.u,
    bv: hit.v,
    subMeshId: 0,
    thinInstanceIndex: entries.instances[e],
    ray,
    pickedOverlay: null,
  };
}
