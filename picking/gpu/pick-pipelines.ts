import { type ComposedShader, composeShader } from '../../composer/compose-shader.js';
import { ComposeError } from '../../composer/errors.js';
import { stableStringify } from '../../composer/hash.js';
import type { RenderPipelineState } from '../../composer/pipeline-cache.js';
import { acquirePipelineLease, acquirePipelineLeaseAsync, type HeldPipeline } from '../../composer/pipeline-leases.js';
import { pipelineFailureAsync, releaseRenderPipeline } from '../../composer/pipeline-cache.js';
import { PickError } from '../pick-errors.js';
import {
  type PickDetailMethod,
  type PickShaderDescription,
  pickShaderSpec,
  pickShaderVertexBuffers,
} from './pick-shader.js';
import { checkPulledBufferSizes, checkVertexPullLimits } from './vertex-pull-binding.js';
import { checkExpandedVertexLimits, checkVertexStreamLimits } from './expanded-vertices.js';
import { vertexPullingFragmentId } from '../../composer/vertex-pulling.js';
import type { VertexBufferSpec } from '../../composer/vertex-layout.js';
import type { PickSubject } from '../sources/pick-source.js';
import { weftPickSource as source } from '../sources/weft-pick-source.js';
import { type CheckedRule, checkVertexDataFormat, toRuleError, vertexDataSemantic } from '../discard-rules.js';
import { type PickGpu, type PickPipeline, releaseRuleStorage } from './pick-resources.js';

const depthFormat: GPUTextureFormat = 'depth24plus';

/**
 * The face culling of a pick draw: the material's cull mode (or none) and the front face its matrix's sign gives.
 * @internal
 */
export interface PickRaster {
  cullMode: GPUCullMode;
  frontFace: GPUFrontFace;
}

/** The raster state of a pick without culling (the default of callers that do not draw a mesh). */
const pickRasterNone: PickRaster = { cullMode: 'none', frontFace: 'ccw' };

function rasterKey(raster: PickRaster): string {
  // Without culling the front face changes nothing the pick shader reads: one pipeline serves both.
  return raster.cullMode === 'none' ? 'cull-none' : `cull-${raster.cullMode}-${raster.frontFace}`;
}

function pipelineStateFor(raster: PickRaster): (composed: ComposedShader) => RenderPipelineState {
  const frontFace = raster.cullMode === 'none' ? 'ccw' : raster.frontFace;
  return (composed) => ({
    label: 'weft:pick',
    targets: composed.targets.map((t) => ({ format: t.format! })),
    primitive: { topology: 'triangle-list', cullMode: raster.cullMode, frontFace },
    depthStencil: { format: depthFormat, depthWriteEnabled: true, depthCompare: 'greater' },
  });
}

/** The vertex-data stream of a rule for one mesh: the attribute's own buffer, or zeros (missing attribute, thin instances). */
function vertexDataSpec(
  api: string,
  checked: CheckedRule,
  mesh: PickSubject,
): { spec: VertexBufferSpec; buffer: number; components: number } {
  const semantic = vertexDataSemantic(checked.rule)!;
  const found = mesh.thinInstances ? null : source.findAttribute(mesh.geometry, semantic);
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
  raster: PickRaster;
  /** The rule's digest (null without a rule). */
  digest: string | null;
  compose: () => ComposedShader;
  vertexDataBuffer: number | null;
  vertexDataComponents: number;
  /** Expanded-vertices detail of an indexed mesh: drawn non-indexed from its de-indexed copies. */
  expanded: boolean;
  /** With `expanded`: a last vertex buffer holds each corner's original vertex (morph deltas are read at it). */
  vertexIndexStream: boolean;
}

/** Checks, before any GPU object is made, what a detail method needs of this mesh beyond its pipeline. */
function checkDetailMethodNeeds(
  api: string,
  device: GPUDevice,
  mesh: PickSubject,
  detailed: boolean,
  method: PickDetailMethod,
): void {
  if (!detailed || !mesh.geometry.indices) return;
  if (method === 'vertex-index') checkPulledBufferSizes(api, device, mesh);
  else if (method === 'expanded-vertices') checkExpandedVertexLimits(api, device, mesh);
}

/**
 * Describes the pick shader of a mesh in this mode, and which mesh buffer feeds the rule's vertex data (checked here).
 * @internal
 */
export function describePickShader(
  api: string,
  mesh: PickSubject,
  detailed: boolean,
  checked: CheckedRule | null,
  method: PickDetailMethod = 'primitive-index',
  asInstances = false,
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
    description: {
      mesh: asInstances ? { ...source.describeShader(mesh), thinInstances: true } : source.describeShader(mesh),
      detailed,
      rule,
      method,
      indexFormat: mesh.geometry.indices ? (mesh.geometry.indices instanceof Uint16Array ? 'uint16' : 'uint32') : null,
      ...(detailed && method === 'expanded-vertices' && mesh.geometry.indices && source.readsVertexIndex(mesh)
        ? { vertexIndexStream: true }
        : {}),
    },
    vertexDataBuffer: data?.buffer ?? null,
    vertexDataComponents: data?.components ?? 0,
  };
}

let ruleFreeModes: Map<string, string>[] | null = null;

/**
 * The mode key of a pipeline without a rule, kept once made (a warm pick looks its mesh's pipeline up by it without
 * building the string again): the same string as `${modeOf}||${rasterKey}`.
 */
function ruleFreeMode(detailed: boolean, method: PickDetailMethod, raster: PickRaster): string {
  ruleFreeModes ??= [new Map(), new Map(), new Map(), new Map(), new Map(), new Map()];
  const byRaster =
    ruleFreeModes[(detailed ? 3 : 0) + (raster.cullMode === 'none' ? 0 : raster.frontFace === 'cw' ? 2 : 1)];
  const key = detailed ? `${method}|${raster.cullMode}` : raster.cullMode;
  let mode = byRaster.get(key);
  if (mode === undefined) byRaster.set(key, (mode = `${modeOf(detailed, method)}||${rasterKey(raster)}`));
  return mode;
}

function modeOf(detailed: boolean, method: PickDetailMethod): string {
  return detailed ? `detail:${method}` : 'basic';
}

function describeRequest(
  gpu: PickGpu,
  api: string,
  mesh: PickSubject,
  detailed: boolean,
  checked: CheckedRule | null,
  raster: PickRaster,
  method: PickDetailMethod,
  asInstances = false,
): PipelineRequest {
  const { description, vertexDataBuffer, vertexDataComponents } = describePickShader(
    api,
    mesh,
    detailed,
    checked,
    method,
    asInstances,
  );
  const buffers = pickShaderVertexBuffers(description);
  const key = `${modeOf(detailed, method)}|${description.indexFormat}|${checked?.digest ?? 'no-rule'}|${source.deformationKey(description.mesh.deformation)}|${stableStringify(buffers)}|${rasterKey(raster)}`;
  const compose = () => {
    const composed = composeShader(
      pickShaderSpec(description, {
        fragmentLists: gpu.fragmentLists,
        deformationTextures: source.deformationInTextures(gpu.device),
      }),
      gpu.composeCache,
    );
    checkVertexPullLimits(api, gpu.device, mesh, composed);
    if (description.vertexIndexStream) checkVertexStreamLimits(api, gpu.device, mesh, composed);
    return composed;
  };
  const expanded = detailed && method === 'expanded-vertices' && description.indexFormat !== null;
  return {
    key,
    raster,
    compose,
    vertexDataBuffer,
    vertexDataComponents,
    digest: checked?.digest ?? null,
    expanded,
    vertexIndexStream: description.vertexIndexStream === true,
  };
}

function remember(
  gpu: PickGpu,
  key: string,
  { composed, lease }: HeldPipeline,
  request: PipelineRequest,
  unverified = false,
): PickPipeline {
  const pipeline: PickPipeline = {
    key,
    lease,
    composed,
    vertexBufferSources: composed.vertexBufferSources,
    pulled: composed.fragments.includes(vertexPullingFragmentId),
    expanded: request.expanded,
    vertexIndexStream: request.vertexIndexStream,
    vertexDataBuffer: request.vertexDataBuffer,
    vertexDataComponents: request.vertexDataComponents,
  };
  gpu.pipelines.set(key, pipeline);
  if (unverified) gpu.unverified.add(pipeline);
  if (request.digest) {
    const keys = ruleCacheOf(gpu).keys;
    const known = keys.get(request.digest);
    if (known) known.add(key);
    else keys.set(request.digest, new Set([key]));
  }
  return pipeline;
}

/**
 * The pipeline for a mesh in this mode, when it is ready (always, without a rule; after `preparePickPipelines` with one).
 * @internal
 */
export function getPickPipeline(
  gpu: PickGpu,
  api: string,
  mesh: PickSubject,
  detailed: boolean,
  checked: CheckedRule | null,
  raster: PickRaster = pickRasterNone,
  method: PickDetailMethod = 'primitive-index',
): PickPipeline | null {
  const thin = mesh.thinInstances !== null;
  const mode = checked
    ? `${modeOf(detailed, method)}|${checked.digest}|${rasterKey(raster)}`
    : ruleFreeMode(detailed, method, raster);
  let known = gpu.meshPipelines.get(mesh);
  if (!known || known.thin !== thin) gpu.meshPipelines.set(mesh, (known = { thin, byMode: new Map() }));
  const cached = known.byMode.get(mode);
  if (cached && !cached.released) return cached;
  checkDetailMethodNeeds(api, gpu.device, mesh, detailed, method);
  const request = describeRequest(gpu, api, mesh, detailed, checked, raster, method);
  let pipeline = gpu.pipelines.get(request.key) ?? null;
  if (!pipeline && !checked) {
    // Weft's own pick variants are validated by the test suite: the synchronous path is safe.
    const held = acquirePipelineLease(gpu.leases, request.key, request.compose, pipelineStateFor(raster));
    pipeline = remember(gpu, request.key, held, request, true);
  }
  if (pipeline) {
    known.byMode.set(mode, pipeline);
    if (checked) {
      const cache = ruleCacheOf(gpu);
      const holders = cache.modes.get(checked.digest);
      if (holders) holders.add(known.byMode);
      else cache.modes.set(checked.digest, new Set([known.byMode]));
    }
  }
  return pipeline;
}

/**
 * The basic pick pipeline (no rule, no detail) of a mesh drawn as the instances of a marquee batch: its own vertex
 * buffers plus the thin-instance buffer, which holds the members' world matrices. Null when the device cannot take
 * the extra buffer and attributes, or the page's precomposed shaders lack the variant (`registerMeshVariants`
 * registers it as `<name>-pick-batched`); the members are then drawn one by one.
 * @internal
 */
export function getBatchPickPipeline(
  gpu: PickGpu,
  api: string,
  mesh: PickSubject,
  raster: PickRaster,
): PickPipeline | null {
  const mode = `batch|${rasterKey(raster)}`;
  let known = gpu.meshPipelines.get(mesh);
  if (known?.thin !== false) gpu.meshPipelines.set(mesh, (known = { thin: false, byMode: new Map() }));
  const cached = known.byMode.get(mode);
  if (cached !== undefined && !cached?.released) return cached;
  const request = describeRequest(gpu, api, mesh, false, null, raster, 'primitive-index', true);
  const { maxVertexBuffers, maxVertexAttributes } = gpu.device.limits;
  const buffers = mesh.geometry.buffers.length + 1;
  // The instance matrix's 4 columns, and on a compatibility device the vertex_index / instance_index builtins, which
  // it counts as attributes (at most 2: counting both only ever sends a boundary mesh to one-by-one draws).
  const builtins = gpu.device.features.has('core-features-and-limits') ? 0 : 2;
  const attributes = mesh.geometry.buffers.reduce((n, b) => n + b.attributes.length, 0) + 4 + builtins;
  let pipeline = gpu.pipelines.get(request.key) ?? null;
  if (!pipeline && buffers <= maxVertexBuffers && attributes <= maxVertexAttributes) {
    try {
      pipeline = remember(
        gpu,
        request.key,
        acquirePipelineLease(gpu.leases, request.key, request.compose, pipelineStateFor(raster)),
        request,
        true,
      );
    } catch (error) {
      if (!(error instanceof ComposeError && error.code === 'not-precomposed')) throw error;
    }
  }
  known.byMode.set(mode, pipeline);
  return pipeline;
}

/**
 * Waits once for the device's verdict on a pipeline the synchronous acquire made (the first pick that draws it). A
 * pipeline the device refused (a compatibility-mode device's restrictions, a limit the checks did not foresee) would
 * draw nothing, and its pick would read "nothing here": it is dropped from the picker's caches and the pick refused.
 * @throws {PickError} `unsupported` naming the device's message
 * @internal
 */
export async function confirmPickPipelineAsync(gpu: PickGpu, api: string, pipeline: PickPipeline): Promise<void> {
  const failure = await pipelineFailureAsync(gpu.device, pipeline.lease);
  gpu.unverified.delete(pipeline);
  if (!failure) return;
  // Forgotten and given back, so the next pick that needs it creates it afresh (and is refused again, or drawn).
  pipeline.released = true;
  if (gpu.pipelines.get(pipeline.key) === pipeline) gpu.pipelines.delete(pipeline.key);
  const held = gpu.leases.held.get(pipeline.key);
  if (held?.lease === pipeline.lease && !gpu.leases.disposed) {
    gpu.leases.held.delete(pipeline.key);
    releaseRenderPipeline(gpu.device, held.lease);
  }
  throw new PickError(
    api,
    'unsupported',
    `the device refused the pick pipeline, so this pick cannot be answered on it (nothing it drew can be read): ${failure.split('\n')[0]}`,
  );
}

/**
 * Compiles (checked) the rule pipelines the meshes need and are missing; a rule that fails to compile
 * throws a PickError with its own line and column, and leaves nothing acquired or cached.
 * @internal
 */
export async function preparePickPipelines(
  gpu: PickGpu,
  api: string,
  draws: readonly { mesh: PickSubject; raster: PickRaster }[],
  detailed: boolean,
  checked: CheckedRule,
  method: PickDetailMethod = 'primitive-index',
): Promise<void> {
  const requests = new Map<string, PipelineRequest>();
  for (const { mesh, raster } of draws) {
    checkDetailMethodNeeds(api, gpu.device, mesh, detailed, method);
    const request = describeRequest(gpu, api, mesh, detailed, checked, raster, method);
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
      held = await acquirePipelineLeaseAsync(gpu.leases, request.key, () => composed, pipelineStateFor(request.raster));
    } catch (error) {
      toRuleError(api, checked, error);
    }
    // Null: the picker was disposed meanwhile; a concurrent pick may have finished first and remembered the entry.
    if (held && !gpu.pipelines.has(request.key)) remember(gpu, request.key, held, request);
  }
}

/**
 * Rule texts whose pipelines stay compiled after they stop being used: a text replaced under its key (live editing)
 * and used by no pick in flight is kept among the last `retainedRuleTexts` such texts, then its pipelines (and, once
 * no one else holds them, their shader modules) are released. A text current under some key is never released.
 * @internal
 */
export const retainedRuleTexts = 4;

/** Per picker GPU state: which rule text is current under each key, which are in use, and what each holds. */
interface RuleCache {
  /** Rule key → digest of its latest text. */
  current: Map<string, string>;
  /** Digest → picks in flight using it. */
  uses: Map<string, number>;
  /** Digest → its pipeline keys in `gpu.pipelines` and `gpu.leases`. */
  keys: Map<string, Set<string>>;
  /** Digest → the per-mesh mode maps that cache its pipelines. */
  modes: Map<string, Set<Map<string, PickPipeline | null>>>;
  /** Unused, non-current digests still compiled, oldest first (at most `retainedRuleTexts`). */
  retired: string[];
}

let ruleCaches: WeakMap<PickGpu, RuleCache> | undefined;

function ruleCacheOf(gpu: PickGpu): RuleCache {
  ruleCaches ??= new WeakMap();
  let cache = ruleCaches.get(gpu);
  if (!cache) {
    cache = { current: new Map(), uses: new Map(), keys: new Map(), modes: new Map(), retired: [] };
    ruleCaches.set(gpu, cache);
  }
  return cache;
}

function isCurrent(cache: RuleCache, digest: string): boolean {
  for (const d of cache.current.values()) if (d === digest) return true;
  return false;
}

/** Gives back the leases of a digest's pipelines and forgets them (a later pick with that text compiles again). */
function releaseDigest(gpu: PickGpu, cache: RuleCache, digest: string): void {
  for (const key of cache.keys.get(digest) ?? []) {
    const pipeline = gpu.pipelines.get(key);
    if (pipeline) pipeline.released = true;
    gpu.pipelines.delete(key);
    const held = gpu.leases.held.get(key);
    if (held && !gpu.leases.disposed) {
      gpu.leases.held.delete(key);
      releaseRenderPipeline(gpu.device, held.lease);
    }
  }
  for (const byMode of cache.modes.get(digest) ?? [])
    for (const [mode, pipeline] of byMode) if (pipeline?.released) byMode.delete(mode);
  cache.keys.delete(digest);
  cache.modes.delete(digest);
  cache.uses.delete(digest);
  releaseRuleStorage(gpu, digest);
}

/** Retires a digest no pick uses and no key holds; releases the oldest retired past `retainedRuleTexts`. */
function retireIfUnused(gpu: PickGpu, cache: RuleCache, digest: string): void {
  if ((cache.uses.get(digest) ?? 0) > 0 || isCurrent(cache, digest)) return;
  if (!cache.retired.includes(digest)) cache.retired.push(digest);
  while (cache.retired.length > retainedRuleTexts) {
    const oldest = cache.retired.shift()!;
    if ((cache.uses.get(oldest) ?? 0) === 0 && !isCurrent(cache, oldest)) releaseDigest(gpu, cache, oldest);
  }
}

/**
 * Marks a pick's rule text as current under its key and in use until the returned function is called (once the pick
 * is answered or failed). The text it replaces under that key is retired once no pick in flight uses it.
 * @internal
 */
export function useRulePipelines(gpu: PickGpu, checked: CheckedRule): () => void {
  const cache = ruleCacheOf(gpu);
  const { digest } = checked;
  const previous = cache.current.get(checked.rule.key);
  cache.current.set(checked.rule.key, digest);
  cache.uses.set(digest, (cache.uses.get(digest) ?? 0) + 1);
  const at = cache.retired.indexOf(digest);
  if (at >= 0) cache.retired.splice(at, 1);
  if (previous !== undefined && previous !== digest) retireIfUnused(gpu, cache, previous);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    cache.uses.set(digest, (cache.uses.get(digest) ?? 1) - 1);
    retireIfUnused(gpu, cache, digest);
  };
}
