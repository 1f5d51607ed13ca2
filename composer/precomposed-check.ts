// Where a precomposed table enters (usePrecomposedShaders, weftVariants): every entry's shape checked against what a
// runtime reads from a ComposedShader, and against its own code, without the linker (a page built by weft-gpu/vite
// has none). A table that passes is copied and frozen, so later edits of the caller's object cannot bypass the check.
import { describeValue } from '../core/errors.js';
import { ComposeError } from './errors.js';
import { fnv1a64, stableStringify } from './hash.js';
import type { PrecomposedShaders } from './precomposed.js';
import { precomposedFormat, precomposedWeftVersion } from './precomposed.js';
import { vertexFormatInfo } from './vertex-formats.js';
import { semanticScalarKind } from './vertex-layout.js';
import { isWgslIdentifier, wgslScalarKind } from './wgsl-names.js';

const rebuild =
  'rebuild the page (vite build) so virtual:weft-variants is composed by the weft it runs with, or make the table again with makePrecomposedShaders';

/**
 * The integrity digest of an entry's shader data (`PrecomposedEntry.digest`): FNV-1a 64 of its canonical JSON.
 * @internal
 */
export function precomposedDigestOf(shader: unknown): string {
  return fnv1a64(stableStringify(shader));
}

type Fail = (field: string, got: unknown, expected: string) => never;

/** A `got` already worded for the message (not a value to describe). */
const said = (text: string) => ({ said: text });

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

function arrayOf(fail: Fail, field: string, value: unknown): unknown[] {
  if (!Array.isArray(value)) fail(field, value, 'an array');
  return value as unknown[];
}

function stringField(fail: Fail, field: string, value: unknown, identifier = false): string {
  if (typeof value !== 'string' || value === '' || (identifier && !isWgslIdentifier(value)))
    fail(field, value, identifier ? 'a WGSL identifier' : 'a non-empty string');
  return value as string;
}

function stringArray(fail: Fail, field: string, value: unknown): void {
  arrayOf(fail, field, value).forEach((v, i) => stringField(fail, `${field}[${i}]`, v));
}

/** `@group(g) @binding(b) var<…> name: type;` declarations of the code, by `g:b`. */
function declaredBindings(code: string): Map<string, { name: string; kind: string; type: string }> {
  const out = new Map<string, { name: string; kind: string; type: string }>();
  const re =
    /@group\(\s*(\d+)\s*\)\s*@binding\(\s*(\d+)\s*\)\s*var(?:<\s*([a-z_]+)\s*(?:,\s*([a-z_]+)\s*)?>)?\s+([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([^;=]+)/g;
  for (const m of code.matchAll(re)) {
    const [, g, b, space, access, name, type] = m;
    const t = type.trim();
    const kind =
      space === 'uniform'
        ? 'uniform'
        : space === 'storage'
          ? access === 'read_write'
            ? 'storage'
            : 'read-only-storage'
          : t.startsWith('texture_storage_')
            ? 'storageTexture'
            : t.startsWith('texture_external')
              ? 'externalTexture'
              : t.startsWith('texture_')
                ? 'texture'
                : t.startsWith('sampler')
                  ? 'sampler'
                  : 'unknown';
    out.set(`${Number(g)}:${Number(b)}`, { name, kind, type: t });
  }
  return out;
}

/** `@location(n) name: type` members of `struct name { … }` in the code. */
function structLocations(code: string, struct: string): Map<number, { name: string; type: string }> | null {
  const start = new RegExp(`struct\\s+${struct}\\s*\\{`).exec(code);
  if (!start) return null;
  const body = code.slice(start.index + start[0].length, code.indexOf('}', start.index));
  const out = new Map<number, { name: string; type: string }>();
  for (const m of body.matchAll(
    /@location\(\s*(\d+)\s*\)(?:\s*@[a-z_]+(?:\([^)]*\))?)*\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([^,\n]+)/g,
  ))
    out.set(Number(m[1]), { name: m[2], type: m[3].trim().replace(/,$/, '') });
  return out;
}

function entryKind(entry: Record<string, unknown>): string | null {
  const kinds = ['buffer', 'texture', 'sampler', 'storageTexture', 'externalTexture'].filter(
    (k) => entry[k] !== undefined,
  );
  if (kinds.length !== 1 || !isRecord(entry[kinds[0]])) return null;
  if (kinds[0] !== 'buffer') return kinds[0];
  const type = (entry.buffer as { type?: unknown }).type ?? 'uniform';
  return typeof type === 'string' && ['uniform', 'storage', 'read-only-storage'].includes(type) ? type : null;
}

function checkBindGroups(fail: Fail, shader: Record<string, unknown>, code: string, module: boolean): void {
  const groups = arrayOf(fail, 'bindGroups', shader.bindGroups);
  const declared = module ? declaredBindings(code) : null;
  const seen = new Set<string>();
  groups.forEach((group, g) => {
    const at = `bindGroups[${g}]`;
    if (!isRecord(group)) fail(at, group, '{ group, role, entries, bindings }');
    if (group.group !== g) fail(`${at}.group`, group.group, `${g} (its index)`);
    if (group.role !== null && typeof group.role !== 'string') fail(`${at}.role`, group.role, 'a role name or null');
    const entries = arrayOf(fail, `${at}.entries`, group.entries);
    const bindings = arrayOf(fail, `${at}.bindings`, group.bindings);
    if (bindings.length !== entries.length)
      fail(`${at}.bindings`, said(`${bindings.length} binding(s)`), `one per entry (${entries.length})`);
    entries.forEach((entry, i) => {
      const e = `${at}.entries[${i}]`;
      if (!isRecord(entry)) fail(e, entry, 'a GPUBindGroupLayoutEntry');
      if (!isIndex(entry.binding)) fail(`${e}.binding`, entry.binding, 'a binding number (integer ≥ 0)');
      const visibility = entry.visibility;
      if (!isIndex(visibility) || visibility < 1 || visibility > 7)
        fail(`${e}.visibility`, visibility, 'GPUShaderStage bits (1..7)');
      const kind = entryKind(entry);
      if (!kind)
        fail(
          e,
          entry,
          'exactly one of buffer { type: uniform | storage | read-only-storage }, texture, sampler, storageTexture, externalTexture',
        );
      const binding = bindings[i];
      if (!isRecord(binding))
        fail(`${at}.bindings[${i}]`, binding, '{ name, group, binding, kind, wgslType, fragments }');
      const name = stringField(fail, `${at}.bindings[${i}].name`, binding.name, true);
      stringField(fail, `${at}.bindings[${i}].wgslType`, binding.wgslType);
      if (!module) return;
      const slot = `${g}:${entry.binding}`;
      if (seen.has(slot)) fail(`${e}.binding`, entry.binding, `a binding number not already used in group ${g}`);
      seen.add(slot);
      if (binding.group !== g || binding.binding !== entry.binding)
        fail(
          `${at}.bindings[${i}]`,
          said(`@group(${binding.group}) @binding(${binding.binding})`),
          `@group(${g}) @binding(${entry.binding}) (its entry's)`,
        );
      // An entry the code does not declare is allowed (wesl drops an unused declaration; the layout keeps it).
      const decl = declared!.get(slot);
      if (!decl) return;
      if (decl.name !== name)
        fail(`${at}.bindings[${i}].name`, name, `"${decl.name}" (the code's @group(${g}) @binding(${entry.binding}))`);
      if (decl.kind !== kind)
        fail(e, said(String(kind)), `a ${decl.kind} entry (the code declares var ${decl.name}: ${decl.type})`);
    });
  });
  if (declared)
    for (const [slot, decl] of declared)
      if (!seen.has(slot))
        fail(
          'bindGroups',
          said(`no entry for @group(${slot.replace(':', ') @binding(')}) var ${decl.name}`),
          'an entry for every binding the code declares',
        );
}

function checkVertex(fail: Fail, shader: Record<string, unknown>, code: string, module: boolean): void {
  const inputs = arrayOf(fail, 'vertexInputs', shader.vertexInputs);
  const buffers = arrayOf(fail, 'vertexBuffers', shader.vertexBuffers);
  const sources = arrayOf(fail, 'vertexBufferSources', shader.vertexBufferSources);
  if (sources.length !== buffers.length || !sources.every(isIndex))
    fail('vertexBufferSources', sources, `one buffer index (integer ≥ 0) per vertex buffer (${buffers.length})`);
  const attributes = new Map<number, { format: string; buffer: number }>();
  buffers.forEach((buffer, b) => {
    const at = `vertexBuffers[${b}]`;
    if (!isRecord(buffer)) fail(at, buffer, 'a GPUVertexBufferLayout');
    if (!isIndex(buffer.arrayStride) || buffer.arrayStride % 4 !== 0)
      fail(`${at}.arrayStride`, buffer.arrayStride, 'a multiple of 4');
    if (buffer.stepMode !== 'vertex' && buffer.stepMode !== 'instance')
      fail(`${at}.stepMode`, buffer.stepMode, '"vertex" or "instance"');
    arrayOf(fail, `${at}.attributes`, buffer.attributes).forEach((attribute, a) => {
      const aat = `${at}.attributes[${a}]`;
      if (!isRecord(attribute)) fail(aat, attribute, '{ shaderLocation, offset, format }');
      if (!isIndex(attribute.shaderLocation) || attributes.has(attribute.shaderLocation))
        fail(`${aat}.shaderLocation`, attribute.shaderLocation, 'a location (integer ≥ 0) no other attribute uses');
      if (!isIndex(attribute.offset) || attribute.offset % 4 !== 0)
        fail(`${aat}.offset`, attribute.offset, 'a multiple of 4');
      const info = typeof attribute.format === 'string' ? vertexFormatInfo(attribute.format) : null;
      if (!info) fail(`${aat}.format`, attribute.format, 'a GPUVertexFormat');
      attributes.set(attribute.shaderLocation as number, { format: attribute.format as string, buffer: b });
    });
  });
  // A vertex-pulled module reads its inputs from storage buffers (PulledVertexInput): no @location to compare.
  const pulled = /\bPulledVertexInput\b/.test(code);
  const locations = module && !pulled ? structLocations(code, 'VertexInput') : null;
  if (module && !pulled && !locations)
    fail('code', said('code without struct VertexInput'), 'a composed module (it declares VertexInput)');
  let located = 0;
  inputs.forEach((input, i) => {
    const at = `vertexInputs[${i}]`;
    if (!isRecord(input)) fail(at, input, '{ semantic, location, wgslType, stepMode, format, buffer, fragments }');
    const semantic = stringField(fail, `${at}.semantic`, input.semantic, true);
    const wgslType = stringField(fail, `${at}.wgslType`, input.wgslType);
    const kind = wgslScalarKind(wgslType);
    if (!kind) fail(`${at}.wgslType`, wgslType, 'a numeric scalar or vector type');
    const info = typeof input.format === 'string' ? vertexFormatInfo(input.format) : null;
    if (!info || info.kind !== kind)
      fail(`${at}.format`, input.format, `a ${kind} GPUVertexFormat (it feeds ${wgslType})`);
    const wanted = semanticScalarKind(semantic);
    if (wanted && wanted !== kind)
      fail(`${at}.wgslType`, wgslType, `a ${wanted} type (vertex input "${semantic}" is ${wanted})`);
    stringArray(fail, `${at}.fragments`, input.fragments);
    // A vertex-pulled input (location -1) is read from a storage buffer, not fed by a vertex attribute.
    if (pulled && input.location === -1) return;
    located++;
    const attribute = isIndex(input.location) ? attributes.get(input.location) : undefined;
    if (!attribute) fail(`${at}.location`, input.location, 'the shaderLocation of one vertexBuffers attribute');
    if (attribute!.format !== input.format || attribute!.buffer !== input.buffer)
      fail(
        at,
        said(`${input.format} in buffer ${input.buffer}`),
        `${attribute!.format} in buffer ${attribute!.buffer} (vertexBuffers' attribute at location ${input.location})`,
      );
    const member = locations?.get(input.location as number);
    if (locations && (!member || member.name !== semantic || member.type !== wgslType))
      fail(
        at,
        said(`@location(${input.location}) ${semantic}: ${wgslType}`),
        `what the code's VertexInput declares there (${member ? `${member.name}: ${member.type}` : 'nothing'})`,
      );
  });
  if (attributes.size !== located)
    fail('vertexBuffers', said(`${attributes.size} attribute(s)`), `one per vertex input (${located})`);
  if (locations && locations.size !== located)
    fail(
      'vertexInputs',
      said(`${located} input(s)`),
      `one per @location of the code's VertexInput (${locations.size})`,
    );
}

function checkTargets(fail: Fail, shader: Record<string, unknown>, code: string, module: boolean): void {
  const targets = arrayOf(fail, 'targets', shader.targets);
  const outputs = module && shader.fragmentEntryPoint !== null ? structLocations(code, 'FragmentOutput') : null;
  targets.forEach((target, i) => {
    const at = `targets[${i}]`;
    if (!isRecord(target)) fail(at, target, '{ name, location, wgslType, format, fragment }');
    if (target.location !== i) fail(`${at}.location`, target.location, `${i} (its index)`);
    const name = stringField(fail, `${at}.name`, target.name, true);
    const wgslType = stringField(fail, `${at}.wgslType`, target.wgslType);
    if (target.format !== null && typeof target.format !== 'string')
      fail(`${at}.format`, target.format, 'a GPUTextureFormat or null');
    const member = outputs?.get(i);
    if (outputs && (!member || member.name !== name || member.type !== wgslType))
      fail(
        at,
        said(`@location(${i}) ${name}: ${wgslType}`),
        `what the code's FragmentOutput declares there (${member ? `${member.name}: ${member.type}` : 'nothing'})`,
      );
  });
  if (outputs && outputs.size !== targets.length)
    fail(
      'targets',
      said(`${targets.length} target(s)`),
      `one per @location of the code's FragmentOutput (${outputs.size})`,
    );
}

function checkShader(fail: Fail, shader: Record<string, unknown>): void {
  if (typeof shader.key !== 'string' || !/^[0-9a-f]{16}$/.test(shader.key)) fail('key', shader.key, '16 hex digits');
  const code = stringField(fail, 'code', shader.code);
  if (shader.output !== 'module' && shader.output !== 'library') fail('output', shader.output, '"module" or "library"');
  const module = shader.output === 'module';
  const vertex = stringField(fail, 'vertexEntryPoint', shader.vertexEntryPoint, true);
  const fragment = shader.fragmentEntryPoint;
  if (fragment !== null) stringField(fail, 'fragmentEntryPoint', fragment, true);
  const declares = (stage: string, name: string) =>
    new RegExp(`${module ? `@${stage}\\s+` : '(^|\\n)'}fn\\s+${name}\\s*\\(`).test(code);
  if (!declares('vertex', vertex))
    fail('vertexEntryPoint', vertex, `a function the code declares${module ? ' @vertex' : ''}`);
  if (fragment !== null && !declares('fragment', fragment as string))
    fail('fragmentEntryPoint', fragment, `a function the code declares${module ? ' @fragment' : ''}, or null`);
  if (module ? shader.stageResources !== null : !isRecord(shader.stageResources))
    fail('stageResources', shader.stageResources, module ? 'null (a module)' : '{ vertex, fragment } (a library)');
  if (!module) {
    const resources = shader.stageResources as Record<string, unknown>;
    stringArray(fail, 'stageResources.vertex', resources.vertex);
    stringArray(fail, 'stageResources.fragment', resources.fragment);
  }
  checkBindGroups(fail, shader, code, module);
  checkVertex(fail, shader, code, module);
  checkTargets(fail, shader, code, module);
  arrayOf(fail, 'features', shader.features).forEach((f, i) => {
    if (!isRecord(f) || typeof f.feature !== 'string') fail(`features[${i}]`, f, '{ feature, fragments }');
  });
  arrayOf(fail, 'varyings', shader.varyings);
  arrayOf(fail, 'slots', shader.slots);
  stringArray(fail, 'fragments', shader.fragments);
  if (!isRecord(shader.conditions) || !Object.values(shader.conditions).every((v) => v === true))
    fail('conditions', shader.conditions, 'the true conditions ({ name: true })');
  if (
    !isRecord(shader.constants) ||
    !Object.values(shader.constants).every((v) => typeof v === 'number' || typeof v === 'string')
  )
    fail('constants', shader.constants, '{ name: number | string }');
  if (!isRecord(shader.bufferLayouts))
    fail('bufferLayouts', shader.bufferLayouts, 'an object of buffer layouts by binding name');
}

/**
 * Checks that `table` is a precomposed table this weft can use and returns a frozen copy of it: the format and the
 * weft version it was built by (a skewed table is refused as a whole), and every entry's shape — its name, its
 * integrity digest, and each `ComposedShader` field a runtime reads (code, entry points declared in the code, bind
 * groups matching the code's `@group/@binding` declarations, vertex buffers and inputs matching the code's
 * `VertexInput`, targets matching its `FragmentOutput`, layouts). No linker: a page built by weft-gpu/vite runs it.
 * @throws {ComposeError} `stale-precomposed-table` for another format or weft version; `bad-precomposed-table` naming the entry, the field and what was expected
 * @internal
 */
export function checkPrecomposedShaders(api: string, table: unknown): PrecomposedShaders {
  const bad = (what: string) =>
    new ComposeError(
      api,
      'bad-precomposed-table',
      [],
      `${what}; pass the default export of 'virtual:weft-variants' (the weftVariants() plugin of weft-gpu/vite)`,
    );
  if (!isRecord(table)) throw bad(`table ${describeValue(table)} is not an object`);
  if (table.format !== precomposedFormat || table.weft !== precomposedWeftVersion) {
    const seen = typeof table.format === 'string' && table.format.startsWith('weft-precomposed/');
    if (!seen) throw bad(`table format ${describeValue(table.format)} is not ${JSON.stringify(precomposedFormat)}`);
    throw new ComposeError(
      api,
      'stale-precomposed-table',
      [],
      `the table was built as ${describeValue(table.format)} by weft ${describeValue(table.weft)}, but this page runs weft ${precomposedWeftVersion} (${precomposedFormat}); ${rebuild}`,
    );
  }
  if (!isRecord(table.shaders)) throw bad(`table.shaders ${describeValue(table.shaders)} is not an object`);
  const copy = structuredClone(table) as unknown as PrecomposedShaders;
  for (const [key, entry] of Object.entries(copy.shaders as Record<string, unknown>)) {
    const name = isRecord(entry) && typeof entry.name === 'string' ? entry.name : null;
    const where = `table.shaders[${JSON.stringify(key)}]${name !== null ? ` (variant "${name}")` : ''}`;
    const fail: Fail = (field, got, expected) => {
      throw new ComposeError(
        api,
        'bad-precomposed-table',
        [],
        `${where}.${field} is ${isRecord(got) && typeof got.said === 'string' ? got.said : describeValue(got)}, expected ${expected}; ${rebuild}`,
      );
    };
    if (!/^[0-9a-f]{16}$/.test(key)) throw bad(`${where}: the key is not 16 hex digits (precomposedKeyOf)`);
    if (!isRecord(entry)) throw bad(`${where} ${describeValue(entry)} is not { name, digest, shader }`);
    if (typeof entry.name !== 'string' || entry.name === '') fail('name', entry.name, 'the variant name (a string)');
    if (!isRecord(entry.shader)) fail('shader', entry.shader, 'the composed shader as data');
    if (entry.digest !== precomposedDigestOf(entry.shader))
      fail(
        'digest',
        entry.digest,
        `${precomposedDigestOf(entry.shader)} (its shader's digest: the entry was edited after the build)`,
      );
    checkShader(
      (field, got, expected) => fail(`shader.${field}`, got, expected),
      entry.shader as Record<string, unknown>,
    );
  }
  return deepFreeze(copy);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
