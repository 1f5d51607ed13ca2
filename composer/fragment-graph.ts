import { type Fragment, fragmentModuleName } from '../fragments/fragment-types.js';
import { type Conditions, evaluateCondition } from './conditions.js';
import { describeValue } from '../core/errors.js';
import { ComposeError } from './errors.js';
import { checkFragmentKeys } from './fragment-checks.js';
import { locate, sourceMessage } from './link.js';

/** Module names the composer generates; fragment ids may not map to them. */
const generatedModuleNames: readonly string[] = ['bindings', 'constants', 'io', 'slots', 'weft_main'];

/** Fragments in dependency order (dependencies first, ties by id): the order every assignment uses. */
interface FragmentGraph {
  ordered: readonly Fragment[];
  byId: ReadonlyMap<string, Fragment>;
}

const idPattern = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;

/** @internal Checks ids and dependencies and sorts the fragments; throws ComposeError naming the fragments at fault. */
export function orderFragments(api: string, fragments: readonly Fragment[]): FragmentGraph {
  const byId = checkFragmentGraph(api, fragments);
  return { ordered: sortByDependencies(api, fragments, byId), byId };
}

/** Checks the fragment list (shape, keys, ids, module names, dependencies) and indexes it by id. */
function checkFragmentGraph(api: string, fragments: readonly Fragment[]): Map<string, Fragment> {
  if (!Array.isArray(fragments) || fragments.length === 0) {
    throw new ComposeError(
      api,
      'invalid-spec',
      [],
      `spec.fragments must be a non-empty array of fragments, got ${describeValue(fragments)}`,
    );
  }
  checkFragmentKeys(api, fragments);
  const byId = new Map<string, Fragment>();
  const byModule = new Map<string, string>();
  fragments.forEach((fragment, position) => {
    checkFragmentShape(api, fragment, position);
    const module = checkFragmentName(api, fragments, fragment, position, byId, byModule);
    checkNoAssignedAttributes(api, fragment);
    byId.set(fragment.id, fragment);
    byModule.set(module, fragment.id);
  });
  for (const fragment of fragments) checkDependencies(api, fragment, byId);
  return byId;
}

/** The fragment's id, source and imports have the right types. */
function checkFragmentShape(api: string, fragment: Fragment, position: number): void {
  const id = fragment?.id;
  if (typeof id !== 'string' || !idPattern.test(id)) {
    throw new ComposeError(
      api,
      'invalid-fragment',
      typeof id === 'string' ? [id] : [],
      `fragment at position ${position} has id ${describeValue(id)}; an id is lower-case words of a-z0-9 joined by "-" or "_", e.g. "standard-vertex"`,
    );
  }
  if (typeof fragment.source !== 'string') {
    throw new ComposeError(
      api,
      'invalid-fragment',
      [id],
      `fragment "${id}" has source ${describeValue(fragment.source)}; a fragment's source is a WESL string`,
    );
  }
  if (
    fragment.imports !== undefined &&
    (!Array.isArray(fragment.imports) ||
      !fragment.imports.every((i: unknown) => typeof i === 'string' && i.trim() !== ''))
  ) {
    throw new ComposeError(
      api,
      'invalid-fragment',
      [id],
      `fragment "${id}" has imports ${describeValue(fragment.imports)}; expected an array of import paths (e.g. "bindings::{ name }")`,
    );
  }
}

/** The id is unique and its wesl module name is neither generated nor another fragment's; returns the module name. */
function checkFragmentName(
  api: string,
  fragments: readonly Fragment[],
  fragment: Fragment,
  position: number,
  byId: ReadonlyMap<string, Fragment>,
  byModule: ReadonlyMap<string, string>,
): string {
  const id = fragment.id;
  if (byId.has(id)) {
    const first = fragments.findIndex((f) => f.id === id);
    throw new ComposeError(
      api,
      'duplicate-fragment',
      [id],
      `fragment id "${id}" is given twice (positions ${first} and ${position}); each fragment id must be unique`,
    );
  }
  const module = fragmentModuleName(id);
  if (generatedModuleNames.includes(module)) {
    throw new ComposeError(
      api,
      'invalid-fragment',
      [id],
      `fragment id "${id}" is reserved for a generated module; reserved: ${generatedModuleNames.join(', ')}`,
    );
  }
  const other = byModule.get(module);
  if (other !== undefined) {
    throw new ComposeError(
      api,
      'duplicate-fragment',
      [other, id].sort(),
      `fragments "${other}" and "${id}" both map to the wesl module package::${module}; rename one`,
    );
  }
  return module;
}

/** The source writes no @group, @binding or @location of its own (comments aside): the composer assigns them. */
function checkNoAssignedAttributes(api: string, fragment: Fragment): void {
  const hardCoded = /@(group|binding|location)\s*\(/.exec(
    fragment.source.replace(/\/\/[^\n]*/g, (c: string) => ' '.repeat(c.length)),
  );
  if (!hardCoded) return;
  const id = fragment.id;
  const at = locate(fragment.source, hardCoded.index);
  const rule =
    'the composer assigns every @group, @binding and @location: declare the resource in `bindings` (or the attribute in `vertexInputs` / `varyings` / `outputs`) and import it from bindings:: or io::';
  throw new ComposeError(
    api,
    'invalid-fragment',
    [id],
    `fragment "${id}" writes @${hardCoded[1]}(…) at line ${at.line}; ${rule}`,
    [
      sourceMessage(
        { path: id, text: fragment.source },
        at.line,
        at.column,
        'error',
        `writes @${hardCoded[1]}(…); ${rule}`,
      ),
    ],
  );
}

function checkDependencies(api: string, fragment: Fragment, byId: ReadonlyMap<string, Fragment>): void {
  const dependencies = fragment.dependencies ?? [];
  if (!Array.isArray(dependencies))
    throw new ComposeError(
      api,
      'invalid-fragment',
      [fragment.id],
      `fragment "${fragment.id}" has dependencies ${describeValue(dependencies)}; expected an array of fragment ids`,
    );
  for (const dependency of dependencies) {
    if (!byId.has(dependency)) {
      throw new ComposeError(
        api,
        'unknown-dependency',
        [fragment.id],
        `fragment "${fragment.id}" depends on ${describeValue(dependency)}, which is not among the composed fragments: ${[...byId.keys()].sort().join(', ')}`,
      );
    }
  }
}

/** Kahn's algorithm with the ready set kept sorted by id: the order never depends on input order. */
function sortByDependencies(
  api: string,
  fragments: readonly Fragment[],
  byId: ReadonlyMap<string, Fragment>,
): Fragment[] {
  const remaining = new Map<string, Set<string>>();
  for (const fragment of fragments) remaining.set(fragment.id, new Set(fragment.dependencies ?? []));
  const ordered: Fragment[] = [];
  while (remaining.size) {
    const ready = [...remaining]
      .filter(([, deps]) => deps.size === 0)
      .map(([id]) => id)
      .sort();
    if (!ready.length) throw cycleError(api, remaining);
    for (const id of ready) {
      remaining.delete(id);
      ordered.push(byId.get(id)!);
    }
    for (const deps of remaining.values()) for (const id of ready) deps.delete(id);
  }
  return ordered;
}

function cycleError(api: string, remaining: Map<string, Set<string>>): ComposeError {
  const start = [...remaining.keys()].sort()[0];
  const path = [start];
  const seen = new Map([[start, 0]]);
  for (let id = start; ; ) {
    // Follow the smallest dependency that is itself stuck; a stuck node always has one.
    id = [...remaining.get(id)!].filter((d) => remaining.has(d)).sort()[0];
    const at = seen.get(id);
    path.push(id);
    if (at !== undefined) {
      const cycle = path.slice(at);
      return new ComposeError(
        api,
        'dependency-cycle',
        [...new Set(cycle)].sort(),
        `fragment dependencies form a cycle: ${cycle.join(' → ')}; a fragment cannot depend on itself through others`,
      );
    }
    seen.set(id, path.length - 1);
  }
}

/** @internal The items of a fragment list whose `when` holds under the conditions. */
export function activeItems<T extends { when?: string }>(
  api: string,
  fragment: Fragment,
  items: readonly T[] | undefined,
  conditions: Conditions,
): T[] {
  if (items === undefined) return [];
  if (!Array.isArray(items))
    throw new ComposeError(
      api,
      'invalid-fragment',
      [fragment.id],
      `fragment "${fragment.id}" has a list field that is ${describeValue(items)}; expected an array`,
    );
  return items.filter((item) => {
    if (item.when === undefined) return true;
    try {
      return evaluateCondition(item.when, conditions);
    } catch (error) {
      throw new ComposeError(
        api,
        'invalid-fragment',
        [fragment.id],
        `fragment "${fragment.id}": ${(error as Error).message}`,
      );
    }
  });
}
