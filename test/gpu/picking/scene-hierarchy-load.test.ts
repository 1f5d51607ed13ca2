// The GPU picker loads its scene-hierarchy path (the CPU picker's BVH code) only when a pick could use it: a page of
// small scenes never loads it, and a large scene's first pick scans the meshes (same answer) while it loads. This file
// runs in a process of its own, so the module is not loaded when it starts.
import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import { createBoxMesh, createScene, makePerspectiveCamera } from '../../../engine/index.js';
import { loadSceneHierarchyAsync } from '../../../picking/gpu-picker.js';
import { createGpuPicker, getCpuPicker, pickAsync, takeCpuPickCensus } from '../../../picking/index.js';
import { hierarchyThreshold } from '../../../picking/pick-snapshot.js';
import { gpuTest } from '../../support/gpu.js';

describe('the scene-hierarchy path of the GPU picker loads on first need', () => {
  gpuTest(
    'a small scene never asks for it; a large scene scans until it is loaded, then uses it',
    async ({ engine }) => {
      const small = createScene(engine);
      small.camera = makePerspectiveCamera({ position: [2, 1.5, 3], target: [0, 0, 0] });
      createBoxMesh(small, 'box');
      expect((await pickAsync(createGpuPicker(small), 32, 32)).pickedMesh?.name).toBe('box');

      const large = createScene(engine);
      large.camera = makePerspectiveCamera({ position: [0, 9, 6], target: [0, 0, 0] });
      for (let i = 0; i < hierarchyThreshold + 8; i++)
        createBoxMesh(
          large,
          `b${i}`,
          { width: 0.5, height: 0.5, depth: 0.5 },
          {
            worldMatrix: mat4.translation([(i % 9) - 4, 0, Math.floor(i / 9) - 4]),
          },
        );
      const picker = createGpuPicker(large);
      const census = () => takeCpuPickCensus(getCpuPicker(large)).rays;
      census();
      // The first large pick: no hierarchy query yet (the scan), the same answer as drawing everything.
      const first = await pickAsync(picker, 32, 32);
      expect(census(), 'rays the scene hierarchy answered for the first pick').toBe(0);
      const everything = await pickAsync(picker, 32, 32, { preFilter: false });
      expect(first.pickedMesh?.name).toBe(everything.pickedMesh?.name);
      expect(first.pickedMesh).not.toBeNull();

      await loadSceneHierarchyAsync();
      const later = await pickAsync(picker, 32, 32);
      expect(census(), 'rays the scene hierarchy answered once loaded').toBe(1);
      expect(later.pickedMesh?.name).toBe(first.pickedMesh?.name);
    },
  );
});
