// What a Babylon.js mesh's drawable carries besides its place and world matrix, brought up to date by the walk: its
// culling as Babylon.js draws it, its thin instances and its skin (copied only where they changed).
import type { Material } from '@babylonjs/core/Materials/material.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import type { PickDrawable } from '../../picking/sources/drawable-types.js';
import { BabylonPickError } from './babylon-errors.js';
import type { GeometryState } from './babylon-geometry-sync.js';

/** @internal What the picker keeps per Babylon.js mesh between picks. */
export interface MeshRecord {
  drawable: PickDrawable<AbstractMesh>;
  /** The mesh whose geometry is drawn (the source of an InstancedMesh). */
  source: Mesh;
  /** The source's geometry state (shared with the source's other instances). */
  geometry: GeometryState;
  /** The mesh's class when it is one that draws no triangles (refused while drawn), else null. */
  refusedClass: string | null;
  instanceCopy: Float32Array | null;
  skinCopy: Float32Array | null;
  /**
   * The mesh's thin-instance storage, read through this reference (checked against the mesh's each pick): at 10 000
   * meshes mesh → storage → count is two cache misses in a row, the reference's load runs beside the mesh's.
   */
  thin: ThinStorage | undefined;
}

/** Babylon.js `Material.TriangleFillMode`, `ClockWiseSideOrientation`. */
const triangleFillMode = 0;
const clockWise = 0;

/**
 * @internal Writes the drawable's culling as Babylon.js draws the mesh: `backFaceCulling`, `cullBackFaces` and the side
 * orientation of its sub-meshes' materials (runs per drawn mesh per pick: no allocation).
 */
export function writeCulling(
  api: string,
  mesh: AbstractMesh,
  source: Mesh,
  drawable: PickDrawable<AbstractMesh>,
): void {
  let found = false;
  let doubleSided = false;
  let clockwise = false;
  let first: Material | null = null;
  let previous: Material | null = null;
  const subMeshes = source.subMeshes;
  for (let i = 0; i < subMeshes.length; i++) {
    // Without a material (Babylon.js makes the scene's default one at the first render) it draws as a new material
    // does: back faces culled, the mesh's own side orientation.
    const material = subMeshes[i].getMaterial(true);
    if (found && material === previous) continue;
    previous = material;
    // As Mesh._getRenderingFillMode draws it (the scene-wide switches are refused once per walk).
    const override = source.overrideRenderingFillMode;
    const fillMode = override ?? material?.fillMode ?? triangleFillMode;
    if (fillMode !== triangleFillMode)
      throw new BabylonPickError(
        api,
        'unsupported',
        override !== null && override !== undefined
          ? `mesh "${mesh.name}": overrideRenderingFillMode ${override} draws it as wireframe, points or lines; only triangles (Material.TriangleFillMode) can be picked`
          : `mesh "${mesh.name}": material "${material!.name}" draws with fillMode ${fillMode} (wireframe, points or lines); only triangles (Material.TriangleFillMode) can be picked`,
      );
    const twoSided = !(material?.backFaceCulling ?? true);
    const orientation = material?.sideOrientation ?? source.sideOrientation;
    const cw = (orientation === clockWise) === (material?.cullBackFaces ?? true);
    if (!found) {
      found = true;
      doubleSided = twoSided;
      clockwise = cw;
      first = material;
    } else if (doubleSided !== twoSided || (!twoSided && clockwise !== cw)) {
      const nameOf = (m: Material | null) => (m ? `"${m.name}"` : 'no material');
      throw new BabylonPickError(
        api,
        'unsupported',
        `mesh "${mesh.name}": its sub-meshes' materials cull differently (${nameOf(first)} and ${nameOf(material)}); only one culling per mesh can be picked`,
      );
    }
  }
  if (!found) clockwise = source.sideOrientation === clockWise;
  const frontFace = clockwise ? 'cw' : 'ccw';
  // Written only on a change: most meshes keep their culling, and an unwritten object stays clean in the cache.
  if (drawable.doubleSided !== doubleSided) drawable.doubleSided = doubleSided;
  if (drawable.frontFace !== frontFace) drawable.frontFace = frontFace;
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

/** @internal The mesh's thin-instance storage (Babylon.js 9 makes one per Mesh). */
export function thinStorageOf(mesh: AbstractMesh): ThinStorage | undefined {
  return (mesh as unknown as { _thinInstanceDataStorage?: ThinStorage })._thinInstanceDataStorage;
}

/**
 * @internal Brings the drawable's thin instances up to date: matrices copied (and mirrors refused on a one-sided
 * mesh) only when they changed, Babylon.js's instance buffer bound as it is.
 */
export function updateInstances(api: string, record: MeshRecord, mesh: Mesh): void {
  let storage = record.thin;
  let count = storage?.instancesCount ?? 0;
  const current = thinStorageOf(mesh);
  if (storage !== current) {
    record.thin = storage = current;
    count = storage?.instancesCount ?? 0;
  }
  const drawable = record.drawable;
  if (!storage || count === 0 || !storage.matrixData) {
    if (drawable.instances !== null) drawable.instances = record.instanceCopy = null;
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

/** @internal Brings the drawable's bone matrices up to date (copied only when they changed); none without bones. */
export function updateSkin(record: MeshRecord, mesh: AbstractMesh, source: Mesh): void {
  const skeleton = source.skeleton;
  const drawable = record.drawable;
  if (!skeleton || !source.useBones) {
    if (drawable.skin !== null) drawable.skin = record.skinCopy = null;
    return;
  }
  const matrices = skeleton.getTransformMatrices(mesh);
  if (changed(record.skinCopy, matrices, matrices.length)) {
    if (record.skinCopy?.length === matrices.length) record.skinCopy.set(matrices);
    else record.skinCopy = matrices.slice();
    drawable.skin = { boneMatrices: record.skinCopy, version: (drawable.skin?.version ?? -1) + 1 };
  }
}
