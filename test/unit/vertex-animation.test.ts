import { mat4 } from 'wgpu-matrix';
import { describe, expect, test } from 'vitest';
import {
  createMeshFromData,
  createScene,
  deformVertexOnCpu,
  EngineError,
  type Engine,
  makeBoxData,
  makeSkeleton,
  makeVertexAnimation,
  MeshDataError,
  type MeshOptions,
  type Scene,
  setThinInstances,
} from '../../engine/index.js';
import { deformedLocalBounds } from '../../engine/mesh-deformation.js';
import { vertexAnimationRow } from '../../engine/vertex-animation.js';
import { animateOnCpu, clipRow, crowdFrames, crowdInstances, twoBoneBox } from '../support/vat-reference.js';

const crowd = () => makeVertexAnimation({ name: 'crowd', frames: crowdFrames(), boneCount: 2, frameCount: 4 });
const cpuScene = () => createScene({} as Engine);

/** Expects `createMeshFromData` to throw a MeshDataError for `field` matching `message`, leaving the scene untouched. */
function expectRefused(options: MeshOptions, field: string, message: string | RegExp, data = twoBoneBox()): void {
  const scene: Scene = cpuScene();
  const before = { meshes: scene.meshes.length, structure: scene.structureVersion, next: scene.nextMeshId };
  let error: unknown;
  try {
    createMeshFromData(scene, 'walker', data, options);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(MeshDataError);
  expect((error as MeshDataError).field).toBe(field);
  expect((error as Error).message).toMatch(/^createMeshFromData: mesh "walker", field /);
  expect((error as Error).message).toMatch(message);
  expect({ meshes: scene.meshes.length, structure: scene.structureVersion, next: scene.nextMeshId }).toEqual(before);
}

describe('makeVertexAnimation', () => {
  test('refuses frames of the wrong size, bad counts, non-finite and non-affine matrices, naming the value and what is allowed', () => {
    const refuse = (options: Parameters<typeof makeVertexAnimation>[0], message: string) => {
      expect(() => makeVertexAnimation(options)).toThrow(EngineError);
      expect(() => makeVertexAnimation(options)).toThrow(message);
    };
    refuse(
      { frames: new Float32Array(31), boneCount: 2, frameCount: 1 },
      'makeVertexAnimation: VAT texture of the wrong size: frames Float32Array(31) must be a Float32Array of frameCount × boneCount × 16 = 1 × 2 × 16 = 32 floats',
    );
    refuse(
      { frames: [1, 2] as unknown as Float32Array, boneCount: 1, frameCount: 1 },
      'frames array(2) must be a Float32Array',
    );
    refuse(
      { frames: new Float32Array(16), boneCount: 0, frameCount: 1 },
      'makeVertexAnimation: boneCount 0 must be a positive integer',
    );
    refuse(
      { frames: new Float32Array(16), boneCount: 1, frameCount: 1.5 },
      'frameCount 1.5 must be a positive integer',
    );
    const frames = crowdFrames();
    frames[(1 * 2 + 1) * 16 + 5] = NaN;
    refuse({ frames, boneCount: 2, frameCount: 4 }, 'frames: frame 1 bone 1 lane 5 is NaN; every value must be finite');
    const projective = crowdFrames();
    projective[3] = 0.5;
    refuse(
      { frames: projective, boneCount: 2, frameCount: 4 },
      'frames: frame 0 bone 0 lane 3 is 0.5; bone matrices must be affine',
    );
  });

  test('keeps its own copy of the frames', () => {
    const frames = crowdFrames();
    const vat = makeVertexAnimation({ frames, boneCount: 2, frameCount: 4 });
    frames[12] = 99;
    expect(vat.frames[12]).toBe(0);
    expect(vat.name).toBe('vertex-animation');
  });

  test('the row formula: fromFrame + floor(mod(time·speed + offset, toFrame − fromFrame + 1)), negative phases wrap', () => {
    const cases: [number, number, number, number, number][] = [
      [0, 3, 0, 1, 0.25],
      [0, 3, 1, 2, 1.6],
      [0, 3, 3.5, -1, 1.6],
      [1, 3, 0.5, 1.25, 2.1],
      [2, 5, -7.2, 0.5, 0.3],
      [4, 4, 0, 10, 3.3],
    ];
    for (const [from, to, offset, speed, time] of cases) {
      expect(vertexAnimationRow([from, to, offset, speed], 0, time, 8), `${[from, to, offset, speed, time]}`).toBe(
        clipRow(from, to, offset, speed, time),
      );
    }
    expect(vertexAnimationRow([0, 3, 3.5, -1], 0, 1.6, 4)).toBe(1);
  });
});

describe('VAT meshes are validated at creation', () => {
  test('joints beyond the bones, bad weights, a skeleton or morph targets as well, bad playback, playback without VAT', () => {
    const vertexAnimation = crowd();
    const data = twoBoneBox();
    const threeBones = { ...data, joints: data.joints!.map((j, i) => (i === 4 ? 2 : j)) };
    expectRefused(
      { vertexAnimation },
      'joints',
      'vertex 1 uses bone 2; vertex animation "crowd" has 2 bones (0..1)',
      threeBones,
    );
    expectRefused(
      { vertexAnimation },
      'weights',
      'vertex 0 weights sum to 0.7000; influences must be non-negative and sum to 1',
      { ...data, weights: data.weights!.map((w, i) => (i === 0 ? 0.7 : w)) },
    );
    expectRefused(
      { vertexAnimation, skeleton: makeSkeleton(2) },
      'vertexAnimation',
      'is given together with skeleton "skeleton"; choose one',
    );
    expectRefused(
      { vertexAnimation, morphTargets: { positions: [new Float32Array(data.positions!.length)] } },
      'vertexAnimation',
      'with morphTargets is not supported yet',
    );
    expectRefused(
      { vertexAnimation },
      'joints',
      'is missing: vertex animation "crowd" needs joints and weights',
      makeBoxData(),
    );
    expectRefused(
      { vertexAnimation: {} as never },
      'vertexAnimation',
      'expected a VertexAnimation from makeVertexAnimation, got [object Object]',
    );
    expectRefused(
      { vertexAnimationPlayback: new Float32Array(12) },
      'vertexAnimationPlayback',
      'is given without the vertexAnimation option',
      makeBoxData(),
    );
    const { matrices, playback } = crowdInstances();
    expectRefused(
      { vertexAnimation, thinInstances: matrices, vertexAnimationPlayback: playback.subarray(0, 12) },
      'vertexAnimationPlayback',
      'expected 60 numbers (12 per instance, 5 instances), got Float32Array(12)',
    );
    expectRefused(
      { vertexAnimation, vertexAnimationPlayback: [0, 3, 0, 1] },
      'vertexAnimationPlayback',
      'expected 12 numbers (12 per mesh), got array(4)',
    );
    expectRefused(
      { vertexAnimation, vertexAnimationPlayback: [0, 3, 0, Infinity, 0, 3, 0, 1, 0, 0, 0, 0] },
      'vertexAnimationPlayback',
      'record 0 holds a non-finite number (Infinity)',
    );
    expectRefused(
      { vertexAnimation, vertexAnimationPlayback: [0, 3, 0, 1, 2, 4, 0, 1, 0, 0, 0, 0] },
      'vertexAnimationPlayback',
      'record 0 clip B frames 2..4 must be integers with 0 ≤ fromFrame ≤ toFrame ≤ 3',
    );
    expectRefused(
      { vertexAnimation, vertexAnimationPlayback: [0, 3, 0, 1, 0, 3, 0, 1, 1.5, 0, 0, 0] },
      'vertexAnimationPlayback',
      'record 0 weightB 1.5 must be in 0..1',
    );
  });

  test('a texture over maxTextureDimension2D (8192 without a device) is refused', () => {
    const boneCount = 2049;
    const frames = new Float32Array(boneCount * 16);
    for (let b = 0; b < boneCount; b++) frames.set(mat4.identity(), b * 16);
    expectRefused(
      { vertexAnimation: makeVertexAnimation({ frames, boneCount, frameCount: 1 }) },
      'vertexAnimation',
      'needs a 8196 × 1 texture (4 texels per bone × frames); the device allows at most 8192 × 8192',
    );
  });

  test('setThinInstances with a new instance count needs matching playback; a failed call changes nothing', () => {
    const { matrices, playback } = crowdInstances();
    const mesh = createMeshFromData(cpuScene(), 'crowd', twoBoneBox(), {
      vertexAnimation: crowd(),
      thinInstances: matrices,
      vertexAnimationPlayback: playback,
    });
    const version = mesh.thinInstanceVersion;
    expect(() => setThinInstances(mesh, matrices.subarray(0, 32))).toThrow(
      'setThinInstances: mesh "crowd", field "vertexAnimationPlayback": is missing: the mesh\'s vertex animation has 5 playback records and the new instances need 2',
    );
    expect(() => setThinInstances(mesh, null, new Float32Array(24))).toThrow(
      'expected 12 numbers (12 per mesh), got Float32Array(24)',
    );
    expect([mesh.thinInstanceCount, mesh.thinInstanceVersion, mesh.vertexAnimationPlayback.length]).toEqual([
      5,
      version,
      60,
    ]);
    setThinInstances(mesh, matrices.subarray(16, 48), playback.subarray(12, 36));
    expect([mesh.thinInstanceCount, mesh.vertexAnimationPlayback.length]).toEqual([2, 24]);
    setThinInstances(mesh, matrices.subarray(0, 32)); // same count: the records stay
    expect(() =>
      setThinInstances(createMeshFromData(cpuScene(), 'plain', makeBoxData()), null, new Float32Array(12)),
    ).toThrow('field "vertexAnimationPlayback": is given but the mesh has no vertex animation');
  });
});

describe('VAT on the CPU', () => {
  test("deformVertexOnCpu follows each instance's playback; the conservative bounds hold every pose", () => {
    const data = twoBoneBox();
    const { matrices, playback } = crowdInstances();
    playback.set([0, 3, 0.5, 1, 2, 3, 0, -2, 0.35, 0, 0, 0], 24); // instance 2 blends two clips
    const mesh = createMeshFromData(cpuScene(), 'crowd', data, {
      vertexAnimation: crowd(),
      thinInstances: matrices,
      vertexAnimationPlayback: playback,
    });
    expect(mesh.vertexAnimationPlayback).not.toBe(playback);
    const bounds = deformedLocalBounds(mesh);
    let checked = 0;
    for (const time of [0, 0.25, 0.7, 1.6, 2.45, 9.1]) {
      mesh.vertexAnimationTime = time;
      for (let i = 0; i < 5; i++) {
        const expected = animateOnCpu(data, crowdFrames(), 2, playback.subarray(i * 12, i * 12 + 12), time);
        for (let v = 0; v < mesh.geometry.vertexCount; v++) {
          const p = deformVertexOnCpu(mesh, v, [0, 0, 0], i);
          for (let c = 0; c < 3; c++) {
            expect(p[c]).toBeCloseTo(expected[v * 3 + c], 5);
            expect(p[c]).toBeGreaterThanOrEqual(bounds.min[c] - 1e-5);
            expect(p[c]).toBeLessThanOrEqual(bounds.max[c] + 1e-5);
          }
          checked++;
        }
      }
    }
    expect(checked).toBe(6 * 5 * 24);
    expect(() => deformVertexOnCpu(mesh, 0, [0, 0, 0], 5)).toThrow(
      'deformVertexOnCpu: mesh "crowd", field "instance": 5 is not a playback record in 0..4',
    );
  });

  test('a mesh without playback plays every frame at speed 1, one row per second', () => {
    const mesh = createMeshFromData(cpuScene(), 'walker', twoBoneBox(), { vertexAnimation: crowd() });
    expect(Array.from(mesh.vertexAnimationPlayback)).toEqual([0, 3, 0, 1, 0, 3, 0, 1, 0, 0, 0, 0]);
    const lower = Array.from({ length: mesh.geometry.vertexCount }, (_, v) => v).find(
      (v) => mesh.positions[v * 3 + 1] < 0,
    )!;
    mesh.vertexAnimationTime = 2.5; // row 2: bone 0 lifts by 0.6 · 2 − 0.9 = 0.3
    expect(deformVertexOnCpu(mesh, lower)[1]).toBeCloseTo(mesh.positions[lower * 3 + 1] + 0.3, 5);
  });
});
