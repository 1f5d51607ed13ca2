// A mesh drawn from GPU buffers its host engine owns (three.js, Babylon.js, plain WebGPU): weft binds them where they
// live and never writes, resizes or destroys them. The checks run before any pass sees the buffers, so a buffer too
// small or made without the usage a pass needs is a typed error naming it, not a validation error on the device.
import { describeValue } from '../core/errors.js';
import { MeshDataError } from './engine-errors.js';
import type { MeshGeometry } from './mesh-data.js';

/**
 * GPU buffers a host already holds for a mesh: one per vertex buffer of the mesh's data (in the data's order: the
 * tight arrays in `createMeshFromData`'s order, or the `interleaved` list), the index buffer when the data has
 * indices, and optionally the thin-instance matrices (16 float32 each, column-major). Each must hold exactly the bytes
 * of the CPU data the mesh was made from; the host keeps both in step (change the data: make a new mesh or call
 * `setMeshHostBuffers`).
 */
export interface MeshHostBuffers {
  /** One per vertex buffer of the data; `null` where the host has none fit to bind (weft uploads its own copy of it). */
  vertexBuffers: readonly (GPUBuffer | null)[];
  /** The index buffer when the data has indices; `null` (given, not left out): weft uploads its own copy. */
  indexBuffer?: GPUBuffer | null;
  /** The thin instances' matrices, kept current by the host (weft uploads nothing); null: weft uploads its own copy. */
  instanceBuffer?: GPUBuffer | null;
}

const vertexUsage = 0x20; // GPUBufferUsage.VERTEX (the globals may be absent where the checks run)
const indexUsage = 0x10; // GPUBufferUsage.INDEX
/** @internal GPUBufferUsage.STORAGE: the vertex-index pick detail path reads a mesh's buffers as storage. */
export const hostStorageUsage = 0x80;

function isGpuBuffer(value: unknown): value is GPUBuffer {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as GPUBuffer).size === 'number' &&
    typeof (value as GPUBuffer).usage === 'number' &&
    typeof (value as GPUBuffer).destroy === 'function'
  );
}

function checkBuffer(
  api: string,
  name: string,
  field: string,
  value: unknown,
  bytes: number,
  usage: number,
  usageName: string,
): GPUBuffer {
  if (!isGpuBuffer(value))
    throw new MeshDataError(api, name, field, `expected a GPUBuffer, got ${describeValue(value)}`);
  if ((value.usage & usage) === 0)
    throw new MeshDataError(
      api,
      name,
      field,
      `buffer ${describeValue(value.label || '(no label)')} was made without GPUBufferUsage.${usageName}; weft draws from it, so its usage must include ${usageName}`,
    );
  if (value.size < bytes)
    throw new MeshDataError(
      api,
      name,
      field,
      `buffer ${describeValue(value.label || '(no label)')} holds ${value.size} bytes; the mesh data needs ${bytes}`,
    );
  return value;
}

/**
 * Checks host buffers against the mesh's geometry and thin-instance count; returns a frozen copy.
 * @throws {MeshDataError} naming the buffer: not a GPUBuffer, a missing usage, too small, or a count that differs
 * @internal
 */
export function checkMeshHostBuffers(
  api: string,
  name: string,
  geometry: MeshGeometry,
  thinInstanceCount: number,
  value: unknown,
): Readonly<MeshHostBuffers> {
  if (value === null || typeof value !== 'object' || !Array.isArray((value as MeshHostBuffers).vertexBuffers))
    throw new MeshDataError(
      api,
      name,
      'hostBuffers',
      `expected { vertexBuffers: GPUBuffer[], indexBuffer?, instanceBuffer? }, got ${describeValue(value)}`,
    );
  const given = value as MeshHostBuffers;
  for (const key of Object.keys(given))
    if (key !== 'vertexBuffers' && key !== 'indexBuffer' && key !== 'instanceBuffer')
      throw new MeshDataError(
        api,
        name,
        `hostBuffers.${key}`,
        'is not an option; allowed: vertexBuffers, indexBuffer, instanceBuffer',
      );
  if (given.vertexBuffers.length !== geometry.buffers.length)
    throw new MeshDataError(
      api,
      name,
      'hostBuffers.vertexBuffers',
      `holds ${given.vertexBuffers.length} buffers; the mesh data has ${geometry.buffers.length} (one per vertex buffer, in the data's order)`,
    );
  const vertexBuffers = given.vertexBuffers.map((buffer, i) =>
    buffer === null
      ? null
      : checkBuffer(
          api,
          name,
          `hostBuffers.vertexBuffers[${i}]`,
          buffer,
          geometry.buffers[i].bytes.byteLength,
          vertexUsage,
          'VERTEX',
        ),
  );
  const indices = geometry.indices;
  if (!indices && given.indexBuffer)
    throw new MeshDataError(api, name, 'hostBuffers.indexBuffer', 'is given but the mesh data has no indices');
  if (indices && given.indexBuffer === undefined)
    throw new MeshDataError(
      api,
      name,
      'hostBuffers.indexBuffer',
      "is missing: the mesh data has indices (give the host's index buffer, or null for a copy weft uploads)",
    );
  const indexBuffer =
    indices && given.indexBuffer !== null
      ? checkBuffer(api, name, 'hostBuffers.indexBuffer', given.indexBuffer, indices.byteLength, indexUsage, 'INDEX')
      : null;
  let instanceBuffer: GPUBuffer | null = null;
  if (given.instanceBuffer != null) {
    if (thinInstanceCount === 0)
      throw new MeshDataError(api, name, 'hostBuffers.instanceBuffer', 'is given but the mesh has no thin instances');
    instanceBuffer = checkBuffer(
      api,
      name,
      'hostBuffers.instanceBuffer',
      given.instanceBuffer,
      thinInstanceCount * 64,
      vertexUsage,
      'VERTEX',
    );
  }
  return Object.freeze({ vertexBuffers: Object.freeze(vertexBuffers), indexBuffer, instanceBuffer });
}
