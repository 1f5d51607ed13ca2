import { describe, expect } from 'vitest';
import { type ComposedShader, composeShader } from '../../../composer/compose-shader.js';
import { getComposerCounters, getDeviceCaches } from '../../../composer/device-caches.js';
import {
  acquirePipelineLease,
  acquirePipelineLeaseAsync,
  createPipelineLeaseSet,
  disposePipelineLeaseSet,
  type PipelineLeaseOwner,
  swapPipelineLeaseSet,
} from '../../../composer/pipeline-leases.js';
import { makeStandardMaterialFragments } from '../../../fragments/standard-material.js';
import { gpuTest } from '../../support/gpu.js';
import { forwardState, spyOnDevice } from './composer-gpu-helpers.js';

function composeForward(thinInstances: boolean): ComposedShader {
  return composeShader({
    fragments: makeStandardMaterialFragments(),
    conditions: { normals: true, thinInstances },
  });
}

function pipelineRefs(device: GPUDevice): number {
  return [...getDeviceCaches(device).pipelines.values()].reduce((sum, entry) => sum + entry.refs, 0);
}

describe('pipeline lease set', () => {
  gpuTest('a key is composed and acquired once; dispose gives every lease back once', async ({ engine }) => {
    const { device } = engine;
    const set = createPipelineLeaseSet(device);
    let composes = 0;
    const compose = () => {
      composes++;
      return composeForward(false);
    };
    const a = acquirePipelineLease(set, 'plain', compose, forwardState);
    const b = acquirePipelineLease(set, 'plain', compose, forwardState);
    expect(b).toBe(a);
    expect(composes).toBe(1);
    expect(pipelineRefs(device)).toBe(1);
    acquirePipelineLease(set, 'thin', () => composeForward(true), forwardState);
    expect(pipelineRefs(device)).toBe(2);
    disposePipelineLeaseSet(set);
    disposePipelineLeaseSet(set);
    expect(getComposerCounters(device)).toMatchObject({ livePipelines: 0, liveModules: 0 });
  });

  gpuTest('a failed compose or acquire leaves the set and the caches as they were', async ({ engine }) => {
    const { device } = engine;
    const set = createPipelineLeaseSet(device);
    const failing = () => {
      throw new Error('no shader');
    };
    expect(() => acquirePipelineLease(set, 'broken', failing, forwardState)).toThrow('no shader');
    const composed = composeForward(false);
    expect(() => acquirePipelineLease(set, 'no-targets', () => composed, { targets: [] })).toThrow(/target/);
    expect(set.held.size).toBe(0);
    expect(getComposerCounters(device)).toMatchObject({ livePipelines: 0, liveModules: 0 });
  });

  gpuTest(
    'swap: the new set is acquired before the old is given back; a failing fill keeps the old set',
    async ({ engine }) => {
      const { device } = engine;
      const owner: PipelineLeaseOwner = { pipelines: null };
      swapPipelineLeaseSet(owner, device, (next) =>
        acquirePipelineLease(next, 'a', () => composeForward(false), forwardState),
      );
      const first = owner.pipelines;
      const spy = spyOnDevice(device);
      expect(() =>
        swapPipelineLeaseSet(owner, device, (next) => {
          acquirePipelineLease(next, 'a', () => composeForward(false), forwardState);
          acquirePipelineLease(next, 'b', () => composeForward(true), forwardState);
          throw new Error('record failed');
        }),
      ).toThrow('record failed');
      expect(owner.pipelines).toBe(first);
      expect(pipelineRefs(device)).toBe(1);
      expect(getComposerCounters(device)).toMatchObject({ livePipelines: 1 });
      const created = getComposerCounters(device).pipelinesCreated;
      swapPipelineLeaseSet(owner, device, (next) =>
        acquirePipelineLease(next, 'a', () => composeForward(false), forwardState),
      );
      expect(owner.pipelines).not.toBe(first);
      expect(first!.disposed).toBe(true);
      // The shared pipeline stayed alive across the swap: nothing was recreated or recompiled.
      expect(getComposerCounters(device).pipelinesCreated).toBe(created);
      expect(spy.modules).toBe(1); // only the failed fill's thin variant
      expect(pipelineRefs(device)).toBe(1);
      disposePipelineLeaseSet(owner.pipelines);
      expect(getComposerCounters(device)).toMatchObject({ livePipelines: 0, liveModules: 0 });
    },
  );

  gpuTest(
    'async: concurrent acquires of one key hold one lease; a set disposed meanwhile gets nothing',
    async ({ engine }) => {
      const { device } = engine;
      const set = createPipelineLeaseSet(device);
      const [a, b] = await Promise.all(
        [0, 1].map(() => acquirePipelineLeaseAsync(set, 'plain', () => composeForward(false), forwardState)),
      );
      expect(b).toBe(a);
      expect(pipelineRefs(device)).toBe(1);
      const late = acquirePipelineLeaseAsync(set, 'thin', () => composeForward(true), forwardState);
      disposePipelineLeaseSet(set);
      expect(await late).toBeNull();
      expect(getComposerCounters(device)).toMatchObject({ livePipelines: 0, liveModules: 0 });
    },
  );
});
