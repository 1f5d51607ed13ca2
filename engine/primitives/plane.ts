import { checkMeshArguments, createMeshFromData, type Mesh, type MeshOptions } from '../mesh.js';
import type { MeshData } from '../mesh-data.js';
import type { Scene } from '../scene.js';
import { checkPositiveSize, checkPrimitiveOptions, checkSegmentCount } from './options.js';
import { makeIndexArray, pushGridCell } from './triangle-indices.js';

/** Options of `makePlaneData`: size along X (`width`) and Z (`depth`), quads per side. */
export interface PlaneOptions {
  width?: number;
  depth?: number;
  subdivisions?: number;
}

/** A flat grid in the XZ plane centred at the origin, front face +Y; uv (0,0) at (-x, -z). */
export function makePlaneData(options?: PlaneOptions): MeshData {
  return planeData('makePlaneData', options);
}

function planeData(api: string, options?: PlaneOptions): MeshData {
  const o = checkPrimitiveOptions(api, options, ['width', 'depth', 'subdivisions']);
  const width = checkPositiveSize(api, 'width', o.width, 1);
  const depth = checkPositiveSize(api, 'depth', o.depth, 1);
  const n = checkSegmentCount(api, 'subdivisions', o.subdivisions, 1, 1);
  const columns = n + 1;
  const vertexCount = columns * columns;
  const positions = new Float32Array(vertexCount * 3);
  const normals = new Float32Array(vertexCount * 3);
  const uvs = new Float32Array(vertexCount * 2);
  for (let row = 0; row <= n; row++) {
    for (let col = 0; col <= n; col++) {
      const v = row * columns + col;
      positions.set([(col / n - 0.5) * width, 0, (row / n - 0.5) * depth], v * 3);
      normals[v * 3 + 1] = 1;
      uvs.set([col / n, row / n], v * 2);
    }
  }
  // Rows step along +Z, columns along +X: +Z × +X = +Y.
  const indices: number[] = [];
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      const a = row * columns + col;
      pushGridCell(indices, a, a + 1, a + columns, a + columns + 1);
    }
  }
  return { positions, normals, uvs, indices: makeIndexArray(indices, vertexCount) };
}

/** Adds a plane mesh (see `makePlaneData`) to the scene. */
export function createPlaneMesh(scene: Scene, name: string, options?: PlaneOptions, meshOptions?: MeshOptions): Mesh {
  const api = 'createPlaneMesh';
  checkMeshArguments(api, scene, name, meshOptions);
  return createMeshFromData(scene, name, planeData(api, options), meshOptions);
}
