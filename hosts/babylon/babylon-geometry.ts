// What a Babylon.js mesh's geometry is on the GPU, as weft's pick drawables describe it: Babylon.js's own vertex and
// index buffers where weft can bind them, the picker's own copies where Babylon.js keeps the data in a form weft does
// not read (float joint indices) or never uploads it (positions after morph targets).
import type { VertexBuffer } from '@babylonjs/core/Buffers/buffer.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import type { PickVertexBuffer } from '../../picking/sources/drawable-types.js';
import { BabylonPickError } from './babylon-errors.js';
import { type OwnedBuffers, ownedBuffer } from '../owned-buffers.js';

/** Babylon.js's `VertexBuffer.FLOAT`. */
const floatType = 5126;

/** @internal A source mesh's geometry as weft binds it. */
export interface MadeGeometry {
  vertexBuffers: PickVertexBuffer[];
  index: { buffer: GPUBuffer; data: Uint16Array | Uint32Array } | null;
  /** First face of each sub-mesh, in `mesh.subMeshes` order (Babylon.js's `faceId` counts over the whole mesh). */
  subMeshFaceStarts: number[];
  /** Faces of each sub-mesh, in `mesh.subMeshes` order. */
  subMeshFaceCounts: number[];
}

function gpuBufferOf(api: string, mesh: Mesh, kind: string, vb: VertexBuffer): GPUBuffer {
  const resource = vb.getBuffer()?.underlyingResource as GPUBuffer | undefined;
  if (!resource || typeof resource.size !== 'number')
    throw new BabylonPickError(api, 'unsupported', `mesh "${mesh.name}": its "${kind}" vertex buffer has no GPUBuffer`);
  return resource;
}

function floatData(api: string, mesh: Mesh, kind: string, vb: VertexBuffer): Float32Array {
  const data = vb.getData();
  if (!data)
    throw new BabylonPickError(
      api,
      'unsupported',
      `mesh "${mesh.name}" keeps no CPU copy of its "${kind}" data (picks need the bytes of what is drawn)`,
    );
  if (data instanceof Float32Array) return data;
  if (Array.isArray(data)) return Float32Array.from(data);
  if (ArrayBuffer.isView(data)) return new Float32Array(data.buffer, data.byteOffset, data.byteLength / 4);
  return new Float32Array(data as ArrayBuffer);
}
/**
 * @internal The buffers weft binds for `mesh` (a source mesh) as it is now.
 * @throws {BabylonPickError} `unsupported` for what weft cannot pick (see docs/babylon.md)
 */
export function makeGeometry(api: string, mesh: Mesh, owned: OwnedBuffers): MadeGeometry {
  const position = mesh.getVertexBuffer('position');
  if (!position) throw new BabylonPickError(api, 'unsupported', `mesh "${mesh.name}" has no positions`);
  if (position.type !== floatType || position.normalized || position.getSize() !== 3)
    throw new BabylonPickError(
      api,
      'unsupported',
      `mesh "${mesh.name}": positions of type ${position.type} × ${position.getSize()}; only float32 × 3 (VertexBuffer.FLOAT) can be picked`,
    );
  const vertexCount = mesh.getTotalVertices();
  const positions = floatData(api, mesh, 'position', position);
  const morphed = morphPositions(mesh, positions, position, vertexCount);
  const vertexBuffers: PickVertexBuffer[] = [
    morphed
      ? {
          buffer: ownedBuffer(owned, mesh, `${mesh.name}:morphed-positions`, morphed),
          data: morphed,
          arrayStride: 12,
          attributes: { position: { format: 'float32x3', offset: 0 } },
        }
      : {
          buffer: gpuBufferOf(api, mesh, 'position', position),
          data: positions,
          arrayStride: position.byteStride,
          attributes: { position: { format: 'float32x3', offset: position.byteOffset } },
        },
  ];
  if (mesh.skeleton && mesh.useBones) vertexBuffers.push(skinBuffer(api, mesh, owned, vertexCount));
  const index = indexOf(api, mesh);
  checkSubMeshes(api, mesh, index);
  const indexed = index !== null;
  return {
    vertexBuffers,
    index,
    subMeshFaceStarts: mesh.subMeshes.map((s) => (indexed ? s.indexStart : s.verticesStart) / 3),
    subMeshFaceCounts: mesh.subMeshes.map((s) => (indexed ? s.indexCount : s.verticesCount) / 3),
  };
}

/** Positions after the morph targets Babylon.js's shader applies (base + Σ influence · (target − base)), or null. */
function morphPositions(mesh: Mesh, base: Float32Array, vb: VertexBuffer, vertexCount: number): Float32Array | null {
  const manager = mesh.morphTargetManager;
  if (!manager?.supportsPositions || manager.numInfluencers === 0) return null;
  const influences = manager.influences;
  const targets = Array.from({ length: manager.numInfluencers }, (_, i) => manager.getActiveTarget(i).getPositions());
  const out = new Float32Array(vertexCount * 3);
  const stride = vb.byteStride / 4;
  const offset = vb.byteOffset / 4;
  for (let v = 0; v < vertexCount; v++)
    for (let c = 0; c < 3; c++) {
      const b = base[offset + v * stride + c];
      let p = b;
      for (let t = 0; t < targets.length; t++) {
        const target = targets[t];
        if (target) p += (target[v * 3 + c] - b) * influences[t];
      }
      out[v * 3 + c] = p;
    }
  return out;
}

/** Joints as uint16 × 4 and weights as float32 × 4 (influences past `numBoneInfluencers` zeroed), interleaved. */
function skinBuffer(api: string, mesh: Mesh, owned: OwnedBuffers, vertexCount: number): PickVertexBuffer {
  if (!mesh.computeBonesUsingShaders)
    throw new BabylonPickError(
      api,
      'unsupported',
      `mesh "${mesh.name}" skins on the CPU (computeBonesUsingShaders false); set it to true to pick it`,
    );
  if (mesh.numBoneInfluencers > 4 || mesh.isVerticesDataPresent('matricesIndicesExtra'))
    throw new BabylonPickError(
      api,
      'unsupported',
      `mesh "${mesh.name}" has ${mesh.numBoneInfluencers} bone influences per vertex; at most 4 can be picked`,
    );
  const joints = mesh.getVerticesData('matricesIndices');
  const weights = mesh.getVerticesData('matricesWeights');
  if (!joints || !weights || joints.length < vertexCount * 4 || weights.length < vertexCount * 4)
    throw new BabylonPickError(api, 'unsupported', `mesh "${mesh.name}": its bone indices or weights are missing`);
  const bytes = new ArrayBuffer(vertexCount * 24);
  const j = new Uint16Array(bytes);
  const w = new Float32Array(bytes);
  const influencers = mesh.numBoneInfluencers;
  for (let v = 0; v < vertexCount; v++)
    for (let k = 0; k < 4; k++) {
      j[v * 12 + k] = joints[v * 4 + k];
      w[v * 6 + 2 + k] = k < influencers ? weights[v * 4 + k] : 0;
    }
  const data = new Uint8Array(bytes);
  const key = mesh.getVertexBuffer('matricesIndices') as object;
  return {
    buffer: ownedBuffer(owned, key, `${mesh.name}:skin`, data),
    data,
    arrayStride: 24,
    attributes: { joints: { format: 'uint16x4', offset: 0 }, weights: { format: 'float32x4', offset: 8 } },
  };
}

function indexOf(api: string, mesh: Mesh): MadeGeometry['index'] {
  const geometry = mesh.geometry;
  const indices = geometry?.getIndices(false);
  if (mesh.isUnIndexed || !indices || indices.length === 0) return null;
  const dataBuffer = geometry!.getIndexBuffer();
  const buffer = dataBuffer?.underlyingResource as GPUBuffer | undefined;
  if (!dataBuffer || !buffer)
    throw new BabylonPickError(api, 'unsupported', `mesh "${mesh.name}": its index buffer has no GPUBuffer`);
  const wide = dataBuffer.is32Bits;
  let data: Uint16Array | Uint32Array;
  if (wide && (indices instanceof Uint32Array || indices instanceof Int32Array))
    data = new Uint32Array(indices.buffer, indices.byteOffset, indices.length);
  else if (!wide && indices instanceof Uint16Array) data = indices;
  else data = wide ? Uint32Array.from(indices) : Uint16Array.from(indices);
  return { buffer, data };
}

/** Refuses sub-meshes that leave triangles of the buffers undrawn or drawn twice. */
function checkSubMeshes(api: string, mesh: Mesh, index: MadeGeometry['index']): void {
  const subMeshes = mesh.subMeshes ?? [];
  const total = index ? index.data.length : mesh.getTotalVertices();
  const spans = subMeshes.map((s, id) =>
    index ? [s.indexStart, s.indexCount, id] : [s.verticesStart, s.verticesCount, id],
  );
  spans.sort((a, b) => a[0] - b[0]);
  let next = 0;
  for (const [start, count] of spans) {
    if (start !== next || count % 3 !== 0) break;
    next = start + count;
  }
  if (next !== total)
    throw new BabylonPickError(
      api,
      'unsupported',
      `mesh "${mesh.name}": its sub-meshes do not cover its ${index ? 'indices' : 'vertices'} once each (0 .. ${total}, whole triangles); only such sub-meshes can be picked`,
    );
}
