import { describeValue } from '../core/errors.js';
import { MeshDataError } from './engine-errors.js';
import { findVertexAttribute, type MeshGeometry, readVertexAttribute } from './mesh-data.js';
import type { MeshOptions } from './mesh.js';
import type { Scene } from './scene.js';
import type { Skeleton } from './skeleton.js';

/** Morph-target deltas of a mesh, packed as the morph fragment reads them. */
export interface MeshMorphTargets {
  count: number;
  hasNormals: boolean;
  /** vec4 per (target, vertex): position deltas for all targets, then normal deltas. */
  deltas: Float32Array<ArrayBuffer>;
}

/** @internal Validates a mesh's VAT options (returns the playback to keep; empty without VAT). */
export function checkVertexAnimation(
  api: string,
  scene: Scene,
  name: string,
  geometry: MeshGeometry,
  options: MeshOptions,
  records: number,
): Float32Array<ArrayBuffer> {
  const vat = options.vertexAnimation;
  if (!vat) {
    if (options.vertexAnimationPlayback !== undefined)
      throw new MeshDataError(api, name, 'vertexAnimationPlayback', 'is given without the vertexAnimation option');
    return new Float32Array(0);
  }
  if (typeof vat.checkMesh !== 'function')
    throw new MeshDataError(
      api,
      name,
      'vertexAnimation',
      `expected a VertexAnimation from makeVertexAnimation, got ${describeValue(vat)}`,
    );
  if (options.skeleton)
    throw new MeshDataError(
      api,
      name,
      'vertexAnimation',
      `is given together with skeleton "${options.skeleton.name}"; choose one: VAT bakes the bones per frame`,
    );
  if (options.morphTargets)
    throw new MeshDataError(
      api,
      name,
      'vertexAnimation',
      'with morphTargets is not supported yet; bake the morph into the VAT or drop one of them',
    );
  // 8192 is WebGPU's default maxTextureDimension2D (a scene without a device yet, e.g. in CPU-only tests).
  const maxTexture = scene.engine?.device?.limits?.maxTextureDimension2D ?? 8192;
  return vat.checkMesh(api, name, geometry, options.vertexAnimationPlayback, records, maxTexture);
}

/** @internal Validates a mesh's skeleton and morph targets and packs the morph deltas. */
export function checkDeformation(
  api: string,
  name: string,
  geometry: MeshGeometry,
  options: MeshOptions,
): { skeleton: Skeleton | null; morph: MeshMorphTargets | null; weights: Float32Array } {
  const joints = findVertexAttribute(geometry, 'joints');
  const skeleton = options.skeleton ?? null;
  if (joints && !skeleton && !options.vertexAnimation)
    throw new MeshDataError(
      api,
      name,
      'skeleton',
      'is missing: a mesh with joints needs the skeleton or vertexAnimation option',
    );
  if (skeleton && !joints)
    throw new MeshDataError(api, name, 'joints', 'is missing: a skeleton needs joints and weights in the mesh data');
  if (skeleton) {
    const j = [0, 0, 0, 0];
    for (const semantic of ['joints', 'joints2'] as const) {
      for (let v = 0; findVertexAttribute(geometry, semantic) && v < geometry.vertexCount; v++) {
        readVertexAttribute(geometry, semantic, v, j);
        const bad = j.find((b) => b >= skeleton.boneCount);
        if (bad !== undefined)
          throw new MeshDataError(
            api,
            name,
            semantic,
            `vertex ${v} uses bone ${bad}; skeleton "${skeleton.name}" has ${skeleton.boneCount} bones (0..${skeleton.boneCount - 1})`,
          );
      }
    }
  }
  const targets = options.morphTargets;
  if (!targets) return { skeleton, morph: null, weights: new Float32Array(0) };
  const positions = targets.positions;
  if (!Array.isArray(positions) || positions.length === 0)
    throw new MeshDataError(
      api,
      name,
      'morphTargets.positions',
      `expected a non-empty array of Float32Array, got ${describeValue(positions)}`,
    );
  const normals = targets.normals;
  if (normals && (!Array.isArray(normals) || normals.length !== positions.length))
    throw new MeshDataError(
      api,
      name,
      'morphTargets.normals',
      `has ${describeValue(normals)}; give one normal delta array per target (${positions.length}) or none`,
    );
  const count = positions.length;
  const n = geometry.vertexCount;
  const deltas = new Float32Array(count * n * 4 * (normals ? 2 : 1));
  [...positions, ...(normals ?? [])].forEach((array, k) => {
    const field = k < count ? `morphTargets.positions[${k}]` : `morphTargets.normals[${k - count}]`;
    if (!(array instanceof Float32Array) || array.length !== n * 3) {
      throw new MeshDataError(
        api,
        name,
        field,
        `holds ${array instanceof Float32Array ? array.length / 3 : describeValue(array)} vertices; the mesh has ${n} (3 floats each)`,
      );
    }
    for (let v = 0; v < n; v++) {
      if (!Number.isFinite(array[v * 3]) || !Number.isFinite(array[v * 3 + 1]) || !Number.isFinite(array[v * 3 + 2]))
        throw new MeshDataError(api, name, field, `vertex ${v} is not finite`);
      deltas.set(array.subarray(v * 3, v * 3 + 3), (k * n + v) * 4);
    }
  });
  const weights = new Float32Array(count);
  if (options.morphWeights) {
    if (options.morphWeights.length !== count || !Array.from(options.morphWeights).every(Number.isFinite)) {
      throw new MeshDataError(
        api,
        name,
        'morphWeights',
        `expected ${count} finite numbers (one per target), got ${describeValue(options.morphWeights)}`,
      );
    }
    weights.set(Array.from(options.morphWeights));
  }
  return { skeleton, morph: { count, hasNormals: !!normals, deltas }, weights };
}
