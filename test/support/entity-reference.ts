// Reference geometry for the billboard and splat tests: written here from the definitions, not from weft's shaders.
import { mat3, mat4 } from 'wgpu-matrix';
import type { BillboardSystem } from '../../entities/billboards/index.js';
import {
  createBoxMesh,
  createScene,
  type Engine,
  makePerspectiveCamera,
  makeStandardMaterial,
  type Scene,
} from '../../engine/index.js';
import type { SplatMesh } from '../../entities/splats/index.js';
import { add, cameraBasis, type CameraBasis, cross, dot, normalize, rayBox, scale, sub } from './camera-rays.js';

export type Vec3 = [number, number, number];
export type Ray = { origin: Vec3; direction: Vec3 };
/** What the reference says a pixel shows: a name (box, `sprite#i`, `splat#i`) at ray distance t; `unsure` near edges and ties. */
export type Truth = { name: string; t: number } | 'miss' | 'unsure';

/** Boxes: one in front of the sprites/splats on the left, one behind them on the right. */
export const boxes: { name: string; min: Vec3; max: Vec3 }[] = [
  { name: 'front', min: [-2.2, -0.9, 1.2], max: [-1.2, 0.1, 1.6] },
  { name: 'back', min: [0.2, -1.5, -1.6], max: [3.2, 1.5, -1.2] },
];

export function nearest(candidates: ({ name: string; t: number; unsure: boolean } | null)[]): Truth {
  const hits = candidates
    .filter((c): c is { name: string; t: number; unsure: boolean } => c !== null)
    .sort((a, b) => a.t - b.t);
  if (hits.length === 0) return 'miss';
  if (hits[0].unsure || (hits.length > 1 && hits[1].t - hits[0].t < 1e-3 * hits[0].t)) return 'unsure';
  return { name: hits[0].name, t: hits[0].t };
}

export function boxCandidates(ray: Ray) {
  return boxes.map((b) => {
    const hit = rayBox(ray, b.min, b.max);
    return hit && { name: b.name, t: hit.t, unsure: hit.margin < 0.02 };
  });
}

/** Quad of sprite i as the reference builds it: camera-facing uses the camera basis, axis-locked turns about the axis. */
export function spriteCandidate(system: BillboardSystem, camera: CameraBasis, ray: Ray, i: number) {
  const centre: Vec3 = [system.positions[i * 3], system.positions[i * 3 + 1], system.positions[i * 3 + 2]];
  const [w, h] = [system.sizes[i * 2], system.sizes[i * 2 + 1]];
  const up: Vec3 = system.orientation === 'axis' ? system.axis : camera.up;
  const right =
    system.orientation === 'axis' ? normalize(cross(system.axis, sub(camera.position, centre))) : camera.right;
  const normal = cross(right, up);
  const t = dot(sub(centre, ray.origin), normal) / dot(ray.direction, normal);
  const local = sub(add(ray.origin, scale(ray.direction, t)), centre);
  const x = Math.abs(dot(local, right));
  const y = Math.abs(dot(local, up));
  if (t <= 0 || x > w / 2 + 0.01 || y > h / 2 + 0.01) return null;
  return { name: `sprite#${i}`, t, unsure: w / 2 - x < 0.01 || h / 2 - y < 0.01 };
}

/** Peak opacity of splat i along the ray, from the world covariance M R S² Rᵀ Mᵀ (not the shader's whitening). */
export function splatCandidate(mesh: SplatMesh, ray: Ray, i: number) {
  // Columns of M·R scaled by the standard deviations: the ellipsoid's axes in world space.
  const axes = mat3.multiply(mat3.fromMat4(mesh.worldMatrix), mat3.fromQuat(mesh.rotations.subarray(i * 4, i * 4 + 4)));
  for (let k = 0; k < 3; k++) for (let r = 0; r < 3; r++) axes[k * 4 + r] *= mesh.scales[i * 3 + k];
  const covariance = mat3.multiply(axes, mat3.transpose(axes));
  const inverse = mat3.inverse(covariance);
  const apply = (v: Vec3): Vec3 =>
    [0, 1, 2].map((r) => inverse[r] * v[0] + inverse[4 + r] * v[1] + inverse[8 + r] * v[2]) as Vec3;
  const c = mesh.centers.subarray(i * 3, i * 3 + 3);
  const w = mesh.worldMatrix;
  const centre: Vec3 = [0, 1, 2].map((r) => w[r] * c[0] + w[4 + r] * c[1] + w[8 + r] * c[2] + w[12 + r]) as Vec3;
  const toCentre = sub(centre, ray.origin);
  const t = dot(ray.direction, apply(toCentre)) / dot(ray.direction, apply(ray.direction));
  const offset = sub(add(ray.origin, scale(ray.direction, t)), centre);
  const alpha = mesh.opacities[i] * Math.exp(-0.5 * dot(offset, apply(offset)));
  if (alpha < mesh.pickOpacityThreshold - 0.01) return null;
  return { name: `splat#${i}`, t, unsure: alpha < mesh.pickOpacityThreshold + 0.01, alpha };
}

/** The camera every entity test looks through. */
export const referenceCamera = { position: [1.5, 2, 8] as Vec3, fovY: 0.7 };

/** A scene with the reference camera and the boxes (unlit in `colors` when given), plus the test's own camera basis. */
export function setUpReferenceScene(
  engine: Engine,
  colors?: Record<string, Vec3>,
): { scene: Scene; camera: CameraBasis } {
  const scene = createScene(engine, colors ? { clearColor: [0, 0, 0, 1] } : {});
  scene.camera = makePerspectiveCamera({
    position: referenceCamera.position,
    target: [0, 0, 0],
    fovY: referenceCamera.fovY,
    far: 100,
  });
  for (const b of boxes) {
    const size = sub(b.max, b.min);
    const material = colors ? makeStandardMaterial({ baseColor: colors[b.name], unlit: true }) : undefined;
    createBoxMesh(
      scene,
      b.name,
      { width: size[0], height: size[1], depth: size[2] },
      { worldMatrix: mat4.translation(scale(add(b.min, b.max), 0.5)), material },
    );
  }
  return {
    scene,
    camera: cameraBasis(referenceCamera.position, [0, 0, 0], referenceCamera.fovY, engine.width, engine.height),
  };
}
