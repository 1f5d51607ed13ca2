import type { OutputOptions, RollupOptions } from 'rollup';

/** The package entries (package.json `exports`), as source paths without `.ts`. */
export declare const libraryEntries: readonly string[];

/** Declaration-only entries written by hand (package.json `exports` with `types` only), without `.d.ts`. */
export declare const declarationEntries: readonly string[];

/** The package build into `outDir` (default `dist/`). */
export declare function makeRollupConfig(options?: { outDir?: string }): RollupOptions & { output: OutputOptions };

declare const config: RollupOptions & { output: OutputOptions };
export default config;
