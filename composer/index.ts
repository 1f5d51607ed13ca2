// The base error module sits below every layer; re-exported here until the public API is curated.
export { describeValue, WeftError, type WeftErrorCode } from '../core/errors.js';
export * from './bindings.js';
export * from './compile-errors.js';
export * from './compose-shader.js';
export * from './conditions.js';
export * from './describe.js';
export * from './device-caches.js';
export * from './errors.js';
export * from './features.js';
export * from './generated-module.js';
export * from './hash.js';
export * from './link.js';
export * from './pipeline-cache.js';
export * from './shader-module-memo.js';
export * from './slots.js';
export * from './stage-io.js';
export * from './variant-registry.js';
export * from './vertex-layout.js';
