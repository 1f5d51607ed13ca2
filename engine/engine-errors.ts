import { WeftError } from '../core/errors.js';

/** The one code of MeshDataError: the mesh and field it names say what is wrong. */
export type MeshDataErrorCode = 'mesh-data';

/** Mesh data that cannot be drawn: names the mesh and the offending field. */
export class MeshDataError extends WeftError<MeshDataErrorCode> {
  readonly meshName: string;
  readonly field: string;

  constructor(api: string, meshName: string, field: string, message: string) {
    super(api, 'mesh-data', `mesh ${JSON.stringify(meshName)}, field "${field}": ${message}`);
    this.name = 'MeshDataError';
    this.meshName = meshName;
    this.field = field;
  }
}

/**
 * Why the engine refused; the message names the value and what is allowed.
 * - `bad-option`: an option or argument outside what is allowed (vectors, colours, matrices, angles, camera planes,
 *   pixel ratios, unknown option names, a GPU or canvas of the wrong kind, objectIds on a multisampled target);
 * - `bad-size`: a width, height or count outside its range (sizes, attachment and bone counts, VAT dimensions);
 * - `bad-format`: a texture format that cannot be rendered to, resolved or read back;
 * - `bad-data`: caller data that cannot be used as given (texture bytes, VAT frames, billboard or splat arrays, GLB bytes);
 * - `out-of-range`: an index, pixel or region outside what exists (bone, attachment, animation, readback region);
 * - `duplicate`: the same thing registered twice;
 * - `disposed`: the engine, scene or render target was disposed (also while a load was in flight);
 * - `no-camera`, `no-depth`: a task needs a camera or a depth attachment it does not have;
 * - `no-frame`: nothing has been rendered yet to read; `not-enabled`: an output the task was created without;
 * - `no-webgpu`: no adapter, or a canvas without a "webgpu" context;
 * - `missing-feature`, `limit-exceeded`: the adapter lacks a required feature or limit;
 * - `missing-package`: an optional package is not installed; `unsupported`: valid input weft does not handle (glTF);
 * - `device-lost`: the GPU device was lost while a readback was in flight (the frame it read is gone with it); render
 *   again after `whenEngineReadyAsync()` and read that frame. For a host-owned device (`createEngineFromDeviceAsync`):
 *   the device is lost and weft waits for the host's replacement (`setEngineDeviceAsync`), or a device handed over is
 *   lost already.
 */
export type EngineErrorCode =
  | 'bad-option'
  | 'bad-size'
  | 'bad-format'
  | 'bad-data'
  | 'out-of-range'
  | 'duplicate'
  | 'disposed'
  | 'no-camera'
  | 'no-depth'
  | 'no-frame'
  | 'not-enabled'
  | 'no-webgpu'
  | 'missing-feature'
  | 'limit-exceeded'
  | 'missing-package'
  | 'unsupported'
  | 'device-lost';

/** A refused engine, device, camera or render-target request. */
export class EngineError extends WeftError<EngineErrorCode> {
  constructor(api: string, code: EngineErrorCode, message: string) {
    super(api, code, message);
    this.name = 'EngineError';
  }
}

/** @internal Builds the `bad-option` EngineError that `checkOptionKeys` throws for an engine API's options object. */
export function engineOptionError(api: string, message: string): EngineError {
  return new EngineError(api, 'bad-option', message);
}
