// The whole toolkit from one entry; subpaths (weft/engine, weft/composer, …) load less.
export * from './composer/index.js';
export * from './engine/index.js';
export * from './fragments/index.js';
export * from './geometry/index.js';
export * from './picking/index.js';
export * from './entities/billboards/index.js';
export * from './entities/splats/index.js';
export * from './variants/index.js';
