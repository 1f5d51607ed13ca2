import type { BindingRole, Fragment, FragmentBinding, ShaderStageName } from '../fragments/fragment-types.js';
import { bindingRoles as roles, type ResolvedBindingPolicy } from './binding-policy.js';
import { bindingWgslType, failBinding } from './binding-types.js';
import type { Conditions } from './conditions.js';
import { describeValue } from '../core/errors.js';
import { ComposeError } from './errors.js';
import { activeItems } from './fragment-graph.js';
import { type GeneratedModule, makeModuleWriter } from './generated-module.js';
import { isWgslIdentifier } from './wgsl-names.js';

// GPUShaderStage values, spelled out so the composer needs no WebGPU globals.
const stageBits: Readonly<Record<ShaderStageName, number>> = { vertex: 1, fragment: 2, compute: 4 };

/** One assigned binding of a composed shader. */
export interface ComposedBinding {
  name: string;
  group: number;
  binding: number;
  kind: FragmentBinding['kind'];
  /** The WGSL type as declared in the generated `bindings` module (user names fully qualified). */
  wgslType: string;
  /** Fragments declaring it (shared when identical), in fragment order. */
  fragments: string[];
}

/** One bind group of a composed shader: `entries` is ready for `createBindGroupLayout`. */
export interface ComposedBindGroup {
  group: number;
  /** null for a group no role is placed in (a group the host keeps for itself under a binding policy). */
  role: BindingRole | null;
  entries: GPUBindGroupLayoutEntry[];
  bindings: ComposedBinding[];
}

interface Collected {
  decl: FragmentBinding;
  wgslType: string;
  /** Everything but visibility, canonical: two declarations share a binding only when these are equal. */
  signature: string;
  visibility: number;
  fragments: string[];
}

function declarationOf(c: Collected): string {
  const d = c.decl;
  const space =
    d.kind === 'uniform'
      ? '<uniform>'
      : d.kind === 'storage'
        ? '<storage, read_write>'
        : d.kind === 'read-only-storage'
          ? '<storage, read>'
          : '';
  return `var${space} ${d.name}: ${c.wgslType};`;
}

function layoutEntry(c: Collected, binding: number): GPUBindGroupLayoutEntry {
  const d = c.decl;
  const entry: GPUBindGroupLayoutEntry = { binding, visibility: c.visibility };
  switch (d.kind) {
    case 'uniform':
    case 'storage':
    case 'read-only-storage':
      entry.buffer = {
        type: d.kind,
        ...(d.hasDynamicOffset ? { hasDynamicOffset: true } : {}),
        ...(d.minBindingSize !== undefined ? { minBindingSize: d.minBindingSize } : {}),
      };
      break;
    case 'texture':
      entry.texture = {
        sampleType: d.sampleType,
        viewDimension: d.viewDimension,
        multisampled: d.multisampled === true,
      };
      break;
    case 'storage-texture':
      entry.storageTexture = { access: d.access, format: d.format, viewDimension: d.viewDimension };
      break;
    case 'sampler':
      entry.sampler = { type: d.samplerType };
      break;
  }
  return entry;
}

function describeBinding(c: { decl: FragmentBinding; wgslType: string }): string {
  const d = c.decl;
  const extra = 'hasDynamicOffset' in d && d.hasDynamicOffset ? ', dynamic offset' : '';
  const size = 'minBindingSize' in d && d.minBindingSize !== undefined ? `, minBindingSize ${d.minBindingSize}` : '';
  return `${d.kind} ${c.wgslType} in role ${d.role}${extra}${size}`;
}

/**
 * Collects the active bindings of the fragments (in fragment order), shares identical ones, rejects clashes,
 * and assigns `@group` by role (through the policy) and `@binding` by name within the group, from the policy's first
 * binding. Returns the groups and the `bindings` module; in a library (`declare: 'private'`) the module declares each
 * resource as a `var<private>` without `@group/@binding`, which the library's stage functions fill from parameters.
 * @internal
 */
export function assignBindings(
  api: string,
  ordered: readonly Fragment[],
  conditions: Conditions,
  policy: ResolvedBindingPolicy,
  declare: 'binding' | 'private' = 'binding',
): { groups: ComposedBindGroup[]; module: GeneratedModule } {
  const byName = new Map<string, Collected>();
  for (const fragment of ordered) {
    for (const decl of activeItems(api, fragment, fragment.bindings, conditions)) {
      collectBinding(api, fragment, decl, byName);
    }
  }
  const used = [...byName.values()];
  for (const c of used) checkPlaceable(api, c, policy, declare);
  const groups = assignGroups(used, policy);
  return { groups, module: writeBindingsModule(groups, used, declare) };
}

function checkBindingDecl(api: string, fragment: Fragment, decl: FragmentBinding): void {
  if (typeof decl?.name !== 'string' || !isWgslIdentifier(decl.name))
    failBinding(api, fragment, decl, 'name must be a WGSL identifier');
  if (!roles.includes(decl.role))
    failBinding(api, fragment, decl, `role ${describeValue(decl.role)} is not one of ${roles.join(', ')}`);
  if (!Array.isArray(decl.visibility) || !decl.visibility.length || !decl.visibility.every((s) => s in stageBits)) {
    failBinding(
      api,
      fragment,
      decl,
      `visibility ${describeValue(decl.visibility)} must list stages among vertex, fragment, compute`,
    );
  }
}

/** Adds one binding declaration; declarations of one name are shared only when all but their visibility agree. */
function collectBinding(api: string, fragment: Fragment, decl: FragmentBinding, byName: Map<string, Collected>): void {
  checkBindingDecl(api, fragment, decl);
  const wgslType = bindingWgslType(api, fragment, decl);
  const signature =
    JSON.stringify(layoutEntry({ decl, wgslType, signature: '', visibility: 0, fragments: [] }, 0)) +
    decl.role +
    wgslType;
  const visibility = decl.visibility.reduce((bits: number, s: ShaderStageName) => bits | stageBits[s], 0);
  const existing = byName.get(decl.name);
  if (!existing) {
    byName.set(decl.name, { decl, wgslType, signature, visibility, fragments: [fragment.id] });
  } else if (existing.signature !== signature) {
    const ids = [...new Set([...existing.fragments, fragment.id])];
    throw new ComposeError(
      api,
      'binding-clash',
      ids,
      `binding "${decl.name}" is declared by fragment "${existing.fragments[0]}" as ${describeBinding(existing)} and by fragment "${fragment.id}" as ${describeBinding({ decl, wgslType })}; ` +
        'fragments share a binding only when kind, type and role are identical (a struct type is identical only when it comes from the same fragment): rename one or move it into a shared dependency',
    );
  } else {
    existing.visibility |= visibility;
    if (!existing.fragments.includes(fragment.id)) existing.fragments.push(fragment.id);
  }
}

/** The policy gives the binding's role a group, and a library can pass the binding as a value. */
function checkPlaceable(
  api: string,
  c: Collected,
  policy: ResolvedBindingPolicy,
  declare: 'binding' | 'private',
): void {
  if (policy.groups[c.decl.role] === null)
    throw new ComposeError(
      api,
      'binding-policy',
      c.fragments,
      `binding "${c.decl.name}" of fragment "${c.fragments[0]}" is in role ${c.decl.role}, which the binding policy gives no group (maxBindGroups ${policy.maxBindGroups}); groups: ${JSON.stringify(policy.groups)}`,
    );
  if (declare === 'private' && c.decl.kind !== 'uniform')
    throw new ComposeError(
      api,
      'library-resource',
      c.fragments,
      `binding "${c.decl.name}" of fragment "${c.fragments[0]}" is a ${c.decl.kind}; library output passes resources to its stage functions as values, which only uniform buffers can be (textures, samplers and storage buffers in a library are not supported yet)`,
    );
}

/** Every group up to the last used one, each role's bindings sorted by name from the role's first binding. */
function assignGroups(used: readonly Collected[], policy: ResolvedBindingPolicy): ComposedBindGroup[] {
  const groups: ComposedBindGroup[] = [];
  const lastGroup = Math.max(-1, ...used.map((c) => policy.groups[c.decl.role]!));
  for (let group = 0; group <= lastGroup; group++) {
    const role = roles.find((r) => policy.groups[r] === group) ?? null;
    const first = role ? policy.firstBinding[role] : 0;
    const members = used
      .filter((c) => c.decl.role === role)
      .sort((a, b) => (a.decl.name < b.decl.name ? -1 : a.decl.name > b.decl.name ? 1 : 0));
    groups.push({
      group,
      role,
      entries: members.map((c, i) => layoutEntry(c, first + i)),
      bindings: members.map((c, i) => ({
        name: c.decl.name,
        group,
        binding: first + i,
        kind: c.decl.kind,
        wgslType: c.wgslType,
        fragments: c.fragments,
      })),
    });
  }
  return groups;
}

/** The `bindings` module: one declaration per binding, group by group, in binding order. */
function writeBindingsModule(
  groups: readonly ComposedBindGroup[],
  used: readonly Collected[],
  declare: 'binding' | 'private',
): GeneratedModule {
  const writer = makeModuleWriter('bindings');
  const byName = new Map(used.map((c) => [c.decl.name, c]));
  for (const { group, bindings } of groups) {
    for (const b of bindings) {
      const c = byName.get(b.name)!;
      writer.line(
        declare === 'private'
          ? `var<private> ${c.decl.name}: ${c.wgslType};`
          : `@group(${group}) @binding(${b.binding}) ${declarationOf(c)}`,
        c.fragments[0],
      );
    }
  }
  return writer.done();
}
