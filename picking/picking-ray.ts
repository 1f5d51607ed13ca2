import { mat4, vec3, vec4 } from 'wgpu-matrix';
import { describeValue } from '../core/errors.js';
import { type Camera, getCameraViewProjectionMatrix } from '../engine/camera.js';
import { PickError } from './pick-errors.js';

type Vec3 = [number, number, number];

/** A world-space ray through a pixel centre, shared by the GPU and CPU pickers. */
export interface PickingRay {
  origin: Vec3;
  /** Unit length. */
  direction: Vec3;
  /** The framebuffer pixel the ray goes through (integer indices, origin top-left). */
  pixelX: number;
  pixelY: number;
  /** The exact view-projection the ray inverts, and the viewport size it was made for. */
  viewProjection: Float32Array;
  width: number;
  height: number;
}

/** The framebuffer a pick refers to, in backing pixels; `devicePixelRatio` converts CSS input. */
export interface PickViewport {
  width: number;
  height: number;
  /** When given, x and y are CSS pixels and are multiplied by it. */
  devicePixelRatio?: number;
}

/**
 * Converts caller coordinates to the framebuffer pixel they fall in; bad input throws a PickError naming `api`, and
 * `points[pointIndex]` when a multi-point call gives the point's index.
 */
export function toFramebufferPixel(
  api: string,
  x: number,
  y: number,
  viewport: PickViewport,
  pointIndex?: number,
): [number, number] {
  const { width, height } = viewport;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new PickError(
      api,
      'bad-option',
      `viewport ${describeValue(width)}×${describeValue(height)} must be positive integers (backing pixels)`,
    );
  }
  const ratio = viewport.devicePixelRatio ?? 1;
  if (!(ratio > 0) || !Number.isFinite(ratio))
    throw new PickError(api, 'bad-option', `devicePixelRatio ${describeValue(ratio)} must be a finite number > 0`);
  const point = pointIndex === undefined ? '' : `points[${pointIndex}]: `;
  if (!Number.isFinite(x) || !Number.isFinite(y))
    throw new PickError(
      api,
      'bad-coordinates',
      `${point}coordinates (${describeValue(x)}, ${describeValue(y)}) must be finite numbers`,
    );
  const px = Math.floor(x * ratio);
  const py = Math.floor(y * ratio);
  if (px < 0 || py < 0 || px >= width || py >= height) {
    throw new PickError(
      api,
      'out-of-range',
      `${point}pixel (${describeValue(x)}, ${describeValue(y)})${ratio !== 1 ? ` × ratio ${ratio}` : ''} is outside the ${width}×${height} framebuffer (0..${width - 1}, 0..${height - 1})`,
    );
  }
  return [px, py];
}

/** Unprojects NDC (x, y, z) through an inverse view-projection. */
function unproject(inverse: Float32Array, x: number, y: number, z: number): Vec3 {
  const p = vec4.transformMat4([x, y, z, 1], inverse);
  return [p[0] / p[3], p[1] / p[3], p[2] / p[3]];
}

/**
 * The ray from the camera through the centre of pixel (x, y): the exact inverse of the projection
 * the renderer draws with (same matrix, pixel centre at +0.5, NDC y up, reverse-Z). Bad input throws a PickError
 * naming the calling `api` (and `points[pointIndex]` for a multi-point call).
 */
export function makePickingRay(
  camera: Camera,
  x: number,
  y: number,
  viewport: PickViewport,
  api = 'makePickingRay',
  pointIndex?: number,
): PickingRay {
  const [pixelX, pixelY] = toFramebufferPixel(api, x, y, viewport, pointIndex);
  const { width, height } = viewport;
  const viewProjection = getCameraViewProjectionMatrix(camera, width / height);
  const inverse = mat4.inverse(viewProjection);
  const ndcX = ((pixelX + 0.5) / width) * 2 - 1;
  const ndcY = 1 - ((pixelY + 0.5) / height) * 2;
  const near = unproject(inverse, ndcX, ndcY, 1);
  const origin: Vec3 = [camera.position[0], camera.position[1], camera.position[2]];
  const direction = vec3.normalize(vec3.subtract(near, origin));
  return {
    origin,
    direction: [direction[0], direction[1], direction[2]],
    pixelX,
    pixelY,
    viewProjection,
    width,
    height,
  };
}
