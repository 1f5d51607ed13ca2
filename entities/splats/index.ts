export * from './splat-mesh.js';
export * from './splat-render-task.js';
