// The expanded-vertices detail path, for devices whose vertex stage reads no storage (WebGPU compatibility mode) and
// that lack primitive-index: an indexed mesh's vertex buffers are de-indexed once by a compute pass (compute shaders
// keep their storage buffers there), then drawn non-indexed through the ordinary vertex-buffer layout, so that corner
// k of triangle t is draw vertex 3t + k and the triangle is vertex_index / 3, exactly as for a non-indexed mesh.
// A host's buffers that cannot be bound as storage are de-indexed on the CPU from the mesh's bytes instead.
import type { PickSubject } from '../sources/pick-source.js';
import { PickError } from '../pick-errors.js';
import { weftPickSource as source } from '../sources/weft-pick-source.js';

/** Storage buffers the copy's compute stage binds: the index buffer, one source vertex buffer, its expanded copy. */
const copyStorageBuffers = 3;
const workgroupSize = 64;

const copyShader = /* wgsl */ `
struct CopyParams { cornerCount: u32, strideWords: u32, uint16Indices: u32, columns: u32 }
@group(0) @binding(0) var<uniform> params: CopyParams;
@group(0) @binding(1) var<storage, read> indices: array<u32>;
@group(0) @binding(2) var<storage, read> source: array<u32>;
@group(0) @binding(3) var<storage, read_write> expanded: array<u32>;

@compute @workgroup_size(${workgroupSize})
fn expandVertices(@builtin(global_invocation_id) id: vec3u) {
  let corner = id.y * params.columns + id.x;
  if (corner >= params.cornerCount) { return; }
  var vertex = 0u;
  if (params.uint16Indices != 0u) {
    let pair = indices[corner / 2u];
    vertex = select(pair & 0xffffu, pair >> 16u, (corner & 1u) == 1u);
  } else {
    vertex = indices[corner];
  }
  for (var w = 0u; w < params.strideWords; w++) {
    expanded[corner * params.strideWords + w] = source[vertex * params.strideWords + w];
  }
}
`;

/**
 * @internal A mesh's de-indexed vertex buffers (one per mesh vertex buffer, 3 × triangles vertices each), plus, for a
 * morphed mesh, each corner's original vertex.
 */
export interface ExpandedVertices {
  /** The copies, in the mesh's vertex-buffer order: bound where the mesh's own buffers would be. */
  readonly vertexBuffers: readonly GPUBuffer[];
  /**
   * One uint32 per corner, the vertex it was copied from (index buffer widened): the original-vertex stream of a
   * morphed mesh, whose deltas are read at that index; null for others.
   */
  readonly vertexIndices: GPUBuffer | null;
  /** Bytes the copies hold together. */
  readonly bytes: number;
  /** What they were copied from: a re-upload or a new geometry makes them stale. */
  readonly from: { geometry: object; vertexBuffers: readonly GPUBuffer[]; indexBuffer: GPUBuffer };
}

/** @internal The expanded copies a picker made, by mesh; freed when their mesh is disposed or re-uploaded. */
export type ExpandedVertexCache = Map<PickSubject, ExpandedVertices>;

/** Bytes the expanded copies of a mesh take: 3 × triangles × the stride of each vertex buffer. */
function expandedVertexBytes(mesh: PickSubject, withVertexIndices: boolean): number {
  const corners = mesh.geometry.indices?.length ?? 0;
  return mesh.geometry.buffers.reduce((sum, b) => sum + corners * b.arrayStride, withVertexIndices ? corners * 4 : 0);
}

/**
 * The original-vertex stream: the index buffer widened to uint32, written from the mesh's CPU indices (a typed-array
 * copy; the index buffer the GPU copy reads holds the same values).
 */
function makeVertexIndexStream(device: GPUDevice, mesh: PickSubject): GPUBuffer {
  const indices = mesh.geometry.indices!;
  const buffer = device.createBuffer({
    label: `weft:pick:expanded:${mesh.name}:vertex-indices`,
    size: Math.max(4, indices.length * 4),
    usage: GPUBufferUsage.VERTEX,
    mappedAtCreation: true,
  });
  new Uint32Array(buffer.getMappedRange(), 0, indices.length).set(indices);
  buffer.unmap();
  return buffer;
}

const allowedMethods =
  "'primitive-index' where the device has that feature, or 'vertex-index' where its vertex stage reads storage";

/**
 * Refuses, before anything is created, a mesh the expanded-vertices path cannot copy on this device: too few compute
 * storage buffers or invocations, a buffer past `maxStorageBufferBindingSize` / `maxBufferSize`, or a dispatch past
 * `maxComputeWorkgroupsPerDimension`.
 * @throws {PickError} `limit-exceeded`, naming the mesh, the limit and what is allowed
 * @internal
 */
export function checkExpandedVertexLimits(api: string, device: GPUDevice, mesh: PickSubject): void {
  const limits = device.limits;
  const refuse = (code: 'limit-exceeded', what: string, fix: string): never => {
    throw new PickError(
      api,
      code,
      `mesh "${mesh.name}": expanded-vertices detail ${what}; ${fix}, or use ${allowedMethods}`,
    );
  };
  if (limits.maxStorageBuffersPerShaderStage < copyStorageBuffers)
    refuse(
      'limit-exceeded',
      `copies with ${copyStorageBuffers} storage buffers in a compute shader but the device's maxStorageBuffersPerShaderStage is ${limits.maxStorageBuffersPerShaderStage}`,
      `use a device with at least ${copyStorageBuffers}`,
    );
  if (limits.maxComputeInvocationsPerWorkgroup < workgroupSize || limits.maxComputeWorkgroupSizeX < workgroupSize)
    refuse(
      'limit-exceeded',
      `copies in workgroups of ${workgroupSize} but the device's maxComputeInvocationsPerWorkgroup is ${limits.maxComputeInvocationsPerWorkgroup} and maxComputeWorkgroupSizeX ${limits.maxComputeWorkgroupSizeX}`,
      `use a device with at least ${workgroupSize}`,
    );
  const indices = mesh.geometry.indices!;
  const bindingLimit = limits.maxStorageBufferBindingSize;
  const copyLimit = Math.min(bindingLimit, limits.maxBufferSize);
  const sizes: [string, number, number, string][] = [
    ['index buffer', Math.ceil(indices.byteLength / 4) * 4, bindingLimit, 'maxStorageBufferBindingSize'],
  ];
  mesh.geometry.buffers.forEach((b, i) => {
    sizes.push([
      `vertex buffer ${i}`,
      Math.ceil(b.bytes.byteLength / 4) * 4,
      bindingLimit,
      'maxStorageBufferBindingSize',
    ]);
    const limitName = copyLimit === bindingLimit ? 'maxStorageBufferBindingSize' : 'maxBufferSize';
    sizes.push([`expanded copy of vertex buffer ${i}`, indices.length * b.arrayStride, copyLimit, limitName]);
  });
  for (const [what, bytes, limit, name] of sizes)
    if (bytes > limit)
      refuse(
        'limit-exceeded',
        `needs its ${what} of ${bytes} bytes as storage, over the device's ${name} ${limit}`,
        `keep it at most ${limit} bytes (split the mesh or request a higher limit with requiredLimits)`,
      );
  const groups = Math.ceil(indices.length / workgroupSize);
  const maxGroups = limits.maxComputeWorkgroupsPerDimension;
  if (Math.ceil(groups / Math.min(groups, maxGroups)) > maxGroups)
    refuse(
      'limit-exceeded',
      `copies ${indices.length} corners in ${groups} workgroups, more than maxComputeWorkgroupsPerDimension² (${maxGroups}²)`,
      'split the mesh',
    );
}

/**
 * Refuses, before the pipeline is made, a composed expanded-vertices shader whose original-vertex stream (the extra
 * per-vertex buffer a morphed mesh needs) does not fit the device's vertex buffers or attributes.
 * @throws {PickError} `limit-exceeded`, naming the mesh, the limit and what is allowed
 * @internal
 */
export function checkVertexStreamLimits(
  api: string,
  device: GPUDevice,
  mesh: PickSubject,
  composed: { readonly vertexBuffers: readonly GPUVertexBufferLayout[] },
): void {
  const { maxVertexBuffers, maxVertexAttributes } = device.limits;
  const buffers = composed.vertexBuffers.length;
  // Compatibility mode counts the vertex_index and instance_index builtins (both in VertexInput) as attributes.
  const builtins = device.features.has('core-features-and-limits') ? 0 : 2;
  const attributes = composed.vertexBuffers.reduce((n, b) => n + [...b.attributes].length, builtins);
  const counts: [string, number, string, number][] = [
    ['vertex buffers', buffers, 'maxVertexBuffers', maxVertexBuffers],
    [
      `vertex attributes${builtins ? ' (2 of them the vertex_index and instance_index builtins, as compatibility mode counts them)' : ''}`,
      attributes,
      'maxVertexAttributes',
      maxVertexAttributes,
    ],
  ];
  for (const [what, count, name, limit] of counts)
    if (count > limit)
      throw new PickError(
        api,
        'limit-exceeded',
        `mesh "${mesh.name}": expanded-vertices detail of a morphed mesh draws ${count} ${what} (its own plus one holding each corner's original vertex) but the device's ${name} is ${limit}; use at most ${limit} (interleave the mesh's vertex buffers, request a higher limit with requiredLimits, or pick it without detail or with ${allowedMethods})`,
      );
}

/** The copy's pipeline on one device (made on first use). */
interface CopyPipeline {
  pipeline: GPUComputePipeline;
  layout: GPUBindGroupLayout;
}

let pipelines: WeakMap<GPUDevice, CopyPipeline> | undefined;

function copyPipelineOf(device: GPUDevice): CopyPipeline {
  pipelines ??= new WeakMap();
  let known = pipelines.get(device);
  if (!known) {
    const storage = (type: GPUBufferBindingType, binding: number): GPUBindGroupLayoutEntry => ({
      binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type },
    });
    const layout = device.createBindGroupLayout({
      label: 'weft:pick:expand-vertices',
      entries: [
        storage('uniform', 0),
        storage('read-only-storage', 1),
        storage('read-only-storage', 2),
        storage('storage', 3),
      ],
    });
    const module = device.createShaderModule({ label: 'weft:pick:expand-vertices', code: copyShader });
    const pipeline = device.createComputePipeline({
      label: 'weft:pick:expand-vertices',
      layout: device.createPipelineLayout({ label: 'weft:pick:expand-vertices', bindGroupLayouts: [layout] }),
      compute: { module, entryPoint: 'expandVertices' },
    });
    pipelines.set(device, (known = { pipeline, layout }));
  }
  return known;
}

function isCurrent(entry: ExpandedVertices, mesh: PickSubject): boolean {
  const gpu = source.gpuBuffers(mesh);
  const from = entry.from;
  return (
    from.geometry === mesh.geometry &&
    (entry.vertexIndices !== null) === source.readsVertexIndex(mesh) &&
    from.indexBuffer === gpu.indexBuffer &&
    from.vertexBuffers.length === gpu.vertexBuffers.length &&
    from.vertexBuffers.every((b, i) => b === gpu.vertexBuffers[i])
  );
}

/** Whether the copy can read the mesh's GPU buffers as storage (a host's may lack STORAGE usage or 4-byte sizes). */
function readableAsStorage(mesh: PickSubject): boolean {
  const gpu = source.gpuBuffers(mesh);
  return [gpu.indexBuffer!, ...gpu.vertexBuffers].every(
    (buffer) => (buffer.usage & source.storageUsage) !== 0 && buffer.size % 4 === 0,
  );
}

/**
 * The copies made on the CPU from the mesh's own bytes, for host buffers the compute pass cannot bind (the CPU data
 * must equal the host buffers' contents: see `MeshOptions.hostBuffers`).
 */
function expandOnCpu(device: GPUDevice, mesh: PickSubject): GPUBuffer[] {
  const indices = mesh.geometry.indices!;
  return mesh.geometry.buffers.map((layout, i) => {
    const stride = layout.arrayStride;
    const buffer = device.createBuffer({
      label: `weft:pick:expanded:${mesh.name}:vertices${i}`,
      size: Math.max(4, indices.length * stride),
      usage: GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE,
      mappedAtCreation: true,
    });
    const out = new Uint8Array(buffer.getMappedRange());
    for (let corner = 0; corner < indices.length; corner++) {
      const from = indices[corner] * stride;
      out.set(layout.bytes.subarray(from, from + stride), corner * stride);
    }
    buffer.unmap();
    return buffer;
  });
}

function destroyExpanded(entry: ExpandedVertices): void {
  for (const buffer of entry.vertexBuffers) buffer.destroy();
  entry.vertexIndices?.destroy();
}

/**
 * The expanded copies of an indexed mesh's vertex buffers, made (and submitted, so they are ready before any pass
 * submitted after) on first use or after a re-upload. `checkExpandedVertexLimits` must have passed for the mesh.
 * @internal
 */
export function ensureExpandedVertices(
  cache: ExpandedVertexCache,
  device: GPUDevice,
  mesh: PickSubject,
): ExpandedVertices {
  const known = cache.get(mesh);
  if (known && isCurrent(known, mesh)) return known;
  if (known) destroyExpanded(known);
  cache.delete(mesh);
  const gpu = source.gpuBuffers(mesh);
  const vertexBuffers = readableAsStorage(mesh) ? expandOnGpu(device, mesh) : expandOnCpu(device, mesh);
  const withVertexIndices = source.readsVertexIndex(mesh);
  const entry: ExpandedVertices = {
    vertexBuffers,
    vertexIndices: withVertexIndices ? makeVertexIndexStream(device, mesh) : null,
    bytes: expandedVertexBytes(mesh, withVertexIndices),
    from: { geometry: mesh.geometry, vertexBuffers: [...gpu.vertexBuffers], indexBuffer: gpu.indexBuffer! },
  };
  cache.set(mesh, entry);
  return entry;
}

/** The copies made by the compute pass, submitted now (so ready for any pass submitted after). */
function expandOnGpu(device: GPUDevice, mesh: PickSubject): GPUBuffer[] {
  const gpu = source.gpuBuffers(mesh);
  const indices = mesh.geometry.indices!;
  const corners = indices.length;
  const { pipeline, layout } = copyPipelineOf(device);
  const groups = Math.ceil(corners / workgroupSize);
  const columns = Math.min(groups, device.limits.maxComputeWorkgroupsPerDimension);
  const rows = Math.ceil(groups / columns);
  const encoder = device.createCommandEncoder({ label: `weft:pick:expand-vertices:${mesh.name}` });
  const pass = encoder.beginComputePass({ label: `weft:pick:expand-vertices:${mesh.name}` });
  pass.setPipeline(pipeline);
  const params: GPUBuffer[] = [];
  const vertexBuffers = mesh.geometry.buffers.map((layoutOf, i) => {
    const bytes = corners * layoutOf.arrayStride;
    const expanded = device.createBuffer({
      label: `weft:pick:expanded:${mesh.name}:vertices${i}`,
      size: Math.max(4, bytes),
      usage: GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE,
    });
    const param = device.createBuffer({
      label: `weft:pick:expand-vertices:${mesh.name}:params${i}`,
      size: 16,
      usage: GPUBufferUsage.UNIFORM,
      mappedAtCreation: true,
    });
    new Uint32Array(param.getMappedRange()).set([
      corners,
      layoutOf.arrayStride / 4,
      indices instanceof Uint16Array ? 1 : 0,
      columns * workgroupSize,
    ]);
    param.unmap();
    params.push(param);
    pass.setBindGroup(
      0,
      device.createBindGroup({
        label: `weft:pick:expand-vertices:${mesh.name}:${i}`,
        layout,
        entries: [
          { binding: 0, resource: { buffer: param } },
          { binding: 1, resource: { buffer: gpu.indexBuffer! } },
          { binding: 2, resource: { buffer: gpu.vertexBuffers[i] } },
          { binding: 3, resource: { buffer: expanded } },
        ],
      }),
    );
    pass.dispatchWorkgroups(columns, rows);
    return expanded;
  });
  pass.end();
  device.queue.submit([encoder.finish()]);
  // Destroying after the submit frees them once the copy has run.
  for (const param of params) param.destroy();
  return vertexBuffers;
}

/**
 * Frees the copies of meshes disposed since, or whose buffers were replaced (called once per pick; O(copies)).
 * @internal
 */
export function pruneExpandedVertices(cache: ExpandedVertexCache): void {
  for (const [mesh, entry] of cache)
    if (mesh.disposed || !source.hasGpuBuffers(mesh) || !isCurrent(entry, mesh)) {
      destroyExpanded(entry);
      cache.delete(mesh);
    }
}

/** @internal Frees every copy (the picker's GPU state is disposed). */
export function disposeExpandedVertices(cache: ExpandedVertexCache): void {
  for (const entry of cache.values()) destroyExpanded(entry);
  cache.clear();
}
