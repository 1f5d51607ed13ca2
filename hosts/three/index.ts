// weft-gpu/three: weft's exact GPU picker for three.js scenes, and weft surfaces as three.js materials (three.js is an
// optional peer dependency).
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
