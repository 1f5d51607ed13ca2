/**
 * The whole toolkit from one entry. It is exactly the union of the subpath entries below, whose index files list each
 * public name with the reason it is public; import a subpath (weft-gpu/composer, …) to load less.
 * @module weft-gpu
 */
export * from './composer/index.js';
export * from './fragments/index.js';
export * from './engine/index.js';
export * from './picking/index.js';
export * from './geometry/index.js';
export * from './entities/billboards/index.js';
export * from './entities/splats/index.js';
export * from './variants/index.js';
