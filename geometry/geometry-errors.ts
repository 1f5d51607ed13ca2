import { WeftError } from '../composer/errors.js';

/** A refused geometry-renderer, velocity, frame-ID or copy-to-texture request: names the API, the value and what is allowed. */
export class GeometryError extends WeftError {
  constructor(api: string, code: string, message: string) {
    super(api, code, message);
    this.name = 'GeometryError';
  }
}
