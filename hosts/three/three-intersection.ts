// weft's PickingInfo in three.js's own terms: an `Intersection` as `Raycaster` returns one, plus what weft adds.
import {
  type Camera,
  type Face,
  type InstancedMesh,
  Matrix4,
  type Mesh,
  type Object3D,
  Raycaster,
  Triangle,
  Vector2,
  Vector3,
} from 'three';
import type { PickingInfo } from '../../picking/picking-info.js';

/**
 * One pick as three.js's `Raycaster` would report it, field for field, so it can stand where an `Intersection` is
 * expected; `normal` is in **world** space (Raycaster's is in object space) and `weft` carries what weft adds.
 */
export interface ThreeIntersection {
  /** The three.js object hit (the InstancedMesh for an instance). */
  object: Object3D;
  /** From the ray origin three's `Raycaster.setFromCamera` uses for this pixel to `point`. */
  distance: number;
  /** The hit in world space. */
  point: Vector3;
  /** The triangle's vertex indices, its object-space CCW normal (skinned and morphed as drawn) and material index. */
  face: Face;
  /** The triangle's index (index / 3 into the index buffer, or vertex / 3 without one). */
  faceIndex: number;
  /** The hit's weights of `face.a`, `face.b`, `face.c`. */
  barycoord: Vector3;
  /** The interpolated `uv` attribute, where the geometry has one. */
  uv?: Vector2;
  /** The interpolated `uv1` attribute, where the geometry has one. */
  uv1?: Vector2;
  /**
   * The interpolated vertex normal in world space, unit length, turned against the ray as Raycaster turns it (the face
   * normal without vertex normals).
   */
  normal: Vector3;
  /** The instance of an InstancedMesh. */
  instanceId?: number;
  /** The picked triangle's corners in world space (skinned and morphed as drawn), in `face.a/b/c` order. */
  weft: { corners: [Vector3, Vector3, Vector3]; info: PickingInfo };
}

let raycaster: Raycaster | undefined;
let scratch: { ndc: Vector2; toPoint: Vector3; instance: Matrix4 } | undefined;

/** The ray origin three.js's `Raycaster.setFromCamera` uses for a CSS pixel of the canvas (for `distance`). */
function threeRayOrigin(camera: Camera, x: number, y: number, width: number, height: number): Vector3 {
  raycaster ??= new Raycaster();
  scratch ??= { ndc: new Vector2(), toPoint: new Vector3(), instance: new Matrix4() };
  raycaster.setFromCamera(scratch.ndc.set((x / width) * 2 - 1, -(y / height) * 2 + 1), camera);
  return raycaster.ray.origin;
}

/** Vertex indices of a triangle (index buffer or, without one, 3 × face). */
function cornersOf(mesh: Mesh, face: number): [number, number, number] {
  const index = mesh.geometry.index;
  return index
    ? [index.getX(face * 3), index.getX(face * 3 + 1), index.getX(face * 3 + 2)]
    : [face * 3, face * 3 + 1, face * 3 + 2];
}

/** The material index of a face: its geometry group's, as three draws multi-material meshes. */
function materialIndexOf(mesh: Mesh, face: number): number {
  for (const group of mesh.geometry.groups)
    if (face * 3 >= group.start && face * 3 < group.start + group.count) return group.materialIndex ?? 0;
  return 0;
}

/**
 * Builds the three.js intersection of a weft hit on `object` (instance `instance`, -1 for none) at CSS pixel (x, y) of
 * a `width` × `height` canvas; `world`: the object's world matrix the pick used (its drawable's, which three's
 * `matrixWorld` need not hold yet).
 * @internal
 */
export function makeThreeIntersection(
  info: PickingInfo,
  object: Object3D,
  instance: number,
  camera: Camera,
  pixel: { x: number; y: number; width: number; height: number },
  world: ArrayLike<number>,
): ThreeIntersection {
  const mesh = object as Mesh;
  const point = new Vector3(...info.pickedPoint!);
  const [a, b, c] = cornersOf(mesh, info.faceId);
  const local = [a, b, c].map((i) => mesh.getVertexPosition(i, new Vector3())) as [Vector3, Vector3, Vector3];
  const faceNormal = Triangle.getNormal(local[0], local[1], local[2], new Vector3());
  const face: Face = { a, b, c, normal: faceNormal, materialIndex: materialIndexOf(mesh, info.faceId) };
  const barycoord = new Vector3(info.bu, info.bv, 1 - info.bu - info.bv);
  const origin = threeRayOrigin(camera, pixel.x, pixel.y, pixel.width, pixel.height);
  const meshWorld = new Matrix4().fromArray(world as number[]);
  if (instance >= 0) {
    (mesh as InstancedMesh).getMatrixAt(instance, scratch!.instance);
    meshWorld.multiply(scratch!.instance);
  }
  const corners = local.map((p) => p.clone().applyMatrix4(meshWorld)) as [Vector3, Vector3, Vector3];
  const normal = new Vector3(...(info.pickedNormalWorld ?? info.pickedFaceNormalWorld!)).normalize();
  // Raycaster's rule: the interpolated normal is turned against the ray (weft turns it to the face's side, which
  // differs only where the interpolated normal and the face disagree, e.g. grazing views inside a clipped sphere).
  if (normal.dot(scratch!.toPoint.subVectors(point, origin)) > 0) normal.negate();
  const result: ThreeIntersection = {
    object,
    distance: origin.distanceTo(point),
    point,
    face,
    faceIndex: info.faceId,
    barycoord,
    normal,
    weft: { corners, info },
  };
  const uv = mesh.geometry.getAttribute('uv');
  if (uv) result.uv = Triangle.getInterpolatedAttribute(uv, a, b, c, barycoord, new Vector2()) as Vector2;
  const uv1 = mesh.geometry.getAttribute('uv1');
  if (uv1) result.uv1 = Triangle.getInterpolatedAttribute(uv1, a, b, c, barycoord, new Vector2()) as Vector2;
  if (instance >= 0) result.instanceId = instance;
  return result;
}
