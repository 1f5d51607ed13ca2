import { describeValue } from '../../core/errors.js';
import { EngineError } from '../engine-errors.js';
import { checkMeshArguments, createMeshFromData, type Mesh, type MeshOptions } from '../mesh.js';
import type { MeshData } from '../mesh-data.js';
import type { Scene } from '../scene.js';
import { computeSmoothNormals } from './normals.js';
import { checkPrimitiveOptions } from './options.js';
import { makeIndexArray } from './triangle-indices.js';

/** Options of `makeBunnyDataAsync`. */
export interface BunnyOptions {
  /** Centre the bounding box at the origin and scale its largest side to 1 (default true). */
  fitToUnitBox?: boolean;
}

interface BunnySource {
  positions: number[][];
  cells: number[][];
}

/** Fraction of triangles whose normal points away from the vertex centroid. */
function outwardFraction(positions: Float32Array, indices: Uint32Array): number {
  const centre = [0, 0, 0];
  const vertexCount = positions.length / 3;
  for (let i = 0; i < positions.length; i++) centre[i % 3] += positions[i] / vertexCount;
  let outward = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t] * 3, indices[t + 1] * 3, indices[t + 2] * 3];
    const e = [0, 1, 2].map((k) => positions[b + k] - positions[a + k]);
    const f = [0, 1, 2].map((k) => positions[c + k] - positions[a + k]);
    const normal = [e[1] * f[2] - e[2] * f[1], e[2] * f[0] - e[0] * f[2], e[0] * f[1] - e[1] * f[0]];
    let dot = 0;
    for (let k = 0; k < 3; k++)
      dot += normal[k] * ((positions[a + k] + positions[b + k] + positions[c + k]) / 3 - centre[k]);
    if (dot > 0) outward++;
  }
  return outward / (indices.length / 3);
}

/**
 * The Stanford bunny (from the `bunny` package, loaded on demand): CCW outward, smooth normals, Y up.
 * @throws {EngineError} when an option is invalid
 */
export async function makeBunnyDataAsync(options?: BunnyOptions): Promise<MeshData> {
  return bunnyDataAsync('makeBunnyDataAsync', options);
}

async function bunnyDataAsync(api: string, options?: BunnyOptions): Promise<MeshData> {
  const o = checkPrimitiveOptions(api, options, ['fitToUnitBox']);
  if (o.fitToUnitBox !== undefined && typeof o.fitToUnitBox !== 'boolean') {
    throw new EngineError(api, 'bad-option', `fitToUnitBox ${describeValue(o.fitToUnitBox)} must be a boolean`);
  }
  let source: BunnySource;
  try {
    const loaded = (await import('bunny')) as BunnySource & { default?: BunnySource };
    source = loaded.default ?? loaded;
  } catch (error) {
    throw new EngineError(
      api,
      'missing-package',
      `the optional package "bunny" could not be loaded (${(error as Error).message}); install bunny@1`,
    );
  }
  const positions = Float32Array.from(source.positions.flat());
  const indices = Uint32Array.from(source.cells.flat());
  if (o.fitToUnitBox !== false) {
    const min = [Infinity, Infinity, Infinity];
    const max = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < positions.length; i++) {
      min[i % 3] = Math.min(min[i % 3], positions[i]);
      max[i % 3] = Math.max(max[i % 3], positions[i]);
    }
    const scale = 1 / Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
    for (let i = 0; i < positions.length; i++) positions[i] = (positions[i] - (min[i % 3] + max[i % 3]) / 2) * scale;
  }
  // The scan's cells are checked rather than trusted: flip every triangle if most face inward.
  if (outwardFraction(positions, indices) < 0.5) {
    for (let t = 0; t < indices.length; t += 3) [indices[t + 1], indices[t + 2]] = [indices[t + 2], indices[t + 1]];
  }
  const vertexCount = positions.length / 3;
  return {
    positions,
    normals: computeSmoothNormals(positions, indices),
    indices: makeIndexArray(indices, vertexCount),
  };
}

/** Adds the bunny (see `makeBunnyDataAsync`) to the scene. */
export async function createBunnyMeshAsync(
  scene: Scene,
  name: string,
  options?: BunnyOptions,
  meshOptions?: MeshOptions,
): Promise<Mesh> {
  const api = 'createBunnyMeshAsync';
  checkMeshArguments(api, scene, name, meshOptions);
  return createMeshFromData(scene, name, await bunnyDataAsync(api, options), meshOptions);
}
