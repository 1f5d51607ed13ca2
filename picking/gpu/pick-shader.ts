import { type ComposedShader, type ComposeSpec, composeShader } from '../../composer/compose-shader.js';
import type { VertexBufferSpec } from '../../composer/vertex-layout.js';
import type { VertexPullingSpec } from '../../composer/vertex-pulling.js';
import { type StandardComposeOptions, standardVertexLayout } from '../../engine/render/forward-shader.js';
import { reuseFragmentList, type ShaderSpecOptions } from '../../engine/shader-spec-options.js';
import {
  makePickDiscardRuleFragment,
  makePickWorldAdjustFragment,
  type PickRuleStorageBinding,
} from '../../fragments/pick-discard.js';
import { makePickFragments } from '../../fragments/standard-material.js';
import type { PickSubjectShader } from '../sources/pick-source.js';
import { weftPickSource as source } from '../sources/weft-pick-source.js';

/**
 * How the detailed pick pass learns the triangle: the `primitive_index` builtin; or `vertex_index / 3` of a non-indexed
 * draw (no feature), whose indexed meshes either pull their vertices from storage in the vertex stage ('vertex-index')
 * or are drawn from copies de-indexed by a compute pass ('expanded-vertices': no storage in the vertex stage).
 */
export type PickDetailMethod = 'primitive-index' | 'vertex-index' | 'expanded-vertices';

/** @internal Options of the pick variants. */
export interface PickVariant {
  thinInstances: boolean;
  /** Adds the rgba32uint triangle-detail output (location 2). */
  primitiveDetail: boolean;
  /** With `primitiveDetail`: which method writes the triangle (default 'primitive-index', which needs that feature). */
  detailMethod?: PickDetailMethod;
}

/**
 * The compose spec of a pick variant: the standard vertex stage plus the pick-ID outputs (weft's picker uses `pickShaderSpec`).
 * @internal
 */
export function pickSpec(
  variant: PickVariant,
  options: StandardComposeOptions & { vertexPulling?: VertexPullingSpec } = {},
): ComposeSpec {
  return {
    fragments: options.fragments ?? makePickFragments(),
    conditions: {
      ...options.conditions,
      thinInstances: variant.thinInstances,
      primitiveDetail: variant.primitiveDetail,
      ...(variant.primitiveDetail && (variant.detailMethod ?? 'primitive-index') !== 'primitive-index'
        ? { pickTriangleFromVertex: true }
        : {}),
    },
    vertexLayout: options.vertexLayout ?? standardVertexLayout({ thinInstances: variant.thinInstances }),
    deviceFeatures: options.deviceFeatures,
    ...(options.vertexPulling ? { vertexPulling: options.vertexPulling } : {}),
  };
}

/** @internal Composes a pick variant (ID rgba8unorm @0, depth r32float @1, optional primitive detail rgba32uint @2). */
export function composePickShader(variant: PickVariant, options: StandardComposeOptions = {}): ComposedShader {
  return composeShader(pickSpec(variant, options), options.cache);
}

/** A pick discard rule as the pick shader composes it. */
interface PickShaderRule {
  wgsl: string;
  worldAdjustWgsl?: string;
  storage: readonly PickRuleStorageBinding[];
  /** The stream the rule reads as vertex data (the attribute's own buffer, or a zero buffer); null when it reads none. */
  vertexData: VertexBufferSpec | null;
}

/** @internal What the pick pass's shader for one mesh depends on. */
export interface PickShaderDescription {
  mesh: PickSubjectShader;
  /** With the triangle-detail output. */
  detailed: boolean;
  /** How a detailed shader learns the triangle (default 'primitive-index'). */
  method?: PickDetailMethod;
  /** The mesh's index format (null: non-indexed); a 'vertex-index' shader of an indexed mesh pulls its vertices by it. */
  indexFormat?: 'uint16' | 'uint32' | null;
  rule: PickShaderRule | null;
  /**
   * Expanded-vertices detail of a morphed indexed mesh: a last vertex buffer holds each corner's
   * original vertex (uint32), read as `input.vertexIndex` (see `vertexIndexStream`).
   */
  vertexIndexStream?: boolean;
}

/** @internal The buffer of a `vertexIndexStream`: one uint32 per corner, the vertex the corner was copied from. */
export const vertexIndexStreamBuffer: VertexBufferSpec = {
  arrayStride: 4,
  attributes: [{ semantic: 'vertexIndex', offset: 0, format: 'uint32' }],
};

/**
 * The vertex buffers of a pick shader: the mesh's own, its thin-instance buffer, the rule's vertex data, then the
 * original-vertex stream of an expanded morphed mesh.
 * @internal
 */
export function pickShaderVertexBuffers(description: PickShaderDescription): VertexBufferSpec[] {
  const buffers = source.shaderVertexBuffers(description.mesh);
  if (description.rule?.vertexData) buffers.push(description.rule.vertexData);
  if (description.vertexIndexStream) buffers.push(vertexIndexStreamBuffer);
  return buffers;
}

/**
 * The pick pass's shader: the standard vertex stage over the mesh's own buffers, its deformation fragments, the pick-ID
 * outputs and the discard rule, if any. Weft's pick-* and pick-deform-* variants are composed with it.
 * @internal
 */
export function pickShaderSpec(description: PickShaderDescription, options: ShaderSpecOptions = {}): ComposeSpec {
  const { rule } = description;
  const deformation = source.deformationParts(description.mesh.deformation, options.deformationTextures);
  const base = reuseFragmentList(options.fragmentLists, deformation.key, () => [
    ...makePickFragments(),
    ...deformation.fragments,
  ]);
  const ruleFragments = rule
    ? [
        makePickDiscardRuleFragment(rule.wgsl, rule.storage),
        ...(rule.worldAdjustWgsl !== undefined
          ? [makePickWorldAdjustFragment(rule.worldAdjustWgsl, rule.storage)]
          : []),
      ]
    : [];
  // Vertex-index detail of an indexed mesh: a non-indexed draw that pulls its vertices (the pick pass reads no
  // material, so the pulled buffers take the material group). A non-indexed mesh already draws vertex 3t..3t+2, and so
  // does an expanded-vertices one (its vertex buffers de-indexed): both compose as the non-indexed vertex-index shader,
  // the latter with its original-vertex stream when a deformation reads the vertex index.
  const pulled = description.detailed && description.method === 'vertex-index' && !!description.indexFormat;
  return pickSpec(
    {
      thinInstances: description.mesh.thinInstances,
      primitiveDetail: description.detailed,
      detailMethod: description.method,
    },
    {
      ...(pulled ? { vertexPulling: { indexFormat: description.indexFormat!, role: 'material' as const } } : {}),
      fragments: ruleFragments.length ? [...base, ...ruleFragments] : base,
      vertexLayout: { kind: 'buffers', buffers: pickShaderVertexBuffers(description) },
      deviceFeatures: options.deviceFeatures,
      conditions: {
        ...deformation.conditions,
        ...(pulled ? { vertexPulling: true } : {}),
        ...(description.vertexIndexStream ? { vertexIndexAttribute: true } : {}),
        ...(rule
          ? {
              pickDiscard: true,
              pickWorldAdjust: rule.worldAdjustWgsl !== undefined,
              pickVertexData: rule.vertexData !== null,
            }
          : {}),
      },
    },
  );
}
