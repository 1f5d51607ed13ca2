import { describe, expect, test } from 'vitest';
import {
  acquireRenderPipeline,
  acquireRenderPipelineAsync,
  getComposerCounters,
  type RenderPipelineState,
  releaseRenderPipeline,
  WeftError,
} from '../../../composer/index.js';
import { pipelineFailureAsync } from '../../../composer/pipeline-cache.js';
import { composeStandardMaterial } from '../../../engine/render/forward-shader.js';
import { getNodeGpu } from '../../support/gpu.js';
import { forwardState } from './composer-gpu-helpers.js';

// Issue #16 finding 10: a sync acquire of an invalid state must not leave an invalid pipeline in the cache that a
// later async acquire returns without error. Runs on its own device: the invalid state is made on purpose, and the
// device's error must come out as an uncaptured error (counted here), not vanish.
describe('pipeline cache: invalid pipelines are never served as valid', () => {
  test('a sync acquire of an invalid state is checked: the async acquire rejects, nothing stays cached, the error is reported', async () => {
    const adapter = await getNodeGpu().requestAdapter();
    if (!adapter) throw new Error('No WebGPU adapter from Dawn; GPU tests fail rather than skip');
    const device = await adapter.requestDevice({ label: 'pipeline-cache-invalid-test' });
    const uncaptured: string[] = [];
    device.addEventListener('uncapturederror', (event) =>
      uncaptured.push((event as GPUUncapturedErrorEvent).error.message),
    );
    try {
      const composed = composeStandardMaterial({ normals: true, uvs: false, colors: false, thinInstances: false });
      // A colour format as the depth attachment: createRenderPipeline fails validation.
      const bad: RenderPipelineState = forwardState(composed, {
        depthStencil: { format: 'rgba8unorm', depthWriteEnabled: true, depthCompare: 'greater' },
      });
      const good = forwardState(composed);

      const syncLease = acquireRenderPipeline(device, composed, bad);
      // A holder that reads what was drawn can ask for the device's verdict instead of reading an empty target.
      expect(await pipelineFailureAsync(device, syncLease)).toMatch(/depth|format/i);
      const asyncResult = await acquireRenderPipelineAsync(device, composed, bad).then(
        (lease) => ({ lease, error: null }),
        (error: unknown) => ({ lease: null, error }),
      );
      expect(asyncResult.lease?.pipeline === syncLease.pipeline ? 'the cached invalid pipeline' : null).toBeNull();
      expect(asyncResult.error).toBeInstanceOf(WeftError);
      expect((asyncResult.error as WeftError).code).toBe('pipeline-failed');
      expect((asyncResult.error as WeftError).message).toMatch(/acquireRenderPipelineAsync.*could not be created/s);
      // The sync acquire's device error is reported once, as an uncaptured error naming the cause.
      expect(uncaptured).toHaveLength(1);
      expect(uncaptured[0]).toMatch(/depth|format/i);
      // The failed entry left the cache; its lease still releases cleanly and gives back its module.
      expect(getComposerCounters(device)).toMatchObject({ livePipelines: 0 });
      releaseRenderPipeline(device, syncLease);
      expect(() => releaseRenderPipeline(device, syncLease)).toThrow(WeftError);
      expect(getComposerCounters(device)).toMatchObject({ livePipelines: 0, liveModules: 0 });

      // The next calls give the right answers: a second sync acquire retries (a new pipeline, reported again) ...
      const again = acquireRenderPipeline(device, composed, bad);
      expect(again.pipeline).not.toBe(syncLease.pipeline);
      await expect(acquireRenderPipelineAsync(device, composed, bad)).rejects.toThrow(WeftError);
      expect(uncaptured).toHaveLength(2);
      releaseRenderPipeline(device, again);
      // ... and a valid state is created, checked and shared by both paths.
      const ok = acquireRenderPipeline(device, composed, good);
      const okAsync = await acquireRenderPipelineAsync(device, composed, good);
      expect(okAsync.pipeline).toBe(ok.pipeline);
      expect(await pipelineFailureAsync(device, ok)).toBeNull();
      expect(await pipelineFailureAsync(device, okAsync)).toBeNull();
      releaseRenderPipeline(device, ok);
      releaseRenderPipeline(device, okAsync);
      expect(getComposerCounters(device)).toMatchObject({ livePipelines: 0, liveModules: 0 });
      expect(uncaptured).toHaveLength(2);
    } finally {
      device.destroy();
    }
  });
});
