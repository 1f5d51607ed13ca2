// The rules the architecture test checks on an import graph: layers, import cycles, module-level side effects.
// Each check returns readable lines (empty when the rule holds) so a failure names every offender.
import ts from 'typescript';
import type { ImportEdge, ImportGraph, ImportKind } from './import-graph.js';

/** Which layer each top-level folder is, and which folders are apps that library code never imports. */
export interface LayerPlan {
  /** Layer → rank, lowest first. A layer imports itself and lower ranks; layers sharing a rank never import each other. */
  ranks: Readonly<Record<string, number>>;
  /** Top-level folder or file → layer, where the layer is not named after it. */
  aliases: Readonly<Record<string, string>>;
  appFolders: readonly string[];
}

/** weft's layers (docs/architecture.md draws them). */
export const WEFT_LAYER_PLAN: LayerPlan = {
  ranks: {
    core: 0,
    fragments: 1,
    composer: 2,
    engine: 3,
    picking: 4,
    geometry: 4,
    entities: 5,
    variants: 6,
    index: 7,
    vite: 8,
    hosts: 8,
  },
  // billboards/ and splats/ were top-level folders before entities/ existed; the aliases let the checker read old trees.
  aliases: { 'index.ts': 'index', billboards: 'entities', splats: 'entities' },
  appFolders: ['demo', 'bench', 'scripts', 'examples', 'test', 'cli'],
};

/** Optional peer packages and the one folder of the library that may import each (a host adapter's own folder). */
export const WEFT_HOST_PEERS: Readonly<Record<string, string>> = {
  three: 'hosts/three/',
  '@babylonjs/core': 'hosts/babylon/',
  typegpu: 'hosts/typegpu/',
};

/** Every import of an optional peer package from outside the folder that owns it, as `file:line → specifier`. */
export function findHostPeerViolations(graph: ImportGraph, peers: Readonly<Record<string, string>>): string[] {
  const lines: string[] = [];
  for (const module of graph.modules.values())
    for (const edge of module.imports)
      for (const [peer, folder] of Object.entries(peers))
        if ((edge.specifier === peer || edge.specifier.startsWith(`${peer}/`)) && !module.path.startsWith(folder))
          lines.push(`${describeEdge(edge)}  (only ${folder} imports ${peer})`);
  return lines;
}

/** The top-level files and folders that may hold library code under the plan (missing ones are skipped when read). */
export function listLibraryEntries(plan: LayerPlan): string[] {
  return [...new Set([...Object.keys(plan.aliases), ...Object.keys(plan.ranks)])].sort();
}

/** The layer of a repo-relative path, `app` for an app folder, `outside` above the root, or null when unknown. */
export function findLayer(path: string, plan: LayerPlan): string | null {
  const top = path.split('/')[0];
  if (top === '..') return 'outside';
  if (plan.appFolders.includes(top)) return 'app';
  const layer = plan.aliases[top] ?? top;
  return layer in plan.ranks ? layer : null;
}

/** Every import that breaks the layer plan, as `file:line → target  (why)`. */
export function findLayerViolations(graph: ImportGraph, plan: LayerPlan): string[] {
  const lines: string[] = [];
  for (const module of graph.modules.values()) {
    const layer = findLayer(module.path, plan);
    if (!layer || layer === 'app' || layer === 'outside') continue;
    for (const edge of module.imports) {
      const why = explainLayerViolation(layer, edge, plan);
      if (why) lines.push(`${describeEdge(edge)}  (${why})`);
    }
  }
  return lines;
}

function explainLayerViolation(layer: string, edge: ImportEdge, plan: LayerPlan): string | null {
  if (edge.to === null) return null;
  const target = findLayer(edge.to, plan);
  if (target === 'outside') return 'imports from outside the repository';
  if (target === 'app') return `library code never imports ${edge.to.split('/')[0]}/`;
  if (target === null || !edge.resolved) return 'does not resolve to a library module';
  if (target === layer || plan.ranks[target] < plan.ranks[layer]) return null;
  if (plan.ranks[target] === plan.ranks[layer]) return `${layer} and ${target} never import each other`;
  const allowed = Object.keys(plan.ranks).filter((other) => plan.ranks[other] < plan.ranks[layer]);
  return `${layer} may import only ${allowed.join(', ')} and itself`;
}

function describeEdge(edge: ImportEdge): string {
  const kind = edge.kind === 'static' ? '' : ` [${edge.kind === 'type' ? 'import type' : 'import()'}]`;
  return `${edge.from}:${edge.line} → ${edge.to}${kind}`;
}

/**
 * Every import cycle between modules (Tarjan's strongly connected components over the edges of the given kinds), each
 * as one concrete cycle path `a.ts → b.ts → a.ts`, followed by the other members of a component larger than the path.
 */
export function findImportCycles(graph: ImportGraph, kinds: readonly ImportKind[]): string[] {
  const successors = new Map<string, string[]>();
  for (const module of graph.modules.values()) {
    const targets = module.imports.filter((e) => e.resolved && kinds.includes(e.kind)).map((e) => e.to as string);
    successors.set(module.path, [...new Set(targets)].sort());
  }
  return findStronglyConnected(successors)
    .filter((members) => members.length > 1 || successors.get(members[0])?.includes(members[0]))
    .map((members) => describeCycle(members, successors));
}

function findStronglyConnected(successors: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    lowLink.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of successors.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowLink.set(node, Math.min(lowLink.get(node) as number, lowLink.get(next) as number));
      } else if (onStack.has(next)) {
        lowLink.set(node, Math.min(lowLink.get(node) as number, index.get(next) as number));
      }
    }
    if (lowLink.get(node) !== index.get(node)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      members.push(member);
    } while (member !== node);
    components.push(members.sort());
  };
  for (const node of [...successors.keys()].sort()) if (!index.has(node)) visit(node);
  return components;
}

// The shortest cycle through the component's first member (breadth-first inside the component).
function describeCycle(members: readonly string[], successors: ReadonlyMap<string, readonly string[]>): string {
  const inside = new Set(members);
  const start = members[0];
  const previous = new Map<string, string>();
  const queue = [start];
  let last: string | null = null;
  while (queue.length > 0 && last === null) {
    const node = queue.shift() as string;
    for (const next of successors.get(node) ?? []) {
      if (next === start) {
        last = node;
        break;
      }
      if (inside.has(next) && !previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  const path = [start];
  for (let node = last as string; node !== start; node = previous.get(node) as string) path.splice(1, 0, node);
  const rest = members.filter((member) => !path.includes(member));
  const others = rest.length > 0 ? `  (same component: ${rest.join(', ')})` : '';
  return `${[...path, start].join(' → ')}${others}`;
}

/** Every top-level statement of library code that runs code at import, as `file:line  reason: code`. */
export function findModuleSideEffects(graph: ImportGraph): string[] {
  return [...graph.modules.values()].flatMap((module) =>
    module.sideEffects.map((effect) => `${module.path}:${effect.line}  ${effect.reason}: ${effect.text}`),
  );
}

/**
 * A room inside a layer (a sub-folder, or one file) and what its modules may not import of that layer: `never` lists
 * path prefixes they must not import; `only`, when given, is the whole list of that layer's prefixes they may import.
 */
export interface RoomRule {
  room: string;
  layer: string;
  never?: readonly string[];
  /** Paths under a `never` prefix the room may import all the same. */
  except?: readonly string[];
  only?: readonly string[];
  why: string;
}

/** The rooms of `picking/` (docs/architecture.md describes them). Every import kind counts, `import type` too. */
export const WEFT_PICKING_ROOMS: readonly RoomRule[] = [
  {
    room: 'picking/cpu/bvh/',
    layer: 'picking/',
    only: ['picking/cpu/bvh/', 'picking/cpu/cpu-pick-error.ts'],
    why: 'the BVHs know rays and triangles, not the picker that holds them',
  },
  {
    room: 'picking/cpu/',
    layer: 'picking/',
    never: ['picking/gpu/', 'picking/rect/', 'picking/sources/', 'picking/gpu-picker.ts', 'picking/index.ts'],
    // The seam (types) and weft's scenes behind it: every picker reads drawables through them.
    except: ['picking/sources/pick-source.ts', 'picking/sources/weft-pick-source.ts'],
    why: 'the CPU picker runs without a device',
  },
  {
    room: 'picking/sources/',
    layer: 'picking/',
    never: ['picking/gpu/', 'picking/rect/', 'picking/gpu-picker.ts', 'picking/index.ts', 'picking/cpu/index.ts'],
    why: 'pick sources are drawn by the pass, they do not drive it',
  },
  {
    room: 'picking/gpu/',
    layer: 'picking/',
    never: ['picking/rect/', 'picking/gpu-picker.ts', 'picking/index.ts', 'picking/cpu/index.ts'],
    why: 'the pass serves the pickers above it; the marquee may use the pass, not the reverse',
  },
  {
    room: 'picking/drill/',
    layer: 'picking/',
    never: ['picking/rect/', 'picking/index.ts', 'picking/cpu/index.ts'],
    why: 'drill-through is a point pick drawn in layers; it uses the pass and the picker, not the marquee',
  },
  {
    room: 'picking/rect/',
    layer: 'picking/',
    never: ['picking/index.ts', 'picking/cpu/index.ts'],
    why: 'entry files are for users; library code imports the defining file',
  },
  {
    room: 'picking/point/',
    layer: 'picking/',
    never: ['picking/rect/', 'picking/index.ts', 'picking/cpu/index.ts'],
    why: 'the point pick loads snapping on demand (a dynamic import); it never uses the marquee',
  },
  {
    room: 'picking/snap/',
    layer: 'picking/',
    never: ['picking/index.ts', 'picking/cpu/index.ts'],
    why: 'entry files are for users; library code imports the defining file',
  },
];

/** Every import from a room into a part of its layer the room's rule forbids, as `file:line → target  (why)`. */
export function findRoomViolations(graph: ImportGraph, rules: readonly RoomRule[]): string[] {
  const lines: string[] = [];
  for (const module of graph.modules.values()) {
    // The most specific room holds the module (picking/cpu/bvh/ before picking/cpu/).
    const rule = rules.filter((r) => module.path.startsWith(r.room)).sort((a, b) => b.room.length - a.room.length)[0];
    if (!rule) continue;
    for (const edge of module.imports) {
      if (!edge.resolved || edge.to === null || !edge.to.startsWith(rule.layer)) continue;
      const excepted = rule.except?.includes(edge.to);
      const banned = excepted ? undefined : rule.never?.find((prefix) => edge.to!.startsWith(prefix));
      const outside = rule.only && !rule.only.some((prefix) => edge.to!.startsWith(prefix));
      if (banned) lines.push(`${describeEdge(edge)}  (${rule.room} never imports ${banned}: ${rule.why})`);
      else if (outside)
        lines.push(`${describeEdge(edge)}  (${rule.room} imports only ${rule.only!.join(', ')}: ${rule.why})`);
    }
  }
  return lines;
}

/**
 * The pick-source seam: what of `engine/` only a pick source's adapter may import inside `picking/`. `modules` are the
 * engine's mesh internals; `adapters` may import them (any kind); `publicTypes` may only `import type` them, because
 * their public declarations hand users weft's `Mesh` (a result's mesh, a filter's argument); everyone else reads
 * drawables as `PickSubject`s through the source's ops (picking/sources/pick-source.ts).
 */
export interface SeamRule {
  layer: string;
  modules: readonly string[];
  adapters: readonly string[];
  publicTypes: readonly string[];
  why: string;
}

/** The mesh internals the pickers reach only through weft's pick source (docs/architecture.md, `picking/`). */
export const WEFT_PICK_SOURCE_SEAM: SeamRule = {
  layer: 'picking/',
  modules: [
    'engine/mesh.ts',
    'engine/mesh-',
    'engine/winding.ts',
    'engine/render/mesh-draw.ts',
    'engine/thin-instance-matrix.ts',
    'engine/representative-mesh.ts',
    'engine/skeleton.ts',
    'engine/material.ts',
  ],
  adapters: [
    'picking/sources/weft-pick-source.ts',
    'picking/sources/drawable-scene.ts',
    'picking/sources/drawable-mesh.ts',
    'picking/sources/drawable-slot-update.ts',
    'picking/sources/pick-overlays.ts',
  ],
  publicTypes: [
    'picking/sources/drawable-types.ts',
    'picking/picking-info.ts',
    'picking/pick-filter.ts',
    'picking/discard-rules.ts',
    'picking/cpu/arbitration.ts',
    'picking/cpu/cpu-picker.ts',
    'picking/cpu/bvh/mesh-bvh-cache.ts',
    'picking/cpu/bvh/bvh-serialise.ts',
  ],
  why: 'the pickers read drawables through the pick-source seam; only its adapters know weft meshes',
};

/** Every import of a seam module from its layer outside the adapters, as `file:line → target  (why)`. */
export function findSeamViolations(graph: ImportGraph, rule: SeamRule): string[] {
  const lines: string[] = [];
  for (const module of graph.modules.values()) {
    if (!module.path.startsWith(rule.layer) || rule.adapters.includes(module.path)) continue;
    const typesOnly = rule.publicTypes.includes(module.path);
    for (const edge of module.imports) {
      if (!edge.resolved || edge.to === null || !rule.modules.some((prefix) => edge.to!.startsWith(prefix))) continue;
      if (typesOnly && edge.kind === 'type') continue;
      const allowed = typesOnly ? 'imports them only as types' : 'never imports them';
      lines.push(`${describeEdge(edge)}  (${module.path} ${allowed}: ${rule.why})`);
    }
  }
  return lines;
}

/**
 * Library modules other than entry files (`index.ts`) that re-export another module's bindings
 * (`export … from`): an import should name the file that defines what it imports.
 */
export function findReexportHubs(sources: Readonly<Record<string, string>>): string[] {
  const lines: string[] = [];
  for (const [path, text] of Object.entries(sources)) {
    if (path === 'index.ts' || path.endsWith('/index.ts')) continue;
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    for (const statement of file.statements) {
      if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier) continue;
      const line = file.getLineAndCharacterOfPosition(statement.getStart(file)).line + 1;
      lines.push(`${path}:${line}  ${statement.getText(file).replace(/\s+/g, ' ')}`);
    }
  }
  return lines.sort();
}
