import { WeftError } from '../core/errors.js';

/**
 * Why a geometry-renderer, velocity, frame-ID or copy-to-texture request was refused.
 * - `bad-option`: a config value outside what is allowed (texture descriptions, sample count, viewport, lod, remap,
 *   source texture, a camera kind the output cannot use, depthLoad without a depth texture);
 * - `bad-size`: a size outside 1..maxTextureDimension2D, an attachment count outside 1..8, or a shared depth texture
 *   of another size or sample count;
 * - `bad-format`: an attachment format the output cannot use (kind, channels, multisampling, blending, copy pairs);
 * - `bad-data`: a per-mesh callback (reflectivity, blendTag) returned an unusable value;
 * - `out-of-range`: a mip level beyond the source's; `duplicate`: a texture type requested twice;
 * - `limit-exceeded`: more colour attachments or bytes per sample than the device allows;
 * - `missing-feature`: a format that blends only with a device feature the device lacks;
 * - `no-camera`, `no-depth`, `no-frame`, `not-enabled` (an output the task was created without), `disposed`,
 *   `already-recorded` (a setting that must come before the first frame);
 * - `device-lost`: the GPU device was lost while a frame-ID read was in flight (render again, then read).
 */
export type GeometryErrorCode =
  | 'bad-option'
  | 'bad-size'
  | 'bad-format'
  | 'bad-data'
  | 'out-of-range'
  | 'duplicate'
  | 'limit-exceeded'
  | 'missing-feature'
  | 'no-camera'
  | 'no-depth'
  | 'no-frame'
  | 'not-enabled'
  | 'disposed'
  | 'already-recorded'
  | 'device-lost';

/**
 * Builds the `bad-option` GeometryError that `checkOptionKeys` throws for a geometry API's config or options.
 * @internal
 */
export function geometryOptionError(api: string, message: string): GeometryError {
  return new GeometryError(api, 'bad-option', message);
}

/** A refused geometry-renderer, velocity, frame-ID or copy-to-texture request: names the API, the value and what is allowed. */
export class GeometryError extends WeftError<GeometryErrorCode> {
  constructor(api: string, code: GeometryErrorCode, message: string) {
    super(api, code, message);
    this.name = 'GeometryError';
  }
}
