import type { RollupOptions } from 'rollup';

declare const config: RollupOptions & { output: import('rollup').OutputOptions };
export default config;
