// Whether a Babylon.js mesh's geometry changed since the last pick, checked on every pick for every drawn mesh: what a
// Babylon.js Geometry's buffers are is compared once per pick however many meshes share it (clones do), the rest
// (skin, indexing, sub-meshes, morph targets) per mesh. Typed fields, no allocation while nothing changed.
import type { VertexBuffer } from '@babylonjs/core/Buffers/buffer.js';
import type { DataBuffer } from '@babylonjs/core/Buffers/dataBuffer.js';
import type { Geometry } from '@babylonjs/core/Meshes/geometry.js';
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import type { SubMesh } from '@babylonjs/core/Meshes/subMesh.js';
import type { DataArray, FloatArray, IndicesArray } from '@babylonjs/core/types.js';
import { makeGeometry, type MadeGeometry } from './babylon-geometry.js';
import type { PickVertexBuffer } from '../../picking/sources/drawable-types.js';
import type { OwnedBuffers } from '../owned-buffers.js';

/** The source of a mesh's vertex buffers: its Geometry, or the mesh itself where it overrides one of them. */
type VertexBufferSource = Pick<Mesh, 'getVertexBuffer'>;

/**
 * @internal What the pick buffers of one Babylon.js `Geometry` are made from: the vertex buffers weft reads (positions,
 * joints, weights), their GPU buffers and data arrays, the index buffer and indices. Compared once per pick however
 * many meshes share the geometry (clones do); `version` bumps when any of them changed.
 */
export interface GeometryBuffersKey {
  position: VertexBuffer | null;
  positionBuffer: DataBuffer | null;
  positionData: DataArray | null;
  joints: VertexBuffer | null;
  jointsBuffer: DataBuffer | null;
  jointsData: DataArray | null;
  weights: VertexBuffer | null;
  weightsBuffer: DataBuffer | null;
  weightsData: DataArray | null;
  indexBuffer: DataBuffer | null;
  indices: IndicesArray | null;
  version: number;
  /** The pick that last compared it. */
  checked: number;
  /** What the last make from these buffers listed, and at which `version`: equal makes of other meshes reuse it. */
  made: Pick<MadeGeometry, 'vertexBuffers' | 'index'> | null;
  madeVersion: number;
}

/**
 * @internal A source mesh's geometry as drawn, and what it was made from besides its geometry's buffers (compared per
 * mesh on every pick). Updated in place: the mesh's InstancedMeshes hold the same object.
 */
export interface GeometryState extends MadeGeometry {
  /** The Babylon.js Geometry it was made from (null before the first make). */
  geometry: Geometry | null;
  buffers: GeometryBuffersKey;
  /** `buffers.version` when it was made. */
  buffersVersion: number;
  /** Whether `buffers` is the mesh's own (it overrides a vertex buffer weft reads) rather than its geometry's. */
  ownBuffers: boolean;
  /** Bone influencers per vertex when skinned on the GPU; −1 unskinned, −2 skinned on the CPU. */
  skin: number;
  unIndexed: boolean;
  // The sub-meshes' spans and the morph targets as made. Most meshes have one sub-mesh and no morph targets: the first
  // sub-mesh and the counts are fields of their own, compared without reaching into arrays (a cache miss per mesh).
  subMeshCount: number;
  /** `mesh.subMeshes` and its first SubMesh as made: their fields are read through these (see sameMeshKey). */
  subMeshes: SubMesh[] | null;
  firstSubMesh: SubMesh | null;
  firstIndexStart: number;
  firstIndexCount: number;
  firstVerticesStart: number;
  firstVerticesCount: number;
  /** indexStart, indexCount, verticesStart, verticesCount of each sub-mesh after the first. */
  moreSubMeshSpans: number[];
  morphCount: number;
  morphTargets: (FloatArray | null)[];
  morphInfluences: number[];
  /** Bumped each time it is made again. */
  version: number;
  /** The pick that last checked it. */
  checked: number;
}

/** @internal Geometry keys per Babylon.js Geometry (a WeakMap: a disposed geometry takes its key with it). */
export type GeometryKeys = WeakMap<Geometry, GeometryBuffersKey>;

function makeBuffersKey(): GeometryBuffersKey {
  return {
    position: null,
    positionBuffer: null,
    positionData: null,
    joints: null,
    jointsBuffer: null,
    jointsData: null,
    weights: null,
    weightsBuffer: null,
    weightsData: null,
    indexBuffer: null,
    indices: null,
    version: -1,
    checked: 0,
    made: null,
    madeVersion: -1,
  };
}

function sameView(a: ArrayBuffer | ArrayBufferView, b: ArrayBuffer | ArrayBufferView): boolean {
  if (a === b) return true;
  if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b)) return false;
  return (
    a.constructor === b.constructor &&
    a.buffer === b.buffer &&
    a.byteOffset === b.byteOffset &&
    a.byteLength === b.byteLength
  );
}

function sameVertexBuffers(a: readonly PickVertexBuffer[], b: readonly PickVertexBuffer[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    // One host GPU buffer under an unchanged key holds the same bytes (the key compares the data Babylon.js keeps):
    // a CPU copy made from Babylon.js's plain array is a new object per make, but not other data. So for the index.
    if (x.buffer !== y.buffer || x.arrayStride !== y.arrayStride || (x.buffer === null && !sameView(x.data, y.data)))
      return false;
    const names = Object.keys(x.attributes) as (keyof PickVertexBuffer['attributes'])[];
    if (names.length !== Object.keys(y.attributes).length) return false;
    for (const name of names) {
      const p = x.attributes[name];
      const q = y.attributes[name];
      if (!p || !q || p.format !== q.format || p.offset !== q.offset) return false;
    }
  }
  return true;
}

/**
 * Meshes drawn from one Babylon.js Geometry (clones) list one vertex-buffer array and one index when their makes are
 * equal (the same GPU buffers, made under the same key version; a skinned or morphed mesh's own buffers never are):
 * the seam then checks that array once per pick instead of once per mesh, and one CPU copy of the bytes is kept.
 */
function shareMade(key: GeometryBuffersKey, made: MadeGeometry): void {
  const last = key.made;
  if (
    last &&
    key.madeVersion === key.version &&
    sameVertexBuffers(last.vertexBuffers, made.vertexBuffers) &&
    (last.index === made.index ||
      (last.index !== null && made.index !== null && last.index.buffer === made.index.buffer))
  ) {
    made.vertexBuffers = last.vertexBuffers;
    made.index = last.index;
    return;
  }
  key.made = { vertexBuffers: made.vertexBuffers, index: made.index };
  key.madeVersion = key.version;
}

/** @internal An empty state of a source mesh: its first `syncGeometry` makes it. */
export function makeGeometryState(): GeometryState {
  // Fields read on every pick first (they share the object's first cache lines); what a make writes after.
  return {
    checked: 0,
    version: -1,
    geometry: null,
    buffers: makeBuffersKey(),
    buffersVersion: -2,
    ownBuffers: false,
    skin: -1,
    unIndexed: false,
    subMeshCount: 0,
    subMeshes: null,
    firstSubMesh: null,
    firstIndexStart: 0,
    firstIndexCount: 0,
    firstVerticesStart: 0,
    firstVerticesCount: 0,
    morphCount: 0,
    moreSubMeshSpans: [],
    morphTargets: [],
    morphInfluences: [],
    vertexBuffers: [],
    index: null,
    subMeshFaceStarts: [],
    subMeshFaceCounts: [],
  };
}
/** @internal Compares the key with what `source` and `geometry` hold now (once per pick) and bumps its version on a change. */
export function checkBuffersKey(
  key: GeometryBuffersKey,
  source: VertexBufferSource,
  geometry: Geometry,
  pick: number,
): void {
  if (key.checked === pick) return;
  key.checked = pick;
  const position = source.getVertexBuffer('position');
  const joints = source.getVertexBuffer('matricesIndices');
  const weights = source.getVertexBuffer('matricesWeights');
  const positionBuffer = position?.getBuffer() ?? null;
  const positionData = position?.getData() ?? null;
  const jointsBuffer = joints?.getBuffer() ?? null;
  const jointsData = joints?.getData() ?? null;
  const weightsBuffer = weights?.getBuffer() ?? null;
  const weightsData = weights?.getData() ?? null;
  const indexBuffer = geometry.getIndexBuffer();
  const indices = geometry.getIndices(false);
  if (
    key.position === position &&
    key.positionBuffer === positionBuffer &&
    key.positionData === positionData &&
    key.joints === joints &&
    key.jointsBuffer === jointsBuffer &&
    key.jointsData === jointsData &&
    key.weights === weights &&
    key.weightsBuffer === weightsBuffer &&
    key.weightsData === weightsData &&
    key.indexBuffer === indexBuffer &&
    key.indices === indices
  )
    return;
  key.position = position;
  key.positionBuffer = positionBuffer;
  key.positionData = positionData;
  key.joints = joints;
  key.jointsBuffer = jointsBuffer;
  key.jointsData = jointsData;
  key.weights = weights;
  key.weightsBuffer = weightsBuffer;
  key.weightsData = weightsData;
  key.indexBuffer = indexBuffer;
  key.indices = indices;
  key.version++;
}

/** Whether the mesh draws one of the vertex kinds weft reads from its own instanced buffers instead of its geometry's. */
function overridesBuffers(mesh: Mesh): boolean {
  const own = (mesh as unknown as { _userInstancedBuffersStorage?: { vertexBuffers: Record<string, unknown> } })
    ._userInstancedBuffersStorage?.vertexBuffers;
  return !!own && (!!own.position || !!own.matricesIndices || !!own.matricesWeights);
}

/** The skin the geometry is made for: bone influencers on the GPU, −1 unskinned, −2 on the CPU (refused). */
function skinOf(mesh: Mesh): number {
  if (!mesh.skeleton || !mesh.useBones) return -1;
  return mesh.computeBonesUsingShaders ? mesh.numBoneInfluencers : -2;
}

/** Whether the mesh-level part of the state (skin, indexing, sub-meshes, morph targets) still holds. */
function sameMeshKey(mesh: Mesh, subMeshes: SubMesh[], state: GeometryState): boolean {
  // The first sub-mesh's fields are read through the state's reference, not through mesh → array → elements →
  // SubMesh: at 10 000 meshes each of those is a cache miss, and a chain of them waits for each in turn; checking the
  // references against the mesh's takes the same loads side by side.
  const count = subMeshes.length;
  const first = state.firstSubMesh;
  if (subMeshes !== state.subMeshes || count !== state.subMeshCount) return false;
  if (first) {
    if (
      subMeshes[0] !== first ||
      first.indexStart !== state.firstIndexStart ||
      first.indexCount !== state.firstIndexCount ||
      first.verticesStart !== state.firstVerticesStart ||
      first.verticesCount !== state.firstVerticesCount
    )
      return false;
  }
  if (count > 1) {
    const spans = state.moreSubMeshSpans;
    for (let i = 1, at = 0; i < count; i++, at += 4) {
      const s = subMeshes[i];
      if (
        s.indexStart !== spans[at] ||
        s.indexCount !== spans[at + 1] ||
        s.verticesStart !== spans[at + 2] ||
        s.verticesCount !== spans[at + 3]
      )
        return false;
    }
  }
  if (skinOf(mesh) !== state.skin || mesh.isUnIndexed !== state.unIndexed) return false;
  const manager = mesh.morphTargetManager;
  const targets = manager?.supportsPositions ? manager.numInfluencers : 0;
  if (targets !== state.morphCount) return false;
  if (targets > 0) {
    const influences = manager!.influences;
    for (let i = 0; i < targets; i++)
      if (
        manager!.getActiveTarget(i).getPositions() !== state.morphTargets[i] ||
        influences[i] !== state.morphInfluences[i]
      )
        return false;
  }
  return true;
}

function writeMeshKey(mesh: Mesh, state: GeometryState): void {
  state.skin = skinOf(mesh);
  state.unIndexed = mesh.isUnIndexed;
  const subMeshes = mesh.subMeshes;
  const first = subMeshes[0];
  state.subMeshCount = subMeshes.length;
  state.subMeshes = subMeshes;
  state.firstSubMesh = first ?? null;
  state.firstIndexStart = first?.indexStart ?? 0;
  state.firstIndexCount = first?.indexCount ?? 0;
  state.firstVerticesStart = first?.verticesStart ?? 0;
  state.firstVerticesCount = first?.verticesCount ?? 0;
  state.moreSubMeshSpans = subMeshes
    .slice(1)
    .flatMap((s) => [s.indexStart, s.indexCount, s.verticesStart, s.verticesCount]);
  const manager = mesh.morphTargetManager;
  const targets = manager?.supportsPositions ? manager.numInfluencers : 0;
  state.morphCount = targets;
  state.morphTargets = Array.from({ length: targets }, (_, i) => manager!.getActiveTarget(i).getPositions());
  state.morphInfluences = Array.from({ length: targets }, (_, i) => manager!.influences[i]);
}

/**
 * Brings `state` (of `mesh`, a source mesh) up to date, in place: made again when what it is made from changed since
 * the last pick. Its geometry's buffers are compared once per pick (`keys`), the rest per mesh. False when the mesh
 * draws nothing (no geometry or no sub-meshes). On an error the state is left as it was (the next pick tries again).
 * @internal
 */
export function syncGeometry(
  api: string,
  mesh: Mesh,
  state: GeometryState,
  keys: GeometryKeys,
  owned: OwnedBuffers,
  pick: number,
): boolean {
  if (state.checked === pick) return true;
  const geometry = mesh.geometry;
  const subMeshes = mesh.subMeshes;
  if (!geometry || !subMeshes?.length) return false;
  const own = overridesBuffers(mesh);
  let buffers = state.buffers;
  if (own) {
    if (!state.ownBuffers) buffers = makeBuffersKey();
    checkBuffersKey(buffers, mesh, geometry, pick);
  } else {
    if (state.ownBuffers || state.geometry !== geometry) {
      buffers = keys.get(geometry) ?? makeBuffersKey();
      keys.set(geometry, buffers);
    }
    checkBuffersKey(buffers, geometry, geometry, pick);
  }
  if (
    buffers === state.buffers &&
    state.buffersVersion === buffers.version &&
    state.geometry === geometry &&
    sameMeshKey(mesh, subMeshes, state)
  ) {
    state.checked = pick;
    return true;
  }
  const made = makeGeometry(api, mesh, owned);
  if (!own) shareMade(buffers, made);
  writeMeshKey(mesh, state);
  state.geometry = geometry;
  state.buffers = buffers;
  state.buffersVersion = buffers.version;
  state.ownBuffers = own;
  state.vertexBuffers = made.vertexBuffers;
  state.index = made.index;
  state.subMeshFaceStarts = made.subMeshFaceStarts;
  state.subMeshFaceCounts = made.subMeshFaceCounts;
  state.version++;
  state.checked = pick;
  return true;
}
