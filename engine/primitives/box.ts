import { checkMeshArguments, createMeshFromData, type Mesh, type MeshOptions } from '../mesh.js';
import type { MeshData } from '../mesh-data.js';
import type { Scene } from '../scene.js';
import { checkPositiveSize, checkPrimitiveOptions } from './options.js';
import { makeIndexArray } from './triangle-indices.js';

/** Options of `makeBoxData`: sizes along X, Y and Z. */
export interface BoxOptions {
  width?: number;
  height?: number;
  depth?: number;
}

type V3 = readonly [number, number, number];

// Per face: outward normal, then the u and v axes with u × v = normal, so (0,0) (1,0) (1,1) is CCW.
const faces: ReadonlyArray<readonly [V3, V3, V3]> = [
  [
    [1, 0, 0],
    [0, 0, -1],
    [0, 1, 0],
  ],
  [
    [-1, 0, 0],
    [0, 0, 1],
    [0, 1, 0],
  ],
  [
    [0, 1, 0],
    [1, 0, 0],
    [0, 0, -1],
  ],
  [
    [0, -1, 0],
    [1, 0, 0],
    [0, 0, 1],
  ],
  [
    [0, 0, 1],
    [1, 0, 0],
    [0, 1, 0],
  ],
  [
    [0, 0, -1],
    [-1, 0, 0],
    [0, 1, 0],
  ],
];

const corners: ReadonlyArray<readonly [number, number]> = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 1],
];

/** An axis-aligned box centred at the origin: 24 vertices (flat normals per face), uvs, 36 indices. */
export function makeBoxData(options?: BoxOptions): MeshData {
  return boxData('makeBoxData', options);
}

function boxData(api: string, options?: BoxOptions): MeshData {
  const o = checkPrimitiveOptions(api, options, ['width', 'height', 'depth']);
  const half = [
    checkPositiveSize(api, 'width', o.width, 1) / 2,
    checkPositiveSize(api, 'height', o.height, 1) / 2,
    checkPositiveSize(api, 'depth', o.depth, 1) / 2,
  ];
  const positions = new Float32Array(24 * 3);
  const normals = new Float32Array(24 * 3);
  const uvs = new Float32Array(24 * 2);
  const indices: number[] = [];
  faces.forEach(([n, u, v], f) => {
    corners.forEach(([s, t], k) => {
      const vertex = f * 4 + k;
      for (let c = 0; c < 3; c++) {
        positions[vertex * 3 + c] = (n[c] + (2 * s - 1) * u[c] + (2 * t - 1) * v[c]) * half[c];
        normals[vertex * 3 + c] = n[c];
      }
      // Texture rows run top to bottom, so the face's "up" (v axis) maps to decreasing v.
      uvs[vertex * 2] = s;
      uvs[vertex * 2 + 1] = 1 - t;
    });
    const base = f * 4;
    indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
  });
  return { positions, normals, uvs, indices: makeIndexArray(indices, 24) };
}

/**
 * Adds a box mesh (see `makeBoxData`) to the scene.
 * @throws {MeshDataError} when an option is unknown or out of range
 */
export function createBoxMesh(scene: Scene, name: string, options?: BoxOptions, meshOptions?: MeshOptions): Mesh {
  const api = 'createBoxMesh';
  checkMeshArguments(api, scene, name, meshOptions);
  return createMeshFromData(scene, name, boxData(api, options), meshOptions);
}
