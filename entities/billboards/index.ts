/**
 * Camera-facing or axis-locked sprites that draw and pick like meshes.
 * @module weft-gpu/billboards
 */
export {
  type BillboardOptions,
  type BillboardOrientation,
  type BillboardSystem,
  createBillboardSystem,
  disposeBillboardSystem,
  getPickedSpriteIndex,
} from './billboard-system.js';
export { createBillboardRenderTask } from './billboard-render-task.js';
export type { EntityRenderTaskOptions } from '../entity-render-task.js';
