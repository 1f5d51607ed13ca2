import { compilationMessagesAsync, createShaderModuleScoped } from './compile-errors.js';
import type { ComposedSourceMap } from './compose-shader.js';
import { getDeviceCaches, type ModuleEntry } from './device-caches.js';
import { WeftError } from '../core/errors.js';
import { ShaderCompileError } from './errors.js';
import { fnv1a64 } from './hash.js';

/** What a shader module is made from: a ComposedShader, or plain WGSL `{ code }`. */
export interface ShaderSource {
  code: string;
  sourceMap?: ComposedSourceMap;
}

/** One owner's hold on a memoised module; give it back with `releaseShaderModule`. */
export interface ShaderModuleLease {
  readonly module: GPUShaderModule;
  /** FNV-1a 64 of the code: the module's key in pipeline keys. */
  readonly key: string;
  readonly code: string;
  released: boolean;
}

function lease(entry: ModuleEntry): ShaderModuleLease {
  return { module: entry.module, key: entry.key, code: entry.code, released: false };
}

/**
 * Acquires the device's module for this exact code, creating it on first use (synchronous; a compile error
 * surfaces as an ordinary device validation error). Every acquire needs one `releaseShaderModule`.
 */
export function acquireShaderModule(device: GPUDevice, shader: ShaderSource): ShaderModuleLease {
  const caches = getDeviceCaches(device);
  let entry = caches.modules.get(shader.code);
  if (entry) {
    caches.counters.moduleHits++;
  } else {
    const key = fnv1a64(shader.code);
    entry = {
      code: shader.code,
      key,
      module: device.createShaderModule({ label: `weft:shader:${key}`, code: shader.code }),
      refs: 0,
      check: null,
      sourceMap: shader.sourceMap,
    };
    caches.modules.set(shader.code, entry);
    caches.counters.modulesCompiled++;
  }
  entry.refs++;
  return lease(entry);
}

/**
 * Acquires the module and waits for the device's compilation result. On a compile error it gives back exactly
 * what it acquired (its reference and its hit; the last holder of a failed module removes the entry and its count)
 * and throws ShaderCompileError with messages located in the fragments' sources. Leaves no device error.
 * @throws {ShaderCompileError} when the device reports a compile error (mapped to the fragment, line and column)
 */
export async function acquireCheckedShaderModuleAsync(
  device: GPUDevice,
  shader: ShaderSource,
  label = 'composed shader',
): Promise<ShaderModuleLease> {
  const caches = getDeviceCaches(device);
  let entry = caches.modules.get(shader.code);
  const created = !entry;
  if (entry) {
    caches.counters.moduleHits++;
    entry.check ??= compilationMessagesAsync(entry.module, entry.code, entry.sourceMap ?? shader.sourceMap);
  } else {
    const key = fnv1a64(shader.code);
    const { module, scope } = createShaderModuleScoped(device, shader.code, `weft:shader:${key}`);
    // Concurrent acquirers of the same code find this entry and wait on the same check.
    entry = {
      code: shader.code,
      key,
      module,
      refs: 0,
      check: compilationMessagesAsync(module, shader.code, shader.sourceMap, scope),
      sourceMap: shader.sourceMap,
    };
    caches.modules.set(shader.code, entry);
    caches.counters.modulesCompiled++;
  }
  entry.refs++;
  const messages = await entry.check!;
  if (messages.some((m) => m.type === 'error')) {
    entry.refs--;
    if (!created) caches.counters.moduleHits--;
    // The last checked holder of a failed module also takes back its creation: the memo is as it was.
    if (entry.refs === 0 && caches.modules.get(entry.code) === entry) {
      caches.modules.delete(entry.code);
      caches.counters.modulesCompiled--;
    }
    throw new ShaderCompileError('acquireCheckedShaderModuleAsync', label, messages);
  }
  return lease(entry);
}

/**
 * Gives back one acquire. Never compiles or creates; the last release drops the module from the memo.
 * @throws {WeftError} when the lease was already released or its module is unknown to this device
 */
export function releaseShaderModule(device: GPUDevice, lease: ShaderModuleLease): void {
  if (lease.released)
    throw new WeftError(
      'releaseShaderModule',
      'released-twice',
      `module ${lease.key} was already released by this lease; release each acquire once`,
    );
  const caches = getDeviceCaches(device);
  const entry = caches.modules.get(lease.code);
  if (!entry || entry.module !== lease.module)
    throw new WeftError(
      'releaseShaderModule',
      'unknown-lease',
      `module ${lease.key} is not held on this device; release a lease on the device that acquired it`,
    );
  lease.released = true;
  entry.refs--;
  if (entry.refs === 0) caches.modules.delete(lease.code);
}
