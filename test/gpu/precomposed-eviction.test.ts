// Replacing or removing a precomposed table re-records every task that composed against it (issue 40, part 2):
// the forward task, the geometry task and the entity tasks; and a table refused on the device (a shader that does
// not compile) stops poisoning the same picker and scene once it is removed.
import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import { precomposedDigestOf } from '../../composer/precomposed-check.js';
import { makePrecomposedShaders } from '../../composer/precomposed-table.js';
import { makeVariantRegistry } from '../../composer/variant-registry.js';
import { createBillboardRenderTask, createBillboardSystem } from '../../entities/billboards/index.js';
import {
  createMeshFromData,
  createRenderTarget,
  createScene,
  disposeRenderTarget,
  makePerspectiveCamera,
  renderFrame,
  runTasks,
  usePrecomposedShaders,
  whenEngineReadyAsync,
} from '../../engine/index.js';
import { makeBoxData } from '../../engine/primitives/box.js';
import { createGeometryRendererTask, GeometryTextureType } from '../../geometry/index.js';
import { createGpuPicker, pickAsync } from '../../picking/index.js';
import { registerMeshVariants } from '../../variants/mesh-variants.js';
import { gpuTest } from '../support/gpu.js';

describe('a replaced or removed precomposed table is not used again', () => {
  gpuTest(
    'forward, geometry and entity tasks re-record when the table changes, and draw as before',
    async ({ engine }) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0.4, 3], target: [0, 0, 0] });
      createMeshFromData(scene, 'box', makeBoxData(), { worldMatrix: mat4.rotationY(0.5) });
      const system = createBillboardSystem(scene, 'sprites', {
        positions: new Float32Array([0.8, 0.8, 0.8]),
        sizes: [0.3, 0.3],
      });
      const target = createRenderTarget(engine, { width: engine.width, height: engine.height, format: 'rgba8unorm' });
      const geometry = createGeometryRendererTask(scene, {
        textureDescriptions: [{ type: GeometryTextureType.ALBEDO }],
      });
      const billboards = createBillboardRenderTask(system, { target });
      runTasks(engine, [geometry, billboards]);
      expect(renderFrame(scene)).toBe(true);
      expect([geometry.needsRecord(), billboards.needsRecord(), scene.defaultForwardTask!.needsRecord()]).toEqual([
        false,
        false,
        false,
      ]);
      const registry = registerMeshVariants(makeVariantRegistry(), 'box', { data: makeBoxData(), passes: ['forward'] });
      for (const table of [makePrecomposedShaders([{ registry }]), null]) {
        usePrecomposedShaders(engine, table);
        await whenEngineReadyAsync(engine);
        expect(
          [geometry.needsRecord(), billboards.needsRecord(), scene.defaultForwardTask!.needsRecord()],
          `after ${table ? 'a new table' : 'removing the table'}`,
        ).toEqual([true, true, true]);
        const records = geometry.state.recorded.count;
        runTasks(engine, [geometry, billboards]);
        expect(renderFrame(scene)).toBe(true);
        expect(geometry.state.recorded.count).toBe(records + 1);
        expect([geometry.needsRecord(), billboards.needsRecord(), scene.defaultForwardTask!.needsRecord()]).toEqual([
          false,
          false,
          false,
        ]);
      }
      geometry.dispose();
      billboards.dispose();
      disposeRenderTarget(target);
    },
  );

  gpuTest(
    'a table refused on the device answers with typed errors; removing it, the same picker hits again',
    async ({ engine }) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0.4, 3], target: [0, 0, 0] });
      createMeshFromData(scene, 'box', makeBoxData(), { worldMatrix: mat4.rotationY(0.5) });
      const picker = createGpuPicker(scene);
      const centre = Math.floor(engine.width / 2);
      expect((await pickAsync(picker, centre, centre)).pickedMesh?.name).toBe('box');
      const registry = registerMeshVariants(makeVariantRegistry(), 'box', {
        data: makeBoxData(),
        passes: ['forward', 'pick'],
      });
      const table = structuredClone(makePrecomposedShaders([{ registry }])) as unknown as {
        shaders: Record<string, { shader: { code: string }; digest: string }>;
      };
      // Every shader broken the same consistent way (resealed, as another tool would): only the device can tell.
      for (const entry of Object.values(table.shaders)) {
        entry.shader.code = entry.shader.code.replace(/vec4f\(/, 'vec4f(undefinedName, ');
        entry.digest = precomposedDigestOf(entry.shader as never);
      }
      engine.device.pushErrorScope('validation');
      let refused: unknown = null;
      try {
        usePrecomposedShaders(engine, table as never);
        await whenEngineReadyAsync(engine);
        await pickAsync(picker, centre, centre);
      } catch (error) {
        refused = error;
      }
      await engine.device.popErrorScope();
      expect((refused as { name?: string } | null)?.name ?? 'no error', 'a typed error, not a silent miss').toMatch(
        /Error$/,
      );
      expect(refused).toHaveProperty('code');
      usePrecomposedShaders(engine, null);
      await whenEngineReadyAsync(engine);
      expect((await pickAsync(picker, centre, centre)).pickedMesh?.name).toBe('box');
      expect(renderFrame(scene)).toBe(true);
    },
  );
});
