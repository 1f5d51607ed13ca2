// An engine's precomposed shaders: the table every compose cache of its runtimes (forward, pick, geometry, entities)
// looks in before linking. Kept per engine in a WeakMap made on first use (no state at import).
import { checkPrecomposedShaders, type PrecomposedShaders, type PrecomposedSource } from '../composer/precomposed.js';
import type { Engine } from './engine.js';

let sources: WeakMap<Engine, PrecomposedSource> | undefined;

/** @internal The engine's table holder (one per engine); runtimes hand it to `makeComposeCache({ precomposed })`. */
export function precomposedSourceOf(engine: Engine): PrecomposedSource {
  sources ??= new WeakMap();
  let source = sources.get(engine);
  if (!source) {
    source = { table: null };
    sources.set(engine, source);
  }
  return source;
}

/**
 * Gives the engine shaders composed at build time (the default export of `virtual:weft-variants`, from the
 * `weftVariants()` plugin of `weft-gpu/vite`). Every runtime of the engine — forward renderer, picker, geometry
 * renderer, billboards and splats — then takes a shader from the table when its spec's key is there, before linking,
 * including runtimes created before this call. In a page built without the run-time linker a miss is a
 * `not-precomposed` ComposeError naming the key; with the linker a miss composes as before. `null` removes the table.
 * @throws {ComposeError} `bad-precomposed-table` when `table` is not a precomposed table
 */
export function usePrecomposedShaders(engine: Engine, table: PrecomposedShaders | null): void {
  precomposedSourceOf(engine).table = table === null ? null : checkPrecomposedShaders('usePrecomposedShaders', table);
}
