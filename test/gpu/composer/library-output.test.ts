// Library output on Dawn: every library snapshot variant compiles inside a minimal host entry point, and the host
// material drawn through a library (default groups, and groups 1..3 with group 0 left to the host) gives the same
// pixels as the composed module.
import { describe, expect, test } from 'vitest';
import { composeShader } from '../../../composer/index.js';
import { getNodeGpu } from '../../support/gpu.js';
import { hostLibraryVariants, hostMaterialSpec } from '../../support/host-material.js';
import {
  compileChecked,
  comparePixels,
  hostTorusMesh,
  renderHostMaterialAsync,
  wrapLibrary,
} from '../../support/host-render.js';
import { makeHostView } from '../../support/host-view.js';

async function withDevice(body: (device: GPUDevice) => Promise<void>): Promise<void> {
  const adapter = await getNodeGpu().requestAdapter();
  if (!adapter) throw new Error('No WebGPU adapter from Dawn; GPU tests fail rather than skip');
  const device = await adapter.requestDevice({ label: 'library-output-test' });
  const uncaptured: string[] = [];
  device.addEventListener('uncapturederror', (e) => uncaptured.push((e as GPUUncapturedErrorEvent).error.message));
  device.pushErrorScope('validation');
  try {
    await body(device);
  } finally {
    const error = await device.popErrorScope();
    device.destroy();
    expect(error?.message ?? null).toBeNull();
    expect(uncaptured).toEqual([]);
  }
}

describe('library output on Dawn', () => {
  test('every library variant compiles when wrapped by a minimal host entry point', async () => {
    await withDevice(async (device) => {
      for (const variant of hostLibraryVariants()) {
        const composed = composeShader(variant.spec());
        await compileChecked(device, variant.name, wrapLibrary(composed));
      }
    });
  });

  test('a library drawn by a host gives the pixels of the composed module, also with group 0 kept by the host', async () => {
    await withDevice(async (device) => {
      const view = makeHostView(96);
      const mesh = hostTorusMesh();
      const module = await renderHostMaterialAsync(device, composeShader(hostMaterialSpec('module')), mesh, view);
      const library = await renderHostMaterialAsync(device, composeShader(hostMaterialSpec('library')), mesh, view);
      const moved = composeShader(hostMaterialSpec('library', { groups: { scene: 1, mesh: 2, material: 3 } }));
      expect(moved.bindGroups.map((g) => g.role)).toEqual([null, 'scene', 'mesh', 'material']);
      const libraryMoved = await renderHostMaterialAsync(device, moved, mesh, view);
      const movedModule = await renderHostMaterialAsync(
        device,
        composeShader(hostMaterialSpec('module', { groups: { scene: 1, mesh: 2, material: 3 }, firstBinding: 2 })),
        mesh,
        view,
      );
      // The torus covers a good part of the frame (it is a real drawing, not a clear).
      const clear = Array.from(module.subarray(0, 4));
      let covered = 0;
      for (let i = 0; i < module.length; i += 4) if (module[i] !== clear[0] || module[i + 2] !== clear[2]) covered++;
      expect(covered).toBeGreaterThan(view.size * view.size * 0.15);
      for (const other of [library, libraryMoved, movedModule]) {
        const diff = comparePixels(module, other, view.size, 0);
        expect(diff.maxDiff).toBe(0);
        expect(diff.edgeExcluded).toBe(comparePixels(module, module, view.size, 0).edgeExcluded);
      }
    });
  });
});
