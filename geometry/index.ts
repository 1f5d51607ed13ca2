export * from './geometry-types.js';
export * from './geometry-errors.js';
export * from './geometry-validation.js';
export * from './texture-format-caps.js';
export * from './geometry-renderer-task.js';
export * from './blit-pass.js';
export * from './copy-to-texture-task.js';
export * from './geometry-strip.js';
