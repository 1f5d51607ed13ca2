/**
 * Build-time composition for Vite and Rollup, and live fragment edits in Vite's dev server (Node only; the page
 * imports virtual:weft-variants).
 * @module weft-gpu/vite
 */
// The plugin and its options: declare variants, get their shaders as data, ship no linker.
export {
  type WeftVariantsOptions,
  type WeftVariantsPlugin,
  weftVariants,
  weftVariantsModuleId,
} from './weft-variants-plugin.js';
// Live fragment edits in the dev server: a saved .wgsl file or fragment module swaps into the pipelines drawing.
export { type LiveReloadServer, type WeftLiveReloadPlugin, weftLiveReload } from './weft-live-reload-plugin.js';
// The table's shape, for typing `virtual:weft-variants` (see docs/build-time-composition.md).
export type { PrecomposedEntry, PrecomposedShaderData, PrecomposedShaders } from '../composer/precomposed.js';
