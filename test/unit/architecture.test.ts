// Keeps docs/architecture.md's layer picture true: layers, import cycles and module-level side effects of the library.
// WEFT_ARCH_ROOT=<dir> points the checks at another tree (e.g. a `git worktree` of an older commit).
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  findImportCycles,
  findLayer,
  findLayerViolations,
  findHostPeerViolations,
  findModuleSideEffects,
  findReexportHubs,
  findRoomViolations,
  findSeamViolations,
  listLibraryEntries,
  WEFT_HOST_PEERS,
  WEFT_LAYER_PLAN,
  WEFT_PICKING_ROOMS,
  WEFT_PICK_SOURCE_SEAM,
} from '../support/architecture-rules.js';
import { type ImportGraph, type ImportKind, makeImportGraph, readModuleSources } from '../support/import-graph.js';

// `import type` edges are left out of the cycle check: they are erased when compiled (verbatimModuleSyntax keeps every
// other import), so they fix no evaluation order and make no cycle in the bundle; two modules whose types name each
// other are not tangled at run time. Dynamic `import()` edges are checked: they load code.
const CYCLE_EDGE_KINDS: readonly ImportKind[] = ['static', 'dynamic'];

const root = process.env.WEFT_ARCH_ROOT ?? fileURLToPath(new URL('../..', import.meta.url));
const sources = readModuleSources(root, listLibraryEntries(WEFT_LAYER_PLAN));
const graph = makeImportGraph(sources);

function expectNone(rule: string, offenders: readonly string[]): void {
  if (offenders.length > 0) {
    throw new Error(`${rule}: ${offenders.length} found\n  ${offenders.join('\n  ')}`);
  }
}

describe(`architecture of ${root}`, () => {
  test('the library modules were found', () => {
    const layers = new Set([...graph.modules.keys()].map((path) => findLayer(path, WEFT_LAYER_PLAN)));
    expect([...layers]).toEqual(
      expect.arrayContaining(['fragments', 'composer', 'engine', 'picking', 'geometry', 'entities', 'index']),
    );
  });

  test('layer rule: a module imports only its own layer and lower ones, never an app', () => {
    expectNone('imports that break the layer rule', findLayerViolations(graph, WEFT_LAYER_PLAN));
  });

  test('no import cycle between modules', () => {
    expectNone('import cycles', findImportCycles(graph, CYCLE_EDGE_KINDS));
  });

  test('optional peers: only hosts/three/ imports three, hosts/babylon/ @babylonjs/core, hosts/typegpu/ typegpu', () => {
    expectNone('imports of an optional peer outside its adapter', findHostPeerViolations(graph, WEFT_HOST_PEERS));
  });

  test('no module-level side effect in library code', () => {
    expectNone('module-level side effects', findModuleSideEffects(graph));
  });

  test('picking rooms: cpu/ never imports gpu/, rect/ or sources/; gpu/ never imports rect/; cpu/bvh/ only itself', () => {
    expectNone('imports that break a picking room rule', findRoomViolations(graph, WEFT_PICKING_ROOMS));
  });

  test('picking/ keeps at most 12 files at its root; the rest live in its rooms', () => {
    const root = [...graph.modules.keys()].filter((path) => /^picking\/[^/]+\.ts$/.test(path)).sort();
    expect(root.length, root.join(', ')).toBeLessThanOrEqual(12);
  });

  test('pick-source seam: only its adapters import engine mesh internals into picking/', () => {
    expectNone('picking/ imports past the pick-source seam', findSeamViolations(graph, WEFT_PICK_SOURCE_SEAM));
  });

  test('no import cycle inside picking/, not even one closed by `import type`', () => {
    const picking = findImportCycles(graph, ['static', 'dynamic', 'type']).filter((cycle) =>
      cycle.includes('picking/'),
    );
    expectNone('import cycles inside picking/', picking);
  });

  test('picking/ imports from the defining file: no `export … from` outside its index.ts files', () => {
    expectNone(
      're-export hubs in picking/',
      findReexportHubs(sources).filter((line) => line.startsWith('picking/')),
    );
  });
});

describe('the architecture checks report what they should', () => {
  const synthetic: ImportGraph = makeImportGraph({
    'index.ts': "export * from './engine/scene.js';",
    'core/errors.ts': 'export class BaseError extends Error {}',
    'fragments/a.ts': "import { scene } from '../engine/scene.js';\nexport const a = scene;",
    'composer/compose.ts': "import type { Probe } from '../test/support/probe.js';\nexport type P = Probe;",
    'engine/scene.ts': "import { mesh } from './mesh.js';\nexport const scene = () => mesh;",
    'engine/mesh.ts':
      "import { scene } from './scene.js';\nexport const mesh = () => scene;\nexport const cache = new Map();",
    'engine/data.ts': "import { lazy } from './lazy.js';\nexport const data = () => lazy;",
    'engine/lazy.ts': "import type { data } from './data.js';\nexport type D = typeof data;\nexport const lazy = 1;",
    'picking/pick.ts': "import { g } from '../geometry/g.js';\nexport const p = g;",
    'geometry/g.ts': [
      "import { BaseError } from '../core/errors.js';",
      'export const g = Object.freeze({ error: BaseError, sizes: [1, 2 << 3], name: `g` } as const);',
      'export const make = () => new Map<string, number>();',
      'registerEverything();',
      'globalThis.weft = g;',
      'export const answer = await Promise.resolve(42);',
      'export const table = Object.freeze([/* @__PURE__ */ describe(1), describe(2)]);',
    ].join('\n'),
  });

  test('a planted room violation is reported: cpu/ importing gpu/, cpu/bvh/ importing the CPU picker, gpu/ importing rect/', () => {
    const rooms = makeImportGraph({
      'picking/cpu/scene-query.ts':
        "import type { PickGpu } from '../gpu/pick-resources.js';\nexport type Q = PickGpu;",
      'picking/cpu/cpu-picker.ts': "import { q } from './bvh/query.js';\nexport const picker = q;",
      'picking/cpu/bvh/query.ts':
        "import type { CpuPicker } from '../cpu-picker.js';\nimport { e } from '../cpu-pick-error.js';\nexport const q = e;",
      'picking/cpu/cpu-pick-error.ts': 'export const e = 1;',
      'picking/gpu/pick-resources.ts': "import { r } from '../rect/pick-rect.js';\nexport type PickGpu = typeof r;",
      'picking/rect/pick-rect.ts': "import type { PickGpu } from '../gpu/pick-resources.js';\nexport const r = 1;",
    });
    expect(findRoomViolations(rooms, WEFT_PICKING_ROOMS)).toEqual([
      'picking/cpu/bvh/query.ts:1 → picking/cpu/cpu-picker.ts [import type]  (picking/cpu/bvh/ imports only picking/cpu/bvh/, picking/cpu/cpu-pick-error.ts: the BVHs know rays and triangles, not the picker that holds them)',
      'picking/cpu/scene-query.ts:1 → picking/gpu/pick-resources.ts [import type]  (picking/cpu/ never imports picking/gpu/: the CPU picker runs without a device)',
      'picking/gpu/pick-resources.ts:1 → picking/rect/pick-rect.ts  (picking/gpu/ never imports picking/rect/: the pass serves the pickers above it; the marquee may use the pass, not the reverse)',
    ]);
  });

  test('a planted seam violation is reported: a picker reading mesh internals, a public-type file importing a value', () => {
    const seam = makeImportGraph({
      'engine/mesh.ts': 'export interface Mesh { name: string }\nexport const ensureMeshGpu = () => 1;',
      'engine/winding.ts': 'export const materialFacing = () => 1;',
      'engine/camera.ts': 'export const camera = 1;',
      'picking/sources/weft-pick-source.ts':
        "import { ensureMeshGpu } from '../../engine/mesh.js';\nexport const s = ensureMeshGpu;",
      'picking/gpu/pick-pass-plan.ts': [
        "import { materialFacing } from '../../engine/winding.js';",
        "import { camera } from '../../engine/camera.js';",
        'export const p = [materialFacing, camera];',
      ].join('\n'),
      'picking/picking-info.ts': [
        "import type { Mesh } from '../engine/mesh.js';",
        "import { ensureMeshGpu } from '../engine/mesh.js';",
        'export type I = Mesh;',
        'export const i = ensureMeshGpu;',
      ].join('\n'),
    });
    const why = 'the pickers read drawables through the pick-source seam; only its adapters know weft meshes';
    expect(findSeamViolations(seam, WEFT_PICK_SOURCE_SEAM)).toEqual([
      `picking/gpu/pick-pass-plan.ts:1 → engine/winding.ts  (picking/gpu/pick-pass-plan.ts never imports them: ${why})`,
      `picking/picking-info.ts:2 → engine/mesh.ts  (picking/picking-info.ts imports them only as types: ${why})`,
    ]);
  });

  test('a re-export outside an index.ts is reported; an entry file may re-export', () => {
    expect(
      findReexportHubs({
        'picking/index.ts': "export { a } from './a.js';",
        'picking/gpu/pass.ts': "export type { B } from './b.js';\nexport const c = 1;\nexport * from './d.js';",
      }),
    ).toEqual([
      "picking/gpu/pass.ts:1  export type { B } from './b.js';",
      "picking/gpu/pass.ts:3  export * from './d.js';",
    ]);
  });

  test('an upward import, a sideways runtime import and an app import are layer violations', () => {
    expect(findLayerViolations(synthetic, WEFT_LAYER_PLAN)).toEqual([
      'composer/compose.ts:1 → test/support/probe.ts [import type]  (library code never imports test/)',
      'fragments/a.ts:1 → engine/scene.ts  (fragments may import only core and itself)',
      'picking/pick.ts:1 → geometry/g.ts  (picking and geometry never import each other)',
    ]);
  });

  test('a cycle is reported with its path; a cycle closed only by `import type` is not', () => {
    expect(findImportCycles(synthetic, CYCLE_EDGE_KINDS)).toEqual([
      'engine/mesh.ts → engine/scene.ts → engine/mesh.ts',
    ]);
    expect(findImportCycles(synthetic, ['static', 'type'])).toHaveLength(2);
  });

  test('calls, `new`, assignments and `await` at the top level are side effects; values, Object.freeze and `/* @__PURE__ */` calls are not', () => {
    expect(findModuleSideEffects(synthetic)).toEqual([
      'engine/mesh.ts:3  new: new Map()',
      'geometry/g.ts:4  call: registerEverything()',
      'geometry/g.ts:5  assignment: globalThis.weft = g',
      'geometry/g.ts:6  await: await Promise.resolve(42)',
      'geometry/g.ts:7  call: describe(2)',
    ]);
  });
});
