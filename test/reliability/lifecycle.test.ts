// Reliability suite part 2 (issue #16): create/use/dispose cycles of every object kind, counting live GPU objects
// (buffers, textures, query sets: created minus destroyed). Nothing may be left after dispose.
import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import {
  createBillboardRenderTask,
  createBillboardSystem,
  disposeBillboardSystem,
} from '../../entities/billboards/index.js';
import { createSplatMesh, createSplatRenderTask, disposeSplatMesh } from '../../entities/splats/index.js';
import {
  createBoxMesh,
  createCapsuleMesh,
  createForwardRenderTask,
  createMeshFromData,
  createPlaneMesh,
  createRenderTarget,
  createScene,
  createSphereMesh,
  createTorusMesh,
  disposeEngine,
  disposeRenderTarget,
  disposeScene,
  disposeTask,
  type Engine,
  makePerspectiveCamera,
  makeSkeleton,
  makeVertexAnimation,
  renderFrame,
  runTasks,
  type Scene,
} from '../../engine/index.js';
import { createCopyToTextureTask, createGeometryRendererTask, GeometryTextureType } from '../../geometry/index.js';
import {
  createCpuPicker,
  createGpuPicker,
  disposeCpuPicker,
  disposeGpuPicker,
  pickAsync,
  pickManyAsync,
} from '../../picking/index.js';
import { createTestEngine, gpuTest } from '../support/gpu.js';
import { countLiveObjects } from '../support/live-counter.js';
import { printSummary } from '../support/reliability.js';
import { twoBoneBox } from '../support/vat-reference.js';

function baseScene(engine: Engine): Scene {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [0, 0, 8], target: [0, 0, 0], fovY: 0.8 });
  return scene;
}

function identityFrames(bones: number, frames: number): Float32Array {
  const data = new Float32Array(bones * frames * 16);
  for (let i = 0; i < bones * frames; i++) data.set(mat4.identity(), i * 16);
  return data;
}

/** Every kind: create it (on a scene that lives only for the cycle), use it on the GPU, dispose it. */
const kinds: Record<string, (engine: Engine) => Promise<void>> = {
  'scene + meshes of each primitive, thin-instanced, skinned, VAT': async (engine) => {
    const scene = baseScene(engine);
    createBoxMesh(scene, 'box', {});
    createSphereMesh(scene, 'sphere', {}, { worldMatrix: mat4.translation([2, 0, 0]) });
    createTorusMesh(scene, 'torus', {}, { worldMatrix: mat4.translation([-2, 0, 0]) });
    createPlaneMesh(scene, 'plane', {}, { worldMatrix: mat4.translation([0, 2, 0]) });
    createCapsuleMesh(scene, 'capsule', {}, { worldMatrix: mat4.translation([0, -2, 0]) });
    const row = new Float32Array(3 * 16);
    for (let i = 0; i < 3; i++) row.set(mat4.translation([i - 1, 1, 1]), i * 16);
    createBoxMesh(scene, 'instanced', {}, { thinInstances: row });
    createMeshFromData(scene, 'skinned', twoBoneBox(), { skeleton: makeSkeleton(2) });
    createMeshFromData(scene, 'vat', twoBoneBox(), {
      vertexAnimation: makeVertexAnimation({ name: 'vat', frames: identityFrames(2, 4), boneCount: 2, frameCount: 4 }),
      worldMatrix: mat4.translation([1, -1, 1]),
    });
    renderFrame(scene);
    disposeScene(scene);
  },
  'GPU picker': async (engine) => {
    const scene = baseScene(engine);
    createBoxMesh(scene, 'box', {});
    const picker = createGpuPicker(scene);
    await pickAsync(picker, 32, 32);
    await pickManyAsync(picker, [
      { x: 1, y: 1 },
      { x: 32, y: 32 },
    ]);
    await pickAsync(picker, 32, 32, {
      discard: {
        key: 'k',
        wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.worldPos.x > 9.0;\n}',
      },
    });
    disposeGpuPicker(picker);
    disposeScene(scene);
  },
  'CPU picker': async (engine) => {
    const scene = baseScene(engine);
    createBoxMesh(scene, 'box', {});
    const picker = createCpuPicker(scene);
    disposeCpuPicker(picker);
    disposeScene(scene);
  },
  'forward task + render target': async (engine) => {
    const scene = baseScene(engine);
    createBoxMesh(scene, 'box', {});
    const target = createRenderTarget(engine, { width: 32, height: 32 });
    const task = createForwardRenderTask(scene, { target });
    runTasks(engine, [task]);
    disposeTask(task);
    disposeRenderTarget(target);
    disposeScene(scene);
  },
  'geometry task + copy task': async (engine) => {
    const scene = baseScene(engine);
    createBoxMesh(scene, 'box', {});
    const geometry = createGeometryRendererTask(scene, {
      size: { width: 32, height: 32 },
      textureDescriptions: [{ type: GeometryTextureType.ALBEDO }, { type: GeometryTextureType.WORLD_POSITION }],
    });
    const copy = createCopyToTextureTask(scene, { sourceTexture: geometry.geometryAlbedoTexture! });
    runTasks(engine, [geometry, copy]);
    disposeTask(copy);
    disposeTask(geometry);
    disposeScene(scene);
  },
  'billboard system + render task': async (engine) => {
    const scene = baseScene(engine);
    const system = createBillboardSystem(scene, 'sprites', {
      positions: new Float32Array([0, 0, 0, 1, 1, 0]),
      sizes: [0.9, 0.7],
    });
    const target = createRenderTarget(engine, { width: 32, height: 32, format: 'rgba8unorm' });
    const task = createBillboardRenderTask(system, { target });
    runTasks(engine, [task]);
    const picker = createGpuPicker(scene);
    await pickAsync(picker, 32, 32);
    disposeGpuPicker(picker);
    disposeTask(task);
    disposeBillboardSystem(system);
    disposeRenderTarget(target);
    disposeScene(scene);
  },
  'splat mesh + render task': async (engine) => {
    const scene = baseScene(engine);
    const splats = createSplatMesh(scene, 'splats', {
      centers: new Float32Array([0, 0, 0]),
      scales: new Float32Array([0.5, 0.3, 0.3]),
      rotations: new Float32Array([0, 0, 0, 1]),
      opacities: new Float32Array([0.9]),
      colors: new Float32Array([1, 0.9, 0.1]),
    });
    const target = createRenderTarget(engine, { width: 32, height: 32, format: 'rgba8unorm' });
    const task = createSplatRenderTask(splats, { target });
    runTasks(engine, [task]);
    const picker = createGpuPicker(scene);
    await pickAsync(picker, 32, 32);
    disposeGpuPicker(picker);
    disposeTask(task);
    disposeSplatMesh(splats);
    disposeRenderTarget(target);
    disposeScene(scene);
  },
};

describe('reliability: create/dispose cycles (issue #16)', () => {
  gpuTest('every object kind, created, used and disposed 6 times: no GPU object left', async ({ engine }) => {
    const cycles = 5;
    let created = 0;
    let left = 0;
    const leftovers: string[] = [];
    for (const [kind, cycle] of Object.entries(kinds)) {
      // The first cycle is counted apart, so a leftover names whether it is a first-use cache or a per-cycle leak.
      const warm = countLiveObjects(engine.device);
      try {
        await cycle(engine);
      } finally {
        warm.restore();
      }
      const counter = countLiveObjects(engine.device);
      try {
        for (let i = 0; i < cycles; i++) await cycle(engine);
        await engine.device.queue.onSubmittedWorkDone();
      } finally {
        counter.restore();
      }
      created += warm.created() + counter.created();
      left += warm.live() + counter.live();
      if (warm.live()) leftovers.push(`${kind} (first cycle): ${warm.liveLabels().join(', ')}`);
      if (counter.live()) leftovers.push(`${kind}: ${counter.liveLabels().join(', ')}`);
    }
    // Engines: each disposed engine's device is destroyed.
    for (let i = 0; i < 3; i++) {
      const other = await createTestEngine(16, 16);
      const device = other.device;
      disposeEngine(other);
      const info = await device.lost;
      if (info.reason !== 'destroyed') leftovers.push(`engine ${i}: device lost for ${info.reason}`);
    }
    printSummary('create/dispose', {
      kinds: Object.keys(kinds).length + 1,
      cycles: (cycles + 1) * Object.keys(kinds).length + 3,
      gpuObjectsCreated: created,
      gpuObjectsLeft: left,
    });
    expect(leftovers).toEqual([]);
    expect(created).toBeGreaterThan(0);
    expect(left).toBe(0);
  });
});
