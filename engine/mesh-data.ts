import { describeValue } from '../core/errors.js';
import { MeshDataError } from './engine-errors.js';

/** A per-vertex attribute a mesh may carry. */
export type VertexSemantic =
  | 'position'
  | 'normal'
  | 'uv'
  | 'uv2'
  | 'tangent'
  | 'color'
  | 'joints'
  | 'weights'
  | 'joints2'
  | 'weights2';

/** One attribute inside an interleaved vertex buffer. */
export interface InterleavedAttribute {
  offset: number;
  format: GPUVertexFormat;
}

/** Interleaved vertices: one byte buffer, a stride and where each attribute sits in a vertex. */
export interface InterleavedVertexData {
  data: ArrayBuffer | ArrayBufferView;
  arrayStride: number;
  attributes: Partial<Record<VertexSemantic, InterleavedAttribute>>;
}

/**
 * What `createMeshFromData` accepts: tight arrays per attribute, or interleaved buffers (one, or a list: the mesh's
 * vertex buffers in that order, each with its own stride and attributes, as a host engine lays them out).
 */
export interface MeshData {
  positions?: Float32Array;
  normals?: Float32Array;
  uvs?: Float32Array;
  uv2s?: Float32Array;
  tangents?: Float32Array;
  /** float32x4 (or float32x3 when `colorComponents` is 3), or unorm8x4 bytes. */
  colors?: Float32Array | Uint8Array;
  colorComponents?: 3 | 4;
  /** Skinning: 4 bone indices per vertex (stored as uint16x4) and their weights; joints2/weights2 add 4 more. */
  joints?: Uint8Array | Uint16Array | Uint32Array;
  weights?: Float32Array;
  joints2?: Uint8Array | Uint16Array | Uint32Array;
  weights2?: Float32Array;
  interleaved?: InterleavedVertexData | readonly InterleavedVertexData[];
  indices?: Uint16Array | Uint32Array;
}

/** An attribute's place in a vertex buffer, as the pipeline and CPU readers see it. */
export interface VertexAttributeLayout {
  semantic: VertexSemantic;
  format: GPUVertexFormat;
  offset: number;
}

/** CPU copy of one GPU vertex buffer. */
export interface VertexBufferSource {
  bytes: Uint8Array;
  arrayStride: number;
  attributes: VertexAttributeLayout[];
}

/** Validated, canonical geometry: the CPU arrays kept for bounds and picking. */
export interface MeshGeometry {
  vertexCount: number;
  indices: Uint16Array | Uint32Array | null;
  /** Triangles drawn: indices.length / 3, or vertexCount / 3 when not indexed. */
  triangleCount: number;
  buffers: VertexBufferSource[];
  /** True when all attributes share one buffer. */
  interleaved: boolean;
}

const tightFields: ReadonlyArray<[keyof MeshData, VertexSemantic]> = [
  ['positions', 'position'],
  ['normals', 'normal'],
  ['uvs', 'uv'],
  ['uv2s', 'uv2'],
  ['tangents', 'tangent'],
  ['colors', 'color'],
  ['joints', 'joints'],
  ['weights', 'weights'],
  ['joints2', 'joints2'],
  ['weights2', 'weights2'],
];

/** Vertex formats each semantic may be read as. */
export const allowedVertexFormats: Readonly<Record<VertexSemantic, readonly GPUVertexFormat[]>> = {
  position: ['float32x3'],
  normal: ['float32x3'],
  uv: ['float32x2'],
  uv2: ['float32x2'],
  tangent: ['float32x4'],
  color: ['float32x3', 'float32x4', 'unorm8x4'],
  joints: ['uint16x4'],
  weights: ['float32x4'],
  joints2: ['uint16x4'],
  weights2: ['float32x4'],
};

const formatByteSize: Partial<Record<GPUVertexFormat, number>> = {
  float32x2: 8,
  float32x3: 12,
  float32x4: 16,
  unorm8x4: 4,
  uint16x4: 8,
};

/** Number of components a vertex format holds (only the formats weft reads). */
function vertexFormatComponents(format: GPUVertexFormat): number {
  return format === 'float32x2' ? 2 : format === 'float32x3' ? 3 : 4;
}

function fieldName(semantic: VertexSemantic): string {
  return semantic === 'position' ? 'positions' : semantic === 'uv2' ? 'uv2s' : `${semantic}s`;
}

function checkFormat(
  api: string,
  name: string,
  field: string,
  semantic: VertexSemantic,
  format: GPUVertexFormat,
): void {
  if (!allowedVertexFormats[semantic].includes(format)) {
    throw new MeshDataError(
      api,
      name,
      field,
      `vertex format ${describeValue(format)} is not supported for ${semantic}; allowed: ${allowedVertexFormats[semantic].join(', ')}`,
    );
  }
}

function tightBuffer(
  api: string,
  name: string,
  data: MeshData,
  field: keyof MeshData,
  semantic: VertexSemantic,
): VertexBufferSource {
  let array = data[field] as Float32Array | Uint8Array | Uint16Array | Uint32Array;
  let format: GPUVertexFormat;
  if (semantic === 'joints' || semantic === 'joints2') {
    if (!(array instanceof Uint8Array || array instanceof Uint16Array || array instanceof Uint32Array)) {
      throw new MeshDataError(
        api,
        name,
        field,
        `expected a Uint8Array, Uint16Array or Uint32Array of 4 bone indices per vertex, got ${describeValue(array)}`,
      );
    }
    const too = array.findIndex((j) => j > 0xffff);
    if (too >= 0) throw new MeshDataError(api, name, field, `${field}[${too}] = ${array[too]} exceeds 65535 bones`);
    array = Uint16Array.from(array);
    format = 'uint16x4';
  } else if (array instanceof Uint8Array) {
    format = 'unorm8x4';
  } else if (array instanceof Float32Array) {
    format =
      semantic === 'color'
        ? data.colorComponents === 3
          ? 'float32x3'
          : 'float32x4'
        : allowedVertexFormats[semantic][0];
  } else {
    throw new MeshDataError(
      api,
      name,
      field,
      `expected a Float32Array${semantic === 'color' ? ' or Uint8Array' : ''}, got ${describeValue(array)}`,
    );
  }
  checkFormat(api, name, field, semantic, format);
  const size = formatByteSize[format]!;
  return {
    bytes: new Uint8Array(array.buffer.slice(array.byteOffset, array.byteOffset + array.byteLength)),
    arrayStride: size,
    attributes: [{ semantic, format, offset: 0 }],
  };
}

function checkSkinWeights(api: string, name: string, geometry: MeshGeometry): void {
  const hasJoints = !!findVertexAttribute(geometry, 'joints');
  const hasWeights = !!findVertexAttribute(geometry, 'weights');
  if (hasJoints !== hasWeights)
    throw new MeshDataError(
      api,
      name,
      hasJoints ? 'weights' : 'joints',
      'is missing: skinning needs both joints and weights',
    );
  if (!!findVertexAttribute(geometry, 'joints2') !== !!findVertexAttribute(geometry, 'weights2')) {
    throw new MeshDataError(
      api,
      name,
      findVertexAttribute(geometry, 'joints2') ? 'weights2' : 'joints2',
      'is missing: eight influences need both joints2 and weights2',
    );
  }
  if (findVertexAttribute(geometry, 'joints2') && !hasJoints)
    throw new MeshDataError(api, name, 'joints', 'is missing: joints2/weights2 extend joints/weights');
  if (!hasWeights) return;
  const w = [0, 0, 0, 0];
  const w2 = [0, 0, 0, 0];
  for (let v = 0; v < geometry.vertexCount; v++) {
    readVertexAttribute(geometry, 'weights', v, w);
    let sum = w[0] + w[1] + w[2] + w[3];
    if (readVertexAttribute(geometry, 'weights2', v, w2)) sum += w2[0] + w2[1] + w2[2] + w2[3];
    if (!(Math.abs(sum - 1) <= 0.01) || [...w, ...w2].some((x) => x < 0)) {
      throw new MeshDataError(
        api,
        name,
        'weights',
        `vertex ${v} weights sum to ${sum.toFixed(4)}; influences must be non-negative and sum to 1 (±0.01)`,
      );
    }
  }
}

function interleavedBuffer(
  api: string,
  name: string,
  data: InterleavedVertexData,
  field = 'interleaved',
): VertexBufferSource {
  if (data == null || typeof data !== 'object')
    throw new MeshDataError(api, name, field, `expected { data, arrayStride, attributes }, got ${describeValue(data)}`);
  const { arrayStride } = data;
  if (!Number.isInteger(arrayStride) || arrayStride <= 0 || arrayStride % 4 !== 0 || arrayStride > 2048) {
    throw new MeshDataError(
      api,
      name,
      `${field}.arrayStride`,
      `${describeValue(arrayStride)} is not allowed; use a positive multiple of 4 up to 2048 bytes`,
    );
  }
  const source = data.data;
  if (!(source instanceof ArrayBuffer) && !ArrayBuffer.isView(source)) {
    throw new MeshDataError(
      api,
      name,
      `${field}.data`,
      `expected an ArrayBuffer or typed array, got ${describeValue(source)}`,
    );
  }
  const bytes =
    source instanceof ArrayBuffer
      ? new Uint8Array(source.slice(0))
      : new Uint8Array(source.buffer.slice(source.byteOffset, source.byteOffset + source.byteLength));
  if (bytes.byteLength % arrayStride !== 0) {
    throw new MeshDataError(
      api,
      name,
      `${field}.data`,
      `byte length ${bytes.byteLength} is not a multiple of arrayStride ${arrayStride}`,
    );
  }
  const attributes: VertexAttributeLayout[] = [];
  for (const semantic of Object.keys(data.attributes).sort() as VertexSemantic[]) {
    const attribute = data.attributes[semantic]!;
    const attributeField = `${field}.attributes.${semantic}`;
    if (!(semantic in allowedVertexFormats)) {
      throw new MeshDataError(
        api,
        name,
        attributeField,
        `unknown semantic; allowed: ${Object.keys(allowedVertexFormats).join(', ')}`,
      );
    }
    checkFormat(api, name, attributeField, semantic, attribute.format);
    const size = formatByteSize[attribute.format]!;
    if (
      !Number.isInteger(attribute.offset) ||
      attribute.offset < 0 ||
      attribute.offset % 4 !== 0 ||
      attribute.offset + size > arrayStride
    ) {
      throw new MeshDataError(
        api,
        name,
        attributeField,
        `offset ${describeValue(attribute.offset)} does not fit a ${attribute.format} inside arrayStride ${arrayStride} (needs a multiple of 4, offset + ${size} <= stride)`,
      );
    }
    attributes.push({ semantic, format: attribute.format, offset: attribute.offset });
  }
  return { bytes, arrayStride, attributes };
}

/** Float attributes a shader interpolates: a NaN or infinity in any of them poisons lighting and picking. */
const finiteSemantics: readonly VertexSemantic[] = ['normal', 'uv', 'uv2', 'tangent', 'color'];

function checkFiniteAttributes(api: string, name: string, geometry: MeshGeometry): void {
  const value = [0, 0, 0, 0];
  for (const semantic of finiteSemantics) {
    const found = findVertexAttribute(geometry, semantic);
    if (!found || found.attribute.format === 'unorm8x4') continue;
    const components = vertexFormatComponents(found.attribute.format);
    for (let v = 0; v < geometry.vertexCount; v++) {
      readVertexAttribute(geometry, semantic, v, value);
      for (let c = 0; c < components; c++) {
        if (Number.isFinite(value[c])) continue;
        throw new MeshDataError(
          api,
          name,
          geometry.interleaved ? `interleaved.attributes.${semantic}` : fieldName(semantic),
          `vertex ${v} component ${c} is not finite (${value[c]}); ${semantic} values must be finite numbers`,
        );
      }
    }
  }
}

/** @internal Finds where a semantic lives, or null when the mesh lacks it. */
export function findVertexAttribute(
  geometry: MeshGeometry,
  semantic: VertexSemantic,
): { buffer: VertexBufferSource; attribute: VertexAttributeLayout } | null {
  for (const buffer of geometry.buffers) {
    for (const attribute of buffer.attributes) if (attribute.semantic === semantic) return { buffer, attribute };
  }
  return null;
}

/** Reads one vertex's attribute into `out` (unorm8 colours are normalised to 0..1). */
export function readVertexAttribute(
  geometry: MeshGeometry,
  semantic: VertexSemantic,
  vertex: number,
  out: Float32Array | number[],
): boolean {
  const found = findVertexAttribute(geometry, semantic);
  if (!found) return false;
  const { buffer, attribute } = found;
  const base = vertex * buffer.arrayStride + attribute.offset;
  const view = new DataView(buffer.bytes.buffer, buffer.bytes.byteOffset, buffer.bytes.byteLength);
  const components = vertexFormatComponents(attribute.format);
  for (let c = 0; c < components; c++) {
    out[c] =
      attribute.format === 'unorm8x4'
        ? view.getUint8(base + c) / 255
        : attribute.format === 'uint16x4'
          ? view.getUint16(base + c * 2, true)
          : view.getFloat32(base + c * 4, true);
  }
  return true;
}

/** @internal Copies every vertex's position into a tight Float32Array (xyz per vertex). */
export function extractPositions(geometry: MeshGeometry): Float32Array {
  const out = new Float32Array(geometry.vertexCount * 3);
  const scratch = [0, 0, 0];
  for (let v = 0; v < geometry.vertexCount; v++) {
    readVertexAttribute(geometry, 'position', v, scratch);
    out[v * 3] = scratch[0];
    out[v * 3 + 1] = scratch[1];
    out[v * 3 + 2] = scratch[2];
  }
  return out;
}

/** @internal Validates mesh data and returns its canonical geometry; throws MeshDataError naming the field. */
export function makeMeshGeometry(name: string, data: MeshData, api = 'createMeshFromData'): MeshGeometry {
  if (data == null || typeof data !== 'object')
    throw new MeshDataError(api, name, 'data', `expected a MeshData object, got ${describeValue(data)}`);
  if (data.colorComponents !== undefined && data.colorComponents !== 3 && data.colorComponents !== 4)
    throw new MeshDataError(
      api,
      name,
      'colorComponents',
      `${describeValue(data.colorComponents)} must be 3 or 4 (float32 colours per vertex)`,
    );
  const tightPresent = tightFields.filter(([field]) => data[field] !== undefined);
  let buffers: VertexBufferSource[];
  if (data.interleaved) {
    if (tightPresent.length > 0) {
      throw new MeshDataError(
        api,
        name,
        tightPresent[0][0],
        'give either tight attribute arrays or `interleaved`, not both',
      );
    }
    const list = Array.isArray(data.interleaved) ? data.interleaved : [data.interleaved as InterleavedVertexData];
    if (list.length === 0)
      throw new MeshDataError(api, name, 'interleaved', 'is an empty list; give at least the buffer with positions');
    buffers = list.map((b, i) =>
      interleavedBuffer(api, name, b, Array.isArray(data.interleaved) ? `interleaved[${i}]` : 'interleaved'),
    );
    const seen = new Set<string>();
    buffers.forEach((b, i) => {
      for (const a of b.attributes) {
        if (seen.has(a.semantic))
          throw new MeshDataError(
            api,
            name,
            `interleaved[${i}].attributes.${a.semantic}`,
            'appears in two buffers; each semantic lives in one vertex buffer',
          );
        seen.add(a.semantic);
      }
    });
  } else {
    buffers = tightPresent.map(([field, semantic]) => tightBuffer(api, name, data, field, semantic));
  }
  const positionBuffer = buffers.findIndex((b) => b.attributes.some((a) => a.semantic === 'position'));
  const positionsField = !data.interleaved
    ? 'positions'
    : Array.isArray(data.interleaved) && positionBuffer >= 0
      ? `interleaved[${positionBuffer}].attributes.position`
      : 'interleaved.attributes.position';
  const position = buffers.find((b) => b.attributes.some((a) => a.semantic === 'position'));
  if (!position) throw new MeshDataError(api, name, positionsField, 'is missing; every mesh needs float32x3 positions');
  const vertexCount = position.bytes.byteLength / position.arrayStride;
  if (!Number.isInteger(vertexCount)) {
    throw new MeshDataError(
      api,
      name,
      positionsField,
      `length ${position.bytes.byteLength / 4} is not a multiple of 3`,
    );
  }
  if (vertexCount === 0)
    throw new MeshDataError(api, name, positionsField, 'is empty; a mesh needs at least one triangle');
  for (const buffer of buffers) {
    const count = buffer.bytes.byteLength / buffer.arrayStride;
    if (count !== vertexCount) {
      const attribute = buffer.attributes[0];
      const components = vertexFormatComponents(attribute.format);
      throw new MeshDataError(
        api,
        name,
        fieldName(attribute.semantic),
        `holds ${Number.isInteger(count) ? count : (buffer.bytes.byteLength / (attribute.format === 'unorm8x4' ? 1 : 4) / components).toFixed(2)} vertices of ${components} components; positions hold ${vertexCount}`,
      );
    }
  }
  const geometry: MeshGeometry = {
    vertexCount,
    indices: null,
    triangleCount: 0,
    buffers,
    interleaved: !!data.interleaved,
  };
  const xyz = [0, 0, 0];
  for (let v = 0; v < vertexCount; v++) {
    readVertexAttribute(geometry, 'position', v, xyz);
    if (!Number.isFinite(xyz[0]) || !Number.isFinite(xyz[1]) || !Number.isFinite(xyz[2])) {
      throw new MeshDataError(api, name, positionsField, `vertex ${v} is not finite (${xyz.join(', ')})`);
    }
  }
  checkFiniteAttributes(api, name, geometry);
  checkSkinWeights(api, name, geometry);
  if (data.indices !== undefined) {
    const indices = data.indices;
    if (!(indices instanceof Uint16Array) && !(indices instanceof Uint32Array)) {
      throw new MeshDataError(
        api,
        name,
        'indices',
        `expected a Uint16Array or Uint32Array, got ${describeValue(indices)}`,
      );
    }
    if (indices.length === 0 || indices.length % 3 !== 0) {
      throw new MeshDataError(
        api,
        name,
        'indices',
        `length ${indices.length} is not a positive multiple of 3 (triangle list)`,
      );
    }
    for (let i = 0; i < indices.length; i++) {
      if (indices[i] >= vertexCount) {
        throw new MeshDataError(
          api,
          name,
          'indices',
          `indices[${i}] = ${indices[i]} is out of range; the mesh has ${vertexCount} vertices`,
        );
      }
    }
    geometry.indices = indices.slice();
    geometry.triangleCount = indices.length / 3;
  } else {
    if (vertexCount % 3 !== 0) {
      throw new MeshDataError(
        api,
        name,
        positionsField,
        `${vertexCount} vertices without indices is not a triangle list (needs a multiple of 3)`,
      );
    }
    geometry.triangleCount = vertexCount / 3;
  }
  return geometry;
}
