import type { BindingRole } from '../fragments/fragment-types.js';
import { describeValue } from '../core/errors.js';
import { checkOptionKeys } from '../core/options.js';
import { ComposeError } from './errors.js';

/**
 * Where a host wants weft's bind groups: the `@group` of each role and the first `@binding` index. A host that owns
 * group 0 (three.js, Babylon.js, its own engine) moves weft's roles above it.
 */
export interface BindingPolicy {
  /**
   * `@group` of each role. When given, it is the whole map: a role left out has no group, and a variant that uses a
   * binding of that role is refused. Default `{ scene: 0, mesh: 1, material: 2, extra: 3 }`.
   */
  groups?: Readonly<Partial<Record<BindingRole, number>>>;
  /** First `@binding` index, for every group (a number) or per role. Default 0. */
  firstBinding?: number | Readonly<Partial<Record<BindingRole, number>>>;
  /** The device's `limits.maxBindGroups` (the composer has no device). Default 4, the WebGPU default limit. */
  maxBindGroups?: number;
}

/** @internal A checked policy: a group (or null) and a first binding for every role. */
export interface ResolvedBindingPolicy {
  groups: Readonly<Record<BindingRole, number | null>>;
  firstBinding: Readonly<Record<BindingRole, number>>;
  maxBindGroups: number;
  /** True when the groups and first bindings are weft's default (then the policy is left out of the key). */
  isDefault: boolean;
}

/** @internal The roles in their default group order. */
export const bindingRoles: readonly BindingRole[] = ['scene', 'mesh', 'material', 'extra'];

/** Group index of each role by default. Groups are not compacted: a role keeps its index in every variant. */
const bindGroupOfRole: Readonly<Record<BindingRole, number>> = { scene: 0, mesh: 1, material: 2, extra: 3 };

const defaultMaxBindGroups = 4;

function refuse(api: string, message: string): never {
  throw new ComposeError(api, 'binding-policy', [], `bindings: ${message}`);
}

function checkRoleKeys(api: string, what: string, value: object): void {
  for (const key of Object.keys(value))
    if (!bindingRoles.includes(key as BindingRole))
      refuse(api, `${what} has key ${describeValue(key)}; the roles are ${bindingRoles.join(', ')}`);
}

function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * Checks a binding policy and fills in the defaults.
 * @throws {ComposeError} `binding-policy` on an unknown key or role, a negative or non-integer index, a group at or
 * above `maxBindGroups`, or two roles in one group
 * @internal
 */
export function resolveBindingPolicy(api: string, policy: BindingPolicy | undefined): ResolvedBindingPolicy {
  checkOptionKeys(
    api,
    policy,
    ['groups', 'firstBinding', 'maxBindGroups'],
    (a, message) => new ComposeError(a, 'binding-policy', [], message),
    'bindings',
  );
  const p = policy ?? {};
  const maxBindGroups = p.maxBindGroups ?? defaultMaxBindGroups;
  if (!isIndex(maxBindGroups) || maxBindGroups < 1)
    refuse(api, `maxBindGroups ${describeValue(maxBindGroups)} must be a positive integer (the device's limit)`);
  const groups: Record<BindingRole, number | null> = { ...bindGroupOfRole };
  if (p.groups !== undefined) {
    if (!p.groups || typeof p.groups !== 'object' || Array.isArray(p.groups))
      refuse(api, `groups ${describeValue(p.groups)} must map roles to group indices`);
    checkRoleKeys(api, 'groups', p.groups);
    const owner = new Map<number, BindingRole>();
    for (const role of bindingRoles) {
      const group = p.groups[role];
      if (group === undefined) {
        groups[role] = null;
        continue;
      }
      if (!isIndex(group) || group >= maxBindGroups)
        refuse(
          api,
          `groups.${role} ${describeValue(group)} must be an integer in 0..${maxBindGroups - 1} (maxBindGroups ${maxBindGroups})`,
        );
      const other = owner.get(group);
      if (other) refuse(api, `groups.${other} and groups.${role} are both ${group}; each role needs its own group`);
      owner.set(group, role);
      groups[role] = group;
    }
  } else if (maxBindGroups < bindingRoles.length) {
    // Default groups above the limit are refused only when a variant uses them (see assignBindings).
    for (const role of bindingRoles) if (groups[role]! >= maxBindGroups) groups[role] = null;
  }
  const firstBinding: Record<BindingRole, number> = { scene: 0, mesh: 0, material: 0, extra: 0 };
  const first = p.firstBinding;
  if (typeof first === 'number' || first === undefined) {
    if (first !== undefined && !isIndex(first))
      refuse(api, `firstBinding ${describeValue(first)} must be a non-negative integer`);
    for (const role of bindingRoles) firstBinding[role] = first ?? 0;
  } else {
    if (!first || typeof first !== 'object' || Array.isArray(first))
      refuse(api, `firstBinding ${describeValue(first)} must be a number or map roles to numbers`);
    checkRoleKeys(api, 'firstBinding', first);
    for (const role of bindingRoles) {
      const value = first[role] ?? 0;
      if (!isIndex(value)) refuse(api, `firstBinding.${role} ${describeValue(value)} must be a non-negative integer`);
      firstBinding[role] = value;
    }
  }
  // The limit only validates: the same groups under a larger limit give the same shader, and the same key.
  const isDefault = bindingRoles.every(
    (r) => (groups[r] === bindGroupOfRole[r] || groups[r] === null) && firstBinding[r] === 0,
  );
  return { groups, firstBinding, maxBindGroups, isDefault };
}

/** @internal The policy as data for a key (roles without a group are left out). */
export function canonicalBindingPolicy(policy: ResolvedBindingPolicy): Record<string, unknown> {
  const groups: Record<string, number> = {};
  for (const role of bindingRoles) if (policy.groups[role] !== null) groups[role] = policy.groups[role]!;
  return { groups, firstBinding: { ...policy.firstBinding } };
}
