import { WeftError } from '../core/errors.js';

/**
 * Why the weft CLI refused to run (exit code 2):
 * - `usage`: a command line it cannot run (unknown command or option, missing or malformed value);
 * - `missing-package`: an optional package a command needs is not installed (`validate` needs `webgpu`);
 * - `bad-input`: a file or module named on the command line cannot be read or does not have the expected shape.
 */
export type CliErrorCode = 'usage' | 'missing-package' | 'bad-input';

/** An error of the weft CLI itself (not of a variant); `api` is the command, e.g. `weft validate`. */
export class CliError extends WeftError<CliErrorCode> {
  constructor(api: string, code: CliErrorCode, message: string) {
    super(api, code, message);
    this.name = 'CliError';
  }
}
