import { checkOptionKeys } from '../core/options.js';
import { describeValue } from '../core/errors.js';
import { ComposeError, type MappedShaderMessage, ShaderCompileError } from '../composer/errors.js';
import { fnv1a64, stableStringify } from '../composer/hash.js';
import { generatedPath, locate } from '../composer/link.js';
import type { Mesh } from '../engine/mesh.js';
import type { PickSubject } from './sources/pick-source.js';
import { weftPickSource as source } from './sources/weft-pick-source.js';
import type { PickRuleStorageBinding } from '../fragments/pick-discard.js';
import { PickError, type PickRuleMessage } from './pick-errors.js';

/** A caller storage buffer a rule reads (read-only, in the extra group); `data(mesh)` gives each mesh's contents. */
export interface PickDiscardStorage {
  /** WGSL identifier the rule uses. */
  name: string;
  /** WGSL type, e.g. `array<f32>`, `array<vec4f>`, `vec4f`. */
  type: string;
  /** Also visible to the vertex stage (for world-adjust hooks); fragment-only by default. */
  vertex?: boolean;
  /** The buffer contents for `mesh`, read at each pick (a multiple of 4 bytes); null or undefined when it has none. */
  data: (mesh: Mesh) => ArrayBufferView | null | undefined;
}

/** The mesh attribute a rule receives as `vertexData` (flat, zero-padded vec4f). */
export type PickVertexDataAttribute = 'normal' | 'uv' | 'uv2' | 'tangent' | 'color';

/**
 * A custom pick rule: `wgsl` defines `fn pickDiscard(input: PickDiscardInput) -> bool` (true drops the
 * fragment, so the surface behind it wins); `worldAdjustWgsl` may define
 * `fn adjustPickWorld(input: PickWorldInput) -> vec3f`, the world position used for projection.
 */
export interface PickDiscardRule {
  /**
   * Names the rule. Live-editing a rule under one key is cheap in memory: a text replaced under its key is released
   * (pipelines, then shader modules) once no pick in flight uses it, keeping the last 4 such texts compiled.
   */
  key: string;
  wgsl: string;
  worldAdjustWgsl?: string;
  storage?: readonly PickDiscardStorage[];
  vertexData?: PickVertexDataAttribute;
}

/** @internal A validated rule: its storage bindings, and a digest of everything that shapes the shader. */
export interface CheckedRule {
  rule: PickDiscardRule;
  bindings: PickRuleStorageBinding[];
  digest: string;
}

const vertexDataSemantics: Record<PickVertexDataAttribute, string> = {
  normal: 'normal',
  uv: 'uv',
  uv2: 'uv2',
  tangent: 'tangent',
  color: 'color',
};
const scalar = '(?:f32|i32|u32|f16)';
const vector = `(?:vec[234][fiuh]|vec[234]<${scalar}>)`;
const matrix = `(?:mat[234]x[234][fh]|mat[234]x[234]<(?:f32|f16)>)`;
const element = `(?:${scalar}|${vector}|${matrix})`;
const storageTypePattern = /* @__PURE__ */ new RegExp(`^(?:${element}|array<${element}(?:,\\s*[1-9][0-9]*)?>)$`);
const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;
const reserved: readonly string[] = Object.freeze(['pick', 'pickFrame', 'scene', 'draw', 'baseTexture', 'baseSampler']);

/** @internal Checks a rule's shape; throws a PickError naming the rule key, the field and what is allowed. */
export function checkDiscardRule(api: string, rule: PickDiscardRule): CheckedRule {
  if (!rule || typeof rule !== 'object')
    throw new PickError(api, 'bad-rule', `discard ${describeValue(rule)} must be a PickDiscardRule object`);
  checkOptionKeys(
    api,
    rule,
    ['key', 'wgsl', 'worldAdjustWgsl', 'storage', 'vertexData'],
    (where, message) => new PickError(where, 'bad-rule', message),
    'discard rule',
  );
  const key = rule.key;
  if (typeof key !== 'string' || key.length === 0)
    throw new PickError(api, 'bad-rule', `discard rule key ${describeValue(key)} must be a non-empty string`);
  const where = `discard rule "${key}"`;
  if (typeof rule.wgsl !== 'string')
    throw new PickError(api, 'bad-rule', `${where}: wgsl ${describeValue(rule.wgsl)} must be a string of WGSL`);
  if (!/\bfn\s+pickDiscard\s*\(/.test(rule.wgsl)) {
    throw new PickError(
      api,
      'bad-rule',
      `${where}: wgsl must define fn pickDiscard(input: PickDiscardInput) -> bool (true discards the fragment)`,
    );
  }
  if (
    rule.worldAdjustWgsl !== undefined &&
    (typeof rule.worldAdjustWgsl !== 'string' || !/\bfn\s+adjustPickWorld\s*\(/.test(rule.worldAdjustWgsl))
  ) {
    throw new PickError(
      api,
      'bad-rule',
      `${where}: worldAdjustWgsl must define fn adjustPickWorld(input: PickWorldInput) -> vec3f`,
    );
  }
  if (rule.vertexData !== undefined && !(rule.vertexData in vertexDataSemantics)) {
    throw new PickError(
      api,
      'bad-rule',
      `${where}: vertexData ${describeValue(rule.vertexData)} is not allowed; use one of ${Object.keys(vertexDataSemantics).join(', ')}`,
    );
  }
  if (rule.storage !== undefined && !Array.isArray(rule.storage))
    throw new PickError(api, 'bad-rule', `${where}: storage ${describeValue(rule.storage)} must be an array`);
  const seen = new Set<string>();
  const bindings = (rule.storage ?? [])
    .map((s, i) => {
      const at = `${where}: storage[${i}]`;
      if (!s || typeof s !== 'object')
        throw new PickError(api, 'bad-rule', `${at} ${describeValue(s)} must be { name, type, data }`);
      if (typeof s.name !== 'string' || !identifier.test(s.name) || reserved.includes(s.name)) {
        throw new PickError(
          api,
          'bad-rule',
          `${at}.name ${describeValue(s.name)} must be a WGSL identifier other than ${[...reserved].join(', ')}`,
        );
      }
      if (seen.has(s.name)) throw new PickError(api, 'bad-rule', `${at}.name "${s.name}" is used twice`);
      seen.add(s.name);
      if (typeof s.type !== 'string' || !storageTypePattern.test(s.type.replace(/\s+/g, ' ').trim())) {
        throw new PickError(
          api,
          'bad-rule',
          `${at}.type ${describeValue(s.type)} is not a storage type weft can bind; use a scalar, vector or matrix type or array<…> of one (e.g. array<f32>, array<vec4f>)`,
        );
      }
      if (typeof s.data !== 'function')
        throw new PickError(
          api,
          'bad-rule',
          `${at}.data ${describeValue(s.data)} must be a function (mesh) => ArrayBufferView | null | undefined`,
        );
      return { name: s.name, type: s.type.trim(), vertex: s.vertex === true };
    })
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const digest = fnv1a64(
    stableStringify({
      wgsl: rule.wgsl,
      worldAdjust: rule.worldAdjustWgsl ?? null,
      bindings,
      vertexData: rule.vertexData ?? null,
    }),
  );
  return { rule, bindings, digest };
}

/** @internal The mesh semantic a rule's `vertexData` reads. */
export function vertexDataSemantic(rule: PickDiscardRule): string | null {
  return rule.vertexData ? vertexDataSemantics[rule.vertexData] : null;
}

/**
 * Checks that a mesh's attribute can feed `vertexData`: float32 formats only (float16, integer, normalized are refused).
 * @internal
 */
export function checkVertexDataFormat(
  api: string,
  rule: PickDiscardRule,
  mesh: PickSubject,
  format: GPUVertexFormat,
): void {
  if (!/^float32(x[234])?$/.test(format)) {
    throw new PickError(
      api,
      'bad-format',
      `discard rule "${rule.key}": mesh "${mesh.name}" stores ${rule.vertexData} as ${format}; vertexData reads float32 formats only (float32, float32x2, float32x3, float32x4)`,
    );
  }
}

/**
 * Reads a mesh's storage contents for a rule; throws when `data` returns something other than a view, null or undefined.
 * @internal
 */
export function readRuleStorage(
  api: string,
  rule: PickDiscardRule,
  storage: PickDiscardStorage,
  mesh: PickSubject,
): ArrayBufferView | null {
  let value: unknown;
  try {
    value = storage.data(source.objectOf(mesh));
  } catch (error) {
    throw new PickError(
      api,
      'bad-data',
      `discard rule "${rule.key}": storage "${storage.name}" data(mesh "${mesh.name}") threw: ${(error as Error).message}`,
    );
  }
  if (value === null || value === undefined) return null;
  if (!ArrayBuffer.isView(value)) {
    throw new PickError(
      api,
      'bad-data',
      `discard rule "${rule.key}": storage "${storage.name}" data(mesh "${mesh.name}") returned ${describeValue(value)}; expected an ArrayBufferView (e.g. Float32Array), null or undefined`,
    );
  }
  if (value.byteLength % 4 !== 0) {
    throw new PickError(
      api,
      'bad-data',
      `discard rule "${rule.key}": storage "${storage.name}" data(mesh "${mesh.name}") holds ${value.byteLength} bytes; storage buffers need a multiple of 4`,
    );
  }
  return value;
}

/** The texts of a rule that compile messages point into. */
interface PickRuleTexts {
  wgsl: string;
  worldAdjustWgsl?: string;
}

/** The rule text each rule fragment holds, and the function weft calls in it. */
const ruleFragments: Record<string, { file: 'wgsl' | 'worldAdjustWgsl'; fn: string; signature: string }> = {
  'pick-discard-rule': {
    file: 'wgsl',
    fn: 'pickDiscard',
    signature: 'fn pickDiscard(input: PickDiscardInput) -> bool',
  },
  'pick-world-adjust-rule': {
    file: 'worldAdjustWgsl',
    fn: 'adjustPickWorld',
    signature: 'fn adjustPickWorld(input: PickWorldInput) -> vec3f',
  },
};

/**
 * Locates the compile messages of a composed rule in the rule's own texts. A rule fragment's source is the rule's text
 * from line 1 (the composer supplies its imports), so positions carry over unchanged. A message on weft's call of the
 * rule's function (the generated slot, or the world-adjust call after the rule's last line) means the function does
 * not match its signature: it points at the function's declaration. Messages about weft's own code keep their source.
 * @internal
 */
export function locateRuleMessages(
  rule: PickRuleTexts,
  messages: readonly MappedShaderMessage[],
  signatureMismatch = false,
): PickRuleMessage[] {
  return messages.map((m) => {
    const own = ruleFragments[m.fragmentId];
    const called = m.fragmentId === generatedPath('slots') && m.origin ? ruleFragments[m.origin] : undefined;
    const target = own ?? called;
    const { type, message } = m;
    if (!target) return { file: m.fragmentId, line: m.line, column: m.column, type, message, lineText: m.lineText };
    const text = rule[target.file] ?? '';
    // The composer's signature check points at the rule's own `fn` line; it is still worded as the rule's mismatch.
    if (own && !signatureMismatch && m.line <= text.split('\n').length)
      return { file: target.file, line: m.line, column: m.column, type, message, lineText: m.lineText };
    const at = locate(text, Math.max(0, text.search(new RegExp(`\\bfn\\s+${target.fn}\\b`))));
    return {
      file: target.file,
      line: at.line,
      column: at.column,
      type,
      message: `the rule's function does not match ${target.signature}: ${message}`,
      lineText: at.lineText,
    };
  });
}

function formatRuleMessage(m: PickRuleMessage): string {
  return `${m.file}:${m.line}:${m.column}: ${m.message}\n  ${m.lineText}\n  ${' '.repeat(Math.max(0, m.column - 1))}^`;
}

/**
 * Re-throws a compose or compile failure of a rule as a PickError naming the rule key and its own line and column.
 * @internal
 */
export function toRuleError(api: string, checked: CheckedRule, error: unknown): never {
  if (error instanceof PickError) throw error;
  if ((error instanceof ShaderCompileError || error instanceof ComposeError) && error.messages.length) {
    const signature = error instanceof ComposeError && error.code === 'slot-signature';
    const messages = locateRuleMessages(checked.rule, error.messages, signature);
    const errors = messages.filter((m) => m.type === 'error').map(formatRuleMessage);
    throw new PickError(
      api,
      'rule-compile',
      `discard rule "${checked.rule.key}" failed to compile:\n${errors.join('\n')}`,
      messages,
    );
  }
  if (error instanceof ComposeError)
    throw new PickError(api, 'rule-compile', `discard rule "${checked.rule.key}": ${error.message}`);
  // Pipeline validation (e.g. a storage buffer used in a stage it is not visible to) and anything else.
  const message = (error as Error)?.message ?? String(error);
  const hint = /binding visibility/.test(message)
    ? ' (storage read by worldAdjustWgsl runs in the vertex stage: give that entry vertex: true)'
    : '';
  throw new PickError(api, 'rule-compile', `discard rule "${checked.rule.key}"${hint}: ${message}`);
}
