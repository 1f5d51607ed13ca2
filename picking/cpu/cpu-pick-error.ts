import { WeftError } from '../../core/errors.js';

/** Why the CPU picker refused a request. */
export type CpuPickErrorCode =
  | 'bad-ray'
  | 'bad-range'
  | 'bad-option'
  | 'bad-ignore'
  | 'no-camera'
  | 'non-finite-vertex'
  | 'bad-geometry'
  | 'bad-serialised-bvh'
  | 'bvh-mismatch'
  | 'bad-twin'
  | 'bad-policy';

/** A CPU pick, BVH or twin request that cannot be served; names the API and the bad value. */
export class CpuPickError extends WeftError<CpuPickErrorCode> {
  constructor(api: string, code: CpuPickErrorCode, message: string) {
    super(api, code, message);
    this.name = 'CpuPickError';
  }
}

/** @internal Builds the `bad-option` CpuPickError that `checkOptionKeys` throws for a CPU picking API. */
export function cpuPickOptionError(api: string, message: string): CpuPickError {
  return new CpuPickError(api, 'bad-option', message);
}
