import { describe, expect, test } from 'vitest';
import { createBillboardRenderTask, createBillboardSystem } from '../../entities/billboards/index.js';
import {
  createScene,
  type Engine,
  EngineError,
  registerPickSource,
  type RenderTarget,
  unregisterPickSource,
} from '../../engine/index.js';
import { createSplatMesh } from '../../entities/splats/index.js';

const scene = () => createScene({} as Engine);

function refused(make: () => unknown, message: RegExp): void {
  let error: unknown;
  try {
    make();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(EngineError);
  expect((error as Error).message).toMatch(message);
}

describe('pick sources: bad input is refused with a typed error and registers nothing', () => {
  test('billboard systems', () => {
    const s = scene();
    refused(
      () => createBillboardSystem(s, 'b', { positions: new Float32Array(4) }),
      /^createBillboardSystem: billboard system "b": positions .* must be a non-empty Float32Array of finite x, y, z triples/,
    );
    refused(
      () => createBillboardSystem(s, 'b', { positions: new Float32Array(6), sizes: new Float32Array(3) }),
      /sizes .* must be a Float32Array of 4 floats \(2 per sprite\) or one 2-number value for all/,
    );
    refused(
      () => createBillboardSystem(s, 'b', { positions: new Float32Array(3), sizes: [0, 1] }),
      /sizes must be > 0/,
    );
    refused(
      () => createBillboardSystem(s, 'b', { positions: new Float32Array(3), orientation: 'spin' as 'axis' }),
      /orientation "spin" must be "camera" or "axis"/,
    );
    refused(
      () => createBillboardSystem(s, 'b', { positions: new Float32Array(3), orientation: 'axis', axis: [0, 0, 0] }),
      /axis array\(3\) must be 3 finite numbers, not all zero/,
    );
    refused(() => createBillboardSystem(s, 'b', { positions: new Float32Array([0, NaN, 0]) }), /positions/);
    expect(s.pickSources).toHaveLength(0);
    const system = createBillboardSystem(s, 'b', {
      positions: new Float32Array(6),
      sizes: [2, 1],
      orientation: 'axis',
      axis: [0, 2, 0],
    });
    expect(Array.from(system.sizes)).toEqual([2, 1, 2, 1]);
    expect(system.axis).toEqual([0, 1, 0]);
    expect(s.pickSources.map((p) => p.entity)).toEqual([system]);
    // The renderer depth-tests against the meshes drawn before it: a target without depth is refused up front.
    refused(
      () =>
        createBillboardRenderTask(system, { target: { name: 'flat', depthFormat: null } as unknown as RenderTarget }),
      /needs a render target with depth/,
    );
  });

  test('splat meshes', () => {
    const s = scene();
    const base = { centers: new Float32Array(3), scales: new Float32Array([1, 1, 1]) };
    refused(
      () => createSplatMesh(s, 'g', { ...base, scales: new Float32Array([1, 0, 1]) }),
      /^createSplatMesh: splat mesh "g": scales\[1\] = 0; scales must be finite and > 0/,
    );
    refused(
      () => createSplatMesh(s, 'g', { ...base, rotations: new Float32Array([0, 0, 0, 2]) }),
      /rotation 0 has length 2; quaternions must be unit length/,
    );
    refused(
      () => createSplatMesh(s, 'g', { ...base, opacities: new Float32Array([1.5]) }),
      /opacities\[0\] = 1.5; opacities must be in \(0, 1\]/,
    );
    refused(
      () => createSplatMesh(s, 'g', { ...base, pickOpacityThreshold: 0 }),
      /pickOpacityThreshold 0 must be in \(0, 1\]/,
    );
    refused(
      () => createSplatMesh(s, 'g', { ...base, worldMatrix: [1, 2, 3] }),
      /worldMatrix array\(3\) must be 16 finite numbers/,
    );
    refused(
      () => createSplatMesh(s, 'g', { ...base, colors: new Float32Array(2) }),
      /colors .* must be a Float32Array of 3 floats/,
    );
    expect(s.pickSources).toHaveLength(0);
    const mesh = createSplatMesh(s, 'g', base);
    expect(Array.from(mesh.rotations)).toEqual([0, 0, 0, 1]);
    expect(Array.from(mesh.opacities)).toEqual([1]);
    unregisterPickSource(s, mesh);
    expect(s.pickSources).toHaveLength(0);
  });

  test('registerPickSource', () => {
    const s = scene();
    refused(
      () =>
        registerPickSource(s, {
          entity: 3 as unknown as object,
          load: async () => ({ createPickContributor: () => null }),
        }),
      /source \{"entity":3\} must be \{ entity: object, load: \(\) => Promise<module> \}|source .* must be \{ entity: object/,
    );
    const entity = {};
    registerPickSource(s, { entity, load: async () => ({ createPickContributor: () => null }) });
    refused(
      () => registerPickSource(s, { entity, load: async () => ({ createPickContributor: () => null }) }),
      /already registered/,
    );
  });
});
