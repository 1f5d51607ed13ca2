// A three.js camera as weft's matrix camera, prepared exactly as three's renderer prepares it before a frame.
import type { Camera } from 'three';
import type { WebGPURenderer } from 'three/webgpu';
import { describeValue } from '../../core/errors.js';
import { type MatrixCamera, makeMatrixCamera } from '../../engine/matrix-camera.js';
import { PickError } from '../../picking/pick-errors.js';

/** @internal Throws unless `camera` is a three.js Camera. */
export function checkThreeCamera(api: string, camera: Camera): void {
  if (!camera || (camera as { isCamera?: boolean }).isCamera !== true)
    throw new PickError(api, 'bad-option', `camera ${describeValue(camera)} must be a three.js Camera`);
}

let cameras: WeakMap<Camera, MatrixCamera> | undefined;

/**
 * Brings `camera` to the state three's renderer draws it in (world matrix, WebGPU clip space, reversed depth when the
 * renderer uses it) and returns weft's matrix camera for it (one per three camera, its matrices refreshed in place).
 * @internal
 */
export function threeMatrixCamera(api: string, renderer: WebGPURenderer, camera: Camera): MatrixCamera {
  checkThreeCamera(api, camera);
  let changed = false;
  const reversed = renderer.reversedDepthBuffer === true;
  const internal = camera as unknown as { _reversedDepth: boolean };
  if (reversed && camera.reversedDepth !== true) {
    internal._reversedDepth = true;
    changed = true;
  }
  if (camera.coordinateSystem !== renderer.coordinateSystem) {
    camera.coordinateSystem = renderer.coordinateSystem;
    changed = true;
  }
  const projected = camera as Camera & { updateProjectionMatrix?: () => void };
  if (changed) projected.updateProjectionMatrix?.();
  if (camera.parent === null && camera.matrixWorldAutoUpdate) camera.updateMatrixWorld();
  const depth = camera.reversedDepth ? 'reverse' : 'standard';
  cameras ??= new WeakMap();
  const known = cameras.get(camera);
  if (known && known.depth === depth) {
    known.view.set(camera.matrixWorldInverse.elements);
    known.projection.set(camera.projectionMatrix.elements);
    return known;
  }
  const made = makeMatrixCamera({
    view: camera.matrixWorldInverse.elements,
    projection: camera.projectionMatrix.elements,
    depth,
  });
  cameras.set(camera, made);
  return made;
}
