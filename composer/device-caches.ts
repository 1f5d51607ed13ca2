import type { ComposedSourceMap } from './compose-shader.js';
import type { MappedShaderMessage } from './errors.js';
import type { ShaderModuleLease } from './shader-module-memo.js';

/** @internal A memoised shader module: one per exact code per device. */
export interface ModuleEntry {
  code: string;
  key: string;
  module: GPUShaderModule;
  refs: number;
  /** The device's mapped diagnostics, fetched once, on the first checked acquire. */
  check: Promise<MappedShaderMessage[]> | null;
  sourceMap: ComposedSourceMap | undefined;
}

/** @internal A cached render pipeline with the module lease it holds. */
export interface PipelineEntry {
  key: string;
  pipeline: GPURenderPipeline;
  layout: GPUPipelineLayout;
  bindGroupLayouts: GPUBindGroupLayout[];
  refs: number;
  moduleLease: ShaderModuleLease;
  /**
   * For a pipeline made by the synchronous `acquireRenderPipeline`: the pending result of the validation scope
   * around its creation (true = valid). Null once known valid (async creations are checked before caching). A
   * failed check removes the entry from `pipelines`; leases held on it still release through `leaseEntries`.
   */
  check: Promise<boolean> | null;
  /** The device's validation message when the check failed. */
  failure?: string;
}

/** What the composer's GPU caches count on one device (tests and benchmarks read these). */
export interface ComposerCounters {
  modulesCompiled: number;
  moduleHits: number;
  liveModules: number;
  pipelinesCreated: number;
  pipelineHits: number;
  livePipelines: number;
}

/** @internal The composer's caches of one device. */
export interface DeviceCaches {
  modules: Map<string, ModuleEntry>;
  pipelines: Map<string, PipelineEntry>;
  /** Pending async pipeline creations, joined by concurrent acquirers of the same key. */
  pendingPipelines: Map<string, Promise<PipelineEntry>>;
  /** Bind group and pipeline layouts by canonical entries; few and small, kept for the device's life. */
  bindGroupLayouts: Map<string, GPUBindGroupLayout>;
  pipelineLayouts: Map<string, GPUPipelineLayout>;
  /** The entry each pipeline lease was taken on (the map may by then hold another entry for the key, or none). */
  leaseEntries: WeakMap<object, PipelineEntry>;
  counters: Omit<ComposerCounters, 'liveModules' | 'livePipelines'>;
}

let cachesByDevice: WeakMap<GPUDevice, DeviceCaches> | undefined;

/** @internal The composer's caches for a device, created on first use (nothing is allocated at import). */
export function getDeviceCaches(device: GPUDevice): DeviceCaches {
  cachesByDevice ??= new WeakMap();
  let caches = cachesByDevice.get(device);
  if (!caches) {
    caches = {
      modules: new Map(),
      pipelines: new Map(),
      pendingPipelines: new Map(),
      bindGroupLayouts: new Map(),
      pipelineLayouts: new Map(),
      leaseEntries: new WeakMap(),
      counters: { modulesCompiled: 0, moduleHits: 0, pipelinesCreated: 0, pipelineHits: 0 },
    };
    cachesByDevice.set(device, caches);
  }
  return caches;
}

/** A snapshot of the composer's counters for a device (all zero for a device never used). */
export function getComposerCounters(device: GPUDevice): ComposerCounters {
  const caches = cachesByDevice?.get(device);
  if (!caches)
    return {
      modulesCompiled: 0,
      moduleHits: 0,
      liveModules: 0,
      pipelinesCreated: 0,
      pipelineHits: 0,
      livePipelines: 0,
    };
  return { ...caches.counters, liveModules: caches.modules.size, livePipelines: caches.pipelines.size };
}
