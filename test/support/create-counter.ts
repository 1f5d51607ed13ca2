/** Counts the GPU objects a device creates until `restore()` (command encoders are per-frame by design and not counted). */
export function countDeviceCreates(device: GPUDevice): { count: () => number; restore: () => void } {
  const target = device as unknown as Record<string, (...args: unknown[]) => unknown>;
  const keys = [
    'createBuffer',
    'createTexture',
    'createBindGroup',
    'createShaderModule',
    'createRenderPipeline',
    'createRenderPipelineAsync',
    'createSampler',
    'createBindGroupLayout',
    'createPipelineLayout',
    'createQuerySet',
  ];
  const originals = keys.map((k) => target[k]);
  let creates = 0;
  keys.forEach((k, i) => (target[k] = (...args: unknown[]) => (creates++, originals[i].apply(device, args))));
  return { count: () => creates, restore: () => keys.forEach((k, i) => (target[k] = originals[i])) };
}
