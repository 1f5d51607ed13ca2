import { WeftError } from '../core/errors.js';

/**
 * Why a buffer layout could not be made or written:
 * - `bad-wgsl`: the WGSL declares a buffer whose type cannot be laid out (unknown type name, non-constant array
 *   length, a type that is not host-shareable);
 * - `unknown-field`: a name (or path) that the layout does not have; the message lists the fields it has;
 * - `bad-value`: a value of the wrong kind or length for its field (the message names the field and what it takes);
 * - `out-of-bounds`: the write does not fit the target buffer or view;
 * - `unknown-binding`: `getBufferLayout` asked for a binding the shader does not have; the message lists those it has;
 * - `not-a-layout`: a value given as a layout is not one (`undefined` from a misspelt `composed.bufferLayouts.name`).
 */
export type LayoutErrorCode =
  | 'bad-wgsl'
  | 'unknown-field'
  | 'bad-value'
  | 'out-of-bounds'
  | 'unknown-binding'
  | 'not-a-layout';

/** A buffer layout request or write refused; `field` names the field path at fault ('' for the whole value). */
export class LayoutError extends WeftError<LayoutErrorCode> {
  readonly field: string;

  constructor(api: string, code: LayoutErrorCode, field: string, message: string) {
    super(api, code, message);
    this.name = 'LayoutError';
    this.field = field;
  }
}
