// The test's own float64 rays (from the camera's parameters), projected edges, and references: Babylon.js's CPU
// scene.pickWithRay for rigid meshes (with the culling rule written here), three-mesh-bvh for the deformed ones.
import type { Vector3 as BVector3 } from '@babylonjs/core/Maths/math.vector.js';
import { Ray } from '@babylonjs/core/Culling/ray.core.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import type { PickingInfo } from '@babylonjs/core/Collisions/pickingInfo.js';
import { castReferenceRay, createReferenceScene, type ReferenceHit } from '../../../support/reference-raycast.js';
import { deformWithThree } from '../../../support/three-deform.js';
import type { CameraParams, TestScene } from './scene.js';

type Vec3 = [number, number, number];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const unit = (a: Vec3): Vec3 => {
  const l = Math.hypot(...a);
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** The camera frame in float64: forward, right (as the scene's handedness puts it on screen), up. */
export interface Frame {
  params: CameraParams;
  forward: Vec3;
  right: Vec3;
  up: Vec3;
  width: number;
  height: number;
  orthographic: boolean;
}

export function makeFrame(
  params: CameraParams,
  width: number,
  height: number,
  rightHanded: boolean,
  orthographic: boolean,
): Frame {
  const forward = unit(sub(params.target, params.eye));
  // Babylon.js LookAtRH: x = cross(up, −forward); LookAtLH: x = cross(up, forward).
  const right = unit(rightHanded ? cross(forward, params.up) : cross(params.up, forward));
  const up = unit(sub(params.up, forward.map((f) => f * dot(params.up, forward)) as Vec3));
  return { params, forward, right, up, width, height, orthographic };
}

/** The ray through pixel (x, y)'s centre, starting on the near plane. */
export function pixelRay(frame: Frame, x: number, y: number): { origin: Vec3; direction: Vec3 } {
  const { params, forward, right, up, width, height } = frame;
  const nx = (2 * (x + 0.5)) / width - 1;
  const ny = 1 - (2 * (y + 0.5)) / height;
  if (frame.orthographic) {
    const origin = [0, 1, 2].map(
      (i) => params.eye[i] + nx * params.halfX * right[i] + ny * params.halfY * up[i] + params.near * forward[i],
    ) as Vec3;
    return { origin, direction: forward };
  }
  const t = Math.tan(params.fovY / 2);
  const direction = unit(
    [0, 1, 2].map((i) => forward[i] + nx * t * (width / height) * right[i] + ny * t * up[i]) as Vec3,
  );
  const s = params.near / dot(direction, forward);
  return { origin: [0, 1, 2].map((i) => params.eye[i] + s * direction[i]) as Vec3, direction };
}

/** A world point's pixel position (x right, y down, pixel centres at +0.5). */
export function project(frame: Frame, p: Vec3): { x: number; y: number; depth: number } {
  const v = sub(p, frame.params.eye);
  const z = dot(v, frame.forward);
  let nx: number;
  let ny: number;
  if (frame.orthographic) {
    nx = dot(v, frame.right) / frame.params.halfX;
    ny = dot(v, frame.up) / frame.params.halfY;
  } else {
    const t = Math.tan(frame.params.fovY / 2);
    nx = dot(v, frame.right) / (z * t * (frame.width / frame.height));
    ny = dot(v, frame.up) / (z * t);
  }
  return { x: ((nx + 1) / 2) * frame.width, y: ((1 - ny) / 2) * frame.height, depth: z };
}

const transform = (m: ArrayLike<number>, p: ArrayLike<number>, at: number): Vec3 => [
  m[0] * p[at] + m[4] * p[at + 1] + m[8] * p[at + 2] + m[12],
  m[1] * p[at] + m[5] * p[at + 1] + m[9] * p[at + 2] + m[13],
  m[2] * p[at] + m[6] * p[at + 1] + m[10] * p[at + 2] + m[14],
];
/** a · b of column-major 4×4 matrices (Babylon.js's `m` order): a thin instance's world is multiply(world, its matrix). */
export function multiply(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  return out;
}

/** Per pixel: true when no projected triangle edge passes within `margin` px of its centre. */
export function interiorPixels(
  frame: Frame,
  soups: { positions: ArrayLike<number>; indices: ArrayLike<number>; worlds: ArrayLike<number>[] }[],
  margin = 0.05,
): Uint8Array {
  const inside = new Uint8Array(frame.width * frame.height).fill(1);
  for (const soup of soups)
    for (const world of soup.worlds) {
      const n = soup.positions.length / 3;
      const px = Array.from({ length: n }, (_, v) => project(frame, transform(world, soup.positions, v * 3)));
      for (let f = 0; f < soup.indices.length; f += 3)
        for (let k = 0; k < 3; k++) {
          const a = px[soup.indices[f + k]];
          const b = px[soup.indices[f + ((k + 1) % 3)]];
          if (a.depth < frame.params.near || b.depth < frame.params.near)
            throw new Error('a vertex lies before the near plane');
          const x0 = Math.max(0, Math.floor(Math.min(a.x, b.x) - 1));
          const x1 = Math.min(frame.width - 1, Math.ceil(Math.max(a.x, b.x) + 1));
          const y0 = Math.max(0, Math.floor(Math.min(a.y, b.y) - 1));
          const y1 = Math.min(frame.height - 1, Math.ceil(Math.max(a.y, b.y) + 1));
          const dx = b.x - a.x;
          const dy = b.y - a.y;
          const l2 = dx * dx + dy * dy;
          for (let y = y0; y <= y1; y++)
            for (let x = x0; x <= x1; x++) {
              const cx = x + 0.5 - a.x;
              const cy = y + 0.5 - a.y;
              const s = l2 > 0 ? Math.min(1, Math.max(0, (cx * dx + cy * dy) / l2)) : 0;
              if (Math.hypot(cx - s * dx, cy - s * dy) < margin) inside[y * frame.width + x] = 0;
            }
        }
    }
  return inside;
}

/** Triangle soups of everything drawn (for the edge map), world matrices as Babylon.js computed them. */
export function drawnSoups(test: TestScene, deformed: Map<Mesh, Float32Array>) {
  const soups: { positions: ArrayLike<number>; indices: ArrayLike<number>; worlds: ArrayLike<number>[] }[] = [];
  const meshes: AbstractMesh[] = [...test.rigid, ...test.rigid.flatMap((m) => m.instances), test.skinned, test.morphed];
  for (const mesh of meshes) {
    const source = (mesh as unknown as { sourceMesh?: Mesh }).sourceMesh ?? (mesh as Mesh);
    const world = mesh.computeWorldMatrix(true).m;
    const thin = mesh === source ? source.thinInstanceGetWorldMatrices?.() : [];
    const worlds = thin?.length
      ? Array.from({ length: source.thinInstanceCount }, (_, k) =>
          multiply(world, source._thinInstanceDataStorage.matrixData!.subarray(k * 16, k * 16 + 16)),
        )
      : [world];
    soups.push({
      positions: deformed.get(source) ?? source.getVerticesData('position')!,
      indices: source.getIndices()!,
      worlds,
    });
  }
  return soups;
}

/** Whether Babylon.js draws this triangle's side the local ray sees (the test's statement of Babylon.js's rule). */
function frontFacing(
  mesh: AbstractMesh,
  rightHanded: boolean,
  p0: BVector3,
  p1: BVector3,
  p2: BVector3,
  ray: Ray,
): boolean {
  const source = (mesh as unknown as { sourceMesh?: Mesh }).sourceMesh ?? (mesh as Mesh);
  const material = source.material!;
  const n = cross([p1.x - p0.x, p1.y - p0.y, p1.z - p0.z], [p2.x - p0.x, p2.y - p0.y, p2.z - p0.z]);
  const facing = dot(n, [ray.direction.x, ray.direction.y, ray.direction.z]) < 0;
  const clockwise = (material.sideOrientation ?? source.sideOrientation) === 0;
  // In a right-handed world a counter-clockwise (on screen) triangle faces the viewer; each flag below flips that.
  return ((facing !== !rightHanded) !== clockwise) !== !material.cullBackFaces;
}

/** Babylon.js's CPU pick through the ray, among `meshes`, with back faces of culled materials left out. */
export function babylonReference(
  test: TestScene,
  meshes: Set<AbstractMesh>,
  rightHanded: boolean,
  origin: Vec3,
  direction: Vec3,
): PickingInfo | null {
  let current: AbstractMesh | null = null;
  const hit = test.scene.pickWithRay(
    new Ray(new Vector3(...origin), new Vector3(...direction), 1e4),
    (mesh) => {
      current = mesh;
      return meshes.has(mesh);
    },
    false,
    (p0, p1, p2, ray) => {
      const mesh = current!;
      const source = (mesh as unknown as { sourceMesh?: Mesh }).sourceMesh ?? (mesh as Mesh);
      return !source.material!.backFaceCulling || frontFacing(mesh, rightHanded, p0, p1, p2, ray);
    },
  );
  return hit?.hit ? hit : null;
}

/** The deformed meshes (morph, then skin, by three.js's code) as a three-mesh-bvh scene; ids 1 (skinned), 2 (morphed). */
export function deformedReference(test: TestScene) {
  const { skinned, morphed } = test;
  const skin = deformWithThree(
    {
      positions: Float32Array.from(skinned.getVerticesData('position')!),
      joints: skinned.getVerticesData('matricesIndices')!,
      weights: skinned.getVerticesData('matricesWeights')!,
    },
    Float32Array.from(skinned.skeleton!.getTransformMatrices(skinned)),
  ).positions;
  const base = Float32Array.from(morphed.getVerticesData('position')!);
  const manager = morphed.morphTargetManager!;
  const targets = Array.from({ length: manager.numTargets }, (_, i) => manager.getTarget(i));
  const morph = deformWithThree({
    positions: base,
    morphPositions: targets.map((t) => Float32Array.from(t.getPositions()!, (v, i) => v - base[i])),
    morphWeights: targets.map((t) => t.influence),
  }).positions;
  const deformed = new Map<Mesh, Float32Array>([
    [skinned, skin],
    [morphed, morph],
  ]);
  const scene = createReferenceScene(
    [skinned, morphed].map((mesh, i) => ({
      id: i + 1,
      positions: deformed.get(mesh)!,
      indices: Uint32Array.from(mesh.getIndices()!),
      worldMatrix: Float32Array.from(mesh.computeWorldMatrix(true).m),
      doubleSided: true,
    })),
  );
  const cast = (origin: Vec3, direction: Vec3): (ReferenceHit & { mesh: Mesh }) | null => {
    const hit = castReferenceRay(scene, origin, direction);
    return hit ? { ...hit, mesh: hit.meshId === 1 ? skinned : morphed } : null;
  };
  return { deformed, cast };
}
