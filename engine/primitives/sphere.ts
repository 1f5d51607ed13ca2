import { checkMeshArguments, createMeshFromData, type Mesh, type MeshOptions } from '../mesh.js';
import type { MeshData } from '../mesh-data.js';
import type { Scene } from '../scene.js';
import { checkPositiveSize, checkPrimitiveOptions, checkSegmentCount } from './options.js';
import { makeIndexArray, pushGridCell } from './triangle-indices.js';

/** Options of `makeSphereData`: segments around Y, rings from pole to pole. */
export interface SphereOptions {
  radius?: number;
  segments?: number;
  rings?: number;
}

/** A UV sphere centred at the origin, poles on ±Y, with smooth (analytic) normals and uvs. */
export function makeSphereData(options?: SphereOptions): MeshData {
  return sphereData('makeSphereData', options);
}

function sphereData(api: string, options?: SphereOptions): MeshData {
  const o = checkPrimitiveOptions(api, options, ['radius', 'segments', 'rings']);
  const radius = checkPositiveSize(api, 'radius', o.radius, 0.5);
  const segments = checkSegmentCount(api, 'segments', o.segments, 32, 3);
  const rings = checkSegmentCount(api, 'rings', o.rings, 16, 2);
  const columns = segments + 1; // the seam column is duplicated so uvs can wrap 0 → 1
  const vertexCount = (rings + 1) * columns;
  const positions = new Float32Array(vertexCount * 3);
  const normals = new Float32Array(vertexCount * 3);
  const uvs = new Float32Array(vertexCount * 2);
  for (let r = 0; r <= rings; r++) {
    const theta = (r / rings) * Math.PI;
    for (let s = 0; s <= segments; s++) {
      const phi = (s / segments) * 2 * Math.PI;
      const v = r * columns + s;
      const nx = -Math.cos(phi) * Math.sin(theta);
      const ny = Math.cos(theta);
      const nz = Math.sin(phi) * Math.sin(theta);
      normals.set([nx, ny, nz], v * 3);
      positions.set([nx * radius, ny * radius, nz * radius], v * 3);
      uvs.set([s / segments, r / rings], v * 2);
    }
  }
  // Rows go down from +Y and columns turn so that row step × column step points outward.
  const indices: number[] = [];
  for (let r = 0; r < rings; r++) {
    for (let s = 0; s < segments; s++) {
      const a = r * columns + s;
      pushGridCell(indices, a, a + 1, a + columns, a + columns + 1, r === 0, r === rings - 1);
    }
  }
  return { positions, normals, uvs, indices: makeIndexArray(indices, vertexCount) };
}

/**
 * Adds a sphere mesh (see `makeSphereData`) to the scene.
 * @throws {MeshDataError} when an option is unknown or out of range
 */
export function createSphereMesh(scene: Scene, name: string, options?: SphereOptions, meshOptions?: MeshOptions): Mesh {
  const api = 'createSphereMesh';
  checkMeshArguments(api, scene, name, meshOptions);
  return createMeshFromData(scene, name, sphereData(api, options), meshOptions);
}
