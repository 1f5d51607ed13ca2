// Prints the adapter Dawn gives the benchmarks (the one `createEngineAsync` gets: default options) with its features
// and the limits weft reads, and exits 1 unless it matches WEFT_BENCH_ADAPTER, before any benchmark starts.
import { checkAdapterDescription, createBenchGpu, describeAdapter } from '../bench-gpu.js';

const shownLimits = ['maxTextureDimension2D', 'maxColorAttachmentBytesPerSample', 'maxStorageBufferBindingSize'];

async function main(): Promise<void> {
  const adapter = await createBenchGpu().requestAdapter();
  if (!adapter) throw new Error('Dawn found no WebGPU adapter (is a Vulkan driver installed and its ICD visible?)');
  const described = describeAdapter(adapter.info);
  console.log(`adapter: ${described}`);
  console.log(`features: ${[...adapter.features].sort().join(' ')}`);
  const limits = adapter.limits as unknown as Record<string, number>;
  console.log(`limits: ${shownLimits.map((name) => `${name}=${limits[name]}`).join(' ')}`);
  checkAdapterDescription(described);
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
