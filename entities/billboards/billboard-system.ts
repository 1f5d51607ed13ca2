import { describeValue } from '../../core/errors.js';
import { EngineError, engineOptionError } from '../../engine/engine-errors.js';
import { checkOptionKeys, describeArgument, type OptionKeys } from '../../core/options.js';
import { registerPickSource, unregisterPickSource } from '../../engine/pick-sources.js';
import type { Scene } from '../../engine/scene.js';
import type { PickingInfo } from '../../picking/picking-info.js';

/** How sprites turn: `camera` faces the camera plane; `axis` keeps its up along a world axis and turns about it. */
export type BillboardOrientation = 'camera' | 'axis';

/** A set of flat rectangular sprites drawn (and picked) as camera-facing or axis-locked quads. */
export interface BillboardSystem {
  readonly scene: Scene;
  readonly name: string;
  /** Sprite centres, 3 floats each (world space). */
  positions: Float32Array;
  /** Sprite width and height, 2 floats each (world units). */
  sizes: Float32Array;
  count: number;
  orientation: BillboardOrientation;
  /** Unit world axis of `axis` orientation (sprite up). */
  axis: [number, number, number];
  /** RGBA per sprite (4 floats each) for the visible renderer; default white. */
  colors: Float32Array;
  pickable: boolean;
  disposed: boolean;
}

/** Options of `createBillboardSystem`. */
export interface BillboardOptions {
  positions: Float32Array;
  /** 2 floats per sprite, or one [width, height] for all (default [1, 1]). */
  sizes?: Float32Array | readonly [number, number];
  orientation?: BillboardOrientation;
  /** Sprite up of `axis` orientation (default [0, 1, 0]); normalised. */
  axis?: readonly [number, number, number];
  /** 4 floats per sprite, or one RGBA for all. */
  colors?: Float32Array | readonly [number, number, number, number];
  pickable?: boolean;
}

const billboardOptionKeys: OptionKeys<BillboardOptions> = {
  positions: true,
  sizes: true,
  orientation: true,
  axis: true,
  colors: true,
  pickable: true,
};

function fail(api: string, name: string, message: string): never {
  throw new EngineError(api, 'bad-data', `billboard system ${JSON.stringify(name)}: ${message}`);
}

/** Per-sprite values from a Float32Array of `width` per sprite, or one value repeated for every sprite. */
function perSprite(
  api: string,
  name: string,
  field: string,
  value: Float32Array | readonly number[] | undefined,
  count: number,
  width: number,
  fallback: readonly number[],
): Float32Array {
  const out = new Float32Array(count * width);
  if (value === undefined || (Array.isArray(value) && value.length === width)) {
    for (let i = 0; i < count; i++) out.set(value ?? fallback, i * width);
  } else if (value instanceof Float32Array && value.length === count * width) {
    out.set(value);
  } else {
    fail(
      api,
      name,
      `${field} ${describeValue(value)} must be a Float32Array of ${count * width} floats (${width} per sprite) or one ${width}-number value for all`,
    );
  }
  if (!out.every(Number.isFinite)) fail(api, name, `${field} holds a non-finite value`);
  return out;
}

/**
 * Creates a billboard system in the scene and registers it as a pick source (its pick code loads on the first pick).
 * @throws {EngineError} when the scene is disposed or a position, size, colour or option is invalid
 */
export function createBillboardSystem(scene: Scene, name: string, options: BillboardOptions): BillboardSystem {
  const api = 'createBillboardSystem';
  if (typeof name !== 'string' || name.length === 0)
    throw new EngineError(
      api,
      'bad-option',
      `name ${describeArgument(name)} must be a non-empty string; the call is ${api}(scene, name, options)`,
    );
  checkOptionKeys(api, options, billboardOptionKeys, engineOptionError);
  if (options === undefined) throw new EngineError(api, 'bad-option', 'options { positions, … } are required');
  const { positions } = options;
  if (
    !(positions instanceof Float32Array) ||
    positions.length === 0 ||
    positions.length % 3 !== 0 ||
    !positions.every(Number.isFinite)
  ) {
    fail(api, name, `positions ${describeValue(positions)} must be a non-empty Float32Array of finite x, y, z triples`);
  }
  const count = positions.length / 3;
  const sizes = perSprite(api, name, 'sizes', options.sizes, count, 2, [1, 1]);
  if (sizes.some((s) => s <= 0)) fail(api, name, 'sizes must be > 0');
  const colors = perSprite(api, name, 'colors', options.colors, count, 4, [1, 1, 1, 1]);
  const orientation = options.orientation ?? 'camera';
  if (orientation !== 'camera' && orientation !== 'axis')
    fail(api, name, `orientation ${describeValue(orientation)} must be "camera" or "axis"`);
  const axis = options.axis ?? [0, 1, 0];
  const length = Array.isArray(axis) && axis.length === 3 && axis.every(Number.isFinite) ? Math.hypot(...axis) : 0;
  if (!(length > 0)) fail(api, name, `axis ${describeValue(axis)} must be 3 finite numbers, not all zero`);
  const system: BillboardSystem = {
    scene,
    name,
    positions: Float32Array.from(positions),
    sizes,
    count,
    orientation,
    axis: [axis[0] / length, axis[1] / length, axis[2] / length],
    colors,
    pickable: options.pickable ?? true,
    disposed: false,
  };
  registerPickSource(scene, { entity: system, load: () => import('./billboard-pick.js') });
  return system;
}

/** Removes the system from picking; later picks never see it. */
export function disposeBillboardSystem(system: BillboardSystem): void {
  if (system.disposed) return;
  system.disposed = true;
  unregisterPickSource(system.scene, system);
}

/** The sprite index of a pick that hit a billboard system, -1 otherwise. */
export function getPickedSpriteIndex(info: PickingInfo): number {
  const index = info.entityDetail?.spriteIndex;
  return typeof index === 'number' ? index : -1;
}
