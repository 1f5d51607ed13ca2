import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import {
  createBoxMesh,
  createForwardRenderTask,
  createRenderTarget,
  disposeMesh,
  readForwardFrameIdAsync,
  runTasks,
} from '../../engine/index.js';
import { generateScene } from '../support/generated-scenes.js';
import { gpuTest } from '../support/gpu.js';
import { cameraPixelRay } from '../support/camera-rays.js';
import { castReferenceRay, type ReferenceHit } from '../support/reference-raycast.js';

const sameHit = (a: ReferenceHit | null, b: ReferenceHit | null) =>
  !a || !b ? a === b : a.meshId === b.meshId && a.thinInstanceIndex === b.thinInstanceIndex && a.faceId === b.faceId;

describe('forward renderer object IDs', () => {
  gpuTest(
    'hover reads of the visible frame name the mesh, instance and triangle a CPU ray cast finds',
    async ({ engine }) => {
      const generated = await generateScene(engine, 21);
      const task = createForwardRenderTask(generated.scene, { objectIds: true });
      runTasks(engine, [task]);
      let compared = 0;
      let agree = 0;
      let hits = 0;
      for (let k = 0; k < 400; k++) {
        const x = (k * 37) % engine.width;
        const y = (k * 23) % engine.height;
        const cast = (dx: number, dy: number) => {
          const ray = cameraPixelRay(generated.scene.camera!, x + dx, y + dy, engine.width, engine.height);
          return castReferenceRay(generated.reference, ray.origin, ray.direction);
        };
        const truth = cast(0, 0);
        if (
          [
            [-0.05, 0],
            [0.05, 0],
            [0, -0.05],
            [0, 0.05],
          ].some(([dx, dy]) => !sameHit(truth, cast(dx, dy)))
        )
          continue;
        // Back faces are culled by the forward pass (single-sided materials); the reference hits the nearest face either way.
        if (truth && !truth.frontFacing) continue;
        const read = await readForwardFrameIdAsync(task, x, y);
        compared++;
        if (read.hit) hits++;
        const same = truth
          ? read.hit &&
            read.mesh.uniqueId === truth.meshId &&
            read.thinInstanceIndex === truth.thinInstanceIndex &&
            read.primitiveIndex === truth.faceId
          : !read.hit;
        if (same) agree++;
      }
      console.log('[forward object ids]', { compared, hits, agree });
      expect(compared).toBeGreaterThan(300);
      expect(hits).toBeGreaterThan(50);
      expect(agree).toBe(compared);
    },
    [80, 60],
  );

  gpuTest(
    'a read resolves against the frame it reads: scene changes after the frame do not change the answer',
    async ({ engine }) => {
      const generated = await generateScene(engine, 22);
      const scene = generated.scene;
      createBoxMesh(
        scene,
        'wall',
        { width: 60, height: 60, depth: 0.1 },
        { worldMatrix: new Float32Array(mat4.translation([0, 0, -20])) },
      );
      const task = createForwardRenderTask(scene, {
        objectIds: true,
        meshes: () => scene.meshes.filter((m) => m.name !== 'skip'),
      });
      runTasks(engine, [task]);
      const name = (read: Awaited<ReturnType<typeof readForwardFrameIdAsync>>) => (read.hit ? read.mesh.name : 'miss');
      let pixel = [0, 0];
      for (
        let k = 0;
        k < 200 && name(await readForwardFrameIdAsync(task, pixel[0], pixel[1])).startsWith('w') === false;
        k++
      )
        pixel = [(k * 37) % engine.width, (k * 23) % engine.height];
      const before = await readForwardFrameIdAsync(task, pixel[0], pixel[1]);
      expect(before.hit).toBe(true);
      const seen = name(before);
      scene.meshes.forEach((mesh) => mesh.name === seen && disposeMesh(mesh));
      createBoxMesh(scene, 'newcomer');
      expect(name(await readForwardFrameIdAsync(task, pixel[0], pixel[1]))).toBe(seen);
      runTasks(engine, [task]);
      expect(name(await readForwardFrameIdAsync(task, pixel[0], pixel[1]))).not.toBe(seen);
    },
    [80, 60],
  );

  gpuTest(
    'without objectIds, or on a multisampled target, the request is refused clearly',
    async ({ engine }) => {
      const generated = await generateScene(engine, 23);
      const plain = createForwardRenderTask(generated.scene);
      runTasks(engine, [plain]);
      await expect(readForwardFrameIdAsync(plain, 1, 1)).rejects.toThrow('was created without objectIds: true');
      const msaa = createRenderTarget(engine, { width: 16, height: 16, samples: 4 });
      expect(() => createForwardRenderTask(generated.scene, { target: msaa, objectIds: true })).toThrow(
        /objectIds needs a single-sample target/,
      );
      const task = createForwardRenderTask(generated.scene, { objectIds: true });
      await expect(readForwardFrameIdAsync(task, 1, 1)).rejects.toThrow('has not drawn a frame with objectIds');
      runTasks(engine, [task]);
      await expect(readForwardFrameIdAsync(task, 500, 1)).rejects.toThrow(
        /pixel \(500, 1\) is outside the 80×60 frame/,
      );
    },
    [80, 60],
  );
});
