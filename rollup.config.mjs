import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import typescript from '@rollup/plugin-typescript';
import ts from 'typescript';

const root = dirname(fileURLToPath(import.meta.url));

/** The package entries (package.json `exports`), as source paths without `.ts`. */
export const libraryEntries = [
  'index',
  'composer/index',
  'engine/index',
  'picking/index',
  'geometry/index',
  'fragments/index',
  'entities/billboards/index',
  'entities/splats/index',
  'variants/index',
  'vite/index',
  'hosts/babylon/index',
  'hosts/three/index',
  'hosts/typegpu/index',
  'engine/loaders/index',
];

/**
 * The composer's linker and the stand-in weft-gpu/vite swaps in for it: built as inputs of their own, and the linker is
 * imported as an external module by the rest of the library (see `opaqueLinker`).
 */
const swappedInModules = ['composer/link', 'composer/precomposed-link'];

/** The page side of weftLiveReload(): served to a dev page by path, imported by no entry. */
const servedModules = ['vite/live-client'];

/** The `weft` command (package.json `bin`). */
const cliEntry = 'cli/weft';

/**
 * The build of the package: the library entries and the CLI into `outDir` (default `dist/`, what `npm run build`
 * writes). Tests pass their own directory so that two builds never write the same files.
 */
export function makeRollupConfig({ outDir = join(root, 'dist') } = {}) {
  const dir = resolve(root, outDir);
  return {
    input: Object.fromEntries(
      [...libraryEntries, ...swappedInModules, ...servedModules, cliEntry].map((name) => [
        name,
        join(root, `${name}.ts`),
      ]),
    ),
    output: {
      dir,
      format: 'es',
      preserveModules: true,
      preserveModulesRoot: root,
      sourcemap: true,
      banner: (chunk) => (chunk.fileName === `${cliEntry}.js` ? '#!/usr/bin/env node' : ''),
    },
    // Dependencies stay external: the consumer's bundler resolves them once.
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
    treeshake: { moduleSideEffects: false },
    plugins: [
      opaqueLinker(),
      withSourcePathsFixed(
        typescript({
          tsconfig: join(root, 'tsconfig.build.json'),
          outDir: dir,
          declarationDir: dir,
          // The CLI is an app (Node types, no declarations): transpileCli compiles it.
          exclude: ['cli/**'],
        }),
      ),
      transpileCli(),
      referenceWebGpuTypes(),
      executableCli(),
    ],
  };
}

export default makeRollupConfig();

/**
 * @rollup/plugin-typescript hands Rollup TypeScript's map, whose `sources` are relative to the emitted file in
 * `outDir`, while Rollup reads them relative to the source file: every path came out one directory too high
 * (rollup/plugins#1966). Each module's map has one source, the module itself.
 */
function withSourcePathsFixed(plugin) {
  const load = plugin.load;
  plugin.load = async function (id) {
    const output = await load.call(this, id);
    if (output?.map) {
      const map = typeof output.map === 'string' ? JSON.parse(output.map) : output.map;
      output.map = { ...map, sources: [basename(id)], sourceRoot: undefined };
    }
    return output;
  };
  return plugin;
}

/**
 * Imports of `composer/link.js` stay imports in dist/ (same relative specifier; the layout mirrors the sources), so
 * this build folds nothing across them: Rollup would otherwise inline `linkerAvailable` (true) into compose-shader.js
 * and drop arguments link.ts ignores, and the stand-in a weft-gpu/vite build resolves `link.js` to would be bypassed.
 * The consumer's bundler sees the real module (or the stand-in) and folds there.
 */
function opaqueLinker() {
  const linker = join(root, 'composer', 'link.js');
  return {
    name: 'weft-opaque-linker',
    resolveId(source, importer) {
      if (!importer || !source.startsWith('.') || !source.endsWith('/link.js')) return null;
      if (resolve(dirname(importer), source) !== linker) return null;
      return { id: source, external: 'absolute' };
    },
  };
}

/** Compiles `cli/*.ts` module by module (type-checked by `tsc --noEmit` with the rest of the repository). */
function transpileCli() {
  const cliDir = join(root, 'cli') + sep;
  return {
    name: 'weft-transpile-cli',
    resolveId(source, importer) {
      if (!importer?.startsWith(cliDir) || !source.startsWith('.') || !source.endsWith('.js')) return null;
      const file = resolve(dirname(importer), source.replace(/\.js$/, '.ts'));
      return file.startsWith(cliDir) && existsSync(file) ? file : null;
    },
    transform(code, id) {
      if (!id.startsWith(cliDir) || !id.endsWith('.ts')) return null;
      const { outputText, sourceMapText } = ts.transpileModule(code, {
        fileName: id,
        compilerOptions: {
          module: ts.ModuleKind.ESNext,
          target: ts.ScriptTarget.ES2022,
          verbatimModuleSyntax: true,
          sourceMap: true,
        },
      });
      const map = JSON.parse(sourceMapText);
      return {
        code: outputText.replace(/\/\/# sourceMappingURL=.*\s*$/, ''),
        map: { ...map, sources: [basename(id)] },
      };
    },
  };
}

/**
 * Where an entry's declarations get their WebGPU and DOM types, for every TypeScript a user has (issue 38):
 * - every entry declaration references `lib="dom"` (the WebGPU types need DOM names; a project whose `lib` has no DOM
 *   still type-checks); TypeScript 7's own lib.dom carries the WebGPU types, so a TypeScript 7 program gets nothing
 *   else (referencing `@webgpu/types` too would declare every WebGPU name twice);
 * - TypeScript before 7 has no WebGPU types in lib.dom: its `exports` condition `types@<7` resolves to a wrapper in
 *   `dist/ts5/` that references `@webgpu/types` and re-exports the entry;
 * - the glTF entry's declarations name `@gltf-transform/core`'s, which need `Float16Array` (`lib="esnext.float16"`).
 */
function entryTypeReferences(entry) {
  return ['dom', ...(entry === 'engine/loaders/index' ? ['esnext.float16'] : [])].map(
    (lib) => `/// <reference lib="${lib}" />`,
  );
}

/** The `types@<7` wrapper of an entry: `dist/ts5/<entry>.d.ts`. */
const ts5TypesFile = (entry) => `ts5/${entry}.d.ts`;

/** Declaration files written by hand (no code): shipped as they are, each a types-only package export. */
export const declarationEntries = ['vite/client'];

function referenceWebGpuTypes() {
  return {
    name: 'weft-reference-webgpu-types',
    generateBundle(_options, bundle) {
      for (const entry of declarationEntries)
        this.emitFile({
          type: 'asset',
          fileName: `${entry}.d.ts`,
          source: readFileSync(join(root, `${entry}.d.ts`), 'utf8'),
        });
      for (const entry of libraryEntries) {
        const file = bundle[`${entry}.d.ts`];
        if (file?.type !== 'asset') this.error(`no declarations for entry ${entry}`);
        const references = `${entryTypeReferences(entry).join('\n')}\n`;
        const source = String(file.source);
        if (!source.startsWith(references)) file.source = references + source;
        const up = '../'.repeat(entry.split('/').length);
        this.emitFile({
          type: 'asset',
          fileName: ts5TypesFile(entry),
          source: `/// <reference types="@webgpu/types" />\nexport * from '${up}${entry}.js';\n`,
        });
      }
    },
  };
}

/** `dist/cli/weft.js` runs as a program (npm also sets the bit when it links a `bin`). */
function executableCli() {
  return {
    name: 'weft-executable-cli',
    writeBundle(options) {
      const file = join(options.dir, `${cliEntry}.js`);
      if (existsSync(file)) chmodSync(file, 0o755);
    },
  };
}
