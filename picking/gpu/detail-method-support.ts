// Which triangle-detail methods a device can run, judged from its features and limits before anything is drawn.
import type { PickDetailMethod } from './pick-shader.js';

/** Storage buffers the vertex stage of a pulled draw binds at least: the index buffer and one vertex buffer. */
const pulledVertexStorage = 2;
/** Storage buffers the expanded-vertices copy binds in its compute stage (index, source, copy). */
const expandedComputeStorage = 3;
/** The copy's workgroup size (expanded-vertices.ts). */
const expandedWorkgroupSize = 64;

/** @internal Why a method cannot run on a device: the feature or limit it lacks, as a sentence; null when it can. */
export function detailMethodShortfall(
  method: PickDetailMethod,
  device: GPUDevice,
  features: ReadonlySet<string>,
): string | null {
  const limits = device.limits as GPUSupportedLimits & { maxStorageBuffersInVertexStage?: number };
  if (method === 'primitive-index')
    return features.has('primitive-index') ? null : 'needs the device feature primitive-index, which this device lacks';
  if (method === 'vertex-index') {
    // Compatibility-mode devices cap the vertex stage alone (0 by default); elsewhere the per-stage limit applies.
    const [name, limit] =
      limits.maxStorageBuffersInVertexStage !== undefined
        ? [
            'maxStorageBuffersInVertexStage',
            Math.min(limits.maxStorageBuffersInVertexStage, limits.maxStorageBuffersPerShaderStage),
          ]
        : ['maxStorageBuffersPerShaderStage', limits.maxStorageBuffersPerShaderStage];
    return limit >= pulledVertexStorage
      ? null
      : `reads at least ${pulledVertexStorage} storage buffers in the vertex stage, but the device's ${name} is ${limit}`;
  }
  if (limits.maxStorageBuffersPerShaderStage < expandedComputeStorage)
    return `copies with ${expandedComputeStorage} storage buffers in a compute shader, but the device's maxStorageBuffersPerShaderStage is ${limits.maxStorageBuffersPerShaderStage}`;
  if (limits.maxComputeInvocationsPerWorkgroup < expandedWorkgroupSize)
    return `copies in workgroups of ${expandedWorkgroupSize}, but the device's maxComputeInvocationsPerWorkgroup is ${limits.maxComputeInvocationsPerWorkgroup}`;
  return null;
}

/** @internal The methods in the order 'auto' prefers them: the cheapest first. */
export const detailMethodPreference: readonly PickDetailMethod[] = [
  'primitive-index',
  'vertex-index',
  'expanded-vertices',
];

/** @internal The methods a device can run, in `detailMethodPreference` order. */
export function supportedDetailMethods(device: GPUDevice, features: ReadonlySet<string>): PickDetailMethod[] {
  return detailMethodPreference.filter((method) => detailMethodShortfall(method, device, features) === null);
}
