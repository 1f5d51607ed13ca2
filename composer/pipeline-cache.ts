import type { ComposedShader } from './compose-shader.js';
import { type DeviceCaches, getDeviceCaches, type PipelineEntry } from './device-caches.js';
import { WeftError } from '../core/errors.js';
import { fnv1a64, stableStringify } from './hash.js';
import { recordLivePipeline } from './live-hooks.js';
import {
  acquireCheckedShaderModuleAsync,
  acquireShaderModule,
  releaseShaderModule,
  type ShaderModuleLease,
} from './shader-module-memo.js';

/** The fixed-function state of a render pipeline around a composed shader. */
export interface RenderPipelineState {
  /** One per composed target (location order); required when the shader has a fragment stage with outputs. */
  targets?: readonly GPUColorTargetState[];
  primitive?: GPUPrimitiveState;
  depthStencil?: GPUDepthStencilState;
  multisample?: GPUMultisampleState;
  /** Not part of the key: the first creator's label wins. */
  label?: string;
}

/** One owner's hold on a cached pipeline; give it back with `releaseRenderPipeline`. */
export interface PipelineLease {
  /** The entry's current pipeline: read it when you draw (a live fragment swap replaces it, same layouts). */
  readonly pipeline: GPURenderPipeline;
  readonly layout: GPUPipelineLayout;
  /** Index = @group, ready for `createBindGroup({ layout })`. */
  readonly bindGroupLayouts: readonly GPUBindGroupLayout[];
  readonly key: string;
  released: boolean;
}

function stencilFace(face: GPUStencilFaceState | undefined): GPUStencilFaceState {
  return {
    compare: face?.compare ?? 'always',
    failOp: face?.failOp ?? 'keep',
    depthFailOp: face?.depthFailOp ?? 'keep',
    passOp: face?.passOp ?? 'keep',
  };
}

/** The pipeline state with WebGPU's defaults filled in, so equal pipelines serialise equally. */
function canonicalPipelineState(state: RenderPipelineState): unknown {
  const p = state.primitive ?? {};
  const m = state.multisample ?? {};
  const d = state.depthStencil;
  return {
    primitive: {
      topology: p.topology ?? 'triangle-list',
      stripIndexFormat: p.stripIndexFormat,
      frontFace: p.frontFace ?? 'ccw',
      cullMode: p.cullMode ?? 'none',
      unclippedDepth: p.unclippedDepth ?? false,
    },
    multisample: {
      count: m.count ?? 1,
      mask: m.mask ?? 0xffffffff,
      alphaToCoverageEnabled: m.alphaToCoverageEnabled ?? false,
    },
    depthStencil: d && {
      format: d.format,
      depthWriteEnabled: d.depthWriteEnabled,
      depthCompare: d.depthCompare,
      stencilFront: stencilFace(d.stencilFront),
      stencilBack: stencilFace(d.stencilBack),
      stencilReadMask: d.stencilReadMask ?? 0xffffffff,
      stencilWriteMask: d.stencilWriteMask ?? 0xffffffff,
      depthBias: d.depthBias ?? 0,
      depthBiasSlopeScale: d.depthBiasSlopeScale ?? 0,
      depthBiasClamp: d.depthBiasClamp ?? 0,
    },
    targets: (state.targets ?? []).map((t) => ({ format: t.format, blend: t.blend, writeMask: t.writeMask ?? 0xf })),
  };
}

/**
 * Key of a pipeline: the shader's key (its code, entry points and layouts) plus the canonical pipeline state.
 * @internal
 */
export function renderPipelineKey(composed: ComposedShader, state: RenderPipelineState): string {
  return fnv1a64(stableStringify({ shader: composed.key, state: canonicalPipelineState(state) }));
}

/** @internal The device's bind group layouts for a composed shader (memoised by canonical entries; index = @group). */
export function getBindGroupLayouts(device: GPUDevice, composed: ComposedShader): GPUBindGroupLayout[] {
  const caches = getDeviceCaches(device);
  return composed.bindGroups.map((group) => {
    const key = stableStringify(group.entries);
    let layout = caches.bindGroupLayouts.get(key);
    if (!layout) {
      layout = device.createBindGroupLayout({
        label: `weft:bind-group-layout:${group.role}:${fnv1a64(key)}`,
        entries: group.entries,
      });
      caches.bindGroupLayouts.set(key, layout);
    }
    return layout;
  });
}

function pipelineLayout(
  device: GPUDevice,
  caches: DeviceCaches,
  composed: ComposedShader,
): { layout: GPUPipelineLayout; bindGroupLayouts: GPUBindGroupLayout[] } {
  const bindGroupLayouts = getBindGroupLayouts(device, composed);
  const key = stableStringify(composed.bindGroups.map((g) => g.entries));
  let layout = caches.pipelineLayouts.get(key);
  if (!layout) {
    layout = device.createPipelineLayout({ label: `weft:pipeline-layout:${fnv1a64(key)}`, bindGroupLayouts });
    caches.pipelineLayouts.set(key, layout);
  }
  return { layout, bindGroupLayouts };
}

function checkTargets(api: string, composed: ComposedShader, state: RenderPipelineState): void {
  const targets = state.targets ?? [];
  if (composed.fragmentEntryPoint && targets.length !== composed.targets.length) {
    throw new WeftError(
      api,
      'target-count',
      `state.targets has ${targets.length} target(s) but the shader writes ${composed.targets.length} (${composed.targets.map((t) => `${t.location}: ${t.name}${t.format ? ` ${t.format}` : ''}`).join(', ') || 'none'}); give one GPUColorTargetState per output`,
    );
  }
}

/** @internal The render pipeline descriptor of a composed shader + state with its module and layout. */
export function renderPipelineDescriptor(
  composed: ComposedShader,
  state: RenderPipelineState,
  module: GPUShaderModule,
  layout: GPUPipelineLayout,
  key: string,
): GPURenderPipelineDescriptor {
  const targets = state.targets ?? [];
  return {
    label: state.label ?? `weft:pipeline:${key}`,
    layout,
    vertex: {
      module,
      entryPoint: composed.vertexEntryPoint,
      buffers: composed.vertexBuffers as GPUVertexBufferLayout[],
    },
    ...(composed.fragmentEntryPoint
      ? { fragment: { module, entryPoint: composed.fragmentEntryPoint, targets: [...targets] } }
      : {}),
    ...(state.primitive ? { primitive: state.primitive } : {}),
    ...(state.depthStencil ? { depthStencil: state.depthStencil } : {}),
    ...(state.multisample ? { multisample: state.multisample } : {}),
  };
}

function lease(caches: DeviceCaches, entry: PipelineEntry): PipelineLease {
  entry.refs++;
  const held: PipelineLease = {
    // Follows the entry, so a live fragment swap reaches every holder on its next draw.
    get pipeline() {
      return entry.pipeline;
    },
    layout: entry.layout,
    bindGroupLayouts: entry.bindGroupLayouts,
    key: entry.key,
    released: false,
  };
  caches.leaseEntries.set(held, entry);
  return held;
}

/** Re-raises a device error the composer's own scope captured, so the app's `uncapturederror` handling still sees it. */
function reportUncaptured(device: GPUDevice, error: GPUError): void {
  const EventClass = (globalThis as { GPUUncapturedErrorEvent?: typeof GPUUncapturedErrorEvent })
    .GPUUncapturedErrorEvent;
  if (EventClass && typeof device.dispatchEvent === 'function')
    device.dispatchEvent(new EventClass('uncapturederror', { error }));
  else console.error(`weft: ${error.message}`);
}

/**
 * Wires the validation scope popped after a synchronous creation to its entry: valid → the entry is verified
 * (`check` null); invalid → the entry leaves the cache (the next acquire of the key creates afresh), its holders keep
 * leases that still release, and the device's error is re-raised as an `uncapturederror` event.
 */
function checkSyncEntry(
  device: GPUDevice,
  caches: DeviceCaches,
  entry: PipelineEntry,
  scope: Promise<GPUError | null>,
) {
  entry.check = scope.then(
    (error) => {
      if (!error) {
        entry.check = null;
        return true;
      }
      if (caches.pipelines.get(entry.key) === entry) caches.pipelines.delete(entry.key);
      entry.failure = error.message;
      reportUncaptured(device, error);
      return false;
    },
    // The scope rejects only when the device is gone; nothing is drawn with anything then.
    () => {
      entry.check = null;
      return true;
    },
  );
}

/**
 * The storage buffers a shader binds per stage against the device's per-stage limits, before any layout is made: a
 * compatibility-mode device allows none in the vertex stage by default, and exceeding it invalidates the bind group
 * layouts, so every draw with them would silently draw nothing.
 */
function checkStageStorageLimits(api: string, device: GPUDevice, composed: ComposedShader): void {
  const limits = device.limits as GPUSupportedLimits & {
    maxStorageBuffersInVertexStage?: number;
    maxStorageBuffersInFragmentStage?: number;
  };
  let vertex = 0;
  let fragment = 0;
  for (const group of composed.bindGroups)
    for (const entry of group.entries) {
      const type = entry.buffer?.type;
      if (type !== 'storage' && type !== 'read-only-storage') continue;
      if (entry.visibility & 1) vertex++; // GPUShaderStage.VERTEX
      if (entry.visibility & 2) fragment++; // GPUShaderStage.FRAGMENT
    }
  const stages = [
    ['vertex', vertex, limits.maxStorageBuffersInVertexStage, 'maxStorageBuffersInVertexStage'],
    ['fragment', fragment, limits.maxStorageBuffersInFragmentStage, 'maxStorageBuffersInFragmentStage'],
  ] as const;
  for (const [stage, count, limit, name] of stages)
    if (typeof limit === 'number' && count > limit)
      throw new WeftError(
        api,
        'pipeline-failed',
        `the shader binds ${count} storage buffer(s) in the ${stage} stage but the device's ${name} is ${limit} (a compatibility-mode device has 0 in the vertex stage unless requested through requiredLimits); nothing was created`,
      );
}

/**
 * Null when a lease's pipeline is valid, else the device's validation message. A pipeline made by the synchronous
 * `acquireRenderPipeline` is validated by the device after the call returns: this waits for that verdict (once; later
 * calls answer at once), so a caller that reads results drawn with it can refuse them instead of reading nothing drawn.
 * @internal
 */
export async function pipelineFailureAsync(device: GPUDevice, held: PipelineLease): Promise<string | null> {
  const entry = getDeviceCaches(device).leaseEntries.get(held);
  if (!entry) return null;
  if (entry.check && !(await entry.check)) return entry.failure ?? 'the device refused the pipeline';
  return entry.failure ?? null;
}

/**
 * Acquires the device's pipeline for this shader + state, creating it (and acquiring its module) on first use.
 * Synchronous; a cache hit touches neither the module memo nor the device. WebGPU validates asynchronously, so a new
 * pipeline is created inside a validation scope and cached as unverified: an `acquireRenderPipelineAsync` of the key
 * waits for that check, and an invalid pipeline leaves the cache (the async acquire then creates afresh and rejects
 * with a typed error; never returns the invalid one). The device's error is re-raised as an `uncapturederror` event.
 * @throws {WeftError} when `state.targets` does not give one target per shader output
 */
export function acquireRenderPipeline(
  device: GPUDevice,
  composed: ComposedShader,
  state: RenderPipelineState,
): PipelineLease {
  checkTargets('acquireRenderPipeline', composed, state);
  const caches = getDeviceCaches(device);
  const key = renderPipelineKey(composed, state);
  const existing = caches.pipelines.get(key);
  if (existing) {
    caches.counters.pipelineHits++;
    return lease(caches, existing);
  }
  checkStageStorageLimits('acquireRenderPipeline', device, composed);
  const { layout, bindGroupLayouts } = pipelineLayout(device, caches, composed);
  device.pushErrorScope('validation');
  let module: ShaderModuleLease | null = null;
  let pipeline: GPURenderPipeline;
  try {
    module = acquireShaderModule(device, composed);
    pipeline = device.createRenderPipeline(renderPipelineDescriptor(composed, state, module.module, layout, key));
  } catch (error) {
    // A descriptor the bindings refuse outright (e.g. an unknown enum value): give back the module, close the scope.
    if (module) releaseShaderModule(device, module);
    void device.popErrorScope().catch(() => null);
    throw error;
  }
  const scope = device.popErrorScope();
  const entry: PipelineEntry = { key, pipeline, layout, bindGroupLayouts, refs: 0, moduleLease: module, check: null };
  checkSyncEntry(device, caches, entry, scope);
  caches.pipelines.set(key, entry);
  recordLivePipeline(device, entry, composed, state);
  caches.counters.pipelinesCreated++;
  return lease(caches, entry);
}

/**
 * Like `acquireRenderPipeline`, but checks the module (ShaderCompileError with fragment locations) and creates the
 * pipeline with `createRenderPipelineAsync`; on failure everything acquired is given back.
 * @throws {ShaderCompileError} when the shader does not compile
 * @throws {WeftError} when `state.targets` does not give one target per shader output
 */
export async function acquireRenderPipelineAsync(
  device: GPUDevice,
  composed: ComposedShader,
  state: RenderPipelineState,
): Promise<PipelineLease> {
  checkTargets('acquireRenderPipelineAsync', composed, state);
  const caches = getDeviceCaches(device);
  const key = renderPipelineKey(composed, state);
  for (;;) {
    const existing = caches.pipelines.get(key);
    if (!existing) break;
    if (existing.check) {
      // Made by a sync acquire and not yet checked: wait, then look again (valid → a hit; invalid → it is gone).
      await existing.check;
      continue;
    }
    caches.counters.pipelineHits++;
    return lease(caches, existing);
  }
  const pending = caches.pendingPipelines.get(key);
  if (pending) {
    const entry = await pending;
    caches.counters.pipelineHits++;
    return lease(caches, entry);
  }
  checkStageStorageLimits('acquireRenderPipelineAsync', device, composed);
  const create = (async () => {
    const { layout, bindGroupLayouts } = pipelineLayout(device, caches, composed);
    const module = await acquireCheckedShaderModuleAsync(device, composed, state.label ?? key);
    let pipeline: GPURenderPipeline;
    try {
      pipeline = await device.createRenderPipelineAsync(
        renderPipelineDescriptor(composed, state, module.module, layout, key),
      );
    } catch (error) {
      releaseShaderModule(device, module);
      throw new WeftError(
        'acquireRenderPipelineAsync',
        'pipeline-failed',
        `pipeline ${state.label ?? key} could not be created: ${(error as Error).message}`,
      );
    }
    const entry: PipelineEntry = { key, pipeline, layout, bindGroupLayouts, refs: 0, moduleLease: module, check: null };
    caches.pipelines.set(key, entry);
    recordLivePipeline(device, entry, composed, state);
    caches.counters.pipelinesCreated++;
    return entry;
  })();
  caches.pendingPipelines.set(key, create);
  try {
    return lease(caches, await create);
  } finally {
    caches.pendingPipelines.delete(key);
  }
}

/**
 * Gives back one acquire; the last release drops the pipeline and releases its module.
 * @throws {WeftError} when the lease was already released or is not from this device's cache
 */
export function releaseRenderPipeline(device: GPUDevice, lease: PipelineLease): void {
  if (lease.released)
    throw new WeftError(
      'releaseRenderPipeline',
      'released-twice',
      `pipeline ${lease.key} was already released by this lease; release each acquire once`,
    );
  const caches = getDeviceCaches(device);
  const entry = caches.leaseEntries.get(lease);
  if (!entry || entry.pipeline !== lease.pipeline)
    throw new WeftError(
      'releaseRenderPipeline',
      'unknown-lease',
      `pipeline ${lease.key} is not held on this device; release a lease on the device that acquired it`,
    );
  lease.released = true;
  entry.refs--;
  if (entry.refs === 0) {
    if (caches.pipelines.get(lease.key) === entry) caches.pipelines.delete(lease.key);
    releaseShaderModule(device, entry.moduleLease);
  }
}
