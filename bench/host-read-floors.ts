// The least JavaScript a correct pick of a host scene must run before it can trust what it draws: reads of each
// object's state that the host changes without notice (no weft state; the only writes are Babylon.js's own world-matrix
// update of a mesh that moved, which any pick needs too). The benches time them in the same position as the picks they
// bound: a pick that reads the scene cannot take less than these reads.
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import type { Material, Mesh as ThreeMesh, Object3D } from 'three';

/** What a pick must read of each mesh at the least; the sum keeps the reads from being optimised away. */
export function babylonBareReads(meshes: readonly AbstractMesh[], layerMask: number): number {
  let sum = 0;
  for (let i = 0; i < meshes.length; i++) {
    const mesh = meshes[i];
    if (!mesh.isPickable || !mesh.isVisible || (mesh.layerMask & layerMask) === 0 || !mesh.isEnabled()) continue;
    sum += mesh.computeWorldMatrix(!mesh.isSynchronized()).updateFlag;
  }
  return sum;
}

/** The bare loop plus every other Babylon.js read a correct walk makes of a steady plain mesh, and nothing of weft's. */
export function babylonSteadyReads(meshes: readonly AbstractMesh[], layerMask: number): number {
  let sum = 0;
  for (let i = 0; i < meshes.length; i++) {
    const mesh = meshes[i] as Mesh;
    if (
      !mesh.isPickable ||
      !mesh.isVisible ||
      (mesh.layerMask & layerMask) === 0 ||
      mesh.visibility <= 0 ||
      !mesh.isEnabled() ||
      mesh.getTotalVertices() <= 0
    )
      continue;
    sum += mesh.computeWorldMatrix(!mesh.isSynchronized()).updateFlag;
    const subMeshes = mesh.subMeshes;
    const first = subMeshes[0];
    sum += subMeshes.length + first.indexStart + first.indexCount + first.verticesStart + first.verticesCount;
    if (mesh.geometry === null || mesh.isUnIndexed || mesh.skeleton || mesh.morphTargetManager) sum++;
    const material = mesh.getMaterialForRenderPass(0) ?? mesh.material;
    sum += mesh.sideOrientation + (material ? 1 : 0);
    sum += (mesh as unknown as { _thinInstanceDataStorage: { instancesCount: number } })._thinInstanceDataStorage
      .instancesCount;
  }
  return sum;
}

/**
 * What a pick of a three.js scene must read per object at the least (three's `traverseVisible` order): visibility
 * (hidden subtrees skipped), and for a mesh its layers, geometry, material side and visibility; for every object the
 * values three composes its matrix from (position, quaternion, scale) or the matrix it keeps by hand. Returns a sum
 * that keeps the reads from being optimised away.
 */
export function threeSteadyReads(root: Object3D, cameraMask: number): number {
  if (!root.visible) return 0;
  let sum = 0;
  if (root.matrixAutoUpdate) {
    const p = root.position;
    const q = root.quaternion;
    const s = root.scale;
    sum += p.x + p.y + p.z + q.x + q.y + q.z + q.w + s.x + s.y + s.z;
  } else sum += root.matrix.elements[12];
  const mesh = root as ThreeMesh;
  if (mesh.isMesh && (mesh.layers.mask & cameraMask) !== 0 && mesh.geometry !== null) {
    const material = mesh.material as Material;
    if (material.visible) sum += material.side + 1;
  }
  const children = root.children;
  for (let i = 0; i < children.length; i++) sum += threeSteadyReads(children[i], cameraMask);
  return sum;
}
