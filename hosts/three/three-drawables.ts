// What a three.js scene draws, as the pick-source seam's drawables: three's own GPU buffers where weft can bind them,
// the matrices, instances, bone matrices and morph weights as they are now, and what three culls and hides.
import {
  BackSide,
  type BufferAttribute,
  type BufferGeometry,
  type Camera,
  DoubleSide,
  type InstancedMesh,
  type InterleavedBufferAttribute,
  type Material,
  Matrix4,
  type Mesh,
  type Object3D,
  type SkinnedMesh,
} from 'three';
import type { WebGPURenderer } from 'three/webgpu';
import { describeValue } from '../../core/errors.js';
import type { VertexSemantic } from '../../engine/mesh-data.js';
import { PickError } from '../../picking/pick-errors.js';
import type { PickDrawable, PickVertexBuffer } from '../../picking/sources/drawable-scene.js';

type AnyAttribute = BufferAttribute | InterleavedBufferAttribute;

/** What the adapter keeps per three.js mesh between picks. */
interface DrawableRecord {
  drawable: PickDrawable<Object3D>;
  geometry: BufferGeometry;
  /** Attribute versions (and GPU buffer presence) the drawable was made from: any change makes it again. */
  versions: number[];
  instanceVersion: number;
  instanceCount: number;
  /** Where the bone matrices are computed each pick, compared with the drawable's before a new version is made. */
  boneMatrices: Float32Array | null;
  seen: number;
}

/** @internal The adapter's memory of a three.js scene: one record per mesh, the drawables list it hands the seam. */
export interface ThreeDrawables {
  readonly renderer: WebGPURenderer;
  /** Bind three's GPU buffers (true) or give weft's own copies (the device lacks `primitive-index`, so weft's detail
   *  path reads vertex data as storage, which three's buffers were not made for). */
  readonly bindHostBuffers: boolean;
  readonly records: Map<Object3D, DrawableRecord>;
  readonly list: PickDrawable<Object3D>[];
  pass: number;
}

/** @internal */
export function makeThreeDrawables(renderer: WebGPURenderer, bindHostBuffers: boolean): ThreeDrawables {
  return { renderer, bindHostBuffers, records: new Map(), list: [], pass: 0 };
}

const semantics: ReadonlyArray<[string, VertexSemantic]> = [
  ['position', 'position'],
  ['normal', 'normal'],
  ['uv', 'uv'],
];
const skinSemantics: ReadonlyArray<[string, VertexSemantic]> = [
  ['skinIndex', 'joints'],
  ['skinWeight', 'weights'],
];

/** three's GPU buffer of an attribute (null before three has drawn it). */
function gpuBufferOf(renderer: WebGPURenderer, attribute: AnyAttribute): GPUBuffer | null {
  const backend = renderer.backend as unknown as { get(object: object): { buffer?: GPUBuffer } };
  const owner = (attribute as InterleavedBufferAttribute).isInterleavedBufferAttribute
    ? (attribute as InterleavedBufferAttribute).data
    : attribute;
  return backend.get(owner).buffer ?? null;
}

/** The vertex format weft reads a semantic as, when three's array already holds it that way; else null. */
function directFormat(semantic: VertexSemantic, attribute: AnyAttribute): GPUVertexFormat | null {
  const array = (attribute as InterleavedBufferAttribute).isInterleavedBufferAttribute
    ? (attribute as InterleavedBufferAttribute).data.array
    : (attribute as BufferAttribute).array;
  if (attribute.normalized) return null;
  if (semantic === 'joints') return array instanceof Uint16Array && attribute.itemSize === 4 ? 'uint16x4' : null;
  if (!(array instanceof Float32Array)) return null;
  const wanted = semantic === 'uv' ? 2 : semantic === 'weights' ? 4 : 3;
  return attribute.itemSize === wanted ? (`float32x${wanted}` as GPUVertexFormat) : null;
}

/** A copy of an attribute in the format weft reads (joints as uint16, the rest float32), uploaded by weft. */
function convertedBuffer(semantic: VertexSemantic, attribute: AnyAttribute, count: number): PickVertexBuffer {
  const size = semantic === 'uv' ? 2 : semantic === 'joints' || semantic === 'weights' ? 4 : 3;
  const data = semantic === 'joints' ? new Uint16Array(count * size) : new Float32Array(count * size);
  for (let v = 0; v < count; v++)
    for (let k = 0; k < size; k++) data[v * size + k] = k < attribute.itemSize ? attribute.getComponent(v, k) : 0;
  const format = (semantic === 'joints' ? 'uint16x4' : `float32x${size}`) as GPUVertexFormat;
  return {
    buffer: null,
    data,
    arrayStride: data.BYTES_PER_ELEMENT * size,
    attributes: { [semantic]: { format, offset: 0 } },
  };
}

/** The vertex buffers of a geometry: three's own where the format fits (one per buffer, interleaved kept together). */
function vertexBuffersOf(state: ThreeDrawables, mesh: Mesh, skinned: boolean): PickVertexBuffer[] {
  const geometry = mesh.geometry;
  const position = geometry.getAttribute('position');
  const count = position.count;
  const buffers: PickVertexBuffer[] = [];
  const byOwner = new Map<object, PickVertexBuffer>();
  for (const [name, semantic] of skinned ? [...semantics, ...skinSemantics] : semantics) {
    const attribute = geometry.getAttribute(name) as AnyAttribute | undefined;
    if (!attribute) continue;
    const format = directFormat(semantic, attribute);
    if (!format) {
      buffers.push(convertedBuffer(semantic, attribute, count));
      continue;
    }
    const interleaved = (attribute as InterleavedBufferAttribute).isInterleavedBufferAttribute
      ? (attribute as InterleavedBufferAttribute)
      : null;
    const owner = interleaved ? interleaved.data : attribute;
    const array = interleaved ? interleaved.data.array : (attribute as BufferAttribute).array;
    const bytes = array.BYTES_PER_ELEMENT;
    let entry = byOwner.get(owner);
    if (!entry) {
      const gpu = state.bindHostBuffers ? gpuBufferOf(state.renderer, attribute) : null;
      entry = {
        buffer: gpu,
        data: array as ArrayBufferView,
        arrayStride: interleaved ? interleaved.data.stride * bytes : attribute.itemSize * bytes,
        attributes: {},
      };
      byOwner.set(owner, entry);
      buffers.push(entry);
    }
    entry.attributes[semantic] = { format, offset: interleaved ? interleaved.offset * bytes : 0 };
  }
  return buffers;
}

/** Which side three draws: one-sided front (ccw), one-sided back (as a cw front) or both. */
function sideOf(api: string, mesh: Mesh): { doubleSided: boolean; frontFace: GPUFrontFace } {
  const materials: Material[] = Array.isArray(mesh.material) ? mesh.material : [mesh.material];
  const sides = new Set(materials.map((m) => m.side));
  if (sides.size !== 1)
    throw new PickError(
      api,
      'unsupported',
      `mesh ${describeValue(mesh.name || mesh.uuid)} mixes material sides across its groups; weft-gpu/three picks one side per mesh (give its materials one side)`,
    );
  const side = materials[0].side;
  return side === DoubleSide
    ? { doubleSided: true, frontFace: 'ccw' }
    : { doubleSided: false, frontFace: side === BackSide ? 'cw' : 'ccw' };
}

/** Attribute versions that, when any changes, make the drawable again (GPU buffer presence counts: three uploads late). */
function geometryVersions(state: ThreeDrawables, mesh: Mesh, skinned: boolean): number[] {
  const geometry = mesh.geometry;
  const out: number[] = [];
  const push = (attribute: AnyAttribute | null | undefined) => {
    if (!attribute) return out.push(-1);
    const owner = (attribute as InterleavedBufferAttribute).isInterleavedBufferAttribute
      ? (attribute as InterleavedBufferAttribute).data
      : (attribute as BufferAttribute);
    out.push(owner.version, state.bindHostBuffers && gpuBufferOf(state.renderer, attribute) ? 1 : 0);
  };
  for (const [name] of skinned ? [...semantics, ...skinSemantics] : semantics)
    push(geometry.getAttribute(name) as AnyAttribute | undefined);
  push(geometry.index);
  for (const target of geometry.morphAttributes.position ?? []) push(target);
  for (const target of geometry.morphAttributes.normal ?? []) push(target);
  return out;
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Morph deltas (three's relative targets as they are; absolute ones minus the base), per target. */
function morphDeltas(geometry: BufferGeometry, name: 'position' | 'normal'): Float32Array[] | undefined {
  const targets = geometry.morphAttributes[name];
  if (!targets || targets.length === 0) return undefined;
  const base = geometry.getAttribute(name);
  return targets.map((target) => {
    const out = new Float32Array(base.count * 3);
    for (let v = 0; v < base.count; v++)
      for (let k = 0; k < 3; k++)
        out[v * 3 + k] = target.getComponent(v, k) - (geometry.morphTargetsRelative ? 0 : base.getComponent(v, k));
    return out;
  });
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

function makeRecord(api: string, state: ThreeDrawables, mesh: Mesh, versions: number[]): DrawableRecord {
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
  const morphPositions = morphDeltas(geometry, 'position');
  const morphNormals = morphDeltas(geometry, 'normal');
  const drawable: PickDrawable<Object3D> = {
    object: mesh,
    name: mesh.name || mesh.uuid,
    vertexBuffers: vertexBuffersOf(state, mesh, skinned),
    index: index
      ? {
          buffer: state.bindHostBuffers ? gpuBufferOf(state.renderer, index) : null,
          data: indexData as Uint16Array | Uint32Array,
        }
      : null,
    geometryVersion: 0,
    worldMatrix: mesh.matrixWorld.elements,
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
  return { drawable, geometry, versions, instanceVersion: -1, instanceCount: -1, boneMatrices, seen: 0 };
}

/** Brings one record up to date with its mesh (matrices are read by value by the seam). */
function refreshRecord(record: DrawableRecord, mesh: Mesh, visible: boolean): void {
  const drawable = record.drawable;
  drawable.worldMatrix = mesh.matrixWorld.elements;
  const { doubleSided, frontFace } = sideOf('pickThreeAsync', mesh);
  drawable.doubleSided = doubleSided;
  drawable.frontFace = frontFace;
  drawable.visible = visible;
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
    const current = drawable.skin.boneMatrices;
    if (
      drawable.skin.version === 0 ||
      !sameNumbers(current as unknown as number[], record.boneMatrices as unknown as number[])
    )
      drawable.skin = { boneMatrices: record.boneMatrices.slice(), version: drawable.skin.version + 1 };
  }
  if (drawable.morph) {
    const influences = mesh.morphTargetInfluences ?? [];
    const weights = drawable.morph.weights as Float32Array;
    for (let i = 0; i < weights.length; i++) weights[i] = influences[i] ?? 0;
  }
}

/** Whether three draws the object for this camera: visible up the tree (traverseVisible), on the camera's layers. */
function drawnFor(mesh: Mesh, camera: Camera): boolean {
  if (!mesh.layers.test(camera.layers)) return false;
  const materials: Material[] = Array.isArray(mesh.material) ? mesh.material : [mesh.material];
  return materials.some((m) => m.visible);
}

/**
 * Walks the scene as three draws it for `camera` and returns the drawables in scene order (one per Mesh,
 * InstancedMesh or SkinnedMesh), reusing each mesh's record: only what changed is rebuilt.
 * @throws {PickError} `unsupported` naming the object for what weft-gpu/three does not pick yet (BatchedMesh, draw
 * ranges, mixed sides)
 * @internal
 */
export function collectThreeDrawables(
  api: string,
  state: ThreeDrawables,
  scene: Object3D,
  camera: Camera,
): PickDrawable<Object3D>[] {
  const pass = ++state.pass;
  const list = state.list;
  list.length = 0;
  scene.traverseVisible((object) => {
    if ((object as { isBatchedMesh?: boolean }).isBatchedMesh)
      throw new PickError(
        api,
        'unsupported',
        `${describeValue(object.name || object.uuid)} is a BatchedMesh; weft-gpu/three does not pick BatchedMesh yet (use InstancedMesh or separate meshes, or hide it from the pick with layers)`,
      );
    if ((object as { isClippingGroup?: boolean }).isClippingGroup)
      throw new PickError(
        api,
        'unsupported',
        `${describeValue(object.name || object.uuid)} is a ClippingGroup; weft-gpu/three does not pick clipped geometry yet (hide it from the pick with layers)`,
      );
    if (!(object as Mesh).isMesh) return;
    const mesh = object as Mesh;
    const clipped = (Array.isArray(mesh.material) ? mesh.material : [mesh.material]).some(
      (m) => (m.clippingPlanes?.length ?? 0) > 0,
    );
    if (clipped)
      throw new PickError(
        api,
        'unsupported',
        `mesh ${describeValue(mesh.name || mesh.uuid)} has material.clippingPlanes; weft-gpu/three does not pick clipped geometry yet (hide it from the pick with layers)`,
      );
    const skinned = (mesh as SkinnedMesh).isSkinnedMesh === true;
    const versions = geometryVersions(state, mesh, skinned);
    let record = state.records.get(mesh);
    if (!record || record.geometry !== mesh.geometry || !sameNumbers(record.versions, versions)) {
      const made = makeRecord(api, state, mesh, versions);
      if (record) made.drawable.geometryVersion = (record.drawable.geometryVersion ?? 0) + 1;
      record = made;
      state.records.set(mesh, record);
    }
    refreshRecord(record, mesh, drawnFor(mesh, camera));
    record.seen = pass;
    list.push(record.drawable);
  });
  for (const [object, record] of state.records) if (record.seen !== pass) state.records.delete(object);
  return list;
}
