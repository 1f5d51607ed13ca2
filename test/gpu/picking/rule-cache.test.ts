import { mat4, vec4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import { getComposerCounters } from '../../../composer/index.js';
import { countLiveObjects } from '../../support/live-counter.js';
import {
  createBoxMesh,
  createScene,
  type Engine,
  getCameraViewProjectionMatrix,
  makePerspectiveCamera,
  type Scene,
} from '../../../engine/index.js';
import { createGpuPicker, disposeGpuPicker, type PickingInfo, pickAsync } from '../../../picking/index.js';
import { gpuTest } from '../../support/gpu.js';

function pixelOf(engine: Engine, scene: Scene, point: [number, number, number]): [number, number] {
  const clip = vec4.transformMat4(
    [...point, 1],
    getCameraViewProjectionMatrix(scene.camera!, engine.width / engine.height),
  );
  return [
    Math.floor(((clip[0] / clip[3] + 1) / 2) * engine.width),
    Math.floor(((1 - clip[1] / clip[3]) / 2) * engine.height),
  ];
}

const who = (info: PickingInfo) => (info.hit ? info.pickedMesh!.name : 'miss');

describe('discard-rule pipelines are released (issue #16 finding 6)', () => {
  gpuTest(
    '100 texts live-edited under one key: live pipelines and modules stay bounded, picks stay right',
    async ({ engine }) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0, 8], target: [0, 0, 0], fovY: 0.8 });
      createBoxMesh(scene, 'wall', { width: 14, height: 9, depth: 0.2 }, { worldMatrix: mat4.translation([0, 0, -2]) });
      createBoxMesh(scene, 'front', { width: 2, height: 2, depth: 1 });
      const picker = createGpuPicker(scene);
      const [x, y] = pixelOf(engine, scene, [0, 0, 0.5]);
      expect(who(await pickAsync(picker, x, y))).toBe('front');
      const before = getComposerCounters(engine.device);
      let peakPipelines = 0;
      let peakModules = 0;
      for (let k = 0; k < 100; k++) {
        // Odd texts cut everything in front of z = -1 away (the wall wins), even ones keep all (the box wins).
        const threshold = k % 2 ? `-1.0 - ${k}.0 * 0.0001` : `${10 + k}.0`;
        const info = await pickAsync(picker, x, y, {
          discard: {
            key: 'live',
            wgsl: `fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.worldPos.z > ${threshold};\n}`,
          },
        });
        expect(who(info), `text ${k}`).toBe(k % 2 ? 'wall' : 'front');
        const now = getComposerCounters(engine.device);
        peakPipelines = Math.max(peakPipelines, now.livePipelines - before.livePipelines);
        peakModules = Math.max(peakModules, now.liveModules - before.liveModules);
      }
      // One layout here: the current text's pipeline and module plus the 4 retired texts kept warm (retainedRuleTexts).
      expect(peakPipelines).toBeLessThanOrEqual(5);
      expect(peakModules).toBeLessThanOrEqual(5);
      expect(who(await pickAsync(picker, x, y))).toBe('front');
      const text = (z: string) => ({
        key: 'live',
        wgsl: `fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.worldPos.z > ${z};\n}`,
      });
      // A released text compiles again and is right; texts in flight under one key each answer by their own text.
      expect(who(await pickAsync(picker, x, y, { discard: text('10.0') }))).toBe('front');
      const cut = pickAsync(picker, x, y, { discard: text('-1.5') });
      const keep = pickAsync(picker, x, y, { discard: text('20.0') });
      const cutAgain = pickAsync(picker, x, y, { discard: text('-1.25') });
      expect([who(await cut), who(await keep), who(await cutAgain)]).toEqual(['wall', 'front', 'wall']);
      disposeGpuPicker(picker);
    },
  );

  gpuTest(
    '100 texts with rule storage under one key: the storage buffers of released texts are destroyed',
    async ({ engine }) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0, 8], target: [0, 0, 0], fovY: 0.8 });
      createBoxMesh(scene, 'wall', { width: 14, height: 9, depth: 0.2 }, { worldMatrix: mat4.translation([0, 0, -2]) });
      createBoxMesh(scene, 'front', { width: 2, height: 2, depth: 1 });
      const picker = createGpuPicker(scene);
      const [x, y] = pixelOf(engine, scene, [0, 0, 0.5]);
      expect(who(await pickAsync(picker, x, y))).toBe('front');
      const live = countLiveObjects(engine.device);
      try {
        let peak = 0;
        for (let k = 0; k < 100; k++) {
          // flags[0] = 1 hides the front box: the wall wins; each text differs so each is a new rule.
          const hide = k % 2;
          const info = await pickAsync(picker, x, y, {
            discard: {
              key: 'live-storage',
              wgsl: `fn pickDiscard(input: PickDiscardInput) -> bool {\n  return flags[0] > 0.5 && input.worldPos.z > -1.0 - ${k}.0 * 0.0001;\n}`,
              storage: [
                {
                  name: 'flags',
                  type: 'array<f32>',
                  data: (mesh) => new Float32Array([mesh.name === 'front' ? hide : 0]),
                },
              ],
            },
          });
          expect(who(info), `text ${k}`).toBe(hide ? 'wall' : 'front');
          peak = Math.max(peak, live.liveLabels().filter((label) => label.includes('weft:pick:storage:')).length);
        }
        // Two meshes × (the current text + the retained ones), never one pair per text ever used.
        expect(peak).toBeLessThanOrEqual(2 * 6);
      } finally {
        live.restore();
      }
      disposeGpuPicker(picker);
    },
  );
});
