// Reliability suite part 3 (issue #16): a soak of 10 000+ warm picks on a static scene, every answer checked against the
// CPU reference; no GPU object is created after warm-up; RSS growth is reported.
import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import { createBoxMesh, createScene, makePerspectiveCamera } from '../../engine/index.js';
import { createGpuPicker, pickAsync, pickManyAsync } from '../../picking/index.js';
import { countDeviceCreates } from '../support/create-counter.js';
import { gpuTest } from '../support/gpu.js';
import { makeRandom } from '../support/random.js';
import { copyScene, makeTally, note, printSummary, rss, settle, stableAnswerAt, who } from '../support/reliability.js';

const eye: [number, number, number] = [0, 0, 8];

describe('reliability: soak (issue #16)', () => {
  gpuTest(
    '10 000 warm batched picks and 300 single picks: right answers, no GPU object created',
    async ({ engine }) => {
      const random = makeRandom(0x50a4);
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: eye, target: [0, 0, 0], fovY: 0.8 });
      createBoxMesh(scene, 'wall', { width: 14, height: 9, depth: 0.2 }, { worldMatrix: mat4.translation([0, 0, -2]) });
      for (let i = 0; i < 12; i++)
        createBoxMesh(
          scene,
          `box${i}`,
          { width: 0.8, height: 0.8, depth: 0.8 },
          { worldMatrix: mat4.translation([(i % 4) * 1.6 - 2.4, Math.floor(i / 4) * 1.5 - 1.5, 0]) },
        );
      const picker = createGpuPicker(scene);
      const copy = copyScene(engine, scene, eye);
      // A pool of pixels with their reference answers (the scene is static).
      const pool = Array.from({ length: 400 }, () => {
        const p = { x: Math.floor(random() * engine.width), y: Math.floor(random() * engine.height) };
        return { ...p, ...stableAnswerAt(copy, p.x, p.y) };
      });
      const batch = () => Array.from({ length: 100 }, () => pool[Math.floor(random() * pool.length)]);
      // Warm-up: the same call shapes as the soak, and every pooled pixel once (meshes upload lazily, when first drawn).
      await pickManyAsync(picker, pool);
      for (let i = 0; i < 3; i++) await pickManyAsync(picker, batch());
      for (let i = 0; i < 3; i++) await pickAsync(picker, pool[i].x, pool[i].y);
      const tally = makeTally();
      const counter = countDeviceCreates(engine.device);
      const rssBefore = rss();
      const started = performance.now();
      let picks = 0;
      try {
        for (let round = 0; round < 100; round++) {
          const points = batch();
          const r = await settle(tally, `batch ${round}`, pickManyAsync(picker, points));
          if (!r.ok) continue;
          picks += points.length;
          r.value.forEach((info, i) => {
            if (!points[i].stable) return;
            tally.checked++;
            if (who(info) === points[i].answer) return;
            tally.wrong++;
            note(tally, `batch ${round} (${points[i].x}, ${points[i].y}): ${who(info)} != ${points[i].answer}`);
          });
          if (round % 3 === 0) {
            const p = pool[Math.floor(random() * pool.length)];
            for (let k = 0; k < 3; k++) {
              const single = await settle(tally, `single ${round}.${k}`, pickAsync(picker, p.x, p.y));
              if (!single.ok) continue;
              picks++;
              if (!p.stable) continue;
              tally.checked++;
              if (who(single.value) !== p.answer) {
                tally.wrong++;
                note(tally, `single (${p.x}, ${p.y}): ${who(single.value)} != ${p.answer}`);
              }
            }
          }
        }
      } finally {
        counter.restore();
      }
      const seconds = (performance.now() - started) / 1000;
      const growth = (rss() - rssBefore) / 2 ** 20;
      const created = counter.count();
      printSummary('soak', {
        picks,
        calls: tally.calls,
        checked: tally.checked,
        wrong: tally.wrong,
        untyped: tally.untyped,
        hangs: tally.hangs,
        gpuObjectsCreatedAfterWarmup: created,
        rssGrowthMiB: growth.toFixed(1),
        gcExposed: String(typeof (globalThis as { gc?: unknown }).gc === 'function'),
        seconds: seconds.toFixed(1),
      });
      expect(tally.failures).toEqual([]);
      expect(picks).toBeGreaterThanOrEqual(10_000);
      expect(tally.checked).toBeGreaterThan(5_000);
      expect(tally.wrong + tally.untyped + tally.hangs + tally.typedRejections).toBe(0);
      expect(created).toBe(0);
    },
  );
});
