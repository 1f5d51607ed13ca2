/**
 * Gaussian splat clouds, picked at their peak opacity along the pixel ray.
 * @module weft-gpu/splats
 */
export {
  createSplatMesh,
  disposeSplatMesh,
  getPickedSplatIndex,
  type SplatMesh,
  type SplatMeshOptions,
} from './splat-mesh.js';
export { createSplatRenderTask, splatRenderCutoff } from './splat-render-task.js';
export type { EntityRenderTaskOptions } from '../entity-render-task.js';
