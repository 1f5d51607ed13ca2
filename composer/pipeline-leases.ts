import type { ComposedShader } from './compose-shader.js';
import {
  acquireRenderPipeline,
  acquireRenderPipelineAsync,
  type PipelineLease,
  type RenderPipelineState,
  releaseRenderPipeline,
} from './pipeline-cache.js';

/** @internal A composed shader and the lease its owner holds on the shader's pipeline. */
export interface HeldPipeline {
  readonly composed: ComposedShader;
  readonly lease: PipelineLease;
}

/**
 * The pipelines one owner holds on one device: one lease per owner key, all given back by `disposePipelineLeaseSet`.
 * @internal
 */
export interface PipelineLeaseSet {
  readonly device: GPUDevice;
  readonly held: Map<string, HeldPipeline>;
  disposed: boolean;
}

/** @internal Something that holds one lease set at a time and swaps it on record (a task's draw list). */
export interface PipelineLeaseOwner {
  pipelines: PipelineLeaseSet | null;
}

/** A fixed pipeline state, or one derived from the composed shader (e.g. one target per composed output). */
type PipelineStateFor = RenderPipelineState | ((composed: ComposedShader) => RenderPipelineState);

/** @internal Creates an empty set on `device` (it acquires nothing until asked). */
export function createPipelineLeaseSet(device: GPUDevice): PipelineLeaseSet {
  return { device, held: new Map(), disposed: false };
}

function stateOf(state: PipelineStateFor, composed: ComposedShader): RenderPipelineState {
  return typeof state === 'function' ? state(composed) : state;
}

/**
 * The set's pipeline for `key`. On first use composes and acquires it; a compose or acquire that throws leaves the
 * set and the device caches as they were. Later calls with the same key return the same pipeline without composing.
 * The set must not be disposed (an owner acquires into its live set only).
 * @internal
 */
export function acquirePipelineLease(
  set: PipelineLeaseSet,
  key: string,
  compose: () => ComposedShader,
  state: PipelineStateFor,
): HeldPipeline {
  const known = set.held.get(key);
  if (known) return known;
  const composed = compose();
  const held: HeldPipeline = { composed, lease: acquireRenderPipeline(set.device, composed, stateOf(state, composed)) };
  set.held.set(key, held);
  return held;
}

/**
 * Like `acquirePipelineLease`, with a checked module (ShaderCompileError) and `createRenderPipelineAsync`. When
 * another caller filled the key during the wait, this lease is given back and theirs returned; when the owner disposed
 * the set during the wait, the lease is given back and the result is null.
 * @internal
 */
export async function acquirePipelineLeaseAsync(
  set: PipelineLeaseSet,
  key: string,
  compose: () => ComposedShader,
  state: PipelineStateFor,
): Promise<HeldPipeline | null> {
  const known = set.held.get(key);
  if (known) return known;
  const composed = compose();
  const lease = await acquireRenderPipelineAsync(set.device, composed, stateOf(state, composed));
  const raced = set.disposed ? null : set.held.get(key);
  if (raced !== undefined) {
    releaseRenderPipeline(set.device, lease);
    return raced;
  }
  const held: HeldPipeline = { composed, lease };
  set.held.set(key, held);
  return held;
}

/** @internal Gives back every lease of the set, once; the set then refuses new acquires. Null is a no-op. */
export function disposePipelineLeaseSet(set: PipelineLeaseSet | null): void {
  if (!set || set.disposed) return;
  set.disposed = true;
  for (const { lease } of set.held.values()) releaseRenderPipeline(set.device, lease);
  set.held.clear();
}

/**
 * Record-time swap: `fill` acquires into a new set on `device`; only when it succeeds is the owner's previous set given
 * back, so pipelines and modules both lists use stay alive and nothing recompiles. When `fill` throws, the new set
 * gives back exactly what it acquired and the owner keeps its previous set. Returns what `fill` returned.
 * @internal
 */
export function swapPipelineLeaseSet<T>(
  owner: PipelineLeaseOwner,
  device: GPUDevice,
  fill: (next: PipelineLeaseSet) => T,
): T {
  const next = createPipelineLeaseSet(device);
  let result: T;
  try {
    result = fill(next);
  } catch (error) {
    disposePipelineLeaseSet(next);
    throw error;
  }
  disposePipelineLeaseSet(owner.pipelines);
  owner.pipelines = next;
  return result;
}
