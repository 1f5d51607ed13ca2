/**
 * Build-time composition for Vite and Rollup (Node only; the page imports virtual:weft-variants).
 * @module weft-gpu/vite
 */
// The plugin and its options: declare variants, get their shaders as data, ship no linker.
export {
  type WeftVariantsOptions,
  type WeftVariantsPlugin,
  weftVariants,
  weftVariantsModuleId,
} from './weft-variants-plugin.js';
// The table's shape, for typing `virtual:weft-variants` (see docs/build-time-composition.md).
export type { PrecomposedEntry, PrecomposedShaderData, PrecomposedShaders } from '../composer/precomposed.js';
