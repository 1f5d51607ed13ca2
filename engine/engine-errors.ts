import { WeftError } from '../composer/errors.js';

/** Mesh data that cannot be drawn: names the mesh and the offending field. */
export class MeshDataError extends WeftError {
  readonly meshName: string;
  readonly field: string;

  constructor(api: string, meshName: string, field: string, message: string) {
    super(api, 'mesh-data', `mesh ${JSON.stringify(meshName)}, field "${field}": ${message}`);
    this.name = 'MeshDataError';
    this.meshName = meshName;
    this.field = field;
  }
}

/** A refused engine, device, camera or render-target request. */
export class EngineError extends WeftError {
  constructor(api: string, code: string, message: string) {
    super(api, code, message);
    this.name = 'EngineError';
  }
}
