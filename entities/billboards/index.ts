export * from './billboard-system.js';
export * from './billboard-render-task.js';
