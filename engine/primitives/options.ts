import { describeValue } from '../../core/errors.js';
import { checkOptionKeys } from '../../core/options.js';
import { EngineError, engineOptionError } from '../engine-errors.js';

/** Largest segment / subdivision count a primitive accepts (keeps a typo from allocating gigabytes). */
export const maxPrimitiveSegments = 1024;

/** @internal Checks that `options` is an object with only the `allowed` keys; returns it (or `{}`). */
export function checkPrimitiveOptions<T extends object>(
  api: string,
  options: T | undefined,
  allowed: readonly string[],
): Partial<T> {
  return checkOptionKeys(api, options, allowed, engineOptionError) ?? {};
}

/** @internal A finite size > 0 (or the default when undefined). */
export function checkPositiveSize(api: string, option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new EngineError(api, 'bad-option', `${option} ${describeValue(value)} must be a finite number > 0`);
  }
  return value;
}

/** @internal An integer segment count in min..maxPrimitiveSegments (or the default when undefined). */
export function checkSegmentCount(api: string, option: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > maxPrimitiveSegments) {
    throw new EngineError(
      api,
      'bad-option',
      `${option} ${describeValue(value)} must be an integer in ${min}..${maxPrimitiveSegments}`,
    );
  }
  return value;
}
