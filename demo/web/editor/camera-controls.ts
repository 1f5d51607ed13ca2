// Camera navigation: Alt+LMB tumble, Alt+RMB pan (the point under the cursor follows it), wheel dolly, Space reset.
import { vec3 } from 'wgpu-matrix';
import { type PerspectiveCamera, dollyCamera, orbitCamera, panCamera, setCameraOrbit } from '../../../engine/index.js';
import { worldPerPixel } from '../math/rays.js';
import { homeOrbit } from '../scene/editor-scene.js';

/** Sensitivities of the camera controls (published for tests). */
export const cameraControls = {
  /** Radians of yaw / pitch per CSS pixel of tumble. */
  tumblePerPixel: 0.008,
  /** Dolly factor per wheel deltaY unit: radius × dollyBase^deltaY. */
  dollyBase: 1.0015,
} as const;

/** Orbits around the target: right drags turn the scene right, down drags raise the camera. */
export function tumble(camera: PerspectiveCamera, dx: number, dy: number): void {
  orbitCamera(camera, -dx * cameraControls.tumblePerPixel, dy * cameraControls.tumblePerPixel);
}

/** Slides camera and target so points at the target's depth follow the cursor by (dx, dy) CSS pixels. */
export function pan(camera: PerspectiveCamera, dx: number, dy: number, cssHeight: number): void {
  const distance = vec3.distance(camera.position, camera.target);
  const step = worldPerPixel(distance, camera.fovY, cssHeight);
  panCamera(camera, -dx * step, dy * step);
}

/** Moves towards (negative deltaY) or away from the target. */
export function dolly(camera: PerspectiveCamera, deltaY: number): void {
  dollyCamera(camera, cameraControls.dollyBase ** deltaY);
}

/** Puts the camera back where it started. */
export function resetCamera(camera: PerspectiveCamera): void {
  setCameraOrbit(camera, homeOrbit);
}
