import { describe, expect, test } from 'vitest';
import { mat4, vec3 } from 'wgpu-matrix';
import { createMeshFromData } from '../../../engine/mesh.js';
import { makeCapsuleData, makeTorusData } from '../../../engine/primitives/index.js';
import {
  type AnalyticTwin,
  CpuPickError,
  pickWithRaySync,
  polynomialRootsInInterval,
  raycastEntity,
} from '../../../picking/cpu/index.js';
import { makeCpuScene, mulberry32 } from './scene-fixtures.js';

type V3 = [number, number, number];
const identity = (): Float32Array => mat4.identity() as Float32Array;

describe('polynomial roots (derivative isolation + bisection)', () => {
  test('simple, double and absent roots; wide coefficient ranges', () => {
    // (x−1)(x−2)(x−3)(x−4) = x⁴ − 10x³ + 35x² − 50x + 24
    expect(polynomialRootsInInterval([24, -50, 35, -10, 1], -10, 10).map((r) => +r.toFixed(12))).toEqual([1, 2, 3, 4]);
    expect(polynomialRootsInInterval([24, -50, 35, -10, 1], 1.5, 3.5).map((r) => +r.toFixed(12))).toEqual([2, 3]);
    expect(polynomialRootsInInterval([1, 0, 0, 0, 1], -100, 100)).toEqual([]); // x⁴ + 1
    // (x−0.3)²(x−3)(x+2): the double root is a tangent, found only through the touch tolerance.
    const times = (p: number[], q: number[]): number[] =>
      p
        .flatMap((a, i) => q.map((b, j) => [i + j, a * b] as const))
        .reduce((c, [k, v]) => ((c[k] = (c[k] ?? 0) + v), c), [] as number[]);
    const tangent = times(times([-0.3, 1], [-0.3, 1]), times([-3, 1], [2, 1]));
    expect(polynomialRootsInInterval(tangent, -5, 5, 1e-12).map((r) => +r.toFixed(6))).toEqual([-2, 0.3, 3]);
    expect(polynomialRootsInInterval(tangent, -5, 5).map((r) => +r.toFixed(6))).toEqual([-2, 3]); // no tolerance: the tangent is lost
    // Roots 1e-3 and 1e3 together.
    const wide = polynomialRootsInInterval([1, -1000.001, 1], 0, 1e4);
    expect(wide[0]).toBeCloseTo(1e-3, 12);
    expect(wide[1] / 1000).toBeCloseTo(1, 12);
  });
});

describe('analytic twins: exact ray intersections', () => {
  test('sphere, box and capsule against closed forms, including non-uniform world matrices and rays from inside', () => {
    const sphere: AnalyticTwin = {
      kind: 'sphere',
      name: 's',
      radius: 1,
      worldMatrix: mat4.multiply(mat4.translation([0, 0, -2]), mat4.scaling([2, 2, 2])),
    };
    const s = raycastEntity(sphere, [0, 0, 10], [0, 0, -1])!;
    expect(s.distance).toBeCloseTo(10, 12);
    expect(s.normal).toEqual([0, 0, 1]);
    expect(raycastEntity(sphere, [0, 0, -2], [1, 0, 0])!.distance).toBeCloseTo(2, 12); // from the centre: the far side
    expect(raycastEntity(sphere, [0, 2.0001, 10], [0, 0, -1])).toBeNull();
    const box: AnalyticTwin = {
      kind: 'box',
      name: 'b',
      halfExtents: [1, 2, 3],
      worldMatrix: mat4.multiply(mat4.rotationY(Math.PI / 2), mat4.scaling([1, 1, 0.5])),
    };
    const b = raycastEntity(box, [10, 0.5, 0.2], [-1, 0, 0])!; // local z (half 1.5 after scale) maps to world x
    expect(b.distance).toBeCloseTo(8.5, 12);
    b.normal.forEach((v, i) => expect(v).toBeCloseTo([1, 0, 0][i], 12));
    expect(raycastEntity(box, [0, 0, 0], [0, 1, 0])!.distance).toBeCloseTo(2, 12);
    const capsule: AnalyticTwin = { kind: 'capsule', name: 'c', radius: 0.5, height: 3, worldMatrix: identity() };
    expect(raycastEntity(capsule, [5, 0.9, 0], [-1, 0, 0])!.distance).toBeCloseTo(4.5, 12); // side
    expect(raycastEntity(capsule, [0, 9, 0], [0, -1, 0])!.distance).toBeCloseTo(7.5, 12); // top cap pole
    const cap = raycastEntity(capsule, [5, 1.3, 0], [-1, 0, 0])!; // through the cap sphere above the cylinder
    expect(cap.distance).toBeCloseTo(5 - Math.sqrt(0.25 - 0.3 ** 2), 12);
    expect(raycastEntity(capsule, [5, 1.81, 0], [-1, 0, 0])).toBeNull();
    // From inside, up and sideways: it leaves through the top cap, not through the cap sphere's hidden lower half.
    const exit = raycastEntity(
      capsule,
      [0, 0, 0],
      [0.3, 1, 0].map((v) => v / Math.hypot(0.3, 1)),
    )!;
    expect(exit.point[1]).toBeGreaterThan(1);
    expect(Math.hypot(exit.point[0], exit.point[1] - 1, exit.point[2])).toBeCloseTo(0.5, 12);
  });

  test('torus: axis hole, tube centre, tangent (double root) grazing, far origins', () => {
    const torus: AnalyticTwin = { kind: 'torus', name: 't', radius: 1, tube: 0.25, worldMatrix: identity() };
    expect(raycastEntity(torus, [0, 5, 0], [0, -1, 0])).toBeNull(); // straight down the hole
    expect(raycastEntity(torus, [1, 5, 0], [0, -1, 0])!.distance).toBeCloseTo(4.75, 12);
    expect(raycastEntity(torus, [5, 0, 0], [-1, 0, 0])!.distance).toBeCloseTo(3.75, 12);
    expect(raycastEntity(torus, [0, 0, 0], [0, 0, 1])!.distance).toBeCloseTo(0.75, 12); // from the hole's centre
    expect(raycastEntity(torus, [1, 0, 0], [0, 0, 1])!.distance).toBeCloseTo(Math.sqrt(1.25 ** 2 - 1) - 0, 6); // from inside the tube
    const tangent = raycastEntity(torus, [5, 0.25, 0], [-1, 0, 0]); // grazes the top circle of the tube: a double root
    expect(tangent).not.toBeNull();
    expect(tangent!.distance).toBeCloseTo(4, 3);
    const thin: AnalyticTwin = { kind: 'torus', name: 't3', radius: 1.1, tube: 0.3, worldMatrix: identity() };
    expect(raycastEntity(thin, [5, 0.3, 0.1], [-1, 0, 0])?.distance).toBeCloseTo(5 - Math.sqrt(1.1 ** 2 - 0.01), 3); // inexact tangent
    expect(raycastEntity(torus, [5, 0.2500001, 0], [-1, 0, 0])).toBeNull();
    expect(raycastEntity(torus, [5, 0.2499, 0], [-1, 0, 0])!.distance).toBeCloseTo(
      4 - Math.sqrt(0.25 ** 2 - 0.2499 ** 2),
      6,
    );
    const far = raycastEntity(torus, [1e5, 0.1, 0.2], [-1, 0, 0])!;
    expect(far.distance).toBeCloseTo(
      1e5 - (1 + Math.sqrt(0.25 ** 2 - 0.1 ** 2)) * Math.cos(Math.asin(0.2 / (1 + Math.sqrt(0.0525)))),
      4,
    );
    expect(() => raycastEntity({ ...torus, tube: 2 } as AnalyticTwin, [0, 0, 5], [0, 0, -1])).toThrow(CpuPickError);
    expect(() =>
      raycastEntity({ ...torus, worldMatrix: new Float32Array(16) } as AnalyticTwin, [0, 0, 5], [0, 0, -1]),
    ).toThrow(/invertible/);
  });

  test.each(['torus', 'capsule'] as const)(
    '%s twin agrees with a finely tessellated mesh under a skewed world matrix',
    (kind) => {
      const world = mat4.multiply(
        mat4.translation([0.3, -0.2, 0.1]),
        mat4.multiply(mat4.rotation([1, 2, 3], 0.7), mat4.scaling([1.5, 0.8, 1.2])),
      ) as Float32Array;
      const scene = makeCpuScene();
      const data =
        kind === 'torus'
          ? makeTorusData({ radius: 1, tube: 0.3, radialSegments: 256, tubularSegments: 512 })
          : makeCapsuleData({ radius: 0.4, height: 2, segments: 512, capRings: 128 });
      createMeshFromData(scene, kind, data, { worldMatrix: world });
      const twin: AnalyticTwin =
        kind === 'torus'
          ? { kind, name: kind, radius: 1, tube: 0.3, worldMatrix: world }
          : { kind, name: kind, radius: 0.4, height: 2, worldMatrix: world };
      const rand = mulberry32(kind === 'torus' ? 1 : 2);
      let agree = 0;
      let hits = 0;
      const n = 2000;
      for (let i = 0; i < n; i++) {
        const origin: V3 = [(rand() - 0.5) * 10, (rand() - 0.5) * 10, (rand() - 0.5) * 10];
        const direction = Array.from(
          vec3.normalize(vec3.sub([(rand() - 0.5) * 3, (rand() - 0.5) * 3, (rand() - 0.5) * 3], origin)),
        ) as V3;
        const exact = raycastEntity(twin, origin, direction);
        const mesh = pickWithRaySync(scene, { origin, direction });
        if (exact) hits++;
        if (!exact && !mesh.hit) agree++;
        else if (exact && mesh.hit && Math.abs(exact.distance - mesh.distance) < 2e-3) agree++;
      }
      console.log(
        `[cpu-pick twins] ${kind}: exact twin vs tessellated mesh agree on ${agree}/${n} random rays (${hits} hits)`,
      );
      expect(hits).toBeGreaterThan(n * 0.2);
      expect(agree / n).toBeGreaterThanOrEqual(0.995); // the rest graze a silhouette the tessellation cuts
    },
  );
});
