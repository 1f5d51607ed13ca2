import { describe, expect } from 'vitest';
import { makeWgslBufferLayouts, type TypeLayout } from '../../../composer/index.js';
import { gpuTest } from '../../support/gpu.js';
import { atomics, roundTrip, storageTraps, uniformTraps, variantBufferLayouts } from './layout-readback.js';

describe('buffer layouts read back on the device', () => {
  gpuTest('every uniform and storage binding of every weft variant', async ({ engine }) => {
    const seen = variantBufferLayouts();
    const types = new Set<string>();
    const collect = (type: TypeLayout): void => {
      types.add(type.kind === 'array' ? `array<${type.element.kind}${type.length === null ? '' : ', N'}>` : type.wgsl);
      if (type.kind === 'array') collect(type.element);
      if (type.kind === 'struct') for (const f of type.fields) collect(f.type);
    };
    for (const { layout } of seen.values()) collect(layout.type);
    // What weft's fragments declare today (a new type in a fragment shows up here and is covered automatically).
    for (const type of [
      'f32',
      'u32',
      'vec2f',
      'vec3f',
      'vec4f',
      'vec4u',
      'mat4x4f',
      'array<scalar>',
      'array<vector>',
      'array<struct>',
    ])
      expect([...types]).toContain(type);
    expect(seen.size).toBeGreaterThanOrEqual(15);
    for (const [key, { declarations, layout }] of seen) await roundTrip(engine.device, declarations, layout, key);
  });

  gpuTest(
    'every scalar, vector, matrix, array and nested-struct shape, with the alignment traps (storage)',
    async ({ engine }) => {
      const layout = makeWgslBufferLayouts(
        `${storageTraps}\n@group(0) @binding(0) var<storage, read> input: Traps;`,
      ).input;
      // The traps, as the WGSL rules place them (the device read-back below is what proves them).
      const field = (name: string) =>
        (layout.type.kind === 'struct' ? layout.type.fields.find((f) => f.name === name)! : null)!;
      expect(field('afterVec3').offset - field('v3f').offset).toBe(12); // a scalar fills a vec3's padding
      expect(field('av3').type).toMatchObject({ stride: 16 });
      expect(field('m3').size).toBe(48);
      expect(field('nested').type.size).toBe(96); // Mid: 32 + 48 + 4, rounded up to its 16-byte alignment
      expect(field('aligned').offset % 32).toBe(0);
      expect(field('afterSized').offset - field('sized').offset).toBe(20);
      await roundTrip(engine.device, storageTraps, layout, 'storage-traps');
    },
  );

  gpuTest('the same traps in the uniform address space', async ({ engine }) => {
    const layout = makeWgslBufferLayouts(`${uniformTraps}\n@group(0) @binding(0) var<uniform> input: Frame;`).input;
    await roundTrip(engine.device, uniformTraps, layout, 'uniform-traps');
  });

  gpuTest('atomics in a read_write storage buffer', async ({ engine }) => {
    const layout = makeWgslBufferLayouts(
      `${atomics}\n@group(0) @binding(0) var<storage, read_write> input: Counters;`,
    ).input;
    await roundTrip(engine.device, atomics, layout, 'atomics');
  });
});
