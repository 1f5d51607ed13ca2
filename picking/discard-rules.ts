import { describeValue } from '../composer/errors.js';
import { ComposeError, type MappedShaderMessage, ShaderCompileError } from '../composer/errors.js';
import { fnv1a64, stableStringify } from '../composer/hash.js';
import type { VertexSemantic } from '../engine/mesh-data.js';
import type { Mesh } from '../engine/mesh.js';
import { makeRuleHeader, type PickRuleStorageBinding } from '../fragments/pick-discard.js';
import { PickError } from './pick-errors.js';

/** A caller storage buffer a rule reads (read-only, in the extra group); `data(mesh)` gives each mesh's contents. */
export interface PickDiscardStorage {
  /** WGSL identifier the rule uses. */
  name: string;
  /** WGSL type, e.g. `array<f32>`, `array<vec4f>`, `vec4f`. */
  type: string;
  /** Also visible to the vertex stage (for world-adjust hooks); fragment-only by default. */
  vertex?: boolean;
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
  key: string;
  wgsl: string;
  worldAdjustWgsl?: string;
  storage?: readonly PickDiscardStorage[];
  vertexData?: PickVertexDataAttribute;
}

/** A validated rule: its storage bindings, and a digest of everything that shapes the shader. */
export interface CheckedRule {
  rule: PickDiscardRule;
  bindings: PickRuleStorageBinding[];
  digest: string;
}

const vertexDataSemantics: Record<PickVertexDataAttribute, VertexSemantic> = {
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
const storageTypePattern = new RegExp(`^(?:${element}|array<${element}(?:,\\s*[1-9][0-9]*)?>)$`);
const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;
const reserved = new Set(['pick', 'pickFrame', 'scene', 'draw', 'baseTexture', 'baseSampler']);

/** Checks a rule's shape; throws a PickError naming the rule key, the field and what is allowed. */
export function checkDiscardRule(api: string, rule: PickDiscardRule): CheckedRule {
  if (!rule || typeof rule !== 'object')
    throw new PickError(api, 'bad-rule', `discard ${describeValue(rule)} must be a PickDiscardRule object`);
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
      if (typeof s.name !== 'string' || !identifier.test(s.name) || reserved.has(s.name)) {
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

/** The mesh semantic a rule's `vertexData` reads. */
export function vertexDataSemantic(rule: PickDiscardRule): VertexSemantic | null {
  return rule.vertexData ? vertexDataSemantics[rule.vertexData] : null;
}

/** Checks that a mesh's attribute can feed `vertexData`: float32 formats only (float16, integer, normalized are refused). */
export function checkVertexDataFormat(api: string, rule: PickDiscardRule, mesh: Mesh, format: GPUVertexFormat): void {
  if (!/^float32(x[234])?$/.test(format)) {
    throw new PickError(
      api,
      'bad-vertex-data',
      `discard rule "${rule.key}": mesh "${mesh.name}" stores ${rule.vertexData} as ${format}; vertexData reads float32 formats only (float32, float32x2, float32x3, float32x4)`,
    );
  }
}

/** Reads a mesh's storage contents for a rule; throws when `data` returns something other than a view, null or undefined. */
export function readRuleStorage(
  api: string,
  rule: PickDiscardRule,
  storage: PickDiscardStorage,
  mesh: Mesh,
): ArrayBufferView | null {
  let value: unknown;
  try {
    value = storage.data(mesh);
  } catch (error) {
    throw new PickError(
      api,
      'bad-storage-data',
      `discard rule "${rule.key}": storage "${storage.name}" data(mesh "${mesh.name}") threw: ${(error as Error).message}`,
    );
  }
  if (value === null || value === undefined) return null;
  if (!ArrayBuffer.isView(value)) {
    throw new PickError(
      api,
      'bad-storage-data',
      `discard rule "${rule.key}": storage "${storage.name}" data(mesh "${mesh.name}") returned ${describeValue(value)}; expected an ArrayBufferView (e.g. Float32Array), null or undefined`,
    );
  }
  if (value.byteLength % 4 !== 0) {
    throw new PickError(
      api,
      'bad-storage-data',
      `discard rule "${rule.key}": storage "${storage.name}" data(mesh "${mesh.name}") holds ${value.byteLength} bytes; storage buffers need a multiple of 4`,
    );
  }
  return value;
}

/** Lines weft put before a rule's own WGSL in its fragment. */
export function ruleHeaderLines(checked: CheckedRule): number {
  return makeRuleHeader(checked.bindings).split('\n').length - 1;
}

function ruleMessages(checked: CheckedRule, messages: readonly MappedShaderMessage[]): string[] {
  const offset = ruleHeaderLines(checked);
  const sources: Record<string, [string, string]> = {
    'pick-discard-rule': ['wgsl', checked.rule.wgsl],
    'pick-world-adjust-rule': ['worldAdjustWgsl', checked.rule.worldAdjustWgsl ?? ''],
  };
  const signatures: Record<string, string> = {
    'pick-discard-rule': 'fn pickDiscard(input: PickDiscardInput) -> bool',
    'pick-world-adjust-rule': 'fn adjustPickWorld(input: PickWorldInput) -> vec3f',
  };
  return messages
    .filter((m) => m.type === 'error')
    .map((m) => {
      if (m.fragmentId.startsWith('weft:') && m.origin && signatures[m.origin]) {
        // The device complained about the call weft generates: the rule's function has the wrong shape.
        return `${sources[m.origin][0]}: the rule's function does not match ${signatures[m.origin]}: ${m.message}`;
      }
      const source = sources[m.fragmentId];
      if (!source || m.line <= offset) return `${m.fragmentId}:${m.line}:${m.column}: ${m.message}\n  ${m.lineText}`;
      const line = m.line - offset;
      if (line > source[1].split('\n').length) {
        // Past the rule's own lines: the glue weft appends calls the rule's function with the wrong shape.
        return `${source[0]}: the rule's function does not match ${signatures[m.fragmentId]}: ${m.message}`;
      }
      const text = source[1].split('\n')[line - 1] ?? m.lineText;
      return `${source[0]}:${line}:${m.column}: ${m.message}\n  ${text}\n  ${' '.repeat(Math.max(0, m.column - 1))}^`;
    });
}

/** Re-throws a compose or compile failure of a rule as a PickError naming the rule key and its own line and column. */
export function toRuleError(api: string, checked: CheckedRule, error: unknown): never {
  if (error instanceof ShaderCompileError || (error instanceof ComposeError && error.messages.length)) {
    const lines = ruleMessages(checked, error.messages);
    throw new PickError(
      api,
      'rule-compile',
      `discard rule "${checked.rule.key}" failed to compile:\n${lines.join('\n')}`,
    );
  }
  if (error instanceof PickError) throw error;
  if (error instanceof ComposeError) {
    // Composer messages count lines of the rule's fragment, which starts with weft's import header.
    const offset = ruleHeaderLines(checked);
    const message = error.message.replace(
      /fragment "(pick-discard-rule|pick-world-adjust-rule)" (.*?) at line (\d+)/,
      (_, id: string, what: string, line: string) =>
        `${id === 'pick-discard-rule' ? 'wgsl' : 'worldAdjustWgsl'} ${what} at line ${Number(line) - offset}`,
    );
    throw new PickError(api, 'rule-compile', `discard rule "${checked.rule.key}": ${message}`);
  }
  // Pipeline validation (e.g. a storage buffer used in a stage it is not visible to) and anything else.
  const message = (error as Error)?.message ?? String(error);
  const hint = /binding visibility/.test(message)
    ? ' (storage read by worldAdjustWgsl runs in the vertex stage: give that entry vertex: true)'
    : '';
  throw new PickError(api, 'rule-compile', `discard rule "${checked.rule.key}"${hint}: ${message}`);
}
