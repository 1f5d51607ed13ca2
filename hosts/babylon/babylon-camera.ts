// A Babylon.js camera as a weft matrix camera: Babylon.js's own view and projection (as it draws with them), turned
// into a right-handed view looking down −Z when the scene is left-handed (the product, and so every pixel, is the same).
import type { Camera } from '@babylonjs/core/Cameras/camera.js';
import type { AbstractEngine } from '@babylonjs/core/Engines/abstractEngine.js';
import type { Scene } from '@babylonjs/core/scene.js';
import { type MatrixCamera, makeMatrixCamera } from '../../engine/matrix-camera.js';
import { BabylonPickError } from './babylon-errors.js';

/**
 * Writes `camera`'s matrices into `target` (made on first use) and returns it. A left-handed scene's view is
 * multiplied by diag(1, 1, −1, 1) on the left and its projection by the same on the right: projection × view is
 * unchanged, the view now looks down −Z as weft's matrix cameras do.
 * @internal
 */
export function writeBabylonCamera(
  api: string,
  engine: AbstractEngine,
  scene: Scene,
  camera: Camera,
  target: MatrixCamera | null,
): MatrixCamera {
  const viewport = camera.viewport;
  if (viewport.x !== 0 || viewport.y !== 0 || viewport.width !== 1 || viewport.height !== 1)
    throw new BabylonPickError(
      api,
      'unsupported',
      `camera "${camera.name}" has viewport (${viewport.x}, ${viewport.y}, ${viewport.width}, ${viewport.height}); only the full render area (0, 0, 1, 1) is supported`,
    );
  if (camera.cameraRigMode !== 0)
    throw new BabylonPickError(api, 'unsupported', `camera "${camera.name}" is a rig (stereo/VR) camera`);
  const view = camera.getViewMatrix().m;
  const projection = camera.getProjectionMatrix().m;
  const depth = engine.useReverseDepthBuffer ? 'reverse' : 'standard';
  const flip = !scene.useRightHandedSystem;
  const v = target?.view ?? new Float64Array(16);
  const p = target?.projection ?? new Float64Array(16);
  for (let i = 0; i < 16; i++) {
    // Row 2 of the view (elements 2, 6, 10, 14) and column 2 of the projection (elements 8..11) change sign.
    v[i] = flip && i % 4 === 2 ? -view[i] : view[i];
    p[i] = flip && i >= 8 && i < 12 ? -projection[i] : projection[i];
  }
  const out = target ?? makeMatrixCamera({ view: v, projection: p, depth });
  out.depth = depth;
  return out;
}
