import { EngineError } from '../engine-errors.js';
import { checkMeshArguments, createMeshFromData, type Mesh, type MeshOptions } from '../mesh.js';
import type { MeshData } from '../mesh-data.js';
import type { Scene } from '../scene.js';
import { checkPositiveSize, checkPrimitiveOptions, checkSegmentCount } from './options.js';
import { makeIndexArray, pushGridCell } from './triangle-indices.js';

/** Options of `makeCapsuleData`: `height` is the total length, caps included. */
export interface CapsuleOptions {
  radius?: number;
  height?: number;
  /** Segments around Y. */
  segments?: number;
  /** Rings per hemispherical cap, pole to equator. */
  capRings?: number;
}

interface ProfileRow {
  y: number;
  /** Distance from the Y axis. */
  rho: number;
  /** Angle from +Y of the surface normal. */
  alpha: number;
  /** Arc length from the top pole. */
  arc: number;
}

/** A capsule along Y centred at the origin: a cylinder between two hemispheres, smooth normals, uvs. */
export function makeCapsuleData(options?: CapsuleOptions): MeshData {
  return capsuleData('makeCapsuleData', options);
}

function capsuleData(api: string, options?: CapsuleOptions): MeshData {
  const o = checkPrimitiveOptions(api, options, ['radius', 'height', 'segments', 'capRings']);
  const radius = checkPositiveSize(api, 'radius', o.radius, 0.25);
  const height = checkPositiveSize(api, 'height', o.height, 1);
  if (height < 2 * radius) {
    throw new EngineError(
      api,
      'bad-option',
      `height ${height} must be at least 2 × radius (${2 * radius}): it is the total length, caps included`,
    );
  }
  const segments = checkSegmentCount(api, 'segments', o.segments, 24, 3);
  const capRings = checkSegmentCount(api, 'capRings', o.capRings, 8, 1);
  const halfCylinder = height / 2 - radius;
  const profile: ProfileRow[] = [];
  for (let k = 0; k <= capRings; k++) {
    const alpha = (k / capRings) * (Math.PI / 2);
    profile.push({
      y: halfCylinder + radius * Math.cos(alpha),
      rho: radius * Math.sin(alpha),
      alpha,
      arc: radius * alpha,
    });
  }
  // With no cylinder the two equator rows would coincide; keep one so no triangle collapses.
  for (let k = halfCylinder > 0 ? 0 : 1; k <= capRings; k++) {
    const alpha = Math.PI / 2 + (k / capRings) * (Math.PI / 2);
    profile.push({
      y: -halfCylinder + radius * Math.cos(alpha),
      rho: radius * Math.sin(alpha),
      alpha,
      arc: radius * alpha + 2 * halfCylinder,
    });
  }
  const totalArc = Math.PI * radius + 2 * halfCylinder;
  const columns = segments + 1;
  const vertexCount = profile.length * columns;
  const positions = new Float32Array(vertexCount * 3);
  const normals = new Float32Array(vertexCount * 3);
  const uvs = new Float32Array(vertexCount * 2);
  profile.forEach(({ y, rho, alpha, arc }, row) => {
    for (let s = 0; s <= segments; s++) {
      const phi = (s / segments) * 2 * Math.PI;
      const v = row * columns + s;
      const cx = -Math.cos(phi);
      const cz = Math.sin(phi);
      positions.set([cx * rho, y, cz * rho], v * 3);
      normals.set([cx * Math.sin(alpha), Math.cos(alpha), cz * Math.sin(alpha)], v * 3);
      uvs.set([s / segments, arc / totalArc], v * 2);
    }
  });
  // Same layout as the UV sphere: rows go down from +Y, row step × column step points outward.
  const indices: number[] = [];
  const lastRow = profile.length - 2;
  for (let row = 0; row <= lastRow; row++) {
    for (let s = 0; s < segments; s++) {
      const a = row * columns + s;
      pushGridCell(indices, a, a + 1, a + columns, a + columns + 1, row === 0, row === lastRow);
    }
  }
  return { positions, normals, uvs, indices: makeIndexArray(indices, vertexCount) };
}

/** Adds a capsule mesh (see `makeCapsuleData`) to the scene. */
export function createCapsuleMesh(
  scene: Scene,
  name: string,
  options?: CapsuleOptions,
  meshOptions?: MeshOptions,
): Mesh {
  const api = 'createCapsuleMesh';
  checkMeshArguments(api, scene, name, meshOptions);
  return createMeshFromData(scene, name, capsuleData(api, options), meshOptions);
}
