import { describeValue } from '../core/errors.js';
import { checkOptionKeys, type OptionKeys } from '../core/options.js';
import { EngineError, engineOptionError } from './engine-errors.js';

/** RGBA8 pixels on the CPU; uploaded to each device on first use. */
export interface TextureData {
  width: number;
  height: number;
  /** width × height × 4 bytes, rows top to bottom. */
  data: Uint8Array<ArrayBuffer>;
}

/** The forward renderer's lit material: base colour × optional texture, Lambert + ambient. */
export interface StandardMaterial {
  name: string;
  baseColor: [number, number, number, number];
  texture: TextureData | null;
  doubleSided: boolean;
  /**
   * Which winding of a mesh-local triangle is its front: `'ccw'` (weft's, glTF's and three.js's default) or `'cw'`
   * (Babylon.js's meshes, or three.js `BackSide`). Absent means `'ccw'`. Every pass follows it (engine/winding.ts).
   */
  frontFace?: GPUFrontFace;
  /** Skip lighting: the surface shows base colour × texture × vertex colour. */
  unlit: boolean;
}

/** Options of `makeStandardMaterial`; everything optional. */
export interface StandardMaterialOptions {
  name?: string;
  baseColor?: readonly number[];
  texture?: TextureData | null;
  doubleSided?: boolean;
  /** The mesh-local front winding (default `'ccw'`). */
  frontFace?: GPUFrontFace;
  unlit?: boolean;
}

const materialOptionKeys: OptionKeys<StandardMaterialOptions> = {
  name: true,
  baseColor: true,
  texture: true,
  doubleSided: true,
  frontFace: true,
  unlit: true,
};

/**
 * Makes a standard material (CPU data only; GPU objects are created per device when drawn).
 * @throws {EngineError} when an option is unknown or a colour is out of range
 */
export function makeStandardMaterial(options: StandardMaterialOptions = {}): StandardMaterial {
  const api = 'makeStandardMaterial';
  checkOptionKeys(api, options, materialOptionKeys, engineOptionError);
  const color = options.baseColor ?? [1, 1, 1, 1];
  if (!Array.isArray(color) && !ArrayBuffer.isView(color))
    throw new EngineError(api, 'bad-option', `baseColor ${describeValue(color)} must be 3 or 4 numbers in 0..1`);
  if ((color.length !== 3 && color.length !== 4) || !Array.from(color).every((c) => Number.isFinite(c))) {
    throw new EngineError(
      api,
      'bad-option',
      `baseColor [${Array.from(color).join(', ')}] must be 3 or 4 finite numbers in 0..1`,
    );
  }
  const texture = options.texture ?? null;
  if (texture) {
    const { width, height, data } = texture;
    if (
      !Number.isInteger(width) ||
      !Number.isInteger(height) ||
      width < 1 ||
      height < 1 ||
      !(data instanceof Uint8Array) ||
      data.length !== width * height * 4
    ) {
      throw new EngineError(
        api,
        'bad-data',
        `texture ${describeValue(width)}×${describeValue(height)} with ${describeValue(data)} is not RGBA8: data must be a Uint8Array of width × height × 4 bytes`,
      );
    }
  }
  const frontFace = options.frontFace ?? 'ccw';
  if (frontFace !== 'ccw' && frontFace !== 'cw')
    throw new EngineError(api, 'bad-option', `frontFace ${describeValue(frontFace)} must be 'ccw' or 'cw'`);
  return {
    name: options.name ?? 'standard',
    baseColor: [color[0], color[1], color[2], color.length === 4 ? color[3] : 1],
    texture: texture ? { width: texture.width, height: texture.height, data: new Uint8Array(texture.data) } : null,
    doubleSided: options.doubleSided ?? false,
    ...(frontFace === 'cw' ? { frontFace } : {}),
    unlit: options.unlit ?? false,
  };
}

/**
 * True when `value` has a StandardMaterial's shape (name, 4-number baseColor, texture or null, doubleSided, unlit),
 * as `makeStandardMaterial` returns: what the renderers read from `mesh.material`.
 * @internal
 */
export function isStandardMaterial(value: unknown): value is StandardMaterial {
  if (value == null || typeof value !== 'object' || Array.isArray(value)) return false;
  const m = value as Partial<StandardMaterial>;
  return (
    typeof m.name === 'string' &&
    Array.isArray(m.baseColor) &&
    m.baseColor.length === 4 &&
    m.baseColor.every((c) => typeof c === 'number' && Number.isFinite(c)) &&
    (m.texture === null || (typeof m.texture === 'object' && m.texture.data instanceof Uint8Array)) &&
    typeof m.doubleSided === 'boolean' &&
    (m.frontFace === undefined || m.frontFace === 'ccw' || m.frontFace === 'cw') &&
    typeof m.unlit === 'boolean'
  );
}
