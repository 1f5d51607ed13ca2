import { WeftError } from '../composer/errors.js';

/** A refused or failed pick: bad coordinates, a disposed picker, a lost device, too many IDs. */
export class PickError extends WeftError {
  constructor(api: string, code: string, message: string) {
    super(api, code, message);
    this.name = 'PickError';
  }
}
