import { describeValue } from './errors.js';

/**
 * Builds the API's own typed error with code `bad-option` (e.g. `(api, m) => new EngineError(api, 'bad-option', m)`);
 * `checkOptionKeys` throws what it returns.
 */
type OptionErrorFactory = (api: string, message: string) => Error;

/**
 * Every key of an options type, as a record: `const keys: OptionKeys<EngineOptions> = { label: true, … }` fails to
 * compile when a key is missing or unknown, so the checked list stays in step with the interface.
 * @internal
 */
export type OptionKeys<T> = { readonly [K in keyof Required<T>]: true };

/**
 * Describes an argument for a message like `describeValue`, but a plain object lists its keys (`an object { width }`)
 * instead of `[object Object]`: the usual mistake is an options object passed where a name belongs.
 * @internal
 */
export function describeArgument(value: unknown): string {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value))
    return `an object { ${Object.keys(value).join(', ')} }`;
  return describeValue(value);
}

/** Edit distance between two short strings (option names), for the "did you mean" hint. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** The allowed key closest to `key` (case-insensitive match first, then at most 2 edits), if any. */
function closestKey(key: string, allowedKeys: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const sameCase = allowedKeys.find((k) => k.toLowerCase() === lower);
  if (sameCase) return sameCase;
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.floor(key.length / 2));
  for (const allowed of allowedKeys) {
    const distance = editDistance(lower, allowed.toLowerCase());
    if (distance <= bestDistance && (best === undefined || distance < bestDistance)) {
      best = allowed;
      bestDistance = distance;
    }
  }
  return best;
}

function allowedList(allowedKeys: readonly string[] | { readonly [key: string]: true }): string {
  return (Array.isArray(allowedKeys) ? allowedKeys : Object.keys(allowedKeys)).join(', ');
}

/**
 * Checks a public options object so a typo never passes silently: `undefined` passes (options omitted); anything but
 * an object (null, an array, a typed array, a number, a string) and any own key not in `allowedKeys` (even one set to
 * `undefined`: a misspelt key is a typo whatever its value) throws `makeError(api, message)`, the API's typed error
 * with code `bad-option`. The message names the unknown key, the closest allowed key when one is close, and every
 * allowed key: `unknown option "fov" (did you mean "fovY"?); allowed: fovY, near, far, …`.
 *
 * `allowedKeys` is a list or an `OptionKeys<T>` record. `what` names the object in the message when it is not the
 * call's `options` (`config`, `meshOptions`, `policy`).
 * @internal
 */
export function checkOptionKeys<T>(
  api: string,
  options: T,
  allowedKeys: readonly string[] | { readonly [key: string]: true },
  makeError: OptionErrorFactory,
  what = 'options',
): T {
  if (options === undefined) return options;
  // Hot APIs (picks) check their options on every call: the key list's text is only built for an error message.
  if (options === null || typeof options !== 'object' || Array.isArray(options) || ArrayBuffer.isView(options))
    throw makeError(
      api,
      `${what} ${describeValue(options)} must be an object with any of: ${allowedList(allowedKeys)}`,
    );
  const keys = Object.keys(options);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (Array.isArray(allowedKeys) ? allowedKeys.includes(key) : Object.hasOwn(allowedKeys, key)) continue;
    const near = closestKey(key, Array.isArray(allowedKeys) ? allowedKeys : Object.keys(allowedKeys));
    const hint = near ? ` (did you mean ${JSON.stringify(near)}?)` : '';
    const kind = what === 'options' ? 'option' : `${what} key`;
    throw makeError(api, `unknown ${kind} ${JSON.stringify(key)}${hint}; allowed: ${allowedList(allowedKeys)}`);
  }
  return options;
}

/** What an option's value must be, for the options `checkOptionTypes` checks. */
type OptionType = 'boolean' | 'function' | 'finite-number' | 'string';

function hasOptionType(value: unknown, type: OptionType): boolean {
  if (type === 'finite-number') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === type;
}

/**
 * Checks the type of each listed option that is present (`undefined` means "not given" and passes).
 * @throws the error `makeError` builds, naming the option, its value and the type it must have.
 * @internal
 */
export function checkOptionTypes(
  api: string,
  options: object | undefined,
  types: { readonly [key: string]: OptionType },
  makeError: OptionErrorFactory,
): void {
  if (!options) return;
  const record = options as Record<string, unknown>;
  for (const [key, type] of Object.entries(types)) {
    const value = record[key];
    if (value === undefined || hasOptionType(value, type)) continue;
    const expected = type === 'boolean' ? 'true or false' : type === 'finite-number' ? 'a finite number' : `a ${type}`;
    throw makeError(api, `${key} ${describeArgument(value)} must be ${expected}`);
  }
}
