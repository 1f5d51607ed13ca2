// A three.js BufferGeometry as the pick-source seam's buffers: three's own GPU buffers where the format fits, weft's
// shared copies where it does not, morph deltas, and the cheap stamp that tells the walk a geometry changed.
import type { BufferAttribute, BufferGeometry, InterleavedBufferAttribute, Mesh } from 'three';
import type { WebGPURenderer } from 'three/webgpu';
import type { VertexSemantic } from '../../engine/mesh-data.js';
import type { PickVertexBuffer } from '../../picking/sources/drawable-types.js';
import { type OwnedBuffers, ownedCopy } from '../owned-buffers.js';

type AnyAttribute = BufferAttribute | InterleavedBufferAttribute;

/** @internal Where a geometry's buffers come from: three's GPU buffers (when bindable) or weft's shared copies. */
export interface GeometrySource {
  readonly renderer: WebGPURenderer;
  /** Bind three's GPU buffers (true) or give weft's own copies (see ThreeDrawables.bindHostBuffers). */
  readonly bindHostBuffers: boolean;
  readonly owned: OwnedBuffers;
}

/**
 * @internal What the walk last read of one geometry, shared by every mesh that draws it: read once per walk, and
 * `stamp` bumped whenever anything read differs from the last read (records made at another stamp are made again).
 */
export interface GeometryState {
  readonly geometry: BufferGeometry;
  pass: number;
  stamp: number;
  /** Per attribute: the object, its bytes' owner version and three's GPU buffer; then draw range and morph flags. */
  readonly values: unknown[];
  /**
   * The drawable buffers made at a stamp, without and with the skin attributes: every mesh of the geometry lists the
   * same arrays, so the seam's sync reads them once per pick, not once per mesh.
   */
  plain: SharedDrawableBuffers | null;
  skinned: SharedDrawableBuffers | null;
}

/** @internal A geometry's vertex buffers and index as drawables list them, made at `stamp`. */
export interface SharedDrawableBuffers {
  readonly stamp: number;
  readonly vertexBuffers: PickVertexBuffer[];
  readonly index: { buffer: GPUBuffer; data: Uint16Array | Uint32Array } | null;
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
const versionedAttributes: readonly string[] = ['position', 'normal', 'uv', 'skinIndex', 'skinWeight'];

/** The three.js object that owns an attribute's bytes (its interleaved buffer, or itself). */
function ownerOf(attribute: AnyAttribute): { version: number; array: ArrayLike<number> & ArrayBufferView } {
  return ((attribute as InterleavedBufferAttribute).isInterleavedBufferAttribute
    ? (attribute as InterleavedBufferAttribute).data
    : attribute) as unknown as { version: number; array: ArrayLike<number> & ArrayBufferView };
}

/** three's GPU buffer of an attribute (null before three has drawn it). */
function gpuBufferOf(renderer: WebGPURenderer, attribute: AnyAttribute): GPUBuffer | null {
  const backend = renderer.backend as unknown as { get(object: object): { buffer?: GPUBuffer } };
  return backend.get(ownerOf(attribute)).buffer ?? null;
}

/** Writes `value` at `at`, returning whether it differs from what was there. */
function put(values: unknown[], at: number, value: unknown): boolean {
  if (values[at] === value) return false;
  values[at] = value;
  return true;
}

/**
 * Writes an attribute's identity, version and (`bound`: weft binds it) three's GPU buffer from `at`; returns whether
 * any differs.
 */
function putAttribute(
  source: GeometrySource,
  values: unknown[],
  at: number,
  attribute: AnyAttribute | null | undefined,
  bound: boolean,
): boolean {
  const identity = put(values, at, attribute ?? null);
  const version = put(values, at + 1, attribute ? ownerOf(attribute).version : -1);
  const buffer = bound && attribute && source.bindHostBuffers ? gpuBufferOf(source.renderer, attribute) : null;
  return put(values, at + 2, buffer) || identity || version;
}

const morphNames: readonly ('position' | 'normal')[] = ['position', 'normal'];

/**
 * Reads what makes a geometry's drawable (attribute identities and versions, three's GPU buffers — three uploads late
 * and again after `dispose()` —, index, morph targets, draw range) into `state`, bumping its stamp on any change.
 * No allocation: the values are written in place.
 * @internal
 */
export function readGeometryState(
  source: GeometrySource,
  geometry: BufferGeometry,
  state: GeometryState,
  pass: number,
): void {
  const values = state.values;
  const attributes = geometry.attributes;
  let changed = false;
  let at = 0;
  for (let i = 0; i < versionedAttributes.length; i++, at += 3)
    changed = putAttribute(source, values, at, attributes[versionedAttributes[i]] as AnyAttribute, true) || changed;
  changed = putAttribute(source, values, at, geometry.index, true) || changed;
  at += 3;
  const range = geometry.drawRange;
  changed = put(values, at++, range.start) || changed;
  changed = put(values, at++, range.count) || changed;
  changed = put(values, at++, geometry.morphTargetsRelative) || changed;
  const morphs = geometry.morphAttributes;
  for (let m = 0; m < morphNames.length; m++) {
    const targets = morphs[morphNames[m]];
    const count = targets ? targets.length : 0;
    changed = put(values, at++, count) || changed;
    // Morph targets are never bound (their deltas are uploaded by weft): identity and version only.
    for (let t = 0; t < count; t++, at += 3) changed = putAttribute(source, values, at, targets![t], false) || changed;
  }
  if (values.length !== at) {
    values.length = at;
    changed = true;
  }
  if (changed) state.stamp++;
  state.pass = pass;
}

/** The vertex format weft reads a semantic as, when three's array already holds it that way; else null. */
function directFormat(semantic: VertexSemantic, attribute: AnyAttribute): GPUVertexFormat | null {
  const array = ownerOf(attribute).array;
  if (attribute.normalized) return null;
  if (semantic === 'joints') return array instanceof Uint16Array && attribute.itemSize === 4 ? 'uint16x4' : null;
  if (!(array instanceof Float32Array)) return null;
  const wanted = semantic === 'uv' ? 2 : semantic === 'weights' ? 4 : 3;
  return attribute.itemSize === wanted ? (`float32x${wanted}` as GPUVertexFormat) : null;
}

/** An attribute converted to the format weft reads (joints as uint16, the rest float32), in weft's shared copy. */
function convertedBuffer(
  source: GeometrySource,
  semantic: VertexSemantic,
  attribute: AnyAttribute,
  count: number,
): PickVertexBuffer {
  const size = semantic === 'uv' ? 2 : semantic === 'joints' || semantic === 'weights' ? 4 : 3;
  const owner = ownerOf(attribute);
  const copy = ownedCopy(source.owned, attribute, `${semantic}-converted`, owner.version, () => {
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

/** @internal three's own GPU buffer where weft may bind it, else weft's shared copy of the same bytes. */
export function bufferFor(source: GeometrySource, attribute: AnyAttribute): GPUBuffer {
  const host = source.bindHostBuffers ? gpuBufferOf(source.renderer, attribute) : null;
  if (host) return host;
  const owner = ownerOf(attribute);
  return ownedCopy(source.owned, owner, 'copy', owner.version, () => owner.array).buffer;
}

/**
 * The vertex buffers of a mesh's geometry: three's own where the format fits (one per buffer, interleaved kept
 * together), converted copies where it does not.
 * @internal
 */
export function vertexBuffersOf(source: GeometrySource, mesh: Mesh, skinned: boolean): PickVertexBuffer[] {
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
      buffers.push(convertedBuffer(source, semantic, attribute, count));
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
        buffer: bufferFor(source, attribute),
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

/** @internal Morph deltas (three's relative targets as they are; absolute ones minus the base), per target. */
export function morphDeltas(geometry: BufferGeometry, name: 'position' | 'normal'): Float32Array[] | undefined {
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
