// weft's own meshes as a pick source: the one picking module (with sources/drawable-scene.ts and
// sources/pick-overlays.ts, which build weft meshes) that reads engine mesh internals. A weft Mesh is a PickSubject as
// it is; every subject this record receives is one of the scene's meshes or a stand-in it made, hence the casts.
import {
  disposeMeshGpu,
  ensureMeshGpu,
  getMeshWorldBounds,
  getThinInstanceMatrix,
  type Mesh,
  type ReadonlyFloat32Array,
  syncThinInstances,
} from '../../engine/mesh.js';
import {
  findVertexAttribute,
  type MeshGeometry,
  readVertexAttribute,
  type VertexSemantic,
} from '../../engine/mesh-data.js';
import {
  deformationComposeParts,
  deformationVariantKey,
  deformedLocalBounds,
  deformNormalOnCpu,
  deformVertexOnCpu,
  disposeMeshDeformation,
  ensureMeshDeformation,
  isMeshDeformed,
  type MeshDeformationVariant,
  meshDeformationGroup,
  syncMeshDeformation,
} from '../../engine/mesh-deformation.js';
import { deformationInTextures } from '../../engine/mesh-deformation-textures.js';
import { hostStorageUsage } from '../../engine/mesh-host-buffers.js';
import {
  describeMeshShader,
  type MeshShaderDescription,
  vertexBuffersOfDescription,
} from '../../engine/mesh-layout.js';
import { describeRepresentativeMesh } from '../../engine/representative-mesh.js';
import { drawMeshInstances, setMeshIndexBuffer } from '../../engine/render/mesh-draw.js';
import { multiplyByThinInstance } from '../../engine/thin-instance-matrix.js';
import { determinantSign, materialCullMode, materialFacing, splitByWinding } from '../../engine/winding.js';
import type { PickPose, PickSourceOps, PickSubject, PickSubjectShader, PickSubjectShape } from './pick-source.js';

/** The deformation state of a mesh at the call: bone matrices, morph weights, VAT time and playback. */
interface CapturedPose {
  boneVersion: number;
  bones: Float32Array<ArrayBuffer> | null;
  morphWeights: Float32Array;
  vertexAnimationTime: number;
  vertexAnimationPlayback: Float32Array<ArrayBuffer>;
}

function capturePose(subject: PickSubject): CapturedPose | null {
  const mesh = subject as Mesh;
  if (!isMeshDeformed(mesh)) return null;
  return {
    boneVersion: mesh.skeleton?.version ?? 0,
    bones: mesh.skeleton ? mesh.skeleton.matrices.slice() : null,
    morphWeights: Float32Array.from(mesh.morphWeights),
    vertexAnimationTime: mesh.vertexAnimationTime,
    vertexAnimationPlayback: mesh.vertexAnimationPlayback.slice(),
  };
}

function sameValues(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

function isPoseCurrent(subject: PickSubject, captured: PickPose | null): boolean {
  const mesh = subject as Mesh;
  const pose = captured as CapturedPose | null;
  if (!pose) return !isMeshDeformed(mesh);
  return (
    isMeshDeformed(mesh) &&
    (mesh.skeleton?.version ?? 0) === pose.boneVersion &&
    sameValues(mesh.morphWeights, pose.morphWeights) &&
    mesh.vertexAnimationTime === pose.vertexAnimationTime &&
    sameValues(mesh.vertexAnimationPlayback, pose.vertexAnimationPlayback)
  );
}

function withPose(subject: PickSubject, captured: PickPose | null): Mesh {
  const mesh = subject as Mesh;
  const pose = captured as CapturedPose | null;
  if (!pose) return mesh;
  return {
    ...mesh,
    skeleton:
      mesh.skeleton && pose.bones
        ? { ...mesh.skeleton, matrices: pose.bones, version: pose.boneVersion }
        : mesh.skeleton,
    morphWeights: pose.morphWeights,
    vertexAnimationTime: pose.vertexAnimationTime,
    vertexAnimationPlayback: pose.vertexAnimationPlayback,
  };
}

function makeStandIn(
  subject: PickSubject,
  pose: PickPose | null,
  instances: Float32Array<ArrayBuffer> | null,
  thinInstanceVersion: number,
  device: GPUDevice,
): { subject: Mesh; release: () => void } {
  const mesh = subject as Mesh;
  const standIn: Mesh = {
    ...withPose(mesh, pose),
    disposed: false,
    thinInstances: instances as ReadonlyFloat32Array | null,
    thinInstanceCount: instances ? instances.length / 16 : 0,
    thinInstanceVersion,
    gpu: null,
    deformationGpu: null,
  };
  const live = mesh.gpu;
  let instanceBuffer: GPUBuffer | null = null;
  if (!mesh.disposed && live && live.device === device) {
    // Share the vertex and index buffers; only the instances get a copy.
    if (instances) {
      instanceBuffer = device.createBuffer({
        label: `weft:pick:captured-instances:${mesh.name}`,
        size: instances.byteLength,
        usage: GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE,
        mappedAtCreation: true,
      });
      new Float32Array(instanceBuffer.getMappedRange()).set(instances);
      instanceBuffer.unmap();
    }
    standIn.gpu = {
      ...live,
      instanceBuffer,
      instanceCapacity: standIn.thinInstanceCount,
      uploadedInstanceVersion: standIn.thinInstanceVersion,
    };
    return {
      subject: standIn,
      release: () => {
        instanceBuffer?.destroy();
        disposeMeshDeformation(standIn);
      },
    };
  }
  ensureMeshGpu(standIn, device);
  return { subject: standIn, release: () => disposeMeshGpu(standIn) };
}

/**
 * weft's scenes as a pick source: the pickers' only way to weft mesh internals.
 * @internal
 */
export const weftPickSource: PickSourceOps<Mesh> = {
  objectOf: (subject) => subject as Mesh,
  isDeformed: (subject) => isMeshDeformed(subject as Mesh),
  deformedLocalBounds: (subject, out) => deformedLocalBounds(subject as Mesh, out),
  worldBounds: (subject) => getMeshWorldBounds(subject as Mesh),
  instanceMatrix: (subject, index, dst) => getThinInstanceMatrix(subject as Mesh, index, dst),
  multiplyByInstance: multiplyByThinInstance,
  cullFacing: (subject) => {
    const material = (subject as Mesh).material;
    return material.doubleSided ? 0 : materialFacing(material);
  },
  cullMode: (subject) => materialCullMode((subject as Mesh).material),
  frontFaceSign: (subject, world) => (determinantSign(world) * materialFacing((subject as Mesh).material)) as 1 | -1,
  splitByWinding: (subject, world, first, count, out) => splitByWinding(subject as Mesh, world, first, count, out),
  findAttribute: (geometry, semantic) => findVertexAttribute(geometry as MeshGeometry, semantic as VertexSemantic),
  readAttribute: (geometry, semantic, vertex, out) =>
    readVertexAttribute(geometry as MeshGeometry, semantic as VertexSemantic, vertex, out),
  deformVertex: (subject, vertex, out, instance) => deformVertexOnCpu(subject as Mesh, vertex, out, instance),
  hasCpuNormals: (subject) => (subject as Mesh).vertexAnimation === null,
  deformNormal: (subject, vertex) => deformNormalOnCpu(subject as Mesh, vertex),
  capturePose,
  isPoseCurrent,
  withPose,
  makeStandIn,
  prepareGpu: (subject, device) => {
    const mesh = subject as Mesh;
    ensureMeshGpu(mesh, device);
    syncThinInstances(mesh);
    if (ensureMeshDeformation(mesh, device)) syncMeshDeformation(mesh);
  },
  gpuBuffers: (subject) => (subject as Mesh).gpu!,
  hasGpuBuffers: (subject) => (subject as Mesh).gpu !== null,
  // VAT playback is read by instance index and its influences are vertex attributes: only morph deltas need the vertex.
  readsVertexIndex: (subject) => (subject as Mesh).morphTargets !== null,
  hostBuffers: (subject) => (subject as Mesh).hostBuffers,
  hasDeformationGpu: (subject) => Boolean((subject as Mesh).deformationGpu),
  deformationGroup: (subject, layout, bindings) =>
    meshDeformationGroup((subject as Mesh).deformationGpu!, layout, bindings),
  setIndexBuffer: (pass, subject) => setMeshIndexBuffer(pass, subject as Mesh),
  drawInstances: (pass, subject, count, first) => drawMeshInstances(pass, subject as Mesh, count, first),
  describeShader: (subject) => describeMeshShader(subject as Mesh),
  shaderVertexBuffers: (description) => vertexBuffersOfDescription(description as MeshShaderDescription),
  deformationParts: (deformation, textures) => deformationComposeParts(deformation as MeshDeformationVariant, textures),
  deformationInTextures,
  deformationKey: (deformation) => deformationVariantKey(deformation as MeshDeformationVariant),
  storageUsage: hostStorageUsage,
};

/**
 * A weft mesh of that shape, described as the pick variants compose it. Kept out of `weftPickSource` so that a page
 * that picks does not bundle the representative meshes (and the VAT fragment they name) of the variant packs.
 * @internal
 */
export function describeWeftMeshShape(shape: PickSubjectShape): PickSubjectShader {
  return describeRepresentativeMesh(shape);
}
