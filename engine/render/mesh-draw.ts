import type { Mesh } from '../mesh.js';
import { meshWindingRuns } from '../winding.js';

/** @internal Binds the mesh's index buffer, if it has one (its format follows the index array: 16 or 32 bits). */
export function setMeshIndexBuffer(pass: GPURenderPassEncoder, mesh: Mesh): void {
  const indexBuffer = mesh.gpu!.indexBuffer;
  if (indexBuffer) pass.setIndexBuffer(indexBuffer, mesh.geometry.indices instanceof Uint16Array ? 'uint16' : 'uint32');
}

/**
 * Draws `count` instances of the mesh from `first` (indexed when it has indices; the index buffer must be bound).
 * @internal
 */
export function drawMeshInstances(pass: GPURenderPassEncoder, mesh: Mesh, count: number, first = 0): void {
  if (mesh.gpu!.indexBuffer) pass.drawIndexed(mesh.geometry.indices!.length, count, 0, 0, first);
  else pass.draw(mesh.geometry.vertexCount, count, 0, first);
}

/** @internal Binds the index buffer and draws every thin instance of the mesh (one instance when it has none). */
export function drawMesh(pass: GPURenderPassEncoder, mesh: Mesh): void {
  setMeshIndexBuffer(pass, mesh);
  drawMeshInstances(pass, mesh, Math.max(1, mesh.thinInstanceCount));
}

/**
 * Draws every instance with the pipeline of its front face (the sign of world × instance determinant, see
 * winding.ts): `counterClockwise` for unmirrored runs, `clockwise` for mirrored ones. Binds the index buffer.
 * @internal
 */
export function drawByWinding(
  pass: GPURenderPassEncoder,
  mesh: Mesh,
  counterClockwise: GPURenderPipeline,
  clockwise: GPURenderPipeline,
): void {
  setMeshIndexBuffer(pass, mesh);
  let current = counterClockwise;
  for (const run of meshWindingRuns(mesh)) {
    const pipeline = run.frontFace === 'cw' ? clockwise : counterClockwise;
    if (pipeline !== current) pass.setPipeline((current = pipeline));
    drawMeshInstances(pass, mesh, run.count, run.first);
  }
}
