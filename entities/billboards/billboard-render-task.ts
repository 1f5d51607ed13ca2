import { billboardParamsBytes, billboardSpriteBytes } from '../../fragments/billboard-pick.js';
import {
  checkEntityRenderTaskOptions,
  createEntityRenderTask,
  type EntityRenderTaskOptions,
} from '../entity-render-task.js';
import type { Task } from '../../engine/task.js';
import { billboardParams, packBillboardSprite } from './billboard-items.js';
import { billboardColorSpec } from './billboard-shaders.js';
import type { BillboardSystem } from './billboard-system.js';

/** Draws a billboard system's sprites (flat colours, depth-tested and depth-writing) over a target the meshes were drawn into. */
export function createBillboardRenderTask(system: BillboardSystem, options: EntityRenderTaskOptions): Task {
  checkEntityRenderTaskOptions('createBillboardRenderTask', options);
  const params = new Float32Array(4);
  return createEntityRenderTask(
    system.scene,
    { name: `billboards:${system.name}`, ...options },
    {
      label: `billboards:${system.name}`,
      shaderSpec: billboardColorSpec,
      variantName: 'billboard-color',
      itemsBinding: 'billboardSprites',
      paramsBinding: 'billboardParams',
      paramsBytes: billboardParamsBytes,
      itemBytes: billboardSpriteBytes,
      depthWrite: true,
      capacity: () => system.count,
      fill(items) {
        if (system.disposed) return 0;
        for (let i = 0; i < system.count; i++) packBillboardSprite(system, i, items, i);
        return system.count;
      },
      params: () => billboardParams(system, params),
    },
  );
}
