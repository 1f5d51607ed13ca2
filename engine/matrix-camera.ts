import { describeValue } from '../core/errors.js';
import { checkOptionKeys, type OptionKeys } from '../core/options.js';
import { EngineError, engineOptionError } from './engine-errors.js';
import { invertMatrix64, multiplyMatrices64, transformPoint64 } from './matrix64.js';

/**
 * A camera the host draws with, given as its matrices: weft reads them, never moves it. `projection` may be perspective
 * or orthographic and either depth convention; weft draws it reverse-Z (see `getCameraProjectionMatrix`).
 */
export interface MatrixCamera {
  kind: 'matrices';
  /** World → view, column-major (16 numbers, float64 as given). */
  view: Float64Array;
  /** View → clip, column-major; it includes the host's aspect ratio (weft ignores the viewport's). */
  projection: Float64Array;
  /** `reverse`: NDC depth 1 at the near plane, 0 at the far plane; `standard`: WebGPU's 0 (near) … 1 (far). */
  depth: 'reverse' | 'standard';
}

/** Options of `makeMatrixCamera`. */
export interface MatrixCameraOptions {
  view: ArrayLike<number>;
  projection: ArrayLike<number>;
  depth: 'reverse' | 'standard';
}

const matrixCameraOptionKeys: OptionKeys<MatrixCameraOptions> = { view: true, projection: true, depth: true };

type Vec3 = [number, number, number];

/**
 * What weft derives from a matrix camera, in float64; rebuilt when a matrix value or the depth convention changes.
 * @internal
 */
export interface MatrixCameraFrame {
  projectionType: 'perspective' | 'orthographic';
  /** The projection in weft's reverse-Z convention (the host's, z-flipped when `depth` is `standard`). */
  reverseProjection: Float64Array;
  /** reverseProjection × view. */
  viewProjection: Float64Array;
  /** Its inverse: NDC (x, y, z, 1) → world. */
  inverseViewProjection: Float64Array;
  /** The centre of projection (perspective); the centre of the near rectangle for an orthographic projection. */
  eye: Vec3;
  /** Unit view axis in world space (from the near to the far point of the NDC centre). */
  forward: Vec3;
  /** View-space distances (along −Z) of the near and far planes at the NDC centre; far is Infinity when infinite. */
  near: number;
  far: number;
}

interface CachedFrame {
  key: Float64Array;
  frame: MatrixCameraFrame;
}

let frames: WeakMap<MatrixCamera, CachedFrame> | undefined;

function checkMatrix(api: string, name: string, value: unknown): Float64Array {
  const m = value as ArrayLike<number> | null | undefined;
  if (m == null || typeof m !== 'object' || m.length !== 16 || !Array.from(m).every(Number.isFinite))
    throw new EngineError(
      api,
      'bad-option',
      `${name} ${describeValue(value)} must be 16 finite numbers (a column-major 4×4 matrix)`,
    );
  return Float64Array.from(m);
}

/** The z-flip (clip z' = w − z) that turns a standard-depth projection into a reverse-Z one. */
function flipDepth(projection: Float64Array): Float64Array {
  const out = Float64Array.from(projection);
  for (let c = 0; c < 4; c++) out[c * 4 + 2] = projection[c * 4 + 3] - projection[c * 4 + 2];
  return out;
}

/** 'perspective' when the last row is (0, 0, −s, 0), 'orthographic' when (0, 0, 0, s); null otherwise. */
function projectionTypeOf(p: Float64Array): 'perspective' | 'orthographic' | null {
  const scale = Math.max(...Array.from(p, Math.abs));
  const zero = (v: number) => Math.abs(v) <= 1e-12 * scale;
  if (!zero(p[3]) || !zero(p[7])) return null;
  if (zero(p[15]) && p[11] < 0) return 'perspective';
  if (zero(p[11]) && p[15] > 0) return 'orthographic';
  return null;
}

/** Builds the frame of checked matrices; throws what is wrong with them as `api`'s error. */
function buildFrame(api: string, view: Float64Array, projection: Float64Array, depth: string): MatrixCameraFrame {
  const projectionType = projectionTypeOf(projection);
  if (!projectionType)
    throw new EngineError(
      api,
      'bad-option',
      `projection's last row (${projection[3]}, ${projection[7]}, ${projection[11]}, ${projection[15]}) must be (0, 0, −1, 0) for a perspective projection looking down −Z, or (0, 0, 0, 1) for an orthographic one`,
    );
  const reverseProjection = depth === 'standard' ? flipDepth(projection) : projection;
  const inverseView = invertMatrix64(view);
  const inverseProjection = invertMatrix64(reverseProjection);
  if (!inverseView) throw new EngineError(api, 'bad-option', 'view must be invertible (its determinant is 0)');
  if (!inverseProjection)
    throw new EngineError(api, 'bad-option', 'projection must be invertible (its determinant is 0)');
  const viewProjection = multiplyMatrices64(reverseProjection, view);
  const inverseViewProjection = invertMatrix64(viewProjection);
  if (!inverseViewProjection)
    throw new EngineError(api, 'bad-option', 'projection × view must be invertible (its determinant is 0)');
  // The NDC centre at depth 1 (near) and 0 (far), in view space: z is negative in front of the eye.
  const nearView = transformPoint64(inverseProjection, 0, 0, 1);
  const farView = transformPoint64(inverseProjection, 0, 0, 0);
  const other = depth === 'standard' ? 'reverse' : 'standard';
  if (!(nearView[3] !== 0 && (farView[3] === 0 || nearView[2] / nearView[3] > farView[2] / farView[3])))
    throw new EngineError(
      api,
      'bad-option',
      `with depth '${depth}' the projection puts the near plane behind the far plane; is its depth '${other}'?`,
    );
  const near = -nearView[2] / nearView[3];
  const infinite = Math.abs(farView[3]) <= 1e-12 * Math.abs(farView[2]);
  const far = infinite ? Infinity : -farView[2] / farView[3];
  if (projectionType === 'perspective' && !(near > 0))
    throw new EngineError(
      api,
      'bad-option',
      `with depth '${depth}' the perspective projection's near plane lies at view depth ${near}; it must be in front of the eye (> 0). Is its depth '${other}'?`,
    );
  const nearWorld = transformPoint64(inverseViewProjection, 0, 0, 1);
  // A perspective projection's centre is the world point whose clip x, y and w are 0: the inverse of clip (0, 0, 1, 0)
  // (the inverse view translation for an on-axis projection; this also holds for a projection with a clip offset).
  const m = inverseViewProjection;
  const centreW = m[11];
  const eye: Vec3 =
    projectionType === 'perspective'
      ? [m[8] / centreW, m[9] / centreW, m[10] / centreW]
      : [nearWorld[0] / nearWorld[3], nearWorld[1] / nearWorld[3], nearWorld[2] / nearWorld[3]];
  if (!eye.every(Number.isFinite))
    throw new EngineError(api, 'bad-option', 'the perspective projection × view has no finite centre of projection');
  // The view axis: from the near to the far point of the NDC centre, or the view matrix's −Z row when far is infinite.
  const farWorld = transformPoint64(inverseViewProjection, 0, 0, 0);
  const finite = !infinite && farWorld[3] !== 0;
  const fx = finite ? farWorld[0] / farWorld[3] - nearWorld[0] / nearWorld[3] : -view[2];
  const fy = finite ? farWorld[1] / farWorld[3] - nearWorld[1] / nearWorld[3] : -view[6];
  const fz = finite ? farWorld[2] / farWorld[3] - nearWorld[2] / nearWorld[3] : -view[10];
  const length = Math.hypot(fx, fy, fz);
  return {
    projectionType,
    reverseProjection,
    viewProjection,
    inverseViewProjection,
    eye,
    forward: [fx / length, fy / length, fz / length],
    near,
    far,
  };
}

function frameMatches(key: Float64Array, camera: MatrixCamera): boolean {
  const { view, projection } = camera;
  for (let i = 0; i < 16; i++) if (key[i] !== view[i] || key[16 + i] !== projection[i]) return false;
  return key[32] === (camera.depth === 'standard' ? 1 : 0);
}

/**
 * The float64 frame of a matrix camera (cached per camera, rebuilt when a matrix value changes).
 * @throws {EngineError} naming `api` when the camera's current matrices are not usable
 * @internal
 */
export function getMatrixCameraFrame(camera: MatrixCamera, api = 'getMatrixCameraFrame'): MatrixCameraFrame {
  frames ??= new WeakMap();
  const known = frames.get(camera);
  if (known && frameMatches(known.key, camera)) return known.frame;
  const view = checkMatrix(api, 'view', camera.view);
  const projection = checkMatrix(api, 'projection', camera.projection);
  const depth = camera.depth;
  if (depth !== 'reverse' && depth !== 'standard')
    throw new EngineError(api, 'bad-option', `depth ${describeValue(depth)} must be 'reverse' or 'standard'`);
  const frame = buildFrame(api, view, projection, depth);
  const key = new Float64Array(33);
  key.set(view, 0);
  key.set(projection, 16);
  key[32] = depth === 'standard' ? 1 : 0;
  frames.set(camera, { key, frame });
  return frame;
}

/**
 * Makes a camera from the host's view and projection matrices (column-major, 16 numbers each) and its depth
 * convention: `reverse` (near → 1, far → 0) or `standard` (WebGPU's near → 0, far → 1). The projection must be
 * perspective (last row (0, 0, −1, 0)) or orthographic (last row (0, 0, 0, 1)); both matrices must be invertible.
 * The host owns the camera: weft's camera controls refuse it. To follow the host, write its new matrices into
 * `view` / `projection` (or make a new camera).
 * @throws {EngineError} when an option is unknown, missing or not usable
 */
export function makeMatrixCamera(options: MatrixCameraOptions): MatrixCamera {
  const api = 'makeMatrixCamera';
  if (options === null || typeof options !== 'object')
    throw new EngineError(api, 'bad-option', `options ${describeValue(options)} must be { view, projection, depth }`);
  checkOptionKeys(api, options, matrixCameraOptionKeys, engineOptionError);
  const { depth } = options;
  if (depth !== 'reverse' && depth !== 'standard')
    throw new EngineError(
      api,
      'bad-option',
      `depth ${describeValue(depth)} must be 'reverse' (near → 1, far → 0) or 'standard' (near → 0, far → 1)`,
    );
  const camera: MatrixCamera = {
    kind: 'matrices',
    view: checkMatrix(api, 'view', options.view),
    projection: checkMatrix(api, 'projection', options.projection),
    depth,
  };
  getMatrixCameraFrame(camera, api);
  return camera;
}
