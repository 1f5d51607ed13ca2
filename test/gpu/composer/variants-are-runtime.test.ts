import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import { getDeviceCaches } from '../../../composer/device-caches.js';
import { composeVariant } from '../../../composer/variant-registry.js';
import { createBillboardRenderTask, createBillboardSystem } from '../../../entities/billboards/index.js';
import { createSplatMesh, createSplatRenderTask } from '../../../entities/splats/index.js';
import {
  createBoxMesh,
  createForwardRenderTask,
  createMeshFromData,
  createRenderTarget,
  createScene,
  makePerspectiveCamera,
  makeSkeleton,
  makeVertexAnimation,
  runTasks,
} from '../../../engine/index.js';
import { createGeometryRendererTask, GeometryTextureType } from '../../../geometry/index.js';
import { createGpuPicker, disposeGpuPicker, enableDetailedPicking, pickAsync } from '../../../picking/index.js';
import { makeWeftVariantRegistry } from '../../../variants/index.js';
import { gpuTest } from '../../support/gpu.js';
import { crowdFrames, crowdInstances, twoBoneBox } from '../../support/vat-reference.js';

describe('registered variants on a running scene', () => {
  gpuTest(
    'the shader modules the renderers, the geometry task and the picker compiled include each registered variant',
    async ({ engine }) => {
      const { device } = engine;
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0, 10], target: [0, 0, 0], fovY: 0.8, far: 100 });
      // Everything on the view axis, so one pick ray at the centre meets (and draws) every object.
      const at = (z: number) => mat4.translation([0, 0, z]);
      createBoxMesh(scene, 'box', {}, { worldMatrix: at(0) });
      createBoxMesh(scene, 'instanced', {}, { thinInstances: new Float32Array([...at(-2), ...at(-3)]) });
      createMeshFromData(scene, 'skinned', twoBoneBox(), { skeleton: makeSkeleton(2), worldMatrix: at(-5) });
      const vertexAnimation = () =>
        makeVertexAnimation({ name: 'crowd', frames: crowdFrames(), boneCount: 2, frameCount: 4 });
      createMeshFromData(scene, 'animated', twoBoneBox(), { vertexAnimation: vertexAnimation(), worldMatrix: at(-7) });
      const crowd = createMeshFromData(scene, 'crowd', twoBoneBox(), {
        vertexAnimation: vertexAnimation(),
        thinInstances: crowdInstances().matrices,
        vertexAnimationPlayback: crowdInstances().playback,
        worldMatrix: at(-9),
      });
      const sprites = createBillboardSystem(scene, 'sprites', { positions: new Float32Array([0, 0, 2]) });
      const splats = createSplatMesh(scene, 'splats', {
        centers: new Float32Array([0, 0, 3]),
        scales: new Float32Array([0.4, 0.4, 0.4]),
      });
      const target = createRenderTarget(engine, { width: engine.width, height: engine.height, format: 'rgba8unorm' });
      const geometry = createGeometryRendererTask(scene, {
        meshes: [crowd],
        textureDescriptions: [
          { type: GeometryTextureType.LINEAR_VELOCITY },
          { type: GeometryTextureType.WORLD_POSITION },
        ],
      });
      const tasks = [
        createForwardRenderTask(scene, { target }),
        createBillboardRenderTask(sprites, { target }),
        createSplatRenderTask(splats, { target }),
        geometry,
      ];
      runTasks(engine, tasks);
      const picker = createGpuPicker(scene);
      const [x, y] = [engine.width / 2, engine.height / 2];
      expect((await pickAsync(picker, x, y)).hit).toBe(true);
      expect(enableDetailedPicking(picker)).toBe(true);
      expect((await pickAsync(picker, x, y)).hit).toBe(true);

      const live = new Set([...getDeviceCaches(device).modules.values()].map((entry) => entry.code));
      const registry = makeWeftVariantRegistry();
      const expected = [
        'standard-normals',
        'standard-normals-thin-instances',
        'deform-skin4',
        'deform-vat4',
        'billboard-color',
        'splat-color',
        'geometry-deform-vat4-velocity-thin-instances',
        'pick',
        'pick-detail',
        'pick-thin-instances',
        'pick-detail-thin-instances',
        'pick-deform-vat4-thin-instances-detail',
        'billboard-pick',
        'billboard-pick-detail',
        'splat-pick',
        'splat-pick-detail',
      ];
      expect(expected.filter((name) => !live.has(composeVariant(registry, name).code))).toEqual([]);
      disposeGpuPicker(picker);
      for (const task of tasks) task.dispose();
    },
  );
});
