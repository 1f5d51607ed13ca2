import { describe, expect } from 'vitest';
import {
  acquireRenderPipeline,
  acquireRenderPipelineAsync,
  getComposerCounters,
  releaseRenderPipeline,
  WeftError,
} from '../../../index.js';
import { composePickShader } from '../../../picking/gpu/pick-shader.js';
import { composeStandardMaterial } from '../../../engine/render/forward-shader.js';
import { getBindGroupLayouts, renderPipelineKey } from '../../../composer/pipeline-cache.js';
import { gpuTest } from '../../support/gpu.js';
import { forwardState, spyOnDevice } from './composer-gpu-helpers.js';

describe('pipeline cache', () => {
  gpuTest('equal state hits without touching the device; another state shares the module', async ({ engine }) => {
    const { device } = engine;
    const composed = composeStandardMaterial({ normals: true, uvs: false, colors: false, thinInstances: true });
    const spy = spyOnDevice(device);
    const a = acquireRenderPipeline(device, composed, forwardState(composed));
    // Spelled-out defaults serialise like omitted ones.
    const explicit = forwardState(composed, {
      primitive: { topology: 'triangle-list', cullMode: 'back', frontFace: 'ccw', unclippedDepth: false },
      multisample: { count: 1, mask: 0xffffffff, alphaToCoverageEnabled: false },
      targets: [{ format: 'rgba8unorm', writeMask: 0xf }],
    });
    expect(renderPipelineKey(composed, explicit)).toBe(a.key);
    const b = acquireRenderPipeline(device, composed, explicit);
    const c = await acquireRenderPipelineAsync(device, composed, forwardState(composed));
    expect(b.pipeline).toBe(a.pipeline);
    expect(c.pipeline).toBe(a.pipeline);
    expect(spy).toEqual({ modules: 1, pipelines: 1 });
    const culled = acquireRenderPipeline(device, composed, forwardState(composed, { primitive: { cullMode: 'none' } }));
    expect(culled.pipeline).not.toBe(a.pipeline);
    expect(spy).toEqual({ modules: 1, pipelines: 2 });
    expect(getComposerCounters(device)).toEqual({
      modulesCompiled: 1,
      moduleHits: 1,
      liveModules: 1,
      pipelinesCreated: 2,
      pipelineHits: 2,
      livePipelines: 2,
    });
    for (const lease of [a, b, c]) releaseRenderPipeline(device, lease);
    expect(getComposerCounters(device)).toMatchObject({ livePipelines: 1, liveModules: 1 });
    releaseRenderPipeline(device, culled);
    expect(getComposerCounters(device)).toMatchObject({ livePipelines: 0, liveModules: 0 });
    expect(() => releaseRenderPipeline(device, culled)).toThrow(WeftError);
    expect(spy).toEqual({ modules: 1, pipelines: 2 });
  });

  gpuTest('concurrent async acquires of one key create one pipeline', async ({ engine }) => {
    const { device } = engine;
    const composed = composePickShader(
      { thinInstances: true, primitiveDetail: true },
      { deviceFeatures: device.features },
    );
    const spy = spyOnDevice(device);
    const leases = await Promise.all(
      [0, 1, 2].map(() => acquireRenderPipelineAsync(device, composed, forwardState(composed))),
    );
    expect(new Set(leases.map((l) => l.pipeline)).size).toBe(1);
    expect(spy).toEqual({ modules: 1, pipelines: 1 });
    expect(getComposerCounters(device)).toMatchObject({ pipelinesCreated: 1, pipelineHits: 2 });
    for (const lease of leases) releaseRenderPipeline(device, lease);
  });

  gpuTest(
    'variants share bind group layouts for equal groups; a wrong target count is refused before anything is created',
    async ({ engine }) => {
      const { device } = engine;
      const forward = composeStandardMaterial({ normals: false, uvs: false, colors: false, thinInstances: false });
      const pick = composePickShader({ thinInstances: false, primitiveDetail: false });
      const [forwardScene, forwardMesh] = getBindGroupLayouts(device, forward);
      const [pickScene, pickMesh] = getBindGroupLayouts(device, pick);
      expect(pickScene).toBe(forwardScene);
      expect(pickMesh).not.toBe(forwardMesh);
      const before = getComposerCounters(device);
      expect(() => acquireRenderPipeline(device, pick, forwardState(forward))).toThrow(
        'acquireRenderPipeline: state.targets has 1 target(s) but the shader writes 2 (0: pickId rgba8unorm, 1: pickDepth r32float); give one GPUColorTargetState per output',
      );
      expect(getComposerCounters(device)).toEqual(before);
    },
  );
});
