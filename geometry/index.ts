export * from './geometry-types.js';
