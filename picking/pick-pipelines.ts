import type { ComposedShader } from '../composer/compose-shader.js';
import { stableStringify } from '../composer/hash.js';
import {
  acquireRenderPipeline,
  acquireRenderPipelineAsync,
  type PipelineLease,
  releaseRenderPipeline,
  type RenderPipelineState,
} from '../composer/pipeline-cache.js';
import { composePickShader } from './pick-variants.js';
import type { VertexBufferSpec } from '../composer/vertex-layout.js';
import { findVertexAttribute } from '../engine/mesh-data.js';
import type { Mesh } from '../engine/mesh.js';
import { meshVertexLayout } from '../engine/mesh-layout.js';
import { deformationComposeParts, meshDeformationVariant } from '../engine/mesh-deformation.js';
import { createPickDiscardRuleFragment, createPickWorldAdjustFragment } from '../fragments/pick-discard.js';
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

function describeRequest(
  gpu: PickGpu,
  api: string,
  mesh: Mesh,
  detailed: boolean,
  checked: CheckedRule | null,
): PipelineRequest {
  const buffers = meshVertexLayout(mesh);
  const thinInstances = mesh.thinInstances !== null;
  let vertexDataBuffer: number | null = null;
  let vertexDataComponents = 0;
  if (checked?.rule.vertexData) {
    const data = vertexDataSpec(api, checked, mesh);
    buffers.push(data.spec);
    vertexDataBuffer = data.buffer;
    vertexDataComponents = data.components;
  }
  const deformation = deformationComposeParts(meshDeformationVariant(mesh));
  const key = `${detailed ? 'detail' : 'basic'}|${checked?.digest ?? 'no-rule'}|${deformation.key}|${stableStringify(buffers)}`;
  const compose = () => {
    const extra = checked
      ? [
          createPickDiscardRuleFragment(checked.rule.wgsl, checked.bindings),
          ...(checked.rule.worldAdjustWgsl !== undefined
            ? [createPickWorldAdjustFragment(checked.rule.worldAdjustWgsl, checked.bindings)]
            : []),
        ]
      : [];
    const fragments =
      extra.length || deformation.fragments.length
        ? [...gpu.fragments, ...deformation.fragments, ...extra]
        : gpu.fragments;
    return composePickShader(
      { thinInstances, primitiveDetail: detailed },
      {
        cache: gpu.composeCache,
        fragments,
        vertexLayout: { kind: 'buffers', buffers },
        conditions: {
          ...deformation.conditions,
          ...(checked
            ? {
                pickDiscard: true,
                pickWorldAdjust: checked.rule.worldAdjustWgsl !== undefined,
                pickVertexData: checked.rule.vertexData !== undefined,
              }
            : {}),
        },
      },
    );
  };
  return { key, compose, vertexDataBuffer, vertexDataComponents };
}

function remember(
  gpu: PickGpu,
  key: string,
  composed: ComposedShader,
  lease: PipelineLease,
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
    const composed = request.compose();
    pipeline = remember(
      gpu,
      request.key,
      composed,
      acquireRenderPipeline(gpu.device, composed, pipelineState(composed)),
      request,
    );
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
    let lease: PipelineLease;
    try {
      lease = await acquireRenderPipelineAsync(gpu.device, composed, pipelineState(composed));
    } catch (error) {
      toRuleError(api, checked, error);
    }
    if (gpu.pipelines.has(request.key)) {
      releaseRenderPipeline(gpu.device, lease); // a concurrent pick finished first and holds the entry
      continue;
    }
    remember(gpu, request.key, composed, lease, request);
  }
}
