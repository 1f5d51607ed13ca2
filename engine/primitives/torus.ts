import { EngineError } from '../engine-errors.js';
import { checkMeshArguments, createMeshFromData, type Mesh, type MeshOptions } from '../mesh.js';
import type { MeshData } from '../mesh-data.js';
import type { Scene } from '../scene.js';
import { checkPositiveSize, checkPrimitiveOptions, checkSegmentCount } from './options.js';
import { makeIndexArray, pushGridCell } from './triangle-indices.js';

/** Options of `makeTorusData`: `radius` to the tube's centre, `tube` = the tube's radius. */
export interface TorusOptions {
  radius?: number;
  tube?: number;
  /** Segments around the tube's cross-section. */
  radialSegments?: number;
  /** Segments around the ring (around Y). */
  tubularSegments?: number;
}

/** A ring torus centred at the origin, lying in the XZ plane (axis Y), smooth normals and uvs. */
export function makeTorusData(options?: TorusOptions): MeshData {
  return torusData('makeTorusData', options);
}

function torusData(api: string, options?: TorusOptions): MeshData {
  const o = checkPrimitiveOptions(api, options, ['radius', 'tube', 'radialSegments', 'tubularSegments']);
  const radius = checkPositiveSize(api, 'radius', o.radius, 0.5);
  const tube = checkPositiveSize(api, 'tube', o.tube, 0.2);
  if (tube >= radius) {
    throw new EngineError(
      api,
      'bad-option',
      `tube ${tube} must be smaller than radius ${radius} (a larger tube intersects itself)`,
    );
  }
  const radialSegments = checkSegmentCount(api, 'radialSegments', o.radialSegments, 16, 3);
  const tubularSegments = checkSegmentCount(api, 'tubularSegments', o.tubularSegments, 32, 3);
  const columns = tubularSegments + 1;
  const vertexCount = (radialSegments + 1) * columns;
  const positions = new Float32Array(vertexCount * 3);
  const normals = new Float32Array(vertexCount * 3);
  const uvs = new Float32Array(vertexCount * 2);
  for (let k = 0; k <= radialSegments; k++) {
    const tubeAngle = (k / radialSegments) * 2 * Math.PI;
    for (let j = 0; j <= tubularSegments; j++) {
      const ringAngle = (j / tubularSegments) * 2 * Math.PI;
      const v = k * columns + j;
      const nx = Math.cos(tubeAngle) * Math.cos(ringAngle);
      const ny = Math.sin(tubeAngle);
      const nz = Math.cos(tubeAngle) * Math.sin(ringAngle);
      normals.set([nx, ny, nz], v * 3);
      positions.set(
        [radius * Math.cos(ringAngle) + tube * nx, tube * ny, radius * Math.sin(ringAngle) + tube * nz],
        v * 3,
      );
      uvs.set([j / tubularSegments, k / radialSegments], v * 2);
    }
  }
  // Rows step around the tube, columns around the ring: row step × column step is the outward normal.
  const indices: number[] = [];
  for (let k = 0; k < radialSegments; k++) {
    for (let j = 0; j < tubularSegments; j++) {
      const a = k * columns + j;
      pushGridCell(indices, a, a + 1, a + columns, a + columns + 1);
    }
  }
  return { positions, normals, uvs, indices: makeIndexArray(indices, vertexCount) };
}

/** Adds a torus mesh (see `makeTorusData`) to the scene. */
export function createTorusMesh(scene: Scene, name: string, options?: TorusOptions, meshOptions?: MeshOptions): Mesh {
  const api = 'createTorusMesh';
  checkMeshArguments(api, scene, name, meshOptions);
  return createMeshFromData(scene, name, torusData(api, options), meshOptions);
}
