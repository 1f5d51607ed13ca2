// Geometry classes: meshes whose uploaded vertex and index bytes are equal draw the same, so a pass may draw one from
// the other's buffers (the marquee's instanced batches, consecutive draws of the point pass).
import type { PickGeometry } from '../sources/pick-source.js';

/**
 * Geometries larger than this are never compared: duplicates of big meshes are few, so batching them saves little
 * and the byte comparison would cost more than the draws it saves.
 */
const geometryClassMaxBytes = 1 << 20;

/** A geometry's class: geometries of equal bytes, layout and indices share one object. */
interface GeometryClass {
  readonly geometry: WeakRef<PickGeometry>;
}

let classOf: WeakMap<PickGeometry, GeometryClass | null> | null = null;
let classesByHash: Map<number, GeometryClass[]> | null = null;

function geometryBytes(geometry: PickGeometry): number {
  let bytes = geometry.indices?.byteLength ?? 0;
  for (const buffer of geometry.buffers) bytes += buffer.bytes.byteLength;
  return bytes;
}

function hashBytes(h: number, bytes: Uint8Array): number {
  let hash = Math.imul(h ^ bytes.byteLength, 0x01000193);
  if (bytes.byteOffset % 4 === 0 && bytes.byteLength % 4 === 0) {
    const words = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    for (let i = 0; i < words.length; i++) hash = Math.imul(hash ^ words[i], 0x01000193);
  } else for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  return hash;
}

function indexBytes(indices: Uint16Array | Uint32Array): Uint8Array {
  return new Uint8Array(indices.buffer, indices.byteOffset, indices.byteLength);
}

function layoutKey(geometry: PickGeometry): string {
  const index = geometry.indices ? (geometry.indices instanceof Uint16Array ? 'u16' : 'u32') : 'none';
  return `${geometry.vertexCount}|${index}|${JSON.stringify(geometry.buffers.map((b) => [b.arrayStride, b.attributes]))}`;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameGeometry(a: PickGeometry, b: PickGeometry): boolean {
  if (a === b) return true;
  if (layoutKey(a) !== layoutKey(b) || a.buffers.length !== b.buffers.length) return false;
  if (a.indices && b.indices && !sameBytes(indexBytes(a.indices), indexBytes(b.indices))) return false;
  return a.buffers.every((buffer, i) => sameBytes(buffer.bytes, b.buffers[i].bytes));
}

/**
 * The class of geometries equal to this one (bytes, layout, indices), or null when it is too big to compare. Meshes
 * upload their geometry once and never rewrite it, so equal classes mean equal GPU buffers.
 * @internal
 */
export function geometryClassOf(geometry: PickGeometry): object | null {
  classOf ??= new WeakMap();
  const known = classOf.get(geometry);
  if (known !== undefined) return known;
  let found: GeometryClass | null = null;
  if (geometryBytes(geometry) <= geometryClassMaxBytes) {
    let hash = 0x811c9dc5;
    for (const buffer of geometry.buffers) hash = hashBytes(hash, buffer.bytes);
    if (geometry.indices) hash = hashBytes(hash, indexBytes(geometry.indices));
    hash >>>= 0;
    classesByHash ??= new Map();
    const bucket = classesByHash.get(hash) ?? [];
    for (let i = bucket.length - 1; i >= 0; i--) {
      const other = bucket[i].geometry.deref();
      if (!other) bucket.splice(i, 1);
      else if (!found && sameGeometry(geometry, other)) found = bucket[i];
    }
    if (!found) bucket.push((found = { geometry: new WeakRef(geometry) }));
    classesByHash.set(hash, bucket);
  }
  classOf.set(geometry, found);
  return found;
}
