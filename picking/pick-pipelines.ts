import { type ComposedShader, composeShader } from '../composer/compose-shader.js';
import { stableStringify } from '../composer/hash.js';
import type { PipelineLease, RenderPipelineState } from '../composer/pipeline-cache.js';
import { acquirePipelineLease, acquirePipelineLeaseAsync, type HeldPipeline } from '../composer/pipeline-leases.js';
import { type PickShaderDescription, pickShaderSpec, pickShaderVertexBuffers } from './pick-shader.js';
import type { VertexBufferSpec } from '../composer/vertex-layout.js';
import { findVertexAttribute } from '../engine/mesh-data.js';
import type { Mesh } from '../engine/mesh.js';
import { describeMeshShader } from '../engine/mesh-layout.js';
import { deformationVariantKey } from '../engine/mesh-deformation.js';
import { type CheckedRule, checkVertexDataFormat, toRuleError, vertexDataSemantic } from './discard-rules.js';
import type { PickGpu } from './pick-resources.js';

/** A pick pipeline and how the mesh's buffers feed its vertex slots. */
export interface PickPipeline {
  lease: PipelineLease;
  composed: ComposedShader;
  /** Index into [...mesh vertex buffers, instance buffer, vertex-data buffer] per vertex slot. */
  vertexBufferSources: readonly number[];
  /** Which mesh buffer feeds `vertexData` (-1: the zero buffer), when the rule asks for it. */
  vertexDataBuffer: number | null;
  /** Components of that attribute's format (0 for the zero buffer). */
  vertexDataComponents: number;
}

const depthFormat: GPUTextureFormat = 'depth24plus';

function pipelineState(composed: ComposedShader): RenderPipelineState {
  return {
    label: 'weft:pick',
    targets: composed.targets.map((t) => ({ format: t.format! })),
    primitive: { topology: 'triangle-list', cullMode: 'none' },
    depthStencil: { format: depthFormat, depthWriteEnabled: true, depthCompare: 'greater' },
  };
}

/** The vertex-data stream of a rule for one mesh: the attribute's own buffer, or zeros (missing attribute, thin instances). */
function vertexDataSpec(
  api: string,
  checked: CheckedRule,
  mesh: Mesh,
): { spec: VertexBufferSpec; buffer: number; components: number } {
  const semantic = vertexDataSemantic(checked.rule)!;
  const found = mesh.thinInstances ? null : findVertexAttribute(mesh.geometry, semantic);
  if (!found)
    return {
      spec: { arrayStride: 0, attributes: [{ semantic: 'pickVertexData', offset: 0, format: 'float32x4' }] },
      buffer: -1,
      components: 0,
    };
  checkVertexDataFormat(api, checked.rule, mesh, found.attribute.format);
  return {
    spec: {
      arrayStride: found.buffer.arrayStride,
      attributes: [{ semantic: 'pickVertexData', offset: found.attribute.offset, format: found.attribute.format }],
    },
    buffer: mesh.geometry.buffers.indexOf(found.buffer),
    components: found.attribute.format === 'float32' ? 1 : Number(found.attribute.format.slice(-1)),
  };
}

interface PipelineRequest {
  key: string;
  compose: () => ComposedShader;
  vertexDataBuffer: number | null;
  vertexDataComponents: number;
}

/** Describes the pick shader of a mesh in this mode, and which mesh buffer feeds the rule's vertex data (checked here). */
export function describePickShader(
  api: string,
  mesh: Mesh,
  detailed: boolean,
  checked: CheckedRule | null,
): { description: PickShaderDescription; vertexDataBuffer: number | null; vertexDataComponents: number } {
  const data = checked?.rule.vertexData ? vertexDataSpec(api, checked, mesh) : null;
  const rule = checked
    ? {
        wgsl: checked.rule.wgsl,
        worldAdjustWgsl: checked.rule.worldAdjustWgsl,
        storage: checked.bindings,
        vertexData: data?.spec ?? null,
      }
    : null;
  return {
    description: { mesh: describeMeshShader(mesh), detailed, rule },
    vertexDataBuffer: data?.buffer ?? null,
    vertexDataComponents: data?.components ?? 0,
  };
}

function describeRequest(
  gpu: PickGpu,
  api: string,
  mesh: Mesh,
  detailed: boolean,
  checked: CheckedRule | null,
): PipelineRequest {
  const { description, vertexDataBuffer, vertexDataComponents } = describePickShader(api, mesh, detailed, checked);
  const buffers = pickShaderVertexBuffers(description);
  const key = `${detailed ? 'detail' : 'basic'}|${checked?.digest ?? 'no-rule'}|${deformationVariantKey(description.mesh.deformation)}|${stableStringify(buffers)}`;
  const compose = () =>
    composeShader(pickShaderSpec(description, { fragmentLists: gpu.fragmentLists }), gpu.composeCache);
  return { key, compose, vertexDataBuffer, vertexDataComponents };
}

function remember(
  gpu: PickGpu,
  key: string,
  { composed, lease }: HeldPipeline,
  request: PipelineRequest,
): PickPipeline {
  const pipeline: PickPipeline = {
    lease,
    composed,
    vertexBufferSources: composed.vertexBufferSources,
    vertexDataBuffer: request.vertexDataBuffer,
    vertexDataComponents: request.vertexDataComponents,
  };
  gpu.pipelines.set(key, pipeline);
  return pipeline;
}

/** The pipeline for a mesh in this mode, when it is ready (always, without a rule; after `preparePickPipelines` with one). */
export function getPickPipeline(
  gpu: PickGpu,
  api: string,
  mesh: Mesh,
  detailed: boolean,
  checked: CheckedRule | null,
): PickPipeline | null {
  const thin = mesh.thinInstances !== null;
  const mode = `${detailed ? 'detail' : 'basic'}|${checked?.digest ?? ''}`;
  let known = gpu.meshPipelines.get(mesh);
  if (!known || known.thin !== thin) gpu.meshPipelines.set(mesh, (known = { thin, byMode: new Map() }));
  const cached = known.byMode.get(mode);
  if (cached) return cached;
  const request = describeRequest(gpu, api, mesh, detailed, checked);
  let pipeline = gpu.pipelines.get(request.key) ?? null;
  if (!pipeline && !checked) {
    // Weft's own pick variants are validated by the test suite: the synchronous path is safe.
    const held = acquirePipelineLease(gpu.leases, request.key, request.compose, pipelineState);
    pipeline = remember(gpu, request.key, held, request);
  }
  if (pipeline) known.byMode.set(mode, pipeline);
  return pipeline;
}

/**
 * Compiles (checked) the rule pipelines the meshes need and are missing; a rule that fails to compile
 * throws a PickError with its own line and column, and leaves nothing acquired or cached.
 */
export async function preparePickPipelines(
  gpu: PickGpu,
  api: string,
  meshes: readonly Mesh[],
  detailed: boolean,
  checked: CheckedRule,
): Promise<void> {
  const requests = new Map<string, PipelineRequest>();
  for (const mesh of meshes) {
    const request = describeRequest(gpu, api, mesh, detailed, checked);
    if (!gpu.pipelines.has(request.key)) requests.set(request.key, request);
  }
  for (const request of requests.values()) {
    let composed: ComposedShader;
    try {
      composed = request.compose();
    } catch (error) {
      toRuleError(api, checked, error);
    }
    let held: HeldPipeline | null;
    try {
      held = await acquirePipelineLeaseAsync(gpu.leases, request.key, () => composed, pipelineState);
    } catch (error) {
      toRuleError(api, checked, error);
    }
    // Null: the picker was disposed meanwhile; a concurrent pick may have finished first and remembered the entry.
    if (held && !gpu.pipelines.has(request.key)) remember(gpu, request.key, held, request);
  }
}
