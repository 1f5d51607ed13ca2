// One three.js mesh as the pick-source seam's drawable: made from its geometry (three-geometry.ts), its instances,
// bone matrices and morph weights brought up to date each pick, and the material rules weft cannot follow refused.
import {
  type BufferGeometry,
  type InstancedMesh,
  type Material,
  Matrix4,
  type Mesh,
  type Object3D,
  type Side,
  type SkinnedMesh,
} from 'three';
import { describeValue } from '../../core/errors.js';
import { PickError } from '../../picking/pick-errors.js';
import type { PickDrawable } from '../../picking/sources/drawable-types.js';
import { bufferFor, type GeometrySource, type GeometryState, morphDeltas, vertexBuffersOf } from './three-geometry.js';

/** @internal What the adapter keeps per three.js mesh between picks (a steady pick does not visit it). */
export interface DrawableRecord {
  mesh: Mesh;
  geometry: BufferGeometry;
  /** The geometry's shared state, and its stamp when the drawable was made (another stamp makes it again). */
  geometryState: GeometryState;
  stamp: number;
  /** Its place in the last walk that listed it (records not at their place are dropped). */
  place: number;
  /** Whether the mesh has instances, bones or morph weights (read each pick); fixed by its class and geometry. */
  deforms: boolean;
  /** The ClippingGroup planes that clip it (clipPlanesOf), or null. */
  clip: Float32Array | null;
  drawable: PickDrawable<Object3D>;
  instanceVersion: number;
  instanceCount: number;
  /** Where the bone matrices are computed each pick, compared with the drawable's before a new version is made. */
  boneMatrices: Float32Array | null;
}

/** @internal Refuses a material whose drawing weft cannot follow (property reads: cheaper than remembering the answer). */
export function checkMaterial(api: string, mesh: Mesh, material: Material): void {
  const node = material as Material & { positionNode?: unknown; vertexNode?: unknown; wireframe?: boolean };
  if (node.positionNode != null || node.vertexNode != null || node.wireframe === true)
    throw new PickError(
      api,
      'unsupported',
      `mesh ${describeValue(mesh.name || mesh.uuid)}: its material ${describeValue(material.name || material.type)} moves or replaces vertices in its shader (positionNode, vertexNode) or draws lines (wireframe), which weft-gpu/three cannot see yet; picks would miss what is drawn (hide it from the pick with layers)`,
    );
}

/** @internal The side of a multi-material mesh (every material checked; their sides must agree) and whether any is visible. */
export function checkMaterialList(api: string, mesh: Mesh, materials: Material[]): { side: Side; visible: boolean } {
  for (const material of materials) checkMaterial(api, mesh, material);
  const side = materials[0].side;
  if (materials.some((m) => m.side !== side))
    throw new PickError(
      api,
      'unsupported',
      `mesh ${describeValue(mesh.name || mesh.uuid)} mixes material sides across its groups; weft-gpu/three picks one side per mesh (give its materials one side)`,
    );
  return { side, visible: materials.some((m) => m.visible) };
}

let scratch: Matrix4 | undefined;

/** Mesh-space skinning matrices as three's shader applies them: bindMatrixInverse × bone × bindMatrix. */
function writeBoneMatrices(mesh: SkinnedMesh, out: Float32Array): void {
  const bones = mesh.skeleton.boneMatrices!;
  scratch ??= new Matrix4();
  for (let b = 0; b < out.length / 16; b++) {
    scratch.fromArray(bones, b * 16);
    scratch.premultiply(mesh.bindMatrixInverse).multiply(mesh.bindMatrix);
    scratch.toArray(out, b * 16);
  }
}

function sameValues(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** @internal A new record of `mesh`: its drawable made from the geometry as `geometryState` last read it. */
export function makeRecord(
  api: string,
  source: GeometrySource,
  mesh: Mesh,
  geometryState: GeometryState,
): DrawableRecord {
  const geometry = mesh.geometry;
  const skinned = (mesh as SkinnedMesh).isSkinnedMesh === true;
  const index = geometry.index;
  const indexData = index?.array;
  if (index && !(indexData instanceof Uint16Array || indexData instanceof Uint32Array))
    throw new PickError(
      api,
      'unsupported',
      `mesh ${describeValue(mesh.name || mesh.uuid)}: index array ${describeValue(indexData)} must be a Uint16Array or Uint32Array`,
    );
  const range = geometry.drawRange;
  if (
    range.start !== 0 ||
    (Number.isFinite(range.count) && range.count < (index ? index.count : geometry.getAttribute('position').count))
  )
    throw new PickError(
      api,
      'unsupported',
      `mesh ${describeValue(mesh.name || mesh.uuid)}: geometry.drawRange { start: ${range.start}, count: ${range.count} } is not picked yet; weft-gpu/three picks whole geometries (drawRange start 0, count Infinity)`,
    );
  let buffers = skinned ? geometryState.skinned : geometryState.plain;
  if (buffers === null || buffers.stamp !== geometryState.stamp) {
    buffers = {
      stamp: geometryState.stamp,
      vertexBuffers: vertexBuffersOf(source, mesh, skinned),
      index: index ? { buffer: bufferFor(source, index), data: indexData as Uint16Array | Uint32Array } : null,
    };
    if (skinned) geometryState.skinned = buffers;
    else geometryState.plain = buffers;
  }
  const morphPositions = morphDeltas(geometry, 'position');
  const morphNormals = morphDeltas(geometry, 'normal');
  const drawable: PickDrawable<Object3D> = {
    object: mesh,
    name: mesh.name || mesh.uuid,
    vertexBuffers: buffers.vertexBuffers,
    index: buffers.index,
    geometryVersion: 0,
    // The walk's copy of the world matrix (three-world.ts copyWorld), written by each visit that sees it change.
    worldMatrix: new Float64Array(16),
    // Set by each visit; present from the start so every drawable keeps one shape.
    worldMatrixVersion: 0,
    doubleSided: false,
    frontFace: 'ccw',
    visible: true,
    ...(morphPositions
      ? {
          morph: {
            positions: morphPositions,
            ...(morphNormals && morphNormals.length === morphPositions.length ? { normals: morphNormals } : {}),
            weights: new Float32Array(morphPositions.length),
          },
        }
      : {}),
  };
  const boneMatrices = skinned ? new Float32Array((mesh as SkinnedMesh).skeleton.bones.length * 16) : null;
  if (boneMatrices) drawable.skin = { boneMatrices, version: 0 };
  return {
    mesh,
    geometry,
    geometryState,
    stamp: geometryState.stamp,
    place: -1,
    deforms: skinned || morphPositions !== undefined || (mesh as InstancedMesh).isInstancedMesh === true,
    clip: null,
    drawable,
    instanceVersion: -1,
    instanceCount: -1,
    boneMatrices,
  };
}

/** @internal Brings the instances, bone matrices and morph weights of a record up to date with its mesh. */
export function refreshDeformation(record: DrawableRecord, mesh: Mesh): void {
  const drawable = record.drawable;
  const instanced = (mesh as InstancedMesh).isInstancedMesh ? (mesh as InstancedMesh) : null;
  if (instanced) {
    const attribute = instanced.instanceMatrix;
    if (attribute.version !== record.instanceVersion || instanced.count !== record.instanceCount) {
      record.instanceVersion = attribute.version;
      record.instanceCount = instanced.count;
      const matrices = (attribute.array as Float32Array).subarray(0, instanced.count * 16);
      drawable.instances = { matrices, version: (drawable.instances?.version ?? 0) + 1 };
    }
  }
  if (record.boneMatrices && drawable.skin) {
    const skinned = mesh as SkinnedMesh;
    skinned.skeleton.update();
    writeBoneMatrices(skinned, record.boneMatrices);
    if (drawable.skin.version === 0 || !sameValues(drawable.skin.boneMatrices, record.boneMatrices))
      drawable.skin = { boneMatrices: record.boneMatrices.slice(), version: drawable.skin.version + 1 };
  }
  if (drawable.morph) {
    const influences = mesh.morphTargetInfluences ?? [];
    const weights = drawable.morph.weights as Float32Array;
    for (let i = 0; i < weights.length; i++) weights[i] = influences[i] ?? 0;
  }
}
