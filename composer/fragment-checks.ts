import type {
  FeatureRequirement,
  Fragment,
  FragmentBuiltin,
  FragmentOutputDecl,
  FragmentVarying,
  FragmentVertexInput,
  SamplerBinding,
  SlotDecl,
  SlotFill,
  SlotParam,
  StorageTextureBinding,
  TextureBinding,
  UniformBinding,
} from '../fragments/fragment-types.js';
import type { OptionKeys } from '../core/options.js';
import { ComposeError } from './errors.js';

// Typed as OptionKeys<…>: a key added to (or removed from) a declaration interface fails to compile here until the
// list follows, so the check can never reject a key the types allow.
const fragmentKeys: OptionKeys<Fragment> = {
  id: true,
  source: true,
  imports: true,
  bindings: true,
  vertexInputs: true,
  varyings: true,
  builtins: true,
  outputs: true,
  requires: true,
  provides: true,
  fills: true,
  dependencies: true,
};
const bufferBindingKeys: OptionKeys<UniformBinding> = {
  name: true,
  role: true,
  visibility: true,
  when: true,
  kind: true,
  type: true,
  hasDynamicOffset: true,
  minBindingSize: true,
};
const textureBindingKeys: OptionKeys<TextureBinding> = {
  name: true,
  role: true,
  visibility: true,
  when: true,
  kind: true,
  sampleType: true,
  viewDimension: true,
  multisampled: true,
};
const storageTextureBindingKeys: OptionKeys<StorageTextureBinding> = {
  name: true,
  role: true,
  visibility: true,
  when: true,
  kind: true,
  format: true,
  access: true,
  viewDimension: true,
};
const samplerBindingKeys: OptionKeys<SamplerBinding> = {
  name: true,
  role: true,
  visibility: true,
  when: true,
  kind: true,
  samplerType: true,
};
const bindingKeysByKind: Readonly<Record<string, object>> = {
  uniform: bufferBindingKeys,
  storage: bufferBindingKeys,
  'read-only-storage': bufferBindingKeys,
  texture: textureBindingKeys,
  'storage-texture': storageTextureBindingKeys,
  sampler: samplerBindingKeys,
};
const anyBindingKeys = {
  ...bufferBindingKeys,
  ...textureBindingKeys,
  ...storageTextureBindingKeys,
  ...samplerBindingKeys,
};
const vertexInputKeys: OptionKeys<FragmentVertexInput> = {
  semantic: true,
  format: true,
  type: true,
  stepMode: true,
  when: true,
};
const varyingKeys: OptionKeys<FragmentVarying> = {
  name: true,
  type: true,
  interpolation: true,
  sampling: true,
  when: true,
};
const builtinKeys: OptionKeys<FragmentBuiltin> = { builtin: true, when: true };
const outputKeys: OptionKeys<FragmentOutputDecl> = { name: true, type: true, format: true, builtin: true, when: true };
const requirementKeys: OptionKeys<FeatureRequirement> = { feature: true, when: true };
const slotKeys: OptionKeys<SlotDecl> = {
  name: true,
  params: true,
  returns: true,
  required: true,
  default: true,
  combine: true,
};
const slotParamKeys: OptionKeys<SlotParam> = { name: true, type: true };
const fillKeys: OptionKeys<SlotFill> = { slot: true, fn: true };

/** The lists of a fragment whose items are declarations: item keys (null: by binding kind), and what an item is called. */
const listKeys: readonly [keyof Fragment, object | null, string][] = [
  ['bindings', null, 'a binding'],
  ['vertexInputs', vertexInputKeys, 'a vertex input'],
  ['varyings', varyingKeys, 'a varying'],
  ['builtins', builtinKeys, 'a builtin'],
  ['outputs', outputKeys, 'an output'],
  ['requires', requirementKeys, 'a feature requirement'],
  ['provides', slotKeys, 'a slot declaration'],
  ['fills', fillKeys, 'a slot fill'],
];

/**
 * Damerau–Levenshtein distance (optimal string alignment: a swap of two neighbours is one edit), for "did you mean".
 * @internal
 */
export function typoDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0].push(j);
        continue;
      }
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i].push(d);
    }
  }
  return rows[a.length][b.length];
}

/**
 * The candidate nearest to `word` (case-insensitive), when it is close enough to be a plausible typo: at most a third
 * of the longer word's letters edited (at least 1, at most 3). Ties go to the earlier candidate.
 * @internal
 */
export function nearestName(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const lower = word.toLowerCase();
  for (const candidate of candidates) {
    const distance = typoDistance(lower, candidate.toLowerCase());
    const limit = Math.min(3, Math.max(1, Math.floor(Math.max(word.length, candidate.length) / 3)));
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function checkKeys(
  api: string,
  fragment: Fragment,
  where: string,
  path: string,
  what: string,
  item: object,
  allowed: object,
): void {
  for (const key of Object.keys(item)) {
    if (Object.hasOwn(allowed, key)) continue;
    const keys = Object.keys(allowed);
    const near = nearestName(key, keys);
    const id = typeof fragment.id === 'string' ? fragment.id : undefined;
    throw new ComposeError(
      api,
      'unknown-key',
      id ? [id] : [],
      `${where}: ${path}${path ? '.' : ''}${key} is not a key of ${what}${near ? ` (did you mean \`${near}\`?)` : ''}; keys: ${keys.join(', ')}`,
    );
  }
}

function checkFragment(api: string, fragment: Fragment, position: number): void {
  const where =
    typeof fragment.id === 'string' ? `fragment "${fragment.id}"` : `fragment at position ${position} (no id)`;
  checkKeys(api, fragment, where, '', 'a fragment', fragment, fragmentKeys);
  const record = fragment as unknown as Record<string, unknown>;
  for (const [list, keys, what] of listKeys) {
    const items = record[list];
    if (!Array.isArray(items)) continue; // not a list: the pass that reads it says so
    items.forEach((item: unknown, i) => {
      if (!isRecord(item)) return;
      const path = `${list}[${i}]`;
      const byKind =
        typeof item.kind === 'string' && Object.hasOwn(bindingKeysByKind, item.kind)
          ? bindingKeysByKind[item.kind]
          : undefined;
      const allowed = keys ?? byKind ?? anyBindingKeys;
      checkKeys(api, fragment, where, path, !keys && byKind ? `a ${item.kind} binding` : what, item, allowed);
      if (list === 'provides' && Array.isArray(item.params))
        item.params.forEach((param: unknown, j) => {
          if (isRecord(param))
            checkKeys(api, fragment, where, `${path}.params[${j}]`, 'a slot param', param, slotParamKeys);
        });
    });
  }
}

/** The top-level field values each fragment was checked with, by fragment object (see `checkFragmentKeys`). */
let checkedFragments: WeakMap<object, unknown[]> | undefined;

function sameValues(fragment: object, values: unknown[]): boolean {
  let i = 0;
  for (const key in fragment) {
    if (values[i++] !== key || values[i++] !== (fragment as Record<string, unknown>)[key]) return false;
  }
  return i === values.length;
}

/**
 * Checks that every key of each fragment and of each declaration in its lists (bindings, vertex inputs, varyings,
 * builtins, outputs, feature requirements, slot declarations and their params, slot fills) is a declared one, so a
 * typo (`fill` for `fills`) is an error instead of a silently missing declaration. Each fragment object is checked
 * once, like its compose digest: re-checked only when a top-level field is replaced (nested in-place edits are not
 * seen, as the digest does not see them either).
 * @throws {ComposeError} `unknown-key`, naming the fragment, the key's path and the nearest declared key
 * @internal
 */
export function checkFragmentKeys(api: string, fragments: readonly Fragment[]): void {
  if (!Array.isArray(fragments)) return;
  checkedFragments ??= new WeakMap();
  fragments.forEach((fragment: unknown, position) => {
    if (!isRecord(fragment)) return;
    const memo = checkedFragments!.get(fragment);
    if (memo && sameValues(fragment, memo)) return;
    checkFragment(api, fragment as unknown as Fragment, position);
    const values: unknown[] = [];
    for (const key in fragment) values.push(key, fragment[key]);
    checkedFragments!.set(fragment, values);
  });
}
