// Reliability suite part 1 (issue #16): concurrent picks with scene mutations across every await point — warm, cold
// rule compiles, a device loss — each answer checked against a CPU ray cast on the scene copied at the call.
import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import {
  createBoxMesh,
  createScene,
  disposeMesh,
  type Engine,
  makePerspectiveCamera,
  type Scene,
  setMeshWorldMatrix,
  setThinInstances,
  whenEngineReadyAsync,
} from '../../engine/index.js';
import {
  createGpuPicker,
  type GpuPicker,
  type PickDiscardRule,
  pickAsync,
  pickManyAsync,
  pickRectAsync,
} from '../../picking/index.js';
import { gpuTest } from '../support/gpu.js';
import { makeRandom } from '../support/random.js';
import {
  answerAt,
  copyScene,
  makeTally,
  note,
  printSummary,
  type ReferenceDiscard,
  type SceneCopy,
  settle,
  stableAnswerAt,
  type Tally,
  who,
} from '../support/reliability.js';

const eye: [number, number, number] = [0, 0, 8];

function rowInstances(count: number, dx: number): Float32Array {
  const data = new Float32Array(count * 16);
  for (let i = 0; i < count; i++) data.set(mat4.translation([(i - (count - 1) / 2) * 1.6 + dx, 0, 0]), i * 16);
  return data;
}

function makeScene(engine: Engine): Scene {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: eye, target: [0, 0, 0], fovY: 0.8 });
  createBoxMesh(scene, 'wall', { width: 14, height: 9, depth: 0.2 }, { worldMatrix: mat4.translation([0, 0, -2]) });
  createBoxMesh(scene, 'front', { width: 2, height: 1, depth: 1 }, { worldMatrix: mat4.translation([-1, 1.5, 0]) });
  createBoxMesh(scene, 'row', {}, { worldMatrix: mat4.translation([0, -1, 0]), thinInstances: rowInstances(3, 0) });
  return scene;
}

/** One random mutation of a kind a pick reads. */
function mutate(scene: Scene, random: () => number, serial: { n: number }): void {
  const kind = Math.floor(random() * 4);
  const front = scene.meshes.find((m) => m.name === 'front');
  const row = scene.meshes.find((m) => m.name === 'row');
  if (kind === 0 && front)
    setMeshWorldMatrix(front, mat4.translation([random() * 4 - 2, random() * 3 - 1.5, random() * 1.5]));
  else if (kind === 1 && row) setThinInstances(row, rowInstances(1 + Math.floor(random() * 4), random() * 2 - 1));
  else if (kind === 2 || scene.meshes.filter((m) => m.name.startsWith('added')).length < 2)
    createBoxMesh(
      scene,
      `added${serial.n++}`,
      { width: 0.5 + random() * 2, height: 0.5 + random() * 2, depth: 0.3 },
      { worldMatrix: mat4.translation([random() * 6 - 3, random() * 4 - 2, random() * 2 - 0.5]) },
    );
  else {
    const added = scene.meshes.filter((m) => m.name.startsWith('added'));
    disposeMesh(added[Math.floor(random() * added.length)]);
  }
}

/** A rule and the same discard in world space for the reference; `cold` gives a text never seen before. */
function makeRule(random: () => number, serial: { n: number }): { rule: PickDiscardRule; discard: ReferenceDiscard } {
  if (random() < 0.5) {
    // A cold compile that keeps everything (a threshold far out of the scene).
    const k = serial.n++;
    return {
      rule: {
        key: 'cold',
        wgsl: `fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.worldPos.y > ${100 + k}.0;\n}`,
      },
      discard: null,
    };
  }
  // A warm rule that really discards: everything right of x = 1.
  return {
    rule: {
      key: 'right',
      wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.worldPos.x > 1.0;\n}',
    },
    discard: (p) => p[0] > 1,
  };
}

type Check = (tally: Tally) => Promise<void>;

/** Starts one random pick now (copying the scene first) and returns how to check it later. */
function startPick(
  engine: Engine,
  scene: Scene,
  picker: GpuPicker,
  random: () => number,
  serial: { n: number },
  label: string,
): Check {
  const copy: SceneCopy = copyScene(engine, scene, eye);
  const withRule = random() < 0.4 ? makeRule(random, serial) : null;
  const options = withRule ? { discard: withRule.rule } : undefined;
  const discard = withRule?.discard ?? null;
  const pixel = () => ({ x: Math.floor(random() * engine.width), y: Math.floor(random() * engine.height) });
  const kind = random();
  if (kind < 0.35) {
    const p = pixel();
    const expected = stableAnswerAt(copy, p.x, p.y, discard);
    const pending = pickAsync(picker, p.x, p.y, options);
    return async (tally) => {
      const r = await settle(tally, `${label} pickAsync`, pending);
      if (!r.ok || !expected.stable) return;
      tally.checked++;
      if (who(r.value) !== expected.answer) {
        tally.wrong++;
        note(tally, `${label} pickAsync (${p.x}, ${p.y}): ${who(r.value)} != ${expected.answer}`);
      }
    };
  }
  if (kind < 0.75) {
    const points = Array.from({ length: 8 + Math.floor(random() * 24) }, pixel);
    const expected = points.map((p) => stableAnswerAt(copy, p.x, p.y, discard));
    const pending = pickManyAsync(picker, points, options);
    return async (tally) => {
      const r = await settle(tally, `${label} pickManyAsync`, pending);
      if (!r.ok) return;
      r.value.forEach((info, i) => {
        if (!expected[i].stable) return;
        tally.checked++;
        if (who(info) === expected[i].answer) return;
        tally.wrong++;
        note(tally, `${label} pickManyAsync (${points[i].x}, ${points[i].y}): ${who(info)} != ${expected[i].answer}`);
      });
    };
  }
  const w = 2 + Math.floor(random() * 10);
  const h = 2 + Math.floor(random() * 10);
  const x = Math.floor(random() * (engine.width - w));
  const y = Math.floor(random() * (engine.height - h));
  const required = new Set<string>();
  const allowed = new Set<string>();
  for (let py = y; py < y + h; py++)
    for (let px = x; px < x + w; px++) {
      const s = stableAnswerAt(copy, px, py, discard);
      if (s.stable) required.add(s.answer);
      allowed.add(s.answer);
      for (const a of s.around) allowed.add(a);
    }
  required.delete('miss');
  allowed.delete('miss');
  const pending = pickRectAsync(picker, x, y, w, h, options);
  return async (tally) => {
    const r = await settle(tally, `${label} pickRectAsync`, pending);
    if (!r.ok) return;
    tally.checked++;
    const got = new Set(
      r.value.map((id) => `${id.mesh?.name}${id.thinInstanceIndex >= 0 ? `#${id.thinInstanceIndex}` : ''}`),
    );
    const missing = [...required].filter((a) => !got.has(a));
    const extra = [...got].filter((a) => !allowed.has(a));
    if (missing.length || extra.length) {
      tally.wrong++;
      note(tally, `${label} pickRectAsync ${x},${y} ${w}x${h}: missing [${missing}] extra [${extra}]`);
    }
  };
}

describe('reliability: concurrent picks with mutations (issue #16)', () => {
  gpuTest(
    'picks in flight across mutations, cold compiles and a device loss answer as at the call',
    async ({ engine }) => {
      const random = makeRandom(0x5eed16);
      const scene = makeScene(engine);
      const picker = createGpuPicker(scene);
      const serial = { n: 0 };
      const tally = makeTally();
      let mutations = 0;
      // Sanity: the reference sees the scene (some pixels hit).
      const first = copyScene(engine, scene, eye);
      expect(answerAt(first, 32, 32)).not.toBe('miss');
      const rounds = 24;
      const lossRound = 7;
      for (let round = 0; round < rounds; round++) {
        const checks: Check[] = [];
        const inFlight = 6 + Math.floor(random() * 6);
        for (let i = 0; i < inFlight; i++) {
          checks.push(startPick(engine, scene, picker, random, serial, `round ${round} call ${i}`));
          const steps = Math.floor(random() * 3);
          for (let s = 0; s < steps; s++, mutations++) mutate(scene, random, serial);
          if (round === lossRound && i === 2) engine.device.destroy();
        }
        for (const check of checks) await check(tally);
        if (round === lossRound) await whenEngineReadyAsync(engine);
      }
      // After everything: one more checked pick on the final scene.
      const last = startPick(engine, scene, picker, random, serial, 'final');
      await last(tally);
      printSummary('concurrent picks', {
        calls: tally.calls,
        mutations,
        checked: tally.checked,
        wrong: tally.wrong,
        untyped: tally.untyped,
        hangs: tally.hangs,
        typedRejections: tally.typedRejections,
      });
      expect(tally.failures).toEqual([]);
      expect(tally.checked).toBeGreaterThan(tally.calls);
      expect(tally.wrong).toBe(0);
      expect(tally.untyped).toBe(0);
      expect(tally.hangs).toBe(0);
    },
  );
});
