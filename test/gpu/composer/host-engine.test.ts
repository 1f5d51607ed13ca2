import { describe, expect, test } from 'vitest';
import { type HostScene, renderHostExample } from '../../../examples/host-engine/render-with-weft.js';
import { getNodeGpu } from '../../support/gpu.js';

const scene: HostScene = {
  tint: [0.8, 0.4, 0.2],
  edge: 0.25,
  lightDirection: [0.6, 0, 0.8],
  lightColor: [0.5, 0.7, 0.9],
  ambientColor: [0.1, 0.05, 0.2],
};

/** The Lambert value the shader should produce at a pixel centre, in rgba8unorm bytes. */
function expected(x: number, size: number): number[] {
  const worldX = ((x + 0.5) / size) * 2 - 1;
  const stripe = worldX > scene.edge ? 1 : 0.5;
  const diffuse = Math.max(0, scene.lightDirection[2]); // the quad's normal is +z
  return [0, 1, 2]
    .map((c) =>
      Math.round(Math.min(1, scene.tint[c] * stripe * (scene.ambientColor[c] + scene.lightColor[c] * diffuse)) * 255),
    )
    .concat(255);
}

describe('host engine', () => {
  test('plain WebGPU code composes its own fragment with weft fragments and renders the analytic Lambert value', async () => {
    const adapter = await getNodeGpu().requestAdapter();
    if (!adapter) throw new Error('No WebGPU adapter from Dawn; GPU tests fail rather than skip');
    const device = await adapter.requestDevice({ label: 'host-engine-test' });
    const uncaptured: string[] = [];
    device.addEventListener('uncapturederror', (event) =>
      uncaptured.push((event as GPUUncapturedErrorEvent).error.message),
    );
    device.pushErrorScope('validation');
    try {
      const size = 32;
      const { pixels, composed } = await renderHostExample(device, scene, size);
      expect(composed.bindGroups.map((g) => g.bindings.map((b) => b.name))).toEqual([
        ['scene'],
        ['draw'],
        ['hostParams'],
      ]);
      expect(composed.vertexBuffers).toEqual([
        {
          arrayStride: 24,
          stepMode: 'vertex',
          attributes: [
            { shaderLocation: 0, offset: 0, format: 'float32x3' },
            { shaderLocation: 1, offset: 12, format: 'float32x3' },
          ],
        },
      ]);
      let checked = 0;
      for (let y = 0; y < size; y += 5) {
        for (let x = 0; x < size; x++) {
          const worldX = ((x + 0.5) / size) * 2 - 1;
          if (Math.abs(worldX - scene.edge) < 2 / size) continue; // the stripe edge itself
          const got = Array.from(pixels.subarray((y * size + x) * 4, (y * size + x) * 4 + 4));
          const want = expected(x, size);
          got.forEach((v, c) =>
            expect(Math.abs(v - want[c]), `pixel ${x},${y} channel ${c}: ${got} vs ${want}`).toBeLessThanOrEqual(1),
          );
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(150);
      expect(expected(2, size)).not.toEqual(expected(size - 2, size));
    } finally {
      const error = await device.popErrorScope();
      device.destroy();
      expect(error?.message ?? null).toBeNull();
      expect(uncaptured).toEqual([]);
    }
  });
});
