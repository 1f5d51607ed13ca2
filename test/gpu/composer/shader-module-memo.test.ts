import { describe, expect } from 'vitest';
import {
  acquireCheckedShaderModuleAsync,
  acquireShaderModule,
  getComposerCounters,
  releaseShaderModule,
  ShaderCompileError,
  type ShaderModuleLease,
  WeftError,
} from '../../../index.js';
import { composeStandardMaterial } from '../../../engine/render/forward-shader.js';
import { gpuTest } from '../../support/gpu.js';
import { seededRandom, shuffled } from '../../unit/composer/composer-test-helpers.js';
import { spyOnDevice } from './composer-gpu-helpers.js';

const good = () => composeStandardMaterial({ normals: true, uvs: true, colors: false, thinInstances: false });
const broken = { code: '@vertex fn vertexMain() -> @builtin(position) vec4f {\n  return vec4f(1u);\n}\n' };

describe('shader module memo', () => {
  gpuTest(
    'N owners of the same code compile one module; releases in any order drop it only at the last',
    async ({ engine }) => {
      const { device } = engine;
      const spy = spyOnDevice(device);
      const composed = good();
      for (const seed of [1, 2, 3]) {
        const leases: ShaderModuleLease[] = [];
        for (let i = 0; i < 3; i++) leases.push(acquireShaderModule(device, composed));
        leases.push(...(await Promise.all([0, 1, 2].map(() => acquireCheckedShaderModuleAsync(device, good())))));
        expect(new Set(leases.map((l) => l.module)).size).toBe(1);
        expect(getComposerCounters(device)).toMatchObject({ liveModules: 1 });
        const modulesBeforeRelease = spy.modules;
        const order = shuffled(leases, seededRandom(seed));
        order.forEach((lease, i) => {
          releaseShaderModule(device, lease);
          expect(getComposerCounters(device).liveModules, `after release ${i + 1} of ${order.length}`).toBe(
            i === order.length - 1 ? 0 : 1,
          );
        });
        expect(spy.modules, 'a release never compiles or creates').toBe(modulesBeforeRelease);
      }
      // Each round compiled the module once (the last release dropped it) and hit 5 times.
      expect(getComposerCounters(device)).toEqual({
        modulesCompiled: 3,
        moduleHits: 15,
        liveModules: 0,
        pipelinesCreated: 0,
        pipelineHits: 0,
        livePipelines: 0,
      });
      expect(spy.modules).toBe(3);
    },
  );

  gpuTest(
    'a failed compile leaves counters and entries as they were, also when several acquirers wait on it',
    async ({ engine }) => {
      const { device } = engine;
      const held = acquireShaderModule(device, good());
      const before = getComposerCounters(device);
      await expect(acquireCheckedShaderModuleAsync(device, broken, 'broken')).rejects.toThrow(ShaderCompileError);
      expect(getComposerCounters(device)).toEqual(before);
      const results = await Promise.allSettled([
        acquireCheckedShaderModuleAsync(device, broken),
        acquireCheckedShaderModuleAsync(device, broken),
        acquireCheckedShaderModuleAsync(device, broken),
      ]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect(getComposerCounters(device)).toEqual(before);
      const error = (results[0] as PromiseRejectedResult).reason as ShaderCompileError;
      expect(error.messages[0]).toMatchObject({ fragmentId: 'weft:code', line: 2, lineText: '  return vec4f(1u);' });
      // The module held before is untouched and still shared.
      const again = acquireShaderModule(device, good());
      expect(again.module).toBe(held.module);
      releaseShaderModule(device, again);
      releaseShaderModule(device, held);
      expect(getComposerCounters(device).liveModules).toBe(0);
    },
  );

  gpuTest('concurrent checked acquires of new code wait on one compile', async ({ engine }) => {
    const { device } = engine;
    const spy = spyOnDevice(device);
    const leases = await Promise.all([0, 1, 2, 3].map(() => acquireCheckedShaderModuleAsync(device, good())));
    expect(spy.modules).toBe(1);
    expect(getComposerCounters(device)).toMatchObject({ modulesCompiled: 1, moduleHits: 3, liveModules: 1 });
    for (const lease of leases) releaseShaderModule(device, lease);
    expect(getComposerCounters(device).liveModules).toBe(0);
  });

  gpuTest('a release is checked: twice, or on another device, is an error', async ({ engine }) => {
    const { device } = engine;
    const lease = acquireShaderModule(device, good());
    releaseShaderModule(device, lease);
    expect(() => releaseShaderModule(device, lease)).toThrow(
      /releaseShaderModule: module [0-9a-f]{16} was already released by this lease/,
    );
    const foreign = { ...acquireShaderModule(device, good()) };
    releaseShaderModule(device, foreign);
    expect(() => releaseShaderModule(device, { ...foreign, released: false })).toThrow(WeftError);
  });
});
