/** Base class of every error weft throws: names the API that refused, and a stable code. */
export class WeftError extends Error {
  readonly api: string;
  readonly code: string;

  constructor(api: string, code: string, message: string) {
    super(`${api}: ${message}`);
    this.name = 'WeftError';
    this.api = api;
    this.code = code;
  }
}

/** Formats a value for an error message: strings quoted, arrays and objects shortened. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${(value as unknown as ArrayLike<unknown>).length ?? value.byteLength})`;
  if (Array.isArray(value)) return `array(${value.length})`;
  if (typeof value === 'function') return 'a function';
  return Object.prototype.toString.call(value);
}
