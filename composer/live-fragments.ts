import type { Fragment } from '../fragments/fragment-types.js';
import { WeftError } from '../core/errors.js';
import { type ComposedShader, type ComposeSpec, composeShader, makeComposeCache } from './compose-shader.js';
import { getDeviceCaches, type PipelineEntry } from './device-caches.js';
import { stableStringify } from './hash.js';
import { getLiveRecord, type LiveRecord, latestFragment, startLiveRecord } from './live-hooks.js';
import { renderPipelineDescriptor } from './pipeline-cache.js';
import {
  acquireCheckedShaderModuleAsync,
  acquireShaderModule,
  releaseShaderModule,
  type ShaderModuleLease,
} from './shader-module-memo.js';

const api = 'swapLiveFragmentsAsync';

/** Why `swapLiveFragmentsAsync` refused an edit (nothing was swapped). */
export type LiveFragmentErrorCode = 'not-enabled' | 'layout-changed' | 'pipeline-failed';

/** What `swapLiveFragmentsAsync` did. */
export interface LiveFragmentSwap {
  /** Ids of the live fragments that `replace` replaced (sorted). */
  fragmentIds: string[];
  /** Shaders recomposed: one per distinct composed shader that holds a replaced fragment and changed code. */
  variants: number;
  /** Cached pipelines swapped (a shader drawn with two pipeline states counts twice), on every device. */
  pipelines: number;
  /** Milliseconds from the call to the last pipeline swapped (compose, compile check, pipeline creation). */
  ms: number;
}

/**
 * Starts recording what a live fragment swap needs: the spec of every composed shader and what every cached pipeline
 * was made from, on every device. Call it before composing (a dev server's hot-edit client does, when the first
 * fragment file loads); idempotent. Never call it in production: a page that does not keeps nothing.
 */
export function enableLiveFragments(): void {
  startLiveRecord();
}

/** The fragment layouts a pipeline's owner built its bind groups, buffers and uniform writes from. */
function layoutOf(composed: ComposedShader): string {
  return stableStringify({
    output: composed.output,
    vertexEntryPoint: composed.vertexEntryPoint,
    fragmentEntryPoint: composed.fragmentEntryPoint,
    stageResources: composed.stageResources,
    bindGroups: composed.bindGroups.map((g) => g.entries),
    vertexBuffers: composed.vertexBuffers,
    vertexBufferSources: composed.vertexBufferSources,
    targets: composed.targets,
    features: composed.features,
    bufferLayouts: composed.bufferLayouts,
  });
}

/** One recomposed shader and the live pipelines (of one device) that draw the old one. */
interface Recomposed {
  spec: ComposeSpec;
  composed: ComposedShader;
  entries: PipelineEntry[];
}

/** A new pipeline ready to replace an entry's, with the module lease it holds. */
interface Prepared {
  entry: PipelineEntry;
  pipeline: GPURenderPipeline;
  module: ShaderModuleLease;
  device: GPUDevice;
  recomposed: Recomposed;
}

/** The live pipelines of a device whose spec holds a fragment `replace` replaces, grouped by recomposed shader. */
function recomposeDevice(
  live: LiveRecord,
  device: GPUDevice,
  replace: (fragment: Fragment) => Fragment | undefined,
  replaced: Map<Fragment, Fragment>,
): Recomposed[] {
  // Per device: a recomposed shader's entries are pipelines of this device only.
  const bySpec = new Map<ComposeSpec, Recomposed | null>();
  const found = new Set<Recomposed>();
  const cache = makeComposeCache({ maxResults: 0 });
  for (const entry of getDeviceCaches(device).pipelines.values()) {
    const made = live.pipelines.get(entry);
    const spec = made && live.specs.get(made.composed);
    if (!made || !spec) continue;
    let recomposed = bySpec.get(spec);
    if (recomposed === undefined) {
      let changed = false;
      const fragments = spec.fragments.map((old) => {
        const current = latestFragment(live, old);
        const next = replaced.get(current) ?? replace(current);
        if (!next || next === current) return current;
        replaced.set(current, next);
        changed = true;
        return next;
      });
      recomposed = null;
      if (changed) {
        const nextSpec = { ...spec, fragments };
        const composed = composeShader(nextSpec, cache);
        if (layoutOf(composed) !== layoutOf(made.composed))
          throw new WeftError<LiveFragmentErrorCode>(
            api,
            'layout-changed',
            `the edit changes the bindings, vertex buffers, targets or uniform layouts of shader ${made.composed.key} (fragments ${made.composed.fragments.join(', ')}); its owners built their bind groups for the old ones, so only a reload can apply it`,
          );
        if (composed.code !== made.composed.code) recomposed = { spec: nextSpec, composed, entries: [] };
      }
      bySpec.set(spec, recomposed);
    }
    if (recomposed) {
      recomposed.entries.push(entry);
      found.add(recomposed);
    }
  }
  return [...found];
}

/** Compiles (checked) and creates the new pipelines of one recomposed shader; gives back what it took on failure. */
async function prepareAsync(device: GPUDevice, live: LiveRecord, recomposed: Recomposed): Promise<Prepared[]> {
  const checked = await acquireCheckedShaderModuleAsync(device, recomposed.composed, `live:${recomposed.composed.key}`);
  const prepared: Prepared[] = [];
  try {
    for (const entry of recomposed.entries) {
      const { state } = live.pipelines.get(entry)!;
      const module = acquireShaderModule(device, recomposed.composed);
      const descriptor = renderPipelineDescriptor(recomposed.composed, state, module.module, entry.layout, entry.key);
      try {
        const pipeline = await device.createRenderPipelineAsync(descriptor);
        prepared.push({ entry, module, device, recomposed, pipeline });
      } catch (error) {
        releaseShaderModule(device, module);
        throw new WeftError<LiveFragmentErrorCode>(
          api,
          'pipeline-failed',
          `pipeline ${state.label ?? entry.key} could not be created: ${(error as Error).message}`,
        );
      }
    }
  } catch (error) {
    for (const p of prepared) releaseShaderModule(device, p.module);
    throw error;
  } finally {
    releaseShaderModule(device, checked);
  }
  return prepared;
}

/**
 * Swaps fragments in every live pipeline, on every device, without the owners noticing: `replace` sees each live
 * fragment (the newest version of each) and returns its replacement, or undefined to keep it. Only the shaders that
 * hold a replaced fragment are recomposed; each is compiled in an error scope and its pipelines are created
 * asynchronously; only when all succeed does every cached pipeline entry take its new pipeline (a `PipelineLease`'s
 * `pipeline` follows its entry, so renderers draw the new one on their next frame) and do later composes of a
 * replaced fragment object use its replacement. On any failure nothing changes: the last good pipelines keep drawing.
 * Needs `enableLiveFragments()` before the pipelines were created. Shaders composed as a library (hosts that build
 * their own pipelines) are not swapped.
 * @throws {ComposeError} when a recomposed shader does not compose (a `link-error` carries `messages` at the fragment's line)
 * @throws {ShaderCompileError} when it does not compile (`messages` at the fragment's line)
 * @throws {WeftError} `layout-changed` when the edit changes bindings, vertex buffers, targets or uniform layouts;
 * `not-enabled` without `enableLiveFragments()`
 */
export async function swapLiveFragmentsAsync(
  replace: (fragment: Fragment) => Fragment | undefined,
): Promise<LiveFragmentSwap> {
  const start = performance.now();
  const live = getLiveRecord();
  if (!live)
    throw new WeftError<LiveFragmentErrorCode>(
      api,
      'not-enabled',
      'live fragments are off: call enableLiveFragments() before composing',
    );
  const replaced = new Map<Fragment, Fragment>();
  const work = [...live.devices].map((device) => ({
    device,
    shaders: recomposeDevice(live, device, replace, replaced),
  }));
  const settled = await Promise.allSettled(
    work.flatMap(({ device, shaders }) => shaders.map((shader) => prepareAsync(device, live, shader))),
  );
  const prepared = settled.flatMap((s) => (s.status === 'fulfilled' ? s.value : []));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    for (const p of prepared) releaseShaderModule(p.device, p.module);
    throw failed.reason;
  }
  for (const { entry, pipeline, module, device, recomposed } of prepared) {
    const old = entry.moduleLease;
    entry.pipeline = pipeline;
    entry.moduleLease = module;
    releaseShaderModule(device, old);
    live.pipelines.get(entry)!.composed = recomposed.composed;
    live.specs.set(recomposed.composed, recomposed.spec);
  }
  for (const [old, next] of replaced) live.replaced.set(old, next);
  const variants = new Set(prepared.map((p) => p.recomposed)).size;
  return {
    fragmentIds: [...new Set([...replaced.keys()].map((f) => f.id))].sort(),
    variants,
    pipelines: prepared.length,
    ms: performance.now() - start,
  };
}
