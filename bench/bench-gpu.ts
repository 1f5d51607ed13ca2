// Dawn for the benchmarks, and a record of which adapter a run measured: a table from the wrong adapter (lavapipe
// where an NVIDIA GPU was meant) is worse than no table.
import { create, globals } from 'webgpu';
import type { Engine } from '../engine/index.js';

/** Dawn's `GPU` for a benchmark, with WebGPU's globals (`GPUBufferUsage` …) installed. */
export function createBenchGpu(): GPU {
  Object.assign(globalThis, globals);
  return create([]);
}

/** One line naming an adapter: vendor, architecture, device and Dawn's description (which holds the driver). */
export function describeAdapter(info: GPUAdapterInfo): string {
  const parts = [info.vendor, info.architecture, info.device, info.description].filter((part) => part);
  return parts.join(' | ') || '(the adapter reports nothing about itself)';
}

/**
 * Prints the adapter the engine's device came from, and throws unless it matches `WEFT_BENCH_ADAPTER` (a
 * case-insensitive pattern) when that variable is set.
 */
export function reportBenchAdapter(engine: Engine): void {
  const adapter = engine.adapter;
  const described = adapter ? describeAdapter(adapter.info) : '(an adopted device: its adapter is unknown)';
  console.log(`adapter: ${described}`);
  checkAdapterDescription(described);
}

/** Throws unless `described` matches `WEFT_BENCH_ADAPTER` (when that variable is set). */
export function checkAdapterDescription(described: string): void {
  const wanted = process.env.WEFT_BENCH_ADAPTER;
  if (wanted && !new RegExp(wanted, 'i').test(described))
    throw new Error(
      `WEFT_BENCH_ADAPTER is /${wanted}/i but Dawn gave the adapter "${described}"; refusing to measure it`,
    );
}
