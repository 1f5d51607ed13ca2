import { describe, expect } from 'vitest';
import { WeftError } from '../../core/errors.js';
import {
  createEngineAsync,
  disposeEngine,
  type Engine,
  renderFrame,
  resizeEngine,
  type Scene,
  setThinInstances,
} from '../../engine/index.js';
import { createGpuPicker, type GpuPicker, pickManyAsync, pickRectAsync } from '../../picking/index.js';
import { getNodeGpu, gpuTest } from '../support/gpu.js';
import { makeRandom } from '../support/random.js';
import {
  copyScene,
  eye,
  makeScene,
  makeTally,
  note,
  printSummary,
  rectMismatch,
  settle,
  stableAnswerAt,
  type Tally,
  who,
} from '../support/reliability.js';

/** A checked pickManyAsync over `count` seeded pixels: every unambiguous answer equals the reference. */
async function checkedPicks(
  tally: Tally,
  label: string,
  engine: Engine,
  scene: Scene,
  picker: GpuPicker,
  count: number,
  seed: number,
): Promise<void> {
  const random = makeRandom(seed);
  const copy = copyScene(engine, scene, eye);
  const points = Array.from({ length: count }, () => ({
    x: Math.floor(random() * engine.width),
    y: Math.floor(random() * engine.height),
  }));
  const expected = points.map((p) => stableAnswerAt(copy, p.x, p.y));
  const r = await settle(tally, label, pickManyAsync(picker, points));
  if (!r.ok) {
    tally.wrong++;
    note(tally, `${label}: a valid pick did not answer`);
    return;
  }
  r.value.forEach((info, i) => {
    if (!expected[i].stable) return;
    tally.checked++;
    if (who(info) === expected[i].answer) return;
    tally.wrong++;
    note(tally, `${label} (${points[i].x}, ${points[i].y}): ${who(info)} != ${expected[i].answer}`);
  });
}

/** Runs a call that must be refused with a typed error. */
async function refused(tally: Tally, label: string, call: () => unknown): Promise<void> {
  tally.calls++;
  try {
    await call();
    tally.wrong++;
    note(tally, `${label}: accepted, expected a typed refusal`);
  } catch (error) {
    if (error instanceof WeftError) tally.typedRejections++;
    else {
      tally.untyped++;
      note(tally, `${label}: untyped ${String(error)}`);
    }
  }
}

describe('reliability: limits on purpose (issue #16)', () => {
  gpuTest('each limit hit on purpose, then the next call answers right', async ({ engine }) => {
    const tally = makeTally();
    const scene = makeScene(engine);
    const picker = createGpuPicker(scene);
    const limits = engine.device.limits;
    await checkedPicks(tally, 'before', engine, scene, picker, 64, 1);

    // Thin instances past maxBufferSize (64 B each): refused, the mesh keeps its 3 instances.
    const row = scene.meshes.find((m) => m.name === 'row')!;
    const tooMany = Math.floor(limits.maxBufferSize / 64) + 1;
    await refused(tally, 'setThinInstances past maxBufferSize', () =>
      setThinInstances(row, new Float32Array(tooMany * 16)),
    );
    expect(row.thinInstanceCount).toBe(3);
    expect(renderFrame(scene)).toBe(true);
    await checkedPicks(tally, 'after thin instances', engine, scene, picker, 64, 2);

    // Engine size past maxTextureDimension2D: createEngineAsync and resizeEngine refuse.
    const max = limits.maxTextureDimension2D;
    await refused(tally, 'createEngineAsync past maxTextureDimension2D', async () => {
      const wide = await createEngineAsync(getNodeGpu(), { width: max + 1, height: 1 });
      disposeEngine(wide);
    });
    await refused(tally, 'resizeEngine past maxTextureDimension2D', () =>
      resizeEngine(engine, { width: 64, height: max + 1 }),
    );
    expect([engine.width, engine.height]).toEqual([64, 64]);
    await checkedPicks(tally, 'after engine sizes', engine, scene, picker, 64, 3);

    // Oversize marquee (wider than maxTextureDimension2D): read in tiles, checked against the reference.
    const wide = { width: max + 100, height: 1 };
    const rect = await settle(
      tally,
      'oversize pickRectAsync',
      pickRectAsync(picker, 0, 0, wide.width, 1, { viewport: wide }),
    );
    if (rect.ok) {
      tally.checked++;
      const mismatch = rectMismatch(
        copyScene(engine, scene, eye, wide),
        { x: 0, y: 0, w: wide.width, h: 1 },
        rect.value,
      );
      if (mismatch) {
        tally.wrong++;
        note(tally, `oversize pickRectAsync ${wide.width}x1: ${mismatch}`);
      }
    }
    const small = { x: 10, y: 10, w: 40, h: 40 };
    const next = await settle(
      tally,
      'pickRectAsync after oversize',
      pickRectAsync(picker, small.x, small.y, small.w, small.h),
    );
    if (next.ok) {
      tally.checked++;
      const mismatch = rectMismatch(copyScene(engine, scene, eye), small, next.value);
      if (mismatch) {
        tally.wrong++;
        note(tally, `pickRectAsync after oversize: ${mismatch}`);
      }
    }
    await checkedPicks(tally, 'after oversize marquee', engine, scene, picker, 64, 4);

    // 10 000 points in one call: they just work (split into passes as needed), then a small call.
    await checkedPicks(tally, '10 000 points', engine, scene, picker, 10_000, 5);
    await checkedPicks(tally, 'after 10 000 points', engine, scene, picker, 16, 6);

    printSummary('limits', {
      calls: tally.calls,
      checked: tally.checked,
      wrong: tally.wrong,
      untyped: tally.untyped,
      hangs: tally.hangs,
      typedRefusals: tally.typedRejections,
    });
    expect(tally.failures).toEqual([]);
    expect(tally.wrong + tally.untyped + tally.hangs).toBe(0);
    expect(tally.typedRejections).toBe(3);
  });
});
