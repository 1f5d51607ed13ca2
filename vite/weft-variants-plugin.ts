// The Vite (and Rollup) plugin of build-time composition: `virtual:weft-variants` exports the declared variants
// composed as data, and the composer's linker (wesl) is left out of the page unless `linker: 'keep'`.
import { WeftError } from '../core/errors.js';
import { checkOptionKeys } from '../core/options.js';
import { checkPrecomposedShaders } from '../composer/precomposed-check.js';
import { makePrecomposedShaders, type PrecomposeSelection } from '../composer/precomposed-table.js';
import type { PrecomposedShaders } from '../composer/precomposed.js';
import { composeShader, makeComposeCache } from '../composer/compose-shader.js';
import { type DeclaredVariant, formatUniformDeclarations } from '../composer/uniform-layout-declarations.js';
import { getVariant, listVariants, type VariantRegistry } from '../composer/variant-registry.js';
import { makeWeftVariantRegistry } from '../variants/weft-variants.js';

/** What `weftVariants()` composes at build time, and whether the page keeps the run-time linker. */
export interface WeftVariantsOptions {
  /** Names from weft's own registry (`weft list`, `weft-gpu/variants`): e.g. `['pick', 'pick-detail']`. */
  variants?: readonly string[];
  /** Your registry (e.g. filled with `registerMeshVariants`): every variant in it is composed. */
  registry?: VariantRegistry;
  /**
   * `'drop'` (default): the page bundles neither wesl nor the composer's linker; a shader missing from the table is a
   * `not-precomposed` ComposeError naming its key. `'keep'`: misses (run-time discard rules, your own specs) link at
   * run time as without the plugin.
   */
  linker?: 'drop' | 'keep';
  /**
   * A `.d.ts` path (from the working directory, e.g. `'src/weft-uniforms.d.ts'`): at build start the plugin writes
   * there what `weft types` prints for the declared variants (only when it changed), so `getBufferLayout(composed,
   * variant, binding)` returns typed layouts and `setUniforms` refuses misspelled fields in the editor.
   */
  types?: string;
}

/** The id a page imports the table from. */
export const weftVariantsModuleId = 'virtual:weft-variants';

/** The hooks Vite and Rollup call (a structural subset of their `Plugin` type). */
export interface WeftVariantsPlugin {
  name: 'weft-variants';
  enforce: 'pre';
  /**
   * Composes the declared variants, so a bad declaration fails the build before any module is read; with `types`,
   * writes their uniform declarations.
   */
  buildStart(): Promise<void>;
  /** Resolves `virtual:weft-variants`, and (with `linker: 'drop'`) the composer's `./link.js` to its stand-in. */
  resolveId(
    this: {
      resolve(source: string, importer?: string, options?: { skipSelf?: boolean }): Promise<{ id: string } | null>;
    },
    source: string,
    importer: string | undefined,
  ): Promise<string | null>;
  /** The table module: `export default` the precomposed table (plain data). */
  load(id: string): string | null;
}

const resolvedModuleId = `\0${weftVariantsModuleId}`;
const optionKeys = { variants: true, registry: true, linker: true, types: true } as const;

/** A weft module as a bundler id without extension (`/…/composer/link`; `C:/…` on Windows), found next to this file. */
function weftModule(relative: string): string {
  const path = decodeURIComponent(new URL(`../${relative}.js`, import.meta.url).pathname);
  return path.replace(/^\/([A-Za-z]:\/)/, '$1').replace(/\.js$/, '');
}

const withoutExtension = (id: string) => id.replace(/[?#].*$/, '').replace(/\.[cm]?[jt]s$/, '');

/**
 * The build-time composition plugin. A page imports `virtual:weft-variants` (a precomposed table, plain data) and
 * hands it to its engine with `usePrecomposedShaders(engine, precomposed)`; its forward renderer, picker and
 * geometry renderer then take their shaders from the table. By default the composer's linker module is replaced by
 * a stand-in without wesl, so the page ships no linker. See docs/build-time-composition.md.
 * @throws {WeftError} when an option is unknown or a declared variant name is not registered
 * @throws {ComposeError} when a declared variant does not compose (at build start)
 */
export function weftVariants(options: WeftVariantsOptions = {}): WeftVariantsPlugin {
  const api = 'weftVariants';
  checkOptionKeys(api, options, optionKeys, (_, message) => new WeftError(api, 'usage', message));
  const linker = options.linker ?? 'drop';
  if (linker !== 'drop' && linker !== 'keep')
    throw new WeftError(api, 'usage', `linker ${JSON.stringify(linker)} is not 'drop' or 'keep'`);
  if (options.types !== undefined && (typeof options.types !== 'string' || !options.types.endsWith('.ts')))
    throw new WeftError(api, 'usage', `types ${JSON.stringify(options.types)} is not a path ending in .d.ts`);
  const linkModule = weftModule('composer/link');
  // This file's own extension: .ts when Vite runs it from the source tree (tests), .js from the package.
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const standIn = `${weftModule('composer/precomposed-link')}${extension}`;
  let table: PrecomposedShaders | null = null;
  const compose = (): PrecomposedShaders => {
    const selections: PrecomposeSelection[] = [];
    if (options.variants?.length) selections.push({ registry: makeWeftVariantRegistry(), names: options.variants });
    if (options.registry) selections.push({ registry: options.registry });
    // The table the page will import is checked as usePrecomposedShaders checks it, so a bad one fails the build.
    table ??= checkPrecomposedShaders(api, makePrecomposedShaders(selections));
    return table;
  };
  return {
    name: 'weft-variants',
    enforce: 'pre',
    async buildStart() {
      compose();
      if (options.types) await writeTypesAsync(options.types, declaredVariants(options));
    },
    async resolveId(source, importer) {
      if (source === weftVariantsModuleId) return resolvedModuleId;
      if (linker === 'keep' || !importer || !/(^|\/)link\.js$/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { skipSelf: true });
      return resolved && withoutExtension(resolved.id) === linkModule ? standIn : null;
    },
    load(id) {
      if (id !== resolvedModuleId) return null;
      // JSON.parse of a string literal: parsed faster than an object literal of the same size, and kept as data.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(compose()))});\n`;
    },
  };
}

/** The variants the options declare, composed, with their names (for their uniform declarations). */
function declaredVariants(options: WeftVariantsOptions): DeclaredVariant[] {
  const cache = makeComposeCache();
  const own = options.variants?.length ? makeWeftVariantRegistry() : null;
  const pairs: [VariantRegistry, string][] = [
    ...(own ? (options.variants ?? []).map((name): [VariantRegistry, string] => [own, name]) : []),
    ...(options.registry
      ? listVariants(options.registry).map((v): [VariantRegistry, string] => [options.registry!, v.name])
      : []),
  ];
  return pairs.map(([registry, name]) => ({ name, composed: composeShader(getVariant(registry, name).spec(), cache) }));
}

/** Writes `weft types`' text to `path` unless it already holds it (an unchanged file does not wake watchers). */
async function writeTypesAsync(path: string, variants: readonly DeclaredVariant[]): Promise<void> {
  const fs = (await import('node:fs/promises' as string)) as {
    readFile(path: string, encoding: 'utf8'): Promise<string>;
    writeFile(path: string, text: string): Promise<void>;
  };
  const text = formatUniformDeclarations(variants);
  const current = await fs.readFile(path, 'utf8').catch(() => null);
  if (current !== text) await fs.writeFile(path, text);
}
