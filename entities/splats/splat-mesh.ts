import { mat4 } from 'wgpu-matrix';
import { describeValue } from '../../core/errors.js';
import { EngineError, engineOptionError } from '../../engine/engine-errors.js';
import { checkOptionKeys, describeArgument, type OptionKeys } from '../../core/options.js';
import { registerPickSource, unregisterPickSource } from '../../engine/pick-sources.js';
import type { Scene } from '../../engine/scene.js';
import type { PickingInfo } from '../../picking/picking-info.js';

/** Ellipsoidal Gaussian splats: opacity(p) = peak · exp(−½ · |S⁻¹ Rᵀ (p − centre)|²). */
export interface SplatMesh {
  readonly scene: Scene;
  readonly name: string;
  /** 3 floats per splat, mesh space. */
  centers: Float32Array;
  /** Standard deviations along the splat's axes, 3 floats per splat. */
  scales: Float32Array;
  /** Unit quaternions (x, y, z, w), 4 floats per splat. */
  rotations: Float32Array;
  /** Peak opacity in (0, 1], 1 float per splat. */
  opacities: Float32Array;
  /** Linear RGB, 3 floats per splat (the renderer's colour). */
  colors: Float32Array;
  count: number;
  worldMatrix: Float32Array;
  /** A pixel picks a splat only where its opacity along the ray reaches this (default 0.1). */
  pickOpacityThreshold: number;
  pickable: boolean;
  disposed: boolean;
}

/** Options of `createSplatMesh`. */
export interface SplatMeshOptions {
  centers: Float32Array;
  scales: Float32Array;
  /** Default: identity for every splat. */
  rotations?: Float32Array;
  /** Default: 1 for every splat. */
  opacities?: Float32Array;
  /** RGB in 0..1, 3 floats per splat; default white. */
  colors?: Float32Array;
  worldMatrix?: ArrayLike<number>;
  pickOpacityThreshold?: number;
  pickable?: boolean;
}

const splatOptionKeys: OptionKeys<SplatMeshOptions> = {
  centers: true,
  scales: true,
  rotations: true,
  opacities: true,
  colors: true,
  worldMatrix: true,
  pickOpacityThreshold: true,
  pickable: true,
};

function fail(api: string, name: string, message: string): never {
  throw new EngineError(api, 'bad-data', `splat mesh ${JSON.stringify(name)}: ${message}`);
}

function checkArray(
  api: string,
  name: string,
  field: string,
  value: unknown,
  length: number,
  valid: (v: number) => boolean,
  rule: string,
): Float32Array {
  if (!(value instanceof Float32Array) || value.length !== length)
    fail(api, name, `${field} ${describeValue(value)} must be a Float32Array of ${length} floats`);
  const bad = value.findIndex((v) => !valid(v));
  if (bad >= 0) fail(api, name, `${field}[${bad}] = ${value[bad]}; ${rule}`);
  return Float32Array.from(value);
}

/**
 * Creates a splat mesh in the scene and registers it as a pick source (its pick code loads on the first pick).
 * @throws {EngineError} when the scene is disposed or the splat arrays or options are invalid
 */
export function createSplatMesh(scene: Scene, name: string, options: SplatMeshOptions): SplatMesh {
  const api = 'createSplatMesh';
  if (typeof name !== 'string' || name.length === 0)
    throw new EngineError(
      api,
      'bad-option',
      `name ${describeArgument(name)} must be a non-empty string; the call is ${api}(scene, name, options)`,
    );
  checkOptionKeys(api, options, splatOptionKeys, engineOptionError);
  if (options === undefined) throw new EngineError(api, 'bad-option', 'options { centers, scales, … } are required');
  const centers = options.centers;
  if (!(centers instanceof Float32Array) || centers.length === 0 || centers.length % 3 !== 0)
    fail(api, name, `centers ${describeValue(centers)} must be a non-empty Float32Array of x, y, z triples`);
  const count = centers.length / 3;
  const finite = Number.isFinite;
  const checkedCenters = checkArray(api, name, 'centers', centers, count * 3, finite, 'must be finite');
  const scales = checkArray(
    api,
    name,
    'scales',
    options.scales,
    count * 3,
    (v) => finite(v) && v > 0,
    'scales must be finite and > 0',
  );
  const rotations = options.rotations
    ? checkArray(api, name, 'rotations', options.rotations, count * 4, finite, 'must be finite')
    : new Float32Array(count * 4).map((_, i) => (i % 4 === 3 ? 1 : 0));
  for (let i = 0; i < count; i++) {
    const length = Math.hypot(rotations[i * 4], rotations[i * 4 + 1], rotations[i * 4 + 2], rotations[i * 4 + 3]);
    if (Math.abs(length - 1) > 1e-3)
      fail(api, name, `rotation ${i} has length ${length}; quaternions must be unit length`);
  }
  const opacities = options.opacities
    ? checkArray(
        api,
        name,
        'opacities',
        options.opacities,
        count,
        (v) => finite(v) && v > 0 && v <= 1,
        'opacities must be in (0, 1]',
      )
    : new Float32Array(count).fill(1);
  const colors = options.colors
    ? checkArray(
        api,
        name,
        'colors',
        options.colors,
        count * 3,
        (v) => finite(v) && v >= 0 && v <= 1,
        'colours must be in 0..1',
      )
    : new Float32Array(count * 3).fill(1);
  const threshold = options.pickOpacityThreshold ?? 0.1;
  if (!(threshold > 0 && threshold <= 1))
    fail(api, name, `pickOpacityThreshold ${describeValue(threshold)} must be in (0, 1]`);
  const world = options.worldMatrix ?? mat4.identity();
  if (world.length !== 16 || !Array.from(world).every(finite))
    fail(api, name, `worldMatrix ${describeValue(world)} must be 16 finite numbers`);
  const mesh: SplatMesh = {
    scene,
    name,
    centers: checkedCenters,
    scales,
    rotations,
    opacities,
    colors,
    count,
    worldMatrix: Float32Array.from(world),
    pickOpacityThreshold: threshold,
    pickable: options.pickable ?? true,
    disposed: false,
  };
  registerPickSource(scene, { entity: mesh, load: () => import('./splat-pick.js') });
  return mesh;
}

/** Removes the splat mesh from picking. */
export function disposeSplatMesh(mesh: SplatMesh): void {
  if (mesh.disposed) return;
  mesh.disposed = true;
  unregisterPickSource(mesh.scene, mesh);
}

/** The splat index of a pick that hit a splat mesh, -1 otherwise. */
export function getPickedSplatIndex(info: PickingInfo): number {
  const index = info.entityDetail?.splatIndex;
  return typeof index === 'number' ? index : -1;
}
