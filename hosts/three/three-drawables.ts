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
import { makeOwnedBuffers, type OwnedBuffers, ownedCopy, releaseAllOwned } from '../owned-buffers.js';
import { clipPlanesOf } from './three-clipping.js';
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
  /** The ClippingGroup planes that clip it (clipPlanesOf), or null. */
  clip: Float32Array | null;
  seen: number;
}

/** @internal The adapter's memory of a three.js scene: one record per mesh, the drawables list it hands the seam. */
export interface ThreeDrawables {
  readonly renderer: WebGPURenderer;
  /** Bind three's GPU buffers (true) or give weft's own copies (the device lacks `primitive-index`, so weft's detail
   *  path reads vertex data as storage, which three's buffers were not made for). */
  readonly bindHostBuffers: boolean;
  readonly records: Map<Object3D, DrawableRecord>;
  /**
   * weft's own GPU copies where three's buffers cannot be bound, one per three.js buffer (or converted attribute) and
   * version, shared by every mesh that draws it: memory grows with geometries, not with meshes.
   */
  readonly owned: OwnedBuffers;
  readonly list: PickDrawable<Object3D>[];
  /** Each geometry's attribute versions, computed once per pass. */
  readonly geometries: WeakMap<BufferGeometry, { pass: number; versions: number[] }>;
  /** The pass in which each material was last checked. */
  readonly materials: WeakMap<Material, number>;
  /** Whether the last walk found a clipped object (the picks then apply the clipping rule). */
  clipped: boolean;
  pass: number;
}

/** @internal */
export function makeThreeDrawables(
  renderer: WebGPURenderer,
  device: GPUDevice,
  bindHostBuffers: boolean,
): ThreeDrawables {
  return {
    renderer,
    bindHostBuffers,
    records: new Map(),
    owned: makeOwnedBuffers(device, 'weft-three'),
    list: [],
    geometries: new WeakMap(),
    materials: new WeakMap(),
    clipped: false,
    pass: 0,
  };
}

/** @internal Releases weft's copies (three's own buffers are never touched). */
export function disposeThreeDrawables(state: ThreeDrawables): void {
  releaseAllOwned(state.owned);
  state.records.clear();
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

/** An attribute converted to the format weft reads (joints as uint16, the rest float32), in weft's shared copy. */
function convertedBuffer(
  state: ThreeDrawables,
  semantic: VertexSemantic,
  attribute: AnyAttribute,
  count: number,
): PickVertexBuffer {
  const size = semantic === 'uv' ? 2 : semantic === 'joints' || semantic === 'weights' ? 4 : 3;
  const owner = ownerOf(attribute);
  const copy = ownedCopy(state.owned, attribute, `${semantic}-converted`, owner.version, () => {
    const data = semantic === 'joints' ? new Uint16Array(count * size) : new Float32Array(count * size);
    for (let v = 0; v < count; v++)
      for (let k = 0; k < size; k++) data[v * size + k] = k < attribute.itemSize ? attribute.getComponent(v, k) : 0;
    return data;
  });
  const format = (semantic === 'joints' ? 'uint16x4' : `float32x${size}`) as GPUVertexFormat;
  return {
    buffer: copy.buffer,
    data: copy.data,
    arrayStride: (copy.data as Uint16Array | Float32Array).BYTES_PER_ELEMENT * size,
    attributes: { [semantic]: { format, offset: 0 } },
  };
}

/** The three.js object that owns an attribute's bytes (its interleaved buffer, or itself). */
function ownerOf(attribute: AnyAttribute): { version: number; array: ArrayLike<number> & ArrayBufferView } {
  return ((attribute as InterleavedBufferAttribute).isInterleavedBufferAttribute
    ? (attribute as InterleavedBufferAttribute).data
    : attribute) as unknown as { version: number; array: ArrayLike<number> & ArrayBufferView };
}

/** three's own GPU buffer where weft may bind it, else weft's shared copy of the same bytes. */
function bufferFor(state: ThreeDrawables, attribute: AnyAttribute): GPUBuffer {
  const host = state.bindHostBuffers ? gpuBufferOf(state.renderer, attribute) : null;
  if (host) return host;
  const owner = ownerOf(attribute);
  return ownedCopy(state.owned, owner, 'copy', owner.version, () => owner.array).buffer;
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
      buffers.push(convertedBuffer(state, semantic, attribute, count));
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
      entry = {
        buffer: bufferFor(state, attribute),
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
function applySide(api: string, mesh: Mesh, drawable: PickDrawable<Object3D>): void {
  const material = mesh.material;
  const side = Array.isArray(material) ? material[0].side : material.side;
  if (Array.isArray(material) && material.some((m) => m.side !== side))
    throw new PickError(
      api,
      'unsupported',
      `mesh ${describeValue(mesh.name || mesh.uuid)} mixes material sides across its groups; weft-gpu/three picks one side per mesh (give its materials one side)`,
    );
  drawable.doubleSided = side === DoubleSide;
  drawable.frontFace = side === BackSide ? 'cw' : 'ccw';
}

/** Attribute versions that, when any changes, make the drawable again (GPU buffer presence counts: three uploads late). */
/** Writes the geometry's versions into `out` (reused between meshes: no allocation per pick) and returns it. */
function geometryVersions(state: ThreeDrawables, geometry: BufferGeometry, out: number[]): number[] {
  out.length = 0;
  const push = (attribute: AnyAttribute | null | undefined) => {
    if (!attribute) {
      out.push(-1);
      return;
    }
    const owner = (attribute as InterleavedBufferAttribute).isInterleavedBufferAttribute
      ? (attribute as InterleavedBufferAttribute).data
      : (attribute as BufferAttribute);
    out.push(owner.version, state.bindHostBuffers && gpuBufferOf(state.renderer, attribute) ? 1 : 0);
  };
  for (const [name] of semantics) push(geometry.getAttribute(name) as AnyAttribute | undefined);
  for (const [name] of skinSemantics) push(geometry.getAttribute(name) as AnyAttribute | undefined);
  push(geometry.index);
  const morphs = geometry.morphAttributes;
  if (morphs.position) for (const target of morphs.position) push(target);
  if (morphs.normal) for (const target of morphs.normal) push(target);
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
          buffer: bufferFor(state, index),
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
  return { drawable, geometry, versions, instanceVersion: -1, instanceCount: -1, boneMatrices, clip: null, seen: 0 };
}

/** Brings one record up to date with its mesh (matrices are read by value by the seam). */
function refreshRecord(record: DrawableRecord, mesh: Mesh, visible: boolean): void {
  const drawable = record.drawable;
  drawable.worldMatrix = mesh.matrixWorld.elements;
  applySide('pickThreeAsync', mesh, drawable);
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
  const material = mesh.material;
  return Array.isArray(material) ? material.some((m: Material) => m.visible) : material.visible;
}

/** Refuses materials whose drawing weft cannot follow (checked once per material per pass). */
function checkMaterials(api: string, state: ThreeDrawables, mesh: Mesh, pass: number): void {
  if (!Array.isArray(mesh.material) && state.materials.get(mesh.material) === pass) return;
  const materials: Material[] = Array.isArray(mesh.material) ? mesh.material : [mesh.material];
  const moved = materials.find((m) => {
    const node = m as Material & { positionNode?: unknown; vertexNode?: unknown; wireframe?: boolean };
    return node.positionNode != null || node.vertexNode != null || node.wireframe === true;
  });
  if (moved)
    throw new PickError(
      api,
      'unsupported',
      `mesh ${describeValue(mesh.name || mesh.uuid)}: its material ${describeValue(moved.name || moved.type)} moves or replaces vertices in its shader (positionNode, vertexNode) or draws lines (wireframe), which weft-gpu/three cannot see yet; picks would miss what is drawn (hide it from the pick with layers)`,
    );
  for (const m of materials) state.materials.set(m, pass);
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
  state.clipped = false;
  const list = state.list;
  // Written by index, its length set once at the end: emptying and refilling it would reallocate it every pick.
  let count = 0;
  scene.traverseVisible((object) => {
    if ((object as { isBatchedMesh?: boolean }).isBatchedMesh)
      throw new PickError(
        api,
        'unsupported',
        `${describeValue(object.name || object.uuid)} is a BatchedMesh; weft-gpu/three does not pick BatchedMesh yet (use InstancedMesh or separate meshes, or hide it from the pick with layers)`,
      );
    if (!(object as Mesh).isMesh) return;
    const mesh = object as Mesh;
    checkMaterials(api, state, mesh, pass);
    // Once per geometry per pass: meshes that share a geometry share its versions.
    let known = state.geometries.get(mesh.geometry);
    if (!known) state.geometries.set(mesh.geometry, (known = { pass: 0, versions: [] }));
    if (known.pass !== pass) {
      geometryVersions(state, mesh.geometry, known.versions);
      known.pass = pass;
    }
    const versions = known.versions;
    let record = state.records.get(mesh);
    if (!record || record.geometry !== mesh.geometry || !sameNumbers(record.versions, versions)) {
      const made = makeRecord(api, state, mesh, versions.slice());
      if (record) made.drawable.geometryVersion = (record.drawable.geometryVersion ?? 0) + 1;
      record = made;
      state.records.set(mesh, record);
    }
    refreshRecord(record, mesh, drawnFor(mesh, camera));
    record.clip = clipPlanesOf(api, mesh);
    if (record.clip) state.clipped = true;
    record.seen = pass;
    list[count++] = record.drawable;
  });
  for (const [object, record] of state.records) if (record.seen !== pass) state.records.delete(object);
  list.length = count;
  return list;
}

/** @internal The clip planes the last walk found for `object` (null when nothing clips it). */
export function threeClipPlanesOf(state: ThreeDrawables, object: Object3D): Float32Array | null {
  return state.records.get(object)?.clip ?? null;
}
