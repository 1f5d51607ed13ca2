// The detail page's scene as plain data, shared by the page (which builds and picks it) and the Node test (which
// builds the three-mesh-bvh reference from the same arrays).
import { mat4 } from 'wgpu-matrix';
import { makeBoxData, makeSphereData, type MeshData } from '../../../../engine/index.js';

export const size: [number, number] = [96, 72];
export const cameraPosition: [number, number, number] = [0.3, 1.1, 8];
export const fovY = 0.8;

/** One mesh of the page: its data, world matrix and (optional) thin-instance matrices. */
export interface DetailMesh {
  name: string;
  data: MeshData;
  world: Float32Array;
  thinInstances?: Float32Array;
}

/** Expands an indexed geometry into a non-indexed one (3 vertices per triangle, in triangle order). */
function deindex(data: MeshData): MeshData {
  const idx = data.indices!;
  const take = (src: Float32Array, n: number) => {
    const out = new Float32Array(idx.length * n);
    idx.forEach((v, k) => out.set(src.subarray(v * n, v * n + n), k * n));
    return out;
  };
  return { positions: take(data.positions!, 3), normals: take(data.normals!, 3), uvs: take(data.uvs!, 2) };
}

/** uint16 and uint32 spheres, a non-indexed sphere and three thin-instanced boxes. */
export function detailMeshes(): DetailMesh[] {
  const sphere = makeSphereData({ radius: 0.9, segments: 14 });
  const t = (x: number, y: number) => new Float32Array(mat4.translation([x, y, 0]));
  const instances = new Float32Array(48);
  [-1.6, 0, 1.6].forEach((x, i) =>
    instances.set(mat4.multiply(mat4.translation([x, -1.3, 0.2 * i]), mat4.rotationY(0.5 + i * 0.3)), i * 16),
  );
  return [
    { name: 'sphere16', data: sphere, world: t(-2.6, 1) },
    { name: 'sphere32', data: { ...sphere, indices: Uint32Array.from(sphere.indices!) }, world: t(0, 1) },
    { name: 'flat', data: deindex(sphere), world: t(2.6, 1) },
    {
      name: 'boxes',
      data: makeBoxData({ width: 0.9, height: 0.9, depth: 0.9 }),
      world: new Float32Array(mat4.identity()),
      thinInstances: instances,
    },
  ];
}

/** One pick as the page reports it. */
export interface DetailPick {
  x: number;
  y: number;
  mesh: string | null;
  instance: number;
  faceId: number;
  bu: number;
  bv: number;
  point: number[] | null;
  normal: number[] | null;
  uv: number[] | null;
}

/** What the detail page reports to the test. */
export type DetailPageResult =
  | { adapterFeatures: string[]; enabled: boolean; method: string | null; picks: DetailPick[] }
  | { error: string };
