import { getCameraViewProjectionMatrix, type MatrixCamera } from '../engine/camera.js';
import { getMatrixCameraFrame, type MatrixCameraFrame } from '../engine/matrix-camera.js';
import { transformPoint64 } from '../engine/matrix64.js';

type Vec3 = [number, number, number];

/** A ray of a matrix camera in float64, and the distances along it where the near and far planes lie. */
interface MatrixCameraRay {
  origin: Vec3;
  direction: Vec3;
  near: number;
  far: number;
  viewProjection: Float32Array;
}

/** The float32 reverse-Z view-projection of each frame (one per matrix value set): rays of one frame share it. */
let uploaded: WeakMap<MatrixCameraFrame, Float32Array> | undefined;

function divided(p: readonly number[]): Vec3 {
  return [p[0] / p[3], p[1] / p[3], p[2] / p[3]];
}

/**
 * The ray of a matrix camera through NDC (ndcX, ndcY), in float64: the NDC point at depth 1 (near) and 0 (far)
 * through the float64 inverse of reverse-Z projection × view. Perspective: from the centre of projection through the
 * near point (far is Infinity when the projection's is); orthographic: from the near point towards the far point.
 * @throws {EngineError} naming `api` when the camera's matrices are not usable
 * @internal
 */
export function makeMatrixCameraRay(camera: MatrixCamera, ndcX: number, ndcY: number, api: string): MatrixCameraRay {
  const frame = getMatrixCameraFrame(camera, api);
  uploaded ??= new WeakMap();
  let viewProjection = uploaded.get(frame);
  if (!viewProjection) {
    viewProjection = getCameraViewProjectionMatrix(camera, 1);
    uploaded.set(frame, viewProjection);
  }
  const m = frame.inverseViewProjection;
  const nearPoint = divided(transformPoint64(m, ndcX, ndcY, 1));
  const farHomogeneous = transformPoint64(m, ndcX, ndcY, 0);
  const start: Vec3 = frame.projectionType === 'perspective' ? frame.eye : nearPoint;
  const toward: Vec3 = frame.projectionType === 'perspective' ? nearPoint : divided(farHomogeneous);
  const dx = toward[0] - start[0];
  const dy = toward[1] - start[1];
  const dz = toward[2] - start[2];
  const length = Math.hypot(dx, dy, dz);
  const direction: Vec3 = [dx / length, dy / length, dz / length];
  if (frame.projectionType === 'orthographic')
    return { origin: [start[0], start[1], start[2]], direction, near: 0, far: length, viewProjection };
  const far = Number.isFinite(frame.far)
    ? Math.hypot(...(divided(farHomogeneous).map((v, k) => v - start[k]) as Vec3))
    : Infinity;
  return { origin: [start[0], start[1], start[2]], direction, near: length, far, viewProjection };
}
