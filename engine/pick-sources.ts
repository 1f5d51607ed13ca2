import { describeValue } from '../core/errors.js';
import { EngineError } from './engine-errors.js';
import type { Scene } from './scene.js';

/**
 * Something pickable that is not a mesh (billboards, splats, …): the entity's data plus a thunk that
 * imports the code drawing it into the pick pass. Nothing pick-related loads until the first pick.
 * `load` resolves to a module object with `createPickContributor` (the contributor API of `weft-gpu/picking`);
 * it is typed loosely here so that registering a source never imports picker types or code.
 */
export interface PickSource<Entity extends object = object> {
  /** What a pick reports as `pickedEntity` when this source is hit. */
  readonly entity: Entity;
  /** Imports the contributor module, e.g. `() => import('./my-pick.js')`; called once, on the first pick. */
  readonly load: () => Promise<{
    /** Makes the per-device GPU state that draws the source into the pick pass. */
    createPickContributor: (...args: never[]) => unknown;
  }>;
}

/**
 * Registers a pick source on the scene; every picker of the scene draws it from its next pick on.
 * @throws {EngineError} when the source is not `{ entity, load }`
 */
export function registerPickSource<Entity extends object>(
  scene: Scene,
  source: PickSource<Entity>,
): PickSource<Entity> {
  const api = 'registerPickSource';
  if (scene.disposed) throw new EngineError(api, 'disposed', 'the scene was disposed');
  if (!source || typeof source !== 'object' || !source.entity || typeof source.entity !== 'object') {
    throw new EngineError(
      api,
      'bad-option',
      `source ${describeValue(source)} must be { entity: object, load: () => Promise<module> }`,
    );
  }
  if (typeof source.load !== 'function')
    throw new EngineError(
      api,
      'bad-option',
      `source.load ${describeValue(source.load)} must be a function returning import(…) of a contributor module`,
    );
  if (scene.pickSources.some((s) => s.entity === source.entity))
    throw new EngineError(api, 'duplicate', 'this entity is already registered on the scene');
  scene.pickSources.push(source);
  return source;
}

/** Removes a pick source (by source or entity); pickers free its GPU state on their next pick. Unknown sources are ignored. */
export function unregisterPickSource(scene: Scene, sourceOrEntity: PickSource | object): void {
  const index = scene.pickSources.findIndex((s) => s === sourceOrEntity || s.entity === sourceOrEntity);
  if (index >= 0) scene.pickSources.splice(index, 1);
}
