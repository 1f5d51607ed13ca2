// Fuzzed precomposed tables on Dawn, in a page built without the linker (the weft-gpu/vite build): seeded corruptions
// of a real table (fields removed, types swapped, code mutated, bindings renumbered, entries moved, the table edited
// after use, a stale format). Each case must end in a typed refusal or the right answer — never a blank frame, a
// silent pick miss, an untyped error or a GPU validation error — and the same scene and picker must answer right
// again once the good table is back (nothing poisoned). The tally is printed for the closing note.
import { mat4 } from 'wgpu-matrix';
import { describe, expect, test, vi } from 'vitest';
import { precomposedDigestOf } from '../../composer/precomposed-check.js';
import { makePrecomposedShaders } from '../../composer/precomposed-table.js';
import type { PrecomposedShaders } from '../../composer/precomposed.js';
import { makeVariantRegistry } from '../../composer/variant-registry.js';
import { makeBoxData } from '../../engine/primitives/box.js';
import { registerMeshVariants } from '../../variants/mesh-variants.js';
import { getNodeGpu } from '../support/gpu.js';
import { makeRandom } from '../support/random.js';

const linkModule = new URL('../../composer/link.ts', import.meta.url).pathname;
const standIn = new URL('../../composer/precomposed-link.ts', import.meta.url).pathname;
const size = 24;
const cases = 200;

type Json = Record<string, unknown>;
type Mutation = { kind: string; apply(table: Json, pick: <T>(items: readonly T[]) => T): string };

const shaderFields = [
  'key',
  'code',
  'output',
  'vertexEntryPoint',
  'fragmentEntryPoint',
  'bindGroups',
  'vertexInputs',
  'vertexBuffers',
  'vertexBufferSources',
  'targets',
  'features',
  'fragments',
  'conditions',
  'constants',
];
const swaps: unknown[] = [7, 'x', null, [], {}, true, [1, 2], { entries: [] }];

const entriesOf = (table: Json) => Object.entries(table.shaders as Record<string, Json>);
const shaderOf = (entry: Json) => entry.shader as Json;

const mutations: Mutation[] = [
  {
    kind: 'field removed',
    apply(table, pick) {
      const [key, entry] = pick(entriesOf(table));
      const field = pick(shaderFields);
      delete shaderOf(entry)[field];
      return `${entry.name}.${field} removed (${key})`;
    },
  },
  {
    kind: 'type swapped',
    apply(table, pick) {
      const [, entry] = pick(entriesOf(table));
      const field = pick(shaderFields);
      const value = pick(swaps);
      shaderOf(entry)[field] = value;
      return `${entry.name}.${field} = ${JSON.stringify(value)}`;
    },
  },
  {
    kind: 'code mutated',
    apply(table, pick) {
      const [, entry] = pick(entriesOf(table));
      const shader = shaderOf(entry);
      const code = shader.code as string;
      const lines = code.split('\n');
      const how = pick(['truncate', 'drop line', 'rename entry', 'retype', 'relocate', 'flip constant']);
      if (how === 'truncate') shader.code = code.slice(0, Math.floor(code.length * 0.6));
      else if (how === 'drop line') {
        const i = pick(lines.map((_, k) => k).filter((k) => lines[k].trim().length > 2));
        lines.splice(i, 1);
        shader.code = lines.join('\n');
      } else if (how === 'rename entry') shader.code = code.replace(/fn (vertexMain|fragmentMain)\(/, 'fn $1X(');
      else if (how === 'retype') shader.code = code.replace(/vec4f/, 'vec3f');
      else if (how === 'relocate') shader.code = code.replace(/@location\(0\)/, '@location(7)');
      else shader.code = code.replace(/0\.5/, '0.25');
      return `${entry.name}: code ${how}`;
    },
  },
  {
    kind: 'bindings renumbered',
    apply(table, pick) {
      const [, entry] = pick(entriesOf(table));
      const shader = shaderOf(entry);
      const where = pick(['layout', 'code', 'both']);
      if (where !== 'code') {
        const groups = shader.bindGroups as { entries: { binding: number }[]; bindings: { binding: number }[] }[];
        const group = pick(groups.filter((g) => g.entries.length));
        const i = pick(group.entries.map((_, k) => k));
        group.entries[i].binding += 3;
        group.bindings[i].binding += 3;
      }
      if (where !== 'layout')
        shader.code = (shader.code as string).replace(/@binding\((\d+)\)/, (_, b) => `@binding(${Number(b) + 3})`);
      return `${entry.name}: binding renumbered in ${where}`;
    },
  },
  {
    kind: 'layout changed',
    apply(table, pick) {
      const [, entry] = pick(entriesOf(table));
      const shader = shaderOf(entry);
      const how = pick(['format', 'stride', 'visibility', 'target format', 'group role']);
      const buffers = shader.vertexBuffers as { arrayStride: number; attributes: { format: string }[] }[];
      if (how === 'format') buffers[0].attributes[0].format = pick(['uint32x3', 'float32x2', 'sint8x4', 'float64']);
      else if (how === 'stride') buffers[0].arrayStride += 4;
      else if (how === 'visibility')
        (shader.bindGroups as { entries: { visibility: number }[] }[])[0].entries[0].visibility = 0;
      else if (how === 'target format') (shader.targets as { format: string }[])[0].format = 'rgba32uint';
      else (shader.bindGroups as { role: unknown }[])[0].role = 5;
      return `${entry.name}: ${how} changed`;
    },
  },
  {
    kind: 'entries moved',
    apply(table, pick) {
      const entries = entriesOf(table);
      const [a, b] = [pick(entries), pick(entries)];
      const shaders = table.shaders as Record<string, Json>;
      shaders[a[0]] = b[1];
      shaders[b[0]] = a[1];
      return `${a[1].name} ⇄ ${b[1].name}`;
    },
  },
  {
    kind: 'table skewed',
    apply(table, pick) {
      const how = pick(['format', 'version', 'entry removed', 'shaders swapped']);
      if (how === 'format') table.format = 'weft-precomposed/1';
      else if (how === 'version') table.weft = '0.0.1';
      else if (how === 'entry removed') delete (table.shaders as Json)[pick(entriesOf(table))[0]];
      else table.shaders = pick([[], 'x', null]);
      return `table ${how}`;
    },
  },
];

/** Corrupts a copy of `good`: raw (the entry's digest left stale) or resealed (digests recomputed, as another tool would). */
function corrupt(good: PrecomposedShaders, random: () => number) {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const table = structuredClone(good) as unknown as Json;
  const mutation = pick(mutations);
  const what = mutation.apply(table, pick);
  const resealed = random() < 0.6;
  if (resealed && table.shaders && typeof table.shaders === 'object')
    for (const [, entry] of entriesOf(table)) entry.digest = precomposedDigestOf(entry.shader);
  return { table, kind: mutation.kind, what: `${what}${resealed ? ' (resealed)' : ''}` };
}

type Outcome = 'typed' | 'right' | 'silent-wrong' | 'untyped';

describe('fuzzed precomposed tables (the weft-gpu/vite build), on Dawn', () => {
  test('a typed refusal or the right answer, never a blank frame or a silent miss; nothing poisoned', async () => {
    const registry = registerMeshVariants(makeVariantRegistry(), 'box', {
      data: makeBoxData(),
      passes: ['forward', 'pick'],
    });
    const good = makePrecomposedShaders([{ registry }]);
    vi.resetModules();
    vi.doMock(linkModule, () => import(standIn));
    const engineApi = await import('../../engine/index.js');
    const pickingApi = await import('../../picking/index.js');
    // The module instances the mocked runtimes throw from (vi.resetModules made new ones).
    const { WeftError } = await import('../../core/errors.js');
    const engine = await engineApi.createEngineAsync(getNodeGpu(), { width: size, height: size });
    const uncaptured: string[] = [];
    engine.device.addEventListener('uncapturederror', (e) =>
      uncaptured.push((e as GPUUncapturedErrorEvent).error.message),
    );
    const centre = Math.floor(size / 2);
    try {
      const scene = engineApi.createScene(engine);
      scene.camera = engineApi.makePerspectiveCamera({ position: [0, 0.4, 3], target: [0, 0, 0] });
      engineApi.createMeshFromData(scene, 'box', makeBoxData(), { worldMatrix: mat4.rotationY(0.5) });
      const picker = pickingApi.createGpuPicker(scene);

      /** Frame + a pick on the box + a pick off it, each: what it gave, against the good table's answer. */
      const answer = async () => {
        const drawn = engineApi.renderFrame(scene);
        const frame = drawn ? [...(await engineApi.readEngineFrameAsync(engine))] : null;
        const hit = await pickingApi.pickAsync(picker, centre, centre);
        const miss = await pickingApi.pickAsync(picker, 0, 0);
        return { frame, hit: hit.pickedMesh?.name ?? null, miss: miss.pickedMesh?.name ?? null };
      };
      engineApi.usePrecomposedShaders(engine, good);
      await engineApi.whenEngineReadyAsync(engine);
      const expected = await answer();
      expect(expected.hit, 'the box is under the centre').toBe('box');
      expect(expected.miss).toBe(null);
      expect(new Set(expected.frame!.map(String)).size, 'the frame is not blank').toBeGreaterThan(2);

      const random = makeRandom(0x40);
      const tally = { cases: 0, typed: 0, right: 0, 'silent-wrong': 0, untyped: 0, poisoned: 0 };
      const failures: string[] = [];
      const step = async <T>(run: () => Promise<T> | T): Promise<{ value?: T; outcome?: Outcome; error?: unknown }> => {
        try {
          return { value: await run() };
        } catch (error) {
          return { outcome: error instanceof WeftError ? 'typed' : 'untyped', error };
        }
      };
      const byKind = new Map<string, Record<Outcome, number>>();
      for (let n = 0; n < cases; n++) {
        const { table, kind, what } =
          n % 10 === 9
            ? { table: null, kind: 'edited after use', what: 'the caller edits its table after usePrecomposedShaders' }
            : corrupt(good, random);
        engine.device.pushErrorScope('validation');
        const outcomes: Outcome[] = [];
        const notes: string[] = [];
        const used = await step(() => {
          if (table) return engineApi.usePrecomposedShaders(engine, table as never);
          // A table accepted, then edited in place: the engine holds its own frozen copy.
          const mine = structuredClone(good) as unknown as Json;
          engineApi.usePrecomposedShaders(engine, mine as never);
          for (const [, entry] of entriesOf(mine)) {
            shaderOf(entry).code = 'fn broken(';
            (shaderOf(entry).bindGroups as unknown[]).length = 0;
          }
        });
        if (used.outcome) {
          outcomes.push(used.outcome);
          notes.push(String((used.error as Error)?.message ?? used.error).split('\n')[0]);
        } else {
          await engineApi.whenEngineReadyAsync(engine);
          const frame = await step(() => {
            const drawn = engineApi.renderFrame(scene);
            return drawn ? engineApi.readEngineFrameAsync(engine) : null;
          });
          if (frame.outcome) outcomes.push(frame.outcome);
          else
            outcomes.push(frame.value && [...frame.value].join() === expected.frame!.join() ? 'right' : 'silent-wrong');
          for (const [x, name] of [
            [centre, expected.hit],
            [0, expected.miss],
          ] as const) {
            const picked = await step(() => pickingApi.pickAsync(picker, x, x));
            if (picked.outcome) outcomes.push(picked.outcome);
            else outcomes.push((picked.value!.pickedMesh?.name ?? null) === name ? 'right' : 'silent-wrong');
            if (picked.error) notes.push(String((picked.error as Error).message).split('\n')[0]);
          }
          if (frame.error) notes.push(String((frame.error as Error).message).split('\n')[0]);
        }
        const gpuError = await engine.device.popErrorScope();
        if (gpuError) outcomes.push('untyped');
        const outcome: Outcome = outcomes.includes('untyped')
          ? 'untyped'
          : outcomes.includes('silent-wrong')
            ? 'silent-wrong'
            : outcomes.includes('typed')
              ? 'typed'
              : 'right';
        tally.cases++;
        tally[outcome]++;
        const row = byKind.get(kind) ?? { typed: 0, right: 0, 'silent-wrong': 0, untyped: 0 };
        row[outcome]++;
        byKind.set(kind, row);
        if (outcome === 'silent-wrong' || outcome === 'untyped')
          failures.push(
            `#${n} ${kind}: ${what} → ${outcomes.join(', ')} ${gpuError?.message ?? ''} ${notes.join(' | ')}`,
          );

        // The good table back: the same scene (its default forward task) and the same picker answer right.
        engineApi.usePrecomposedShaders(engine, good);
        await engineApi.whenEngineReadyAsync(engine);
        const again = await answer();
        if (
          again.frame?.join() !== expected.frame!.join() ||
          again.hit !== expected.hit ||
          again.miss !== expected.miss
        ) {
          tally.poisoned++;
          failures.push(
            `#${n} ${kind}: ${what} poisoned the scene or picker (${JSON.stringify({ ...again, frame: !!again.frame })})`,
          );
        }
      }
      const lines = [
        '[precomposed fuzz] cases by kind: typed / right / silent wrong / untyped',
        ...[...byKind].map(
          ([kind, r]) => `  ${kind.padEnd(20)} ${r.typed} / ${r.right} / ${r['silent-wrong']} / ${r.untyped}`,
        ),
        `  total: ${tally.cases} cases, ${tally.typed} typed refusals, ${tally.right} right answers, ${tally['silent-wrong']} silent wrong, ${tally.untyped} untyped, ${tally.poisoned} poisoned`,
      ];
      console.log(lines.join('\n'));
      expect(failures).toEqual([]);
      expect(tally.cases).toBe(cases);
      expect(tally.typed).toBeGreaterThan(cases / 2);
      expect(uncaptured).toEqual([]);
      pickingApi.disposeGpuPicker(picker);
    } finally {
      engineApi.disposeEngine(engine);
      vi.doUnmock(linkModule);
      vi.resetModules();
    }
  }, 300_000);
});
