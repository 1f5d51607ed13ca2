import { type Fragment, fragmentModuleName, type SlotDecl, type SlotFill } from '../fragments/fragment-types.js';
import { ComposeError, type MappedShaderMessage } from './errors.js';
import { nearestName } from './fragment-checks.js';
import { sourceMessage } from './link-sources.js';
import { type Conditions, evaluateCondition } from './conditions.js';
import { canonicalWgslType, scanWgslModule, type WgslFunctionHeader, type WgslModuleScan } from './wgsl-headers.js';

const ioStructs: readonly string[] = ['VertexInput', 'VertexOutput', 'FragmentInput', 'FragmentOutput'];

/** A slot as `resolveSlots` collected it: its declaration, provider (null: a stage slot) and fillers. */
interface SlotToCheck {
  decl: SlotDecl;
  provider: Fragment | null;
  fills: readonly { fragment: Fragment; fill: SlotFill }[];
}

interface ScanMemo {
  source: string;
  imports: readonly string[] | undefined;
  scan: WgslModuleScan;
  /** Canonical types by context (`d` slot declaration, `f` function header) and spelling. */
  canonical: Map<string, string>;
}

let scanMemos: WeakMap<Fragment, ScanMemo> | undefined;
let stageMemo: Map<string, string> | undefined;

/** A fragment's scan, kept per fragment object while its `source` and `imports` stay the same values. */
function scanOf(fragment: Fragment): ScanMemo {
  scanMemos ??= new WeakMap();
  const memo = scanMemos.get(fragment);
  if (memo && memo.source === fragment.source && memo.imports === fragment.imports) return memo;
  const fresh: ScanMemo = {
    source: fragment.source,
    imports: fragment.imports,
    scan: scanWgslModule(fragment.source, Array.isArray(fragment.imports) ? fragment.imports : []),
    canonical: new Map(),
  };
  scanMemos.set(fragment, fresh);
  return fresh;
}

/** @internal A fragment's module-scope scan, kept per fragment object while its `source` and `imports` stay the same. */
export function scanFragmentModule(fragment: Fragment): WgslModuleScan {
  return scanOf(fragment).scan;
}

/**
 * The full path of a type name as the fragment's module sees it. In a slot declaration (`decl`) the io struct names
 * mean the generated structs whatever the provider imports, as in the generated slot functions.
 */
function resolveName(scan: WgslModuleScan, module: string, name: string, decl: boolean, seen: Set<string>): string {
  if (name.includes('::')) {
    const [first, ...rest] = name.split('::');
    const imported = first === 'package' || first === 'io' ? undefined : scan.imports.get(first);
    return imported ? [imported, ...rest].join('::') : name;
  }
  if (decl && ioStructs.includes(name)) return `io::${name}`;
  const alias = scan.aliases.get(name);
  if (alias !== undefined && !seen.has(name)) {
    seen.add(name);
    return canonicalWgslType(alias, (n) => resolveName(scan, module, n, decl, seen));
  }
  if (scan.structs.has(name)) return `package::${module}::${name}`;
  return scan.imports.get(name) ?? `?${name}`;
}

function canonical(fragment: Fragment | null, type: string, decl: boolean): string {
  // The composer's stage slots declare the same few io types on every compose: one small memo for them.
  const memo = fragment ? scanOf(fragment) : (stageMemo ??= new Map());
  const memos = memo instanceof Map ? memo : memo.canonical;
  const key = decl ? `d:${type}` : `f:${type}`;
  let found = memos.get(key);
  if (found === undefined) {
    const scan = fragment ? (memo as ScanMemo).scan : scanWgslModule('');
    const module = fragment ? fragmentModuleName(fragment.id) : '';
    found = canonicalWgslType(type, (n) => resolveName(scan, module, n, decl, new Set()));
    memos.set(key, found);
  }
  return found;
}

/** Paths dropped (`package::a::B` → `B`): how two types compare when either side names something unresolved. */
function bareNames(type: string): string {
  return type.replace(/\??(?:[A-Za-z_]\w*::)*([A-Za-z_]\w*)/g, '$1');
}

function sameType(expected: string, found: string): boolean {
  if (expected === found) return true;
  return (expected.includes('?') || found.includes('?')) && bareNames(expected) === bareNames(found);
}

interface FunctionRef {
  fragment: Fragment;
  fn: string;
  /** What the function is to the slot, for messages: `fills slot "s"`, `is the default of slot "s"`. */
  role: string;
}

function signatureText(params: readonly { name: string; type: string }[], returns: string | null | undefined): string {
  return `fn(${params.map((p) => `${p.name}: ${p.type}`).join(', ')})${returns ? ` -> ${returns}` : ''}`;
}

function signatureError(
  api: string,
  slot: SlotToCheck,
  ref: FunctionRef,
  what: string,
  at: { line: number; column: number } | null,
): ComposeError {
  const { fragment } = ref;
  const messages: MappedShaderMessage[] = at
    ? [sourceMessage({ path: fragment.id, text: fragment.source }, at.line, at.column, 'error', what)]
    : [];
  const where = at ? ` (line ${at.line})` : '';
  // The filler and the slot's provider disagree: either declaration may be the one at fault.
  const ids = slot.provider && slot.provider !== fragment ? [fragment.id, slot.provider.id] : [fragment.id];
  return new ComposeError(
    api,
    'slot-signature',
    ids,
    `fragment "${fragment.id}": fn ${ref.fn}${where} ${what}`,
    messages,
  );
}

type Params = readonly { name: string; type: string }[];

/** The first difference between a function header and the slot it serves, or null when they agree. */
function mismatch(
  slot: SlotToCheck,
  ref: FunctionRef,
  header: WgslFunctionHeader,
  params: Params,
  returns: string | undefined,
): string | null {
  // Message text is built only for a mismatch: a passing check is a few memoised string compares.
  const differ = (why: string) =>
    `${ref.role} but ${why}: expected ${signatureText(slot.decl.params, returns)}, found ${signatureText(params, header.returns)}`;
  const expected = slot.decl.params;
  if (!header.unreadableParams) {
    if (params.length !== expected.length)
      return differ(`takes ${params.length} parameter(s) where the slot passes ${expected.length}`);
    const at = expected.findIndex(
      (p, i) => !sameType(canonical(slot.provider, p.type, true), canonical(ref.fragment, params[i].type, false)),
    );
    if (at >= 0)
      return differ(
        `its parameter ${at + 1} (${params[at].name}) is ${params[at].type} where the slot passes ${expected[at].type}`,
      );
  }
  if (returns !== undefined && header.returns === null)
    return differ(`returns nothing where the slot returns ${returns}`);
  if (returns === undefined && header.returns !== null)
    return differ(`returns ${header.returns} where the slot returns nothing (the value would be dropped)`);
  if (
    returns !== undefined &&
    header.returns !== null &&
    !sameType(canonical(slot.provider, returns, true), canonical(ref.fragment, header.returns, false))
  )
    return differ(`returns ${header.returns} where the slot returns ${returns}`);
  return null;
}

function holds(expression: string, conditions: Conditions): boolean {
  try {
    return evaluateCondition(expression, conditions);
  } catch {
    return true; // a malformed @if is wesl's to report, at its line
  }
}

/** The declaration of a function wesl keeps under `conditions`: `@if` / `@elif` / `@else` chains in source order. */
function activeHeader(headers: readonly WgslFunctionHeader[], conditions: Conditions): WgslFunctionHeader | null {
  let taken = false;
  for (const header of headers) {
    const c = header.condition;
    let on = true;
    if (c?.kind === 'if') taken = on = holds(c.expression, conditions);
    else if (c?.kind === 'elif') {
      on = !taken && holds(c.expression, conditions);
      taken ||= on;
    } else if (c?.kind === 'else') on = !taken;
    if (on) return header;
  }
  return null;
}

/** What a passing check compared: the same slot declaration, header, scans and return type pass again unchecked. */
interface Verdict {
  decl: SlotDecl | string;
  header: WgslFunctionHeader;
  filler: ScanMemo;
  provider: ScanMemo | null;
  returns: string | undefined;
}

let verdicts: WeakMap<object, Verdict> | undefined;

function checkFunction(api: string, slot: SlotToCheck, ref: FunctionRef, by: object, conditions: Conditions): void {
  const returns = (slot.decl.combine ?? 'one') === 'all' ? undefined : slot.decl.returns || undefined;
  const filler = scanOf(ref.fragment);
  const headers = filler.scan.functions;
  const declared = headers.get(ref.fn);
  if (!declared) {
    const near = nearestName(ref.fn, headers.keys());
    const nearAt = near ? headers.get(near)![0] : null;
    throw signatureError(
      api,
      slot,
      ref,
      `${ref.role}, but its source declares no function ${ref.fn}${
        near ? ` (did you mean \`${near}\`, line ${nearAt!.line}?)` : ''
      }`,
      nearAt,
    );
  }
  const header = declared.length === 1 && !declared[0].condition ? declared[0] : activeHeader(declared, conditions);
  if (!header) {
    const ifs = declared.map((h) => `line ${h.line}`).join(', ');
    throw signatureError(
      api,
      slot,
      ref,
      `${ref.role}, but every declaration of ${ref.fn} (${ifs}) is under an @if that does not hold for conditions ${JSON.stringify(conditions)}`,
      declared[0],
    );
  }
  const provider = slot.provider ? scanOf(slot.provider) : null;
  // The composer makes its stage slots' declarations afresh on each compose: those are known by name.
  const decl = slot.provider ? slot.decl : slot.decl.name;
  const conditional = header.params.some((p) => p.when !== undefined);
  verdicts ??= new WeakMap();
  const seen = conditional ? undefined : verdicts.get(by);
  if (
    seen &&
    seen.decl === decl &&
    seen.header === header &&
    seen.filler === filler &&
    seen.provider === provider &&
    seen.returns === returns
  )
    return;
  const params = conditional
    ? header.params.filter((p) => p.when === undefined || holds(p.when, conditions))
    : header.params;
  const why = mismatch(slot, ref, header, params, returns);
  if (why) throw signatureError(api, slot, ref, why, header);
  if (!conditional) verdicts.set(by, { decl, header, filler, provider, returns });
}

/**
 * Checks every slot's fillers and default against the slot's declared signature before anything is linked: the
 * function must be declared in the fragment's source, take the slot's parameter count and types and return its
 * return type (nothing for a `combine: 'all'` slot). Types compare canonically (`vec3<f32>` is `vec3f`; struct names
 * by the module that declares them; the io structs by name). Of a function declared under `@if` / `@elif` / `@else`,
 * the declaration the conditions keep is checked, with the parameters whose `@if` holds.
 * @throws {ComposeError} `slot-signature`, naming the fragment, the function, its line and expected vs found
 * @internal
 */
export function checkSlotSignatures(api: string, slots: Iterable<SlotToCheck>, conditions: Conditions): void {
  for (const slot of slots) {
    const by = slot.provider ? `fragment "${slot.provider.id}"` : 'the composer';
    for (const { fragment, fill } of slot.fills)
      checkFunction(
        api,
        slot,
        { fragment, fn: fill.fn, role: `fills slot "${slot.decl.name}" (declared by ${by})` },
        fill,
        conditions,
      );
    if (slot.provider && slot.decl.default !== undefined)
      checkFunction(
        api,
        slot,
        { fragment: slot.provider, fn: slot.decl.default, role: `is the default of slot "${slot.decl.name}"` },
        slot.decl,
        conditions,
      );
  }
}
