// The vertex-index detail path's GPU side: the limits a pulled pick shader needs, checked before the GPU sees them, and
// the bind group that exposes a mesh's own index and vertex buffers as read-only storage (no copies).
import type { ComposedShader } from '../../composer/compose-shader.js';
import type { PickSubject, PickSubjectBuffers } from '../sources/pick-source.js';
import { PickError } from '../pick-errors.js';
import { weftPickSource as source } from '../sources/weft-pick-source.js';

const pulledPrefix = 'pulledVertices';

function isPulled(name: string): boolean {
  return name === 'pulledIndices' || name.startsWith(pulledPrefix);
}

/** Storage bindings the vertex stage of `composed` reads (pulled buffers, morph targets, VAT playback, rule storage). */
function vertexStorageBindingCount(composed: ComposedShader): number {
  let count = 0;
  for (const group of composed.bindGroups)
    for (const entry of group.entries)
      if (
        entry.buffer?.type !== undefined &&
        entry.buffer.type !== 'uniform' &&
        entry.visibility & GPUShaderStage.VERTEX
      )
        count++;
  return count;
}

/**
 * Refuses a pulled pick shader the device cannot run: more vertex-stage storage buffers than
 * `maxStorageBuffersPerShaderStage` (a compose-time fact of the variant; checked before its pipeline is created).
 * @internal
 */
export function checkVertexPullLimits(
  api: string,
  device: GPUDevice,
  mesh: PickSubject,
  composed: ComposedShader,
): void {
  if (!composed.bindGroups.some((g) => g.bindings.some((b) => isPulled(b.name)))) return;
  const count = vertexStorageBindingCount(composed);
  // Compatibility-mode devices also cap the vertex stage alone (absent elsewhere: the per-stage limit applies).
  const limits = device.limits as GPUSupportedLimits & { maxStorageBuffersInVertexStage?: number };
  const perStage = limits.maxStorageBuffersPerShaderStage;
  const vertexOnly = limits.maxStorageBuffersInVertexStage;
  const [name, limit] =
    vertexOnly !== undefined && vertexOnly < perStage
      ? ['maxStorageBuffersInVertexStage', vertexOnly]
      : ['maxStorageBuffersPerShaderStage', perStage];
  if (count > limit)
    throw new PickError(
      api,
      'limit-exceeded',
      `mesh "${mesh.name}": vertex-index detail reads ${count} storage buffers in the vertex stage (index and vertex buffers, deformation, rule storage) but the device's ${name} is ${limit}; use at most ${limit} (interleave the vertex buffers, request a higher limit with requiredLimits, or use method 'primitive-index' where the device has it)`,
    );
}

/**
 * Refuses a mesh whose index or vertex buffer is larger than `maxStorageBufferBindingSize` (the pulled path binds the
 * whole buffer as storage). Called per mesh before its first pulled draw.
 * @internal
 */
export function checkPulledBufferSizes(api: string, device: GPUDevice, mesh: PickSubject): void {
  const limit = device.limits.maxStorageBufferBindingSize;
  const geometry = mesh.geometry;
  const sizes = [
    ...(geometry.indices ? [['index buffer', geometry.indices.byteLength] as const] : []),
    ...geometry.buffers.map((b, i) => [`vertex buffer ${i}`, b.bytes.byteLength] as const),
  ];
  const host = source.hostBuffers(mesh);
  if (host) {
    const buffers: [string, GPUBuffer][] = host.indexBuffer ? [['index buffer', host.indexBuffer]] : [];
    host.vertexBuffers.forEach((buffer, i) => {
      if (buffer) buffers.push([`vertex buffer ${i}`, buffer]);
    });
    for (const [what, buffer] of buffers)
      if ((buffer.usage & source.storageUsage) === 0 || buffer.size % 4 !== 0)
        throw new PickError(
          api,
          'unsupported',
          `mesh "${mesh.name}": the host's ${what} (${buffer.label || 'no label'}, ${buffer.size} bytes) ${buffer.size % 4 !== 0 ? 'is not a multiple of 4 bytes' : 'was made without GPUBufferUsage.STORAGE'}, so vertex-index detail cannot read it as storage; give the host's buffers STORAGE usage and a size that is a multiple of 4, or use method 'primitive-index' where the device has it`,
        );
  }
  for (const [what, bytes] of sizes) {
    const padded = Math.ceil(bytes / 4) * 4;
    if (padded > limit)
      throw new PickError(
        api,
        'limit-exceeded',
        `mesh "${mesh.name}": its ${what} holds ${padded} bytes, over the device's maxStorageBufferBindingSize ${limit}, so vertex-index detail cannot read it; use at most ${limit} bytes (split the mesh, request a higher limit with requiredLimits, or use method 'primitive-index' where the device has it)`,
      );
  }
}

let groupsByOwner: WeakMap<object, WeakMap<PickSubjectBuffers, Map<GPUBindGroupLayout, GPUBindGroup>>> | undefined;

/**
 * The bind group of a pulled pick shader's storage bindings: `pulledIndices` is the mesh's index buffer and
 * `pulledVertices<i>` its vertex buffer i (the mesh buffers carry STORAGE usage and are padded to 4 bytes); any other
 * source (the rule's zero vertex-data stream) comes from `sources` too. Cached per owner (the picker's GPU state, whose
 * zero buffer it may hold) and mesh buffer set, so a re-upload makes a new one.
 * @internal
 */
export function pulledBufferGroup(
  owner: object,
  device: GPUDevice,
  mesh: PickSubject,
  layout: GPUBindGroupLayout,
  bindings: readonly { name: string; binding: number }[],
  sources: readonly GPUBuffer[],
): GPUBindGroup {
  const gpu = source.gpuBuffers(mesh);
  groupsByOwner ??= new WeakMap();
  let byMesh = groupsByOwner.get(owner);
  if (!byMesh) groupsByOwner.set(owner, (byMesh = new WeakMap()));
  let groups = byMesh.get(gpu);
  if (!groups) byMesh.set(gpu, (groups = new Map()));
  let group = groups.get(layout);
  if (!group) {
    group = device.createBindGroup({
      label: `weft:pick:pulled:${mesh.name}`,
      layout,
      entries: bindings.map((b) => ({
        binding: b.binding,
        resource: {
          buffer: b.name === 'pulledIndices' ? gpu.indexBuffer! : sources[Number(b.name.slice(pulledPrefix.length))],
        },
      })),
    });
    groups.set(layout, group);
  }
  return group;
}

/** @internal Whether a bind group of a composed pick shader holds the pulled buffers. */
export function isPulledGroup(bindings: readonly { name: string }[]): boolean {
  return bindings.length > 0 && bindings.every((b) => isPulled(b.name));
}
