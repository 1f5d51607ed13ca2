/**
 * Codes of a plain `WeftError` (the subclasses narrow `code` to their own unions):
 * - `usage`: a command line the weft CLI cannot run;
 * - `bad-name`, `bad-spec`, `duplicate-variant`, `unknown-variant`: a refused variant registration or lookup;
 * - `target-count`: pipeline state whose colour targets do not match the shader's outputs;
 * - `pipeline-failed`: the device could not create a render pipeline;
 * - `released-twice`, `unknown-lease`: a shader-module or pipeline lease released twice or on the wrong device;
 * - `bad-argument`: an argument outside what a fragment factory takes (e.g. an unknown geometry output name).
 */
export type WeftErrorCode =
  | 'usage'
  | 'bad-name'
  | 'bad-spec'
  | 'duplicate-variant'
  | 'unknown-variant'
  | 'target-count'
  | 'pipeline-failed'
  | 'released-twice'
  | 'unknown-lease'
  | 'bad-argument';

/**
 * Base class of every error weft throws: names the API that refused, and a stable code. A subclass fixes `Code` to
 * its own union of literals, so a throw site with an unknown code does not compile (`NoInfer`: the code argument
 * never widens `Code`).
 */
export class WeftError<Code extends string = WeftErrorCode> extends Error {
  readonly api: string;
  readonly code: Code;

  constructor(api: string, code: NoInfer<Code>, message: string) {
    super(`${api}: ${message}`);
    this.name = 'WeftError';
    this.api = api;
    this.code = code;
  }
}

/** @internal Formats a value for an error message: strings quoted, arrays and objects shortened. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  if (ArrayBuffer.isView(value))
    return `${value.constructor.name}(${(value as unknown as ArrayLike<unknown>).length ?? value.byteLength})`;
  if (Array.isArray(value)) return `array(${value.length})`;
  if (typeof value === 'function') return 'a function';
  return Object.prototype.toString.call(value);
}
