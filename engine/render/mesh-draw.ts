import type { Mesh } from '../mesh.js';

/** Binds the mesh's index buffer, if it has one (its format follows the index array: 16 or 32 bits). */
export function setMeshIndexBuffer(pass: GPURenderPassEncoder, mesh: Mesh): void {
  const indexBuffer = mesh.gpu!.indexBuffer;
  if (indexBuffer) pass.setIndexBuffer(indexBuffer, mesh.geometry.indices instanceof Uint16Array ? 'uint16' : 'uint32');
}

/** Draws `count` instances of the mesh from `first` (indexed when it has indices; the index buffer must be bound). */
export function drawMeshInstances(pass: GPURenderPassEncoder, mesh: Mesh, count: number, first = 0): void {
  if (mesh.gpu!.indexBuffer) pass.drawIndexed(mesh.geometry.indices!.length, count, 0, 0, first);
  else pass.draw(mesh.geometry.vertexCount, count, 0, first);
}

/** Binds the index buffer and draws every thin instance of the mesh (one instance when it has none). */
export function drawMesh(pass: GPURenderPassEncoder, mesh: Mesh): void {
  setMeshIndexBuffer(pass, mesh);
  drawMeshInstances(pass, mesh, Math.max(1, mesh.thinInstanceCount));
}
