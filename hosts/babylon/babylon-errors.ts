import { WeftError } from '../../core/errors.js';

/**
 * Why weft-gpu/babylon refused a scene or a call; the message names the API, the Babylon.js mesh (or value) and what
 * is allowed.
 * - `not-webgpu`: the engine is not a Babylon.js `WebGPUEngine` (weft picks on its device);
 * - `unsupported`: something the scene draws that this picker cannot draw the same way (the message says what to do);
 * - `bad-option`: an option or argument outside what is allowed;
 * - `no-camera`: no camera to pick through (`scene.activeCamera` is null and none was given);
 * - `device-lost`: the WebGPU device was lost; make a new picker on the engine's new device;
 * - `disposed`: the picker was disposed.
 */
export type BabylonPickErrorCode =
  | 'not-webgpu'
  | 'unsupported'
  | 'bad-option'
  | 'no-camera'
  | 'device-lost'
  | 'disposed';

/** The typed error of weft-gpu/babylon (weft's own `PickError` / `EngineError` pass through unchanged). */
export class BabylonPickError extends WeftError<BabylonPickErrorCode> {
  constructor(api: string, code: NoInfer<BabylonPickErrorCode>, message: string) {
    super(api, code, message);
    this.name = 'BabylonPickError';
  }
}
