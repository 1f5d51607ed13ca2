// The picker of a Babylon.js scene: weft's GPU picker on the WebGPUEngine's own device, picking a drawable scene that
// mirrors what Babylon.js draws (Babylon.js's own GPU buffers, bound where they live).
import type { AbstractEngine } from '@babylonjs/core/Engines/abstractEngine.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import type { Scene } from '@babylonjs/core/scene.js';
import { describeValue } from '../../core/errors.js';
import { type Engine, disposeEngine } from '../../engine/engine.js';
import { createEngineFromDeviceAsync } from '../../engine/host-device.js';
import type { MatrixCamera } from '../../engine/matrix-camera.js';
import { createGpuPicker, disposeGpuPicker, enableDetailedPicking, type GpuPicker } from '../../picking/gpu-picker.js';
import { createDrawableScene, disposeDrawableScene } from '../../picking/sources/drawable-scene.js';
import type { DrawableScene } from '../../picking/sources/drawable-types.js';
import { makeSceneWalk, type SceneWalk } from './babylon-drawables.js';
import { BabylonPickError } from './babylon-errors.js';
import { makeOwnedBuffers, type OwnedBuffers, releaseAllOwned } from '../owned-buffers.js';

/** Options of `createBabylonPickerAsync`. */
export interface BabylonPickerOptions {
  /** Label prefix of the GPU objects the picker makes (default `weft-babylon`). */
  label?: string;
}

/** A picker of one Babylon.js scene: plain state; pick it with `pickBabylonAsync` and friends. */
export interface BabylonPicker {
  readonly engine: AbstractEngine;
  readonly scene: Scene;
  /** The WebGPUEngine's device, shared by weft. */
  readonly device: GPUDevice;
  /** weft's engine on that device. */
  readonly weftEngine: Engine;
  /** The weft scene that mirrors the Babylon.js scene (one drawable per drawn mesh). */
  readonly drawables: DrawableScene<AbstractMesh>;
  readonly gpuPicker: GpuPicker;
  /** @internal */
  readonly walk: SceneWalk;
  /** @internal The picker's own buffers (converted joints, morphed positions). */
  readonly owned: OwnedBuffers;
  /** @internal The camera of the last pick, rewritten each pick. */
  camera: MatrixCamera | null;
  /** Only these meshes are picked (`setBabylonPickingList`); null: every mesh. */
  pickingList: Set<AbstractMesh> | null;
  /** Set when the device was lost (its reason); picks then throw `device-lost`. */
  lostReason: string | null;
  disposed: boolean;
}

/**
 * Creates a picker of `scene` on `engine`'s own GPU device (a Babylon.js `WebGPUEngine`): nothing is uploaded again
 * where Babylon.js has its buffers on the GPU. Picks draw exactly what Babylon.js draws for the camera (see
 * docs/babylon.md for what is supported).
 * @throws {BabylonPickError} `not-webgpu` when the engine is not an initialised WebGPUEngine; `bad-option` for an unknown option
 */
export async function createBabylonPickerAsync(
  engine: AbstractEngine,
  scene: Scene,
  options: BabylonPickerOptions = {},
): Promise<BabylonPicker> {
  const api = 'createBabylonPickerAsync';
  if (options === null || typeof options !== 'object')
    throw new BabylonPickError(api, 'bad-option', `options ${describeValue(options)} must be an object`);
  for (const key of Object.keys(options))
    if (key !== 'label') throw new BabylonPickError(api, 'bad-option', `unknown option "${key}"; allowed: label`);
  const device = (engine as unknown as { _device?: GPUDevice } | null)?._device;
  if (!engine?.isWebGPU || !device)
    throw new BabylonPickError(
      api,
      'not-webgpu',
      `engine ${describeValue(engine)} is not an initialised Babylon.js WebGPUEngine (await engine.initAsync() first); weft picks on its GPU device`,
    );
  if (!scene || scene.getEngine() !== engine)
    throw new BabylonPickError(
      api,
      'bad-option',
      `scene ${describeValue(scene)} must be a Babylon.js Scene of this engine`,
    );
  const label = options.label ?? 'weft-babylon';
  const weftEngine = await createEngineFromDeviceAsync(
    device,
    { width: engine.getRenderWidth(), height: engine.getRenderHeight() },
    { label },
  );
  const drawables = createDrawableScene<AbstractMesh>(weftEngine);
  const gpuPicker = createGpuPicker(drawables.scene);
  enableDetailedPicking(gpuPicker);
  const picker: BabylonPicker = {
    engine,
    scene,
    device,
    weftEngine,
    drawables,
    gpuPicker,
    walk: makeSceneWalk(),
    owned: makeOwnedBuffers(device, label),
    camera: null,
    pickingList: null,
    lostReason: null,
    disposed: false,
  };
  device.lost.then((info) => {
    picker.lostReason = `${info.reason}: ${info.message}`;
  });
  return picker;
}

/**
 * Restricts picks to `meshes` (as `GPUPicker.setPickingList`); `null` picks every mesh again. The list is copied.
 * @throws {BabylonPickError} `bad-option` when it is not an array or null
 */
export function setBabylonPickingList(picker: BabylonPicker, meshes: readonly AbstractMesh[] | null): void {
  if (meshes !== null && !Array.isArray(meshes))
    throw new BabylonPickError(
      'setBabylonPickingList',
      'bad-option',
      `meshes ${describeValue(meshes)} must be an array of Babylon.js meshes or null`,
    );
  picker.pickingList = meshes ? new Set(meshes) : null;
}

/**
 * Bytes of GPU buffers the picker made itself for mesh data (converted joints, morphed positions); Babylon.js's own
 * buffers are not counted (they are bound as they are). weft's pick targets and uniforms are not included.
 */
export function getBabylonPickerOwnedBytes(picker: BabylonPicker): number {
  return picker.owned.bytes;
}

/** @internal Throws `disposed` / `device-lost` when the picker cannot pick. */
export function assertBabylonPickerUsable(picker: BabylonPicker, api: string): void {
  if (!picker || typeof picker !== 'object' || !('gpuPicker' in picker))
    throw new BabylonPickError(
      api,
      'bad-option',
      `picker ${describeValue(picker)} must come from createBabylonPickerAsync`,
    );
  if (picker.disposed)
    throw new BabylonPickError(
      api,
      'disposed',
      'the picker was disposed; create a new one with createBabylonPickerAsync',
    );
  if (picker.lostReason !== null) throw deviceLostError(picker, api);
}

/** @internal */
export function deviceLostError(picker: BabylonPicker, api: string): BabylonPickError {
  return new BabylonPickError(
    api,
    'device-lost',
    `the WebGPUEngine's GPU device was lost (${picker.lostReason ?? 'lost'}); dispose this picker (disposeBabylonPicker) and create a new one with createBabylonPickerAsync once Babylon.js has restored its engine (engine.onContextRestoredObservable)`,
  );
}

/**
 * Disposes the picker: picks in flight are rejected, the picker's own buffers are destroyed; Babylon.js's buffers
 * and device are left as they are.
 */
export function disposeBabylonPicker(picker: BabylonPicker): void {
  if (picker.disposed) return;
  picker.disposed = true;
  disposeGpuPicker(picker.gpuPicker);
  disposeDrawableScene(picker.drawables);
  releaseAllOwned(picker.owned);
  Object.assign(picker.walk, makeSceneWalk());
  disposeEngine(picker.weftEngine);
}
