import { type Fragment, fragmentModuleName, type SlotDecl, type SlotFill } from '../fragments/fragment-types.js';
import { describeValue } from '../core/errors.js';
import type { Conditions } from './conditions.js';
import { ComposeError } from './errors.js';
import { type GeneratedModule, makeModuleWriter } from './generated-module.js';
import { checkSlotSignatures } from './slot-signatures.js';
import { isWgslIdentifier, qualifyWgslType } from './wgsl-names.js';

/** Slots the composer itself provides: the stage functions the generated entry points call. */
const stageSlots = { vertex: 'vertexStage', fragment: 'fragmentStage' } as const;

const ioStructs = ['VertexInput', 'VertexOutput', 'FragmentInput', 'FragmentOutput'];

/** How one slot was resolved. */
export interface ComposedSlot {
  name: string;
  /** The providing fragment, or null for the composer's stage slots. */
  provider: string | null;
  /** Filling fragments in call order. */
  fillers: string[];
  usesDefault: boolean;
}

/** @internal A fragment function a generated module calls. */
export interface StageFunction {
  fragment: string;
  fn: string;
  /** `package::<module>::<fn>`. */
  path: string;
}

interface Provided {
  decl: SlotDecl;
  provider: Fragment | null;
  fills: { fragment: Fragment; fill: SlotFill }[];
}

function invalid(api: string, fragment: Fragment, what: string): never {
  throw new ComposeError(api, 'invalid-fragment', [fragment.id], `fragment "${fragment.id}" ${what}`);
}

function checkDecl(api: string, fragment: Fragment, decl: SlotDecl): void {
  if (typeof decl?.name !== 'string' || !isWgslIdentifier(decl.name))
    invalid(api, fragment, `provides a slot named ${describeValue(decl?.name)}; a slot name is a WGSL identifier`);
  const where = `slot "${decl.name}"`;
  if (
    !Array.isArray(decl.params) ||
    !decl.params.every((p) => isWgslIdentifier(p?.name) && typeof p.type === 'string' && p.type.trim())
  ) {
    invalid(
      api,
      fragment,
      `${where} has params ${describeValue(decl.params)}; expected [{ name, type }] with WGSL identifiers and types`,
    );
  }
  const combine = decl.combine ?? 'one';
  if (combine !== 'one' && combine !== 'all')
    invalid(api, fragment, `${where} has combine ${describeValue(decl.combine)}; use "one" or "all"`);
  if (combine === 'all' && decl.returns)
    invalid(api, fragment, `${where} combines "all" fillers, so it cannot return ${describeValue(decl.returns)}`);
  if (decl.default !== undefined && !isWgslIdentifier(decl.default))
    invalid(
      api,
      fragment,
      `${where} has default ${describeValue(decl.default)}; expected a function name of its source`,
    );
  if (!decl.required && combine === 'one' && decl.returns && decl.default === undefined) {
    invalid(api, fragment, `${where} is optional and returns ${decl.returns}, so it needs a default function`);
  }
}

/**
 * Resolves slots: checks providers and fillers, and writes the `slots` module, where each slot is a function that
 * forwards to its filler (or calls every filler for `all`, or the provider's default). Returns the stage functions.
 * Fillers and defaults are checked against their slot's signature first (`conditions` pick among `@if` declarations).
 * @internal
 */
export function resolveSlots(
  api: string,
  ordered: readonly Fragment[],
  hasOutputs: boolean,
  conditions: Conditions,
): {
  slots: ComposedSlot[];
  module: GeneratedModule;
  vertexStage: StageFunction;
  fragmentStage: StageFunction | null;
} {
  const provided = collectProvidedSlots(api, ordered, hasOutputs);
  collectFills(api, ordered, provided);
  checkSlotSignatures(api, provided.values(), conditions);
  const names = [...provided.keys()].sort();
  for (const name of names) checkFillCount(api, name, provided.get(name)!);
  const slots: ComposedSlot[] = [];
  const w = makeModuleWriter('slots');
  const stages: { vertex: StageFunction | null; fragment: StageFunction | null } = { vertex: null, fragment: null };
  for (const name of names) {
    const { decl, provider, fills } = provided.get(name)!;
    const usesDefault = fills.length === 0 && decl.default !== undefined;
    slots.push({ name, provider: provider?.id ?? null, fillers: fills.map((f) => f.fragment.id), usesDefault });
    if (provider) {
      writeSlotFunction(w, name, provider, provided.get(name)!);
    } else if (fills.length) {
      const stage = {
        fragment: fills[0].fragment.id,
        fn: fills[0].fill.fn,
        path: pathOf(fills[0].fragment, fills[0].fill.fn),
      };
      if (name === stageSlots.vertex) stages.vertex = stage;
      else stages.fragment = stage;
    }
  }
  return { slots, module: w.done(), vertexStage: stages.vertex!, fragmentStage: stages.fragment };
}

function pathOf(fragment: Fragment, fn: string): string {
  return `package::${fragmentModuleName(fragment.id)}::${fn}`;
}

/** The composer's stage slots and every slot a fragment provides (one provider per slot). */
function collectProvidedSlots(api: string, ordered: readonly Fragment[], hasOutputs: boolean): Map<string, Provided> {
  const provided = new Map<string, Provided>([
    [
      stageSlots.vertex,
      {
        decl: {
          name: stageSlots.vertex,
          params: [{ name: 'input', type: 'VertexInput' }],
          returns: 'VertexOutput',
          required: true,
        },
        provider: null,
        fills: [],
      },
    ],
    [
      stageSlots.fragment,
      {
        decl: {
          name: stageSlots.fragment,
          params: [{ name: 'input', type: 'FragmentInput' }],
          returns: hasOutputs ? 'FragmentOutput' : undefined,
        },
        provider: null,
        fills: [],
      },
    ],
  ]);
  for (const fragment of ordered) {
    for (const decl of fragment.provides ?? []) {
      checkDecl(api, fragment, decl);
      const existing = provided.get(decl.name);
      if (existing) {
        const by = existing.provider ? `fragment "${existing.provider.id}"` : 'the composer (stage slot)';
        throw new ComposeError(
          api,
          'slot-conflict',
          [...(existing.provider ? [existing.provider.id] : []), fragment.id],
          `slot "${decl.name}" is provided by ${by} and by fragment "${fragment.id}"; a slot has one provider`,
        );
      }
      provided.set(decl.name, { decl, provider: fragment, fills: [] });
    }
  }
  return provided;
}

/** Adds each fragment's fills to the slot it names, in fragment order. */
function collectFills(api: string, ordered: readonly Fragment[], provided: ReadonlyMap<string, Provided>): void {
  for (const fragment of ordered) {
    for (const fill of fragment.fills ?? []) {
      if (typeof fill?.fn !== 'string' || !isWgslIdentifier(fill.fn))
        invalid(
          api,
          fragment,
          `fills slot ${describeValue(fill?.slot)} with ${describeValue(fill?.fn)}; expected a function name of its source`,
        );
      const slot = provided.get(fill.slot);
      if (!slot) {
        throw new ComposeError(
          api,
          'unknown-slot',
          [fragment.id],
          `fragment "${fragment.id}" fills slot ${describeValue(fill.slot)}, which no composed fragment provides; slots: ${[...provided.keys()].sort().join(', ')}`,
        );
      }
      slot.fills.push({ fragment, fill });
    }
  }
}

/** A `one` slot has at most one filler; a required slot has at least one. */
function checkFillCount(api: string, name: string, { decl, provider, fills }: Provided): void {
  const fillerIds = fills.map((f) => f.fragment.id);
  if ((decl.combine ?? 'one') === 'one' && fills.length > 1) {
    throw new ComposeError(
      api,
      'slot-conflict',
      fillerIds,
      `slot "${name}" takes one filler but fragments ${fillerIds.map((id) => `"${id}"`).join(', ')} all fill it; compose only one of them`,
    );
  }
  if (fills.length === 0 && decl.required) {
    const by = provider
      ? `provided by fragment "${provider.id}"`
      : `the ${name === stageSlots.vertex ? 'vertex' : 'fragment'} entry point`;
    throw new ComposeError(
      api,
      'missing-slot',
      provider ? [provider.id] : [],
      `required slot "${name}" (${by}) has no filler; add a fragment with fills: [{ slot: "${name}", fn: … }] and signature fn(${decl.params.map((p) => `${p.name}: ${p.type}`).join(', ')})${decl.returns ? ` -> ${decl.returns}` : ''}`,
    );
  }
}

/** The slot's function in the `slots` module: it calls the filler(s), or the provider's default. */
function writeSlotFunction(
  w: ReturnType<typeof makeModuleWriter>,
  name: string,
  provider: Fragment,
  { decl, fills }: Provided,
): void {
  const qualify = (type: string) =>
    qualifyWgslType(type, (n) =>
      ioStructs.includes(n) ? `io::${n}` : `package::${fragmentModuleName(provider.id)}::${n}`,
    );
  const params = decl.params.map((p) => `${p.name}: ${qualify(p.type)}`).join(', ');
  const args = decl.params.map((p) => p.name).join(', ');
  w.line(`fn ${name}(${params})${decl.returns ? ` -> ${qualify(decl.returns)}` : ''} {`, provider.id);
  const calls = fills.length
    ? fills.map((f) => ({ id: f.fragment.id, path: pathOf(f.fragment, f.fill.fn) }))
    : decl.default !== undefined
      ? [{ id: provider.id, path: pathOf(provider, decl.default) }]
      : [];
  for (const call of calls) w.line(`  ${decl.returns ? 'return ' : ''}${call.path}(${args});`, call.id);
  w.line('}', provider.id);
  w.line('');
}
