// Independent CPU ray caster (three.js + three-mesh-bvh) used as ground truth by GPU tests.
// It deliberately imports nothing from weft. Pixel rays come from camera-rays.ts (float64, camera parameters).
import {
  BackSide,
  BufferAttribute,
  BufferGeometry,
  DoubleSide,
  FrontSide,
  Matrix3,
  Matrix4,
  Ray,
  Triangle,
  Vector3,
  type Intersection,
  type Side,
} from 'three';
import { MeshBVH } from 'three-mesh-bvh';

type Vec3 = [number, number, number];

/** A triangle mesh (optionally thin-instanced) described as plain arrays. */
export interface ReferenceMesh {
  id: number;
  positions: Float32Array;
  indices: Uint16Array | Uint32Array | null;
  normals?: Float32Array | null;
  uvs?: Float32Array | null;
  worldMatrix: Float32Array;
  thinInstances?: Float32Array | null;
  doubleSided?: boolean;
  /**
   * Which faces a one-sided mesh shows: 'world-winding' (default) is the raw rasteriser rule (a mirrored mesh shows
   * its inside); 'determinant' keeps the local CCW faces in front whatever the matrix's determinant sign (issue 15
   * item 2: mirrored meshes and thin instances draw and pick like their unmirrored twins, seen in a mirror).
   */
  frontFace?: 'world-winding' | 'determinant';
}

/** One ray/triangle hit, all vectors in world space, barycentrics in the Babylon convention. */
export interface ReferenceHit {
  meshId: number;
  thinInstanceIndex: number;
  faceId: number;
  distance: number;
  point: Vec3;
  bu: number;
  bv: number;
  faceNormalWorld: Vec3;
  normalWorld: Vec3 | null;
  uv: [number, number] | null;
  frontFacing: boolean;
}

interface PreparedInstance {
  index: number;
  matrix: Matrix4;
  inverse: Matrix4;
  normalMatrix: Matrix3;
  side: Side;
}

interface PreparedMesh {
  source: ReferenceMesh;
  bvh: MeshBVH;
  instances: PreparedInstance[];
}

/** Opaque scene built by `createReferenceScene`. */
export interface ReferenceScene {
  readonly meshes: readonly PreparedMesh[];
}

function fail(api: string, message: string): never {
  throw new Error(`${api}: ${message}`);
}

function validate(mesh: ReferenceMesh): void {
  const api = `createReferenceScene(mesh id ${mesh.id})`;
  const vertexCount = mesh.positions.length / 3;
  if (!Number.isInteger(vertexCount)) fail(api, `positions length ${mesh.positions.length} is not a multiple of 3`);
  const corners = mesh.indices ? mesh.indices.length : vertexCount;
  if (corners % 3 !== 0) fail(api, `${corners} triangle corners is not a multiple of 3`);
  if (mesh.indices?.some((i) => i >= vertexCount)) fail(api, `an index is >= vertex count ${vertexCount}`);
  if (mesh.worldMatrix.length !== 16) fail(api, `worldMatrix has ${mesh.worldMatrix.length} floats, expected 16`);
  if (mesh.normals && mesh.normals.length !== vertexCount * 3)
    fail(api, `normals length ${mesh.normals.length}, expected ${vertexCount * 3}`);
  if (mesh.uvs && mesh.uvs.length !== vertexCount * 2)
    fail(api, `uvs length ${mesh.uvs.length}, expected ${vertexCount * 2}`);
  if (mesh.thinInstances && mesh.thinInstances.length % 16 !== 0) {
    fail(api, `thinInstances length ${mesh.thinInstances.length} is not a multiple of 16`);
  }
}

function prepareInstance(mesh: ReferenceMesh, index: number): PreparedInstance {
  const matrix = new Matrix4().fromArray(mesh.worldMatrix); // fromArray reads column-major, like ours
  if (index >= 0) {
    const instance = new Matrix4().fromArray(mesh.thinInstances!, index * 16);
    const e = instance.elements;
    e[3] = 0;
    e[7] = 0;
    e[11] = 0;
    e[15] = 1; // bottom row carries a payload, not a transform
    matrix.multiply(instance); // world × instance
  }
  // A mirroring transform flips winding, so "front in world" is "back in local".
  const mirrored = matrix.determinant() < 0;
  const worldWinding = mesh.frontFace !== 'determinant';
  const side = mesh.doubleSided === false ? (mirrored && worldWinding ? BackSide : FrontSide) : DoubleSide;
  return { index, matrix, inverse: matrix.clone().invert(), normalMatrix: new Matrix3().getNormalMatrix(matrix), side };
}

/** Builds one BVH per mesh (shared by its thin instances), keeping the caller's triangle order. */
export function createReferenceScene(meshes: ReferenceMesh[]): ReferenceScene {
  const prepared = meshes.map((source): PreparedMesh => {
    validate(source);
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(source.positions, 3));
    // Own copy of the index: the BVH must never touch the caller's buffer.
    if (source.indices) geometry.setIndex(new BufferAttribute(source.indices.slice(), 1));
    // indirect: the BVH sorts a side table, so faceIndex stays the caller's triangle number.
    const bvh = new MeshBVH(geometry, { indirect: true });
    const count = source.thinInstances ? source.thinInstances.length / 16 : 0;
    const indices = source.thinInstances ? Array.from({ length: count }, (_, i) => i) : [-1];
    return { source, bvh, instances: indices.map((i) => prepareInstance(source, i)) };
  });
  return { meshes: prepared };
}

function vertexIndex(mesh: ReferenceMesh, corner: number): number {
  return mesh.indices ? mesh.indices[corner] : corner;
}

function readVec3(array: Float32Array, vertex: number): Vector3 {
  return new Vector3(array[vertex * 3], array[vertex * 3 + 1], array[vertex * 3 + 2]);
}

function toTuple(v: Vector3): Vec3 {
  return [v.x, v.y, v.z];
}

function buildHit(mesh: PreparedMesh, inst: PreparedInstance, worldRay: Ray, local: Intersection): ReferenceHit {
  const src = mesh.source;
  const faceId = local.faceIndex!;
  const verts = [0, 1, 2].map((k) => vertexIndex(src, faceId * 3 + k));
  const p = verts.map((v) => readVec3(src.positions, v));
  const bary = Triangle.getBarycoord(local.point, p[0], p[1], p[2], new Vector3());
  if (!bary) fail('castReferenceRay', `face ${faceId} of mesh ${src.id} is degenerate`);
  const weights = [bary.x, bary.y, bary.z];
  const point = local.point.clone().applyMatrix4(inst.matrix);
  const w = p.map((v) => v.clone().applyMatrix4(inst.matrix));
  // Face normal from world-space winding (CCW = front), matching what a rasteriser sees.
  const faceNormal = new Vector3().crossVectors(w[1].clone().sub(w[0]), w[2].clone().sub(w[0])).normalize();
  let normalWorld: Vec3 | null = null;
  if (src.normals) {
    const n = new Vector3();
    verts.forEach((v, k) => n.addScaledVector(readVec3(src.normals!, v), weights[k]));
    normalWorld = toTuple(n.applyMatrix3(inst.normalMatrix).normalize());
  }
  let uv: [number, number] | null = null;
  if (src.uvs) {
    const uvs = src.uvs;
    uv = [0, 1].map((c) => verts.reduce((s, v, k) => s + uvs[v * 2 + c] * weights[k], 0)) as [number, number];
  }
  return {
    meshId: src.id,
    thinInstanceIndex: inst.index,
    faceId,
    distance: point.distanceTo(worldRay.origin),
    point: toTuple(point),
    bu: bary.x,
    bv: bary.y,
    faceNormalWorld: toTuple(faceNormal),
    normalWorld,
    uv,
    frontFacing: faceNormal.dot(worldRay.direction) < 0,
  };
}

function makeWorldRay(api: string, origin: Vec3, direction: Vec3): Ray {
  const dir = new Vector3(...direction);
  if (!(dir.lengthSq() > 0) || !origin.every(Number.isFinite)) {
    fail(api, `needs a finite origin and a non-zero direction, got origin ${origin} direction ${direction}`);
  }
  return new Ray(new Vector3(...origin), dir.normalize());
}

function forEachInstanceHit(
  scene: ReferenceScene,
  worldRay: Ray,
  cast: (bvh: MeshBVH, ray: Ray, side: Side) => Intersection[],
): ReferenceHit[] {
  const hits: ReferenceHit[] = [];
  for (const mesh of scene.meshes) {
    for (const inst of mesh.instances) {
      // Ray.applyMatrix4 renormalises the direction, so local distances are not world distances.
      const localRay = worldRay.clone().applyMatrix4(inst.inverse);
      for (const local of cast(mesh.bvh, localRay, inst.side)) hits.push(buildHit(mesh, inst, worldRay, local));
    }
  }
  return hits.sort((a, b) => a.distance - b.distance);
}

/** Nearest hit over all meshes and thin instances, or null on a miss. */
export function castReferenceRay(scene: ReferenceScene, origin: Vec3, direction: Vec3): ReferenceHit | null {
  const ray = makeWorldRay('castReferenceRay', origin, direction);
  const hits = forEachInstanceHit(scene, ray, (bvh, r, side) => {
    const hit = bvh.raycastFirst(r, side);
    return hit ? [hit] : [];
  });
  return hits[0] ?? null;
}

/** Every hit over all meshes and thin instances, sorted by world distance. */
export function castReferenceRayAll(scene: ReferenceScene, origin: Vec3, direction: Vec3): ReferenceHit[] {
  const ray = makeWorldRay('castReferenceRayAll', origin, direction);
  return forEachInstanceHit(scene, ray, (bvh, r, side) => bvh.raycast(r, side));
}
