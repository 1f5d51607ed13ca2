// An engine's precomposed shaders: the table every compose cache of its runtimes (forward, pick, geometry, entities)
// looks in before linking. Kept per engine in a WeakMap made on first use (no state at import).
import { ComposeError, ShaderCompileError } from '../composer/errors.js';
import { checkPrecomposedShaders } from '../composer/precomposed-check.js';
import type { PrecomposedShaders, PrecomposedSource } from '../composer/precomposed.js';
import {
  acquireCheckedShaderModuleAsync,
  releaseShaderModule,
  type ShaderModuleLease,
} from '../composer/shader-module-memo.js';
import { assertEngineAlive, type Engine } from './engine.js';

interface EngineTable {
  readonly source: PrecomposedSource;
  /** The table's modules, compiled and checked on `device`, held while the table is in use (warm for the runtimes). */
  leases: { device: GPUDevice; leases: ShaderModuleLease[] } | null;
}

let tables: WeakMap<Engine, EngineTable> | undefined;

function tableOf(engine: Engine): EngineTable {
  tables ??= new WeakMap();
  let table = tables.get(engine);
  if (!table) {
    table = { source: { table: null, generation: 0, refused: null }, leases: null };
    tables.set(engine, table);
  }
  return table;
}

/** @internal The engine's table holder (one per engine); runtimes hand it to `makeComposeCache({ precomposed })`. */
export function precomposedSourceOf(engine: Engine): PrecomposedSource {
  return tableOf(engine).source;
}

function releaseLeases(held: EngineTable['leases']): void {
  for (const lease of held?.leases ?? []) releaseShaderModule(held!.device, lease);
}

/**
 * Compiles every entry the device can use (its features present) inside the composer's error scopes, as a run-time
 * composed shader is checked. A compile error refuses the whole table: every later lookup throws a typed
 * `bad-precomposed-table` ComposeError carrying the device's messages (located in the entry's code, `weft:code`).
 */
async function checkOnDeviceAsync(engine: Engine, held: EngineTable, table: PrecomposedShaders, generation: number) {
  const device = engine.device;
  const entries = Object.entries(table.shaders).filter(([, e]) =>
    e.shader.features.every((f) => device.features.has(f.feature)),
  );
  const results = await Promise.allSettled(
    entries.map(([, e]) => acquireCheckedShaderModuleAsync(device, e.shader, `precomposed "${e.name}"`)),
  );
  const leases = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = results.findIndex((r) => r.status === 'rejected' && r.reason instanceof ShaderCompileError);
  const current = held.source.generation === generation && !engine.disposed;
  if (failed < 0 && current) {
    held.leases = { device, leases };
    return;
  }
  for (const lease of leases) releaseShaderModule(device, lease);
  if (failed < 0 || !current) return;
  const [key, entry] = entries[failed];
  const error = (results[failed] as PromiseRejectedResult).reason as ShaderCompileError;
  held.source.refused = new ComposeError(
    'usePrecomposedShaders',
    'bad-precomposed-table',
    [...entry.shader.fragments],
    `table.shaders[${JSON.stringify(key)}] (variant "${entry.name}").shader.code does not compile on this device, so the table is refused: ${error.message}\nRebuild the page (vite build) or the table (makePrecomposedShaders), then call usePrecomposedShaders again`,
    error.messages,
  );
  held.source.generation = generation + 1;
}

/**
 * Gives the engine shaders composed at build time (the default export of `virtual:weft-variants`, from the
 * `weftVariants()` plugin of `weft-gpu/vite`). Every runtime of the engine — forward renderer, picker, geometry
 * renderer, billboards and splats — then takes a shader from the table when its spec's key is there, before linking,
 * including runtimes created before this call. In a page built without the run-time linker a miss is a
 * `not-precomposed` ComposeError naming the key; with the linker a miss composes as before. `null` removes the table.
 *
 * The table is checked where it enters: its format and weft version, and every entry's shape against what the
 * runtimes read (see `checkPrecomposedShaders`); the engine keeps a frozen copy, so editing `table` later changes
 * nothing. Then its shaders compile on the device: until they have, `renderFrame` and `runTasks` return false and picks
 * and `whenEngineReadyAsync` wait; a shader that fails to compile refuses the table, and every frame and pick that
 * looks a shader up then throws that typed error until another table (or `null`) is given. Replacing or removing the
 * table evicts what the runtimes cached from the old one: their next frame or pick looks its shaders up again.
 * @throws {ComposeError} `bad-precomposed-table` naming the entry, field and what was expected; `stale-precomposed-table` for a table of another format or weft version (rebuild it). The engine's table is left as it was.
 * @throws {EngineError} `disposed` when the engine was disposed
 */
export function usePrecomposedShaders(engine: Engine, table: PrecomposedShaders | null): void {
  assertEngineAlive(engine, 'usePrecomposedShaders');
  const checked = table === null ? null : checkPrecomposedShaders('usePrecomposedShaders', table);
  const held = tableOf(engine);
  releaseLeases(held.leases);
  held.leases = null;
  const generation = (held.source.generation ?? 0) + 1;
  held.source.table = checked;
  held.source.generation = generation;
  held.source.refused = null;
  if (!checked || engine.deviceLost) return;
  // The engine is not ready until the table's shaders compiled: frames return false and picks wait meanwhile.
  const previous = engine.recovery;
  const pending: Promise<void> = Promise.all([
    previous?.catch(() => undefined),
    checkOnDeviceAsync(engine, held, checked, generation),
  ])
    .then(() => undefined)
    .finally(() => {
      if (engine.recovery === pending) engine.recovery = null;
    });
  engine.recovery = pending;
}
