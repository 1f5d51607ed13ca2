// weft-gpu/three: weft's exact GPU picker for three.js scenes (three.js is an optional peer dependency).
export type { ThreeIntersection } from './three-intersection.js';
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
