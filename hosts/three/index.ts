/**
 * weft inside three.js: exact GPU picks of a WebGPURenderer scene answered as three.js intersections, and weft
 * surfaces as three.js materials. `three` is an optional peer dependency: only this entry imports it.
 * @module weft-gpu/three
 */
export type { ThreeIntersection } from './three-intersection.js';
export {
  createThreeMaterial,
  disposeThreeMaterial,
  setThreeMaterialUniforms,
  type ThreeMaterial,
  ThreeMaterialError,
  type ThreeMaterialErrorCode,
  type ThreeMaterialSpec,
  type ThreeUniformValues,
} from './three-material.js';
export {
  createThreePickerAsync,
  disposeThreePicker,
  pickManyThreeAsync,
  pickRectThreeAsync,
  pickThreeAsync,
  type ThreePicker,
  type ThreePickOptions,
  type ThreeRectHit,
} from './three-picker.js';
