// Times the WebGPU API calls made while it is on, so a bench can split a pick's synchronous JS time into weft's
// own code and the native calls (encoder, pass, queue, buffer methods) that any WebGPU user pays for the same work.

/** Accumulated time (ms) and number of WebGPU method calls since the last reset. */
export interface WebGpuCallTimer {
  ms: number;
  calls: number;
  /** Time (ms) and calls per `Class.method`. */
  byMethod: Map<string, { ms: number; calls: number }>;
  reset(): void;
  dispose(): void;
}

const timedClasses = [
  'GPUDevice',
  'GPUQueue',
  'GPUCommandEncoder',
  'GPURenderPassEncoder',
  'GPUComputePassEncoder',
  'GPUBuffer',
];

/** Wraps every method of the WebGPU classes on globalThis; dispose restores them. Only one may be active. */
export function createWebGpuCallTimer(): WebGpuCallTimer {
  const restores: (() => void)[] = [];
  const timer: WebGpuCallTimer = {
    ms: 0,
    calls: 0,
    byMethod: new Map(),
    reset() {
      timer.byMethod.clear();
      timer.ms = 0;
      timer.calls = 0;
    },
    dispose() {
      for (const restore of restores) restore();
    },
  };
  let depth = 0;
  for (const className of timedClasses) {
    const proto = (globalThis as unknown as Record<string, { prototype: object } | undefined>)[className]?.prototype;
    if (!proto) continue;
    for (const key of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, key);
      if (key === 'constructor' || !descriptor || typeof descriptor.value !== 'function') continue;
      const original = descriptor.value as (...args: unknown[]) => unknown;
      const name = `${className}.${key}`;
      Object.defineProperty(proto, key, {
        ...descriptor,
        value(this: unknown, ...args: unknown[]) {
          // Nested calls (a wrapped method calling another) count once, at the outermost call.
          if (depth > 0) return original.apply(this, args);
          depth++;
          const start = performance.now();
          try {
            return original.apply(this, args);
          } finally {
            const ms = performance.now() - start;
            timer.ms += ms;
            timer.calls++;
            const entry = timer.byMethod.get(name) ?? { ms: 0, calls: 0 };
            entry.ms += ms;
            entry.calls++;
            timer.byMethod.set(name, entry);
            depth--;
          }
        },
      });
      restores.push(() => Object.defineProperty(proto, key, descriptor));
    }
  }
  return timer;
}
