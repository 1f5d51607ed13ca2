import { describe, expect } from 'vitest';
import {
  acquireRenderPipelineAsync,
  compilationMessagesAsync,
  composeShader,
  formatShaderSnapshot,
  getComposerCounters,
  listVariants,
  makeComposeCache,
  makeWeftVariantRegistry,
  releaseRenderPipeline,
} from '../../../index.js';
import { createShaderModuleScoped } from '../../../composer/compile-errors.js';
import { gpuTest } from '../../support/gpu.js';
import { forwardState } from './composer-gpu-helpers.js';

describe('registered variants on Dawn', () => {
  gpuTest(
    'every registered variant compiles with zero errors or warnings and builds a pipeline with its layouts',
    async ({ engine }) => {
      const { device } = engine;
      expect(
        device.features.has('primitive-index'),
        'the lavapipe adapter exposes primitive-index, so pick-detail variants are compiled too',
      ).toBe(true);
      const cache = makeComposeCache();
      const variants = listVariants(makeWeftVariantRegistry());
      expect(variants.length).toBeGreaterThanOrEqual(36);
      for (const variant of variants) {
        const composed = composeShader({ ...variant.spec(), deviceFeatures: device.features }, cache);
        const { module, scope } = createShaderModuleScoped(device, composed.code, variant.name);
        expect(await compilationMessagesAsync(module, composed.code, composed.sourceMap, scope), variant.name).toEqual(
          [],
        );
        // The snapshot text (layout comments, fragment markers) is valid WGSL too.
        const snapshot = formatShaderSnapshot(composed);
        const formatted = createShaderModuleScoped(device, snapshot, `${variant.name} snapshot`);
        expect(
          await compilationMessagesAsync(formatted.module, snapshot, undefined, formatted.scope),
          `${variant.name} snapshot`,
        ).toEqual([]);
        // The pipeline checks what the code alone cannot: layouts vs. declarations, vertex formats vs. input types, targets.
        const lease = await acquireRenderPipelineAsync(
          device,
          composed,
          forwardState(composed, { label: variant.name }),
        );
        releaseRenderPipeline(device, lease);
      }
      expect(getComposerCounters(device)).toMatchObject({
        modulesCompiled: variants.length,
        pipelinesCreated: variants.length,
        liveModules: 0,
        livePipelines: 0,
      });
    },
  );
});
