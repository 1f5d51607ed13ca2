/**
 * weft inside Babylon.js: exact GPU picks of a WebGPUEngine scene answered as Babylon.js `PickingInfo`, and weft
 * surfaces as Babylon.js materials. `@babylonjs/core` is an optional peer dependency: only this entry imports it.
 * @module weft-gpu/babylon
 */

// The picker's life: create on the WebGPUEngine's device, restrict like GPUPicker, dispose.
export {
  type BabylonPicker,
  type BabylonPickerOptions,
  createBabylonPickerAsync,
  disposeBabylonPicker,
  getBabylonPickerOwnedBytes,
  setBabylonPickingList,
} from './babylon-picker.js';
// The picks: GPUPicker's pickAsync / multiPickAsync / boxPickAsync, answered as Babylon.js PickingInfo.
export {
  type BabylonBoxPickResult,
  type BabylonPickOptions,
  boxPickBabylonAsync,
  multiPickBabylonAsync,
  pickBabylonAsync,
} from './babylon-pick.js';
// Typed errors: what is refused and why.
export { BabylonPickError, type BabylonPickErrorCode } from './babylon-errors.js';
// weft surfaces as Babylon.js materials: Babylon.js places the mesh, weft's fragment stage shades it.
export {
  type BabylonMaterial,
  BabylonMaterialError,
  type BabylonMaterialErrorCode,
  type BabylonMaterialSpec,
  type BabylonUniformValues,
  createBabylonMaterial,
  disposeBabylonMaterial,
  setBabylonMaterialUniforms,
} from './babylon-material.js';
