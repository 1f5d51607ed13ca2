// Each pick walks the Babylon.js scene's meshes into weft pick drawables: what Babylon.js draws for the camera
// (enabled, visible, pickable, on the camera's layers), with its world matrix, culling, thin instances and skin. One
// drawable object per Babylon.js mesh is kept and updated in place; versions bump only when something changed.
import type { Camera } from '@babylonjs/core/Cameras/camera.js';
import type { Material } from '@babylonjs/core/Materials/material.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import type { InstancedMesh } from '@babylonjs/core/Meshes/instancedMesh.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import type { Scene } from '@babylonjs/core/scene.js';
import type { PickDrawable } from '../../picking/sources/drawable-scene.js';
import { BabylonPickError } from './babylon-errors.js';
import { type GeometryState, syncGeometry } from './babylon-geometry.js';
import type { OwnedBuffers } from '../owned-buffers.js';

/** @internal What the picker keeps per Babylon.js mesh between picks. */
export interface MeshRecord {
  drawable: PickDrawable<AbstractMesh>;
  /** The mesh whose geometry is drawn (the source of an InstancedMesh). */
  source: Mesh;
  geometry: GeometryState;
  instanceCopy: Float32Array | null;
  skinCopy: Float32Array | null;
  seen: number;
}

/**
 * The picker's view of the scene: records per mesh, geometry per source mesh, and the drawable list it reuses.
 * @internal
 */
export interface SceneWalk {
  records: Map<AbstractMesh, MeshRecord>;
  geometries: Map<Mesh, GeometryState>;
  list: PickDrawable<AbstractMesh>[];
  /** The records in the last walk's order (reused by index). */
  order: MeshRecord[];
  pick: number;
}

/** @internal */
export function makeSceneWalk(): SceneWalk {
  return { records: new Map(), geometries: new Map(), list: [], order: [], pick: 0 };
}

/** Babylon.js `Material.TriangleFillMode`, `ClockWiseSideOrientation`. */
const triangleFillMode = 0;
const clockWise = 0;
/** Mesh classes that do not draw triangles from their vertex buffers. */
const refusedClasses: readonly string[] = [
  'LinesMesh',
  'GreasedLineMesh',
  'GreasedLineRibbonMesh',
  'GaussianSplattingMesh',
];

/** Whether Babylon.js draws `mesh` for `camera` and picks may see it (the scene.pick predicate, plus layers). */
function isDrawn(mesh: AbstractMesh, camera: Camera): boolean {
  return (
    mesh.isPickable &&
    mesh.isVisible &&
    mesh.visibility > 0 &&
    (mesh.layerMask & camera.layerMask) !== 0 &&
    mesh.isEnabled() &&
    mesh.getTotalVertices() > 0
  );
}

/** Culling as Babylon.js draws the mesh: `backFaceCulling`, `cullBackFaces` and the side orientation. */
function cullingOf(api: string, mesh: AbstractMesh, source: Mesh): { doubleSided: boolean; frontFace: GPUFrontFace } {
  let result: { doubleSided: boolean; frontFace: GPUFrontFace } | null = null;
  let firstName = '';
  let previous: Material | null | undefined;
  for (const subMesh of source.subMeshes) {
    // Without a material (Babylon.js makes the scene's default one at the first render) it draws as a new material
    // does: back faces culled, the mesh's own side orientation.
    const material = subMesh.getMaterial(true);
    if (material === previous) continue;
    previous = material;
    if (material && material.fillMode !== triangleFillMode)
      throw new BabylonPickError(
        api,
        'unsupported',
        `mesh "${mesh.name}": material "${material.name}" draws with fillMode ${material.fillMode} (wireframe, points or lines); only triangles (Material.TriangleFillMode) can be picked`,
      );
    const orientation = material?.sideOrientation ?? source.sideOrientation;
    const clockwise = (orientation === clockWise) === (material?.cullBackFaces ?? true);
    const culling = {
      doubleSided: !(material?.backFaceCulling ?? true),
      frontFace: (clockwise ? 'cw' : 'ccw') as GPUFrontFace,
    };
    const name = material ? `"${material.name}"` : 'no material';
    if (
      result &&
      (result.doubleSided !== culling.doubleSided || (!culling.doubleSided && result.frontFace !== culling.frontFace))
    )
      throw new BabylonPickError(
        api,
        'unsupported',
        `mesh "${mesh.name}": its sub-meshes' materials cull differently (${firstName} and ${name}); only one culling per mesh can be picked`,
      );
    if (!result) {
      result = culling;
      firstName = name;
    }
  }
  return result ?? { doubleSided: false, frontFace: source.sideOrientation === clockWise ? 'cw' : 'ccw' };
}

function changed(copy: Float32Array | null, data: Float32Array, length: number): boolean {
  if (!copy || copy.length !== length) return true;
  for (let i = 0; i < length; i++) if (copy[i] !== data[i]) return true;
  return false;
}

/** Refuses mirroring thin instances on a one-sided mesh: Babylon.js culls them by the mesh's world matrix alone. */
function checkThinMirrors(api: string, mesh: AbstractMesh, matrices: Float32Array): void {
  for (let i = 0; i < matrices.length / 16; i++) {
    const m = matrices.subarray(i * 16, i * 16 + 16);
    const det =
      m[0] * (m[5] * m[10] - m[6] * m[9]) - m[4] * (m[1] * m[10] - m[2] * m[9]) + m[8] * (m[1] * m[6] - m[2] * m[5]);
    if (det < 0)
      throw new BabylonPickError(
        api,
        'unsupported',
        `mesh "${mesh.name}": thin instance ${i} mirrors (negative determinant) on a one-sided material; Babylon.js culls it by the mesh's world matrix alone, which weft does not copy. Use a double-sided material (backFaceCulling false) or unmirrored thin instances`,
      );
  }
}

function updateInstances(api: string, record: MeshRecord, mesh: Mesh): void {
  const storage = (mesh as unknown as { _thinInstanceDataStorage?: ThinStorage })._thinInstanceDataStorage;
  const count = storage?.instancesCount ?? 0;
  const drawable = record.drawable;
  if (!storage || count === 0 || !storage.matrixData) {
    drawable.instances = null;
    record.instanceCopy = null;
    return;
  }
  const length = count * 16;
  if (changed(record.instanceCopy, storage.matrixData, length)) {
    record.instanceCopy = storage.matrixData.slice(0, length);
    if (!drawable.doubleSided) checkThinMirrors(api, mesh, record.instanceCopy);
    const version = (drawable.instances?.version ?? -1) + 1;
    drawable.instances = { matrices: record.instanceCopy, version, buffer: null };
  }
  const resource = storage.matrixBuffer?.getBuffer()?.underlyingResource as GPUBuffer | undefined;
  drawable.instances!.buffer = resource ?? null;
}

interface ThinStorage {
  instancesCount: number;
  matrixData: Float32Array | null;
  matrixBuffer: { getBuffer(): { underlyingResource: unknown } | null } | null;
}

function updateSkin(record: MeshRecord, mesh: AbstractMesh, source: Mesh): void {
  const skeleton = source.skeleton;
  const drawable = record.drawable;
  if (!skeleton || !source.useBones) {
    drawable.skin = null;
    record.skinCopy = null;
    return;
  }
  const matrices = skeleton.getTransformMatrices(mesh);
  if (changed(record.skinCopy, matrices, matrices.length)) {
    if (record.skinCopy?.length === matrices.length) record.skinCopy.set(matrices);
    else record.skinCopy = matrices.slice();
    drawable.skin = { boneMatrices: record.skinCopy, version: (drawable.skin?.version ?? -1) + 1 };
  }
}

function recordOf(walk: SceneWalk, at: number, mesh: AbstractMesh, source: Mesh, geometry: GeometryState): MeshRecord {
  // A steady scene lists its meshes in the same order each pick: the record at this place is the one, without a lookup.
  const previous = walk.order[at];
  let record = previous?.drawable.object === mesh ? previous : walk.records.get(mesh);
  if (!record || record.source !== source) {
    record = {
      drawable: { object: mesh, name: mesh.name, vertexBuffers: geometry.vertexBuffers, worldMatrix: [] },
      source,
      geometry,
      instanceCopy: null,
      skinCopy: null,
      seen: 0,
    };
    walk.records.set(mesh, record);
  }
  walk.order[at] = record;
  return record;
}

/**
 * The drawables of what Babylon.js draws for `camera` now (the list is the walk's own array, reused by the next walk).
 * @internal
 */
export function walkBabylonScene(
  api: string,
  walk: SceneWalk,
  scene: Scene,
  camera: Camera,
  owned: OwnedBuffers,
  include: ((mesh: AbstractMesh) => boolean) | null,
): PickDrawable<AbstractMesh>[] {
  const pick = ++walk.pick;
  const list = walk.list;
  // Written by index, its length set once at the end: emptying and refilling it would reallocate it every pick.
  let count = 0;
  for (const mesh of scene.meshes) {
    if (!isDrawn(mesh, camera) || (include && !include(mesh))) continue;
    const className = mesh.getClassName();
    if (refusedClasses.includes(className))
      throw new BabylonPickError(
        api,
        'unsupported',
        `mesh "${mesh.name}" is a ${className}; only triangle meshes (Mesh, InstancedMesh) can be picked: make it isPickable false or leave it out with the predicate`,
      );
    const source = className === 'InstancedMesh' ? (mesh as InstancedMesh).sourceMesh : (mesh as Mesh);
    if (!source.geometry || !source.subMeshes?.length) continue;
    const known = walk.geometries.get(source);
    const geometry = syncGeometry(api, source, known, owned, pick);
    if (geometry !== known) walk.geometries.set(source, geometry);
    const record = recordOf(walk, count, mesh, source, geometry);
    const drawable = record.drawable;
    if (record.geometry !== geometry || drawable.geometryVersion !== geometry.version) {
      record.geometry = geometry;
      drawable.vertexBuffers = geometry.vertexBuffers;
      drawable.index = geometry.index;
      drawable.geometryVersion = geometry.version;
    }
    // Within one render id Babylon.js returns its cached world matrix even after the mesh (or a parent) moved; the
    // next frame recomputes it. Picks made before that frame recompute what is out of date, as that frame will.
    const world = mesh.computeWorldMatrix(!mesh.isSynchronized(), camera);
    drawable.worldMatrix = world.m;
    // Babylon.js gives a matrix a new updateFlag on every write: the sync skips the compare while it holds.
    drawable.worldMatrixVersion = world.updateFlag;
    const culling = cullingOf(api, mesh, source);
    drawable.doubleSided = culling.doubleSided;
    drawable.frontFace = culling.frontFace;
    if (mesh === source) updateInstances(api, record, source);
    updateSkin(record, mesh, source);
    record.seen = pick;
    list[count++] = drawable;
  }
  list.length = count;
  walk.order.length = count;
  for (const [mesh, record] of walk.records) if (record.seen !== pick && mesh.isDisposed()) walk.records.delete(mesh);
  for (const source of walk.geometries.keys()) if (source.isDisposed()) walk.geometries.delete(source);
  return list;
}
