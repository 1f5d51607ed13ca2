export * from './pick-id.js';
