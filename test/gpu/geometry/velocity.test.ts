import { mat4, vec3, vec4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import {
  createMeshFromData,
  createScene,
  type Engine,
  makeBoxData,
  makePerspectiveCamera,
  makeSphereData,
  makeTorusData,
  type Mesh,
  runTasks,
  type Scene,
  setMeshWorldMatrix,
  setThinInstances,
  type PerspectiveCamera,
} from '../../../engine/index.js';
import {
  createGeometryRendererTask,
  enableGeometryVelocity,
  excludeFromVelocity,
  type GeometryRendererTask,
  GeometryTextureType,
  includeInVelocity,
} from '../../../geometry/index.js';
import { gpuTest } from '../../support/gpu.js';
import { cameraPixelRay } from '../../support/camera-rays.js';
import { castReferenceRay, createReferenceScene, type ReferenceHit } from '../../support/reference-raycast.js';
import { cameraMatrices, type Pixels, readPixels } from './geometry-test-helpers.js';

interface Pose {
  camera: [number, number, number];
  box: Float32Array;
  instances: Float32Array;
}

function instanceMatrices(offset: number): Float32Array {
  const out = new Float32Array(3 * 16);
  [
    [-1.4, 0.6, 0],
    [0, 0.9, -0.6],
    [1.3, 0.5, 0.4],
  ].forEach((t, i) => {
    out.set(
      mat4.multiply(mat4.translation([t[0] + offset * (i - 1), t[1] + offset, t[2]]), mat4.rotationY(offset * 2 + i)),
      i * 16,
    );
    out[i * 16 + 7] = 5 + i; // payload lane
  });
  return out;
}

const poses: Pose[] = [
  {
    camera: [0.3, 1.1, 3.2],
    box: mat4.multiply(mat4.translation([-0.8, -0.4, 0.3]), mat4.rotationY(0.2)),
    instances: instanceMatrices(0),
  },
  {
    camera: [0.42, 1.04, 3.12],
    box: mat4.multiply(mat4.translation([-0.8, -0.4, 0.3]), mat4.rotationY(0.32)),
    instances: instanceMatrices(0.06),
  },
];

interface MotionScene {
  scene: Scene;
  box: Mesh;
  spheres: Mesh;
  torus: Mesh;
}

function buildScene(engine: Engine): MotionScene {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: poses[0].camera, target: [0, 0.2, 0], fovY: 0.9 });
  const box = createMeshFromData(scene, 'box', makeBoxData({ width: 1.2, height: 0.8, depth: 0.9 }), {
    worldMatrix: poses[0].box,
  });
  const spheres = createMeshFromData(scene, 'spheres', makeSphereData({ radius: 0.35, segments: 20, rings: 10 }), {
    thinInstances: poses[0].instances,
  });
  const torus = createMeshFromData(scene, 'torus', makeTorusData({ radius: 0.5, tube: 0.15 }), {
    worldMatrix: mat4.multiply(mat4.translation([0.9, -0.5, -0.4]), mat4.rotationX(1.2)),
  });
  return { scene, box, spheres, torus };
}

function applyPose(s: MotionScene, pose: Pose): void {
  (s.scene.camera as PerspectiveCamera).position.set(pose.camera);
  setMeshWorldMatrix(s.box, pose.box);
  setThinInstances(s.spheres, pose.instances);
}

function instanceWorld(_mesh: Mesh, world: Float32Array, instances: Float32Array | null, index: number): Float32Array {
  if (index < 0 || !instances) return world;
  const m = instances.slice(index * 16, index * 16 + 16);
  m[3] = m[7] = m[11] = 0;
  m[15] = 1;
  return mat4.multiply(world, m);
}

interface VelocityFigures {
  compared: number;
  moving: number;
  worst: number;
  worstDepth: number;
  failures: string[];
}

/**
 * Compares the velocity image of the frame at `current` (previous frame at `previous`) with the CPU projection of
 * each pixel's ray-cast hit point: (previousNDC - currentNDC) / 2, Y up. Meshes in `zero` must read exactly 0.
 */
function compareVelocity(
  s: MotionScene,
  image: Pixels,
  previous: Pose,
  current: Pose,
  zero: ReadonlySet<Mesh>,
  previousDepth: boolean,
): VelocityFigures {
  const { width, height } = image;
  const worlds = (pose: Pose) =>
    new Map<Mesh, [Float32Array, Float32Array | null]>([
      [s.box, [pose.box, null]],
      [s.spheres, [mat4.identity(), pose.instances]],
      [s.torus, [s.torus.worldMatrix, null]],
    ]);
  const before = worlds(previous);
  const now = worlds(current);
  const reference = createReferenceScene(
    [...now].map(([mesh, [world, instances]]) => ({
      id: mesh.uniqueId,
      positions: mesh.positions,
      indices: mesh.geometry.indices,
      worldMatrix: world,
      thinInstances: instances,
      doubleSided: false,
    })),
  );
  const camera = s.scene.camera as PerspectiveCamera;
  const at = (pose: Pose) => {
    camera.position.set(pose.camera);
    return cameraMatrices(s.scene, width / height);
  };
  const was = at(previous);
  const is = at(current);
  const cast = (x: number, y: number) => {
    const ray = cameraPixelRay(camera, x, y, width, height);
    return castReferenceRay(reference, ray.origin, ray.direction);
  };
  const same = (a: ReferenceHit | null, b: ReferenceHit | null) =>
    !a || !b ? a === b : a.meshId === b.meshId && a.thinInstanceIndex === b.thinInstanceIndex && a.faceId === b.faceId;
  const figures: VelocityFigures = { compared: 0, moving: 0, worst: 0, worstDepth: 0, failures: [] };
  const meshById = new Map([s.box, s.spheres, s.torus].map((m) => [m.uniqueId, m]));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const hit = cast(x, y);
      if (
        [
          [-0.05, 0],
          [0.05, 0],
          [0, -0.05],
          [0, 0.05],
        ].some(([dx, dy]) => !same(hit, cast(x + dx, y + dy)))
      )
        continue;
      const texel = image.at(x, y);
      if (!hit) {
        if (texel.some((v) => v !== 0) && figures.failures.length < 5)
          figures.failures.push(`(${x}, ${y}) background reads ${texel}`);
        continue;
      }
      const mesh = meshById.get(hit.meshId)!;
      let expected = [0, 0];
      let expectedDepth = 0;
      const currentWorld = instanceWorld(mesh, ...now.get(mesh)!, hit.thinInstanceIndex);
      const previousWorld = instanceWorld(mesh, ...before.get(mesh)!, hit.thinInstanceIndex);
      const local = vec3.transformMat4(hit.point, mat4.inverse(currentWorld));
      const then = vec3.transformMat4(local, previousWorld);
      expectedDepth = -vec3.transformMat4(then, was.view)[2];
      if (!zero.has(mesh)) {
        const a = vec4.transformMat4([...then, 1], was.viewProjection);
        const b = vec4.transformMat4([...hit.point, 1], is.viewProjection);
        expected = [(a[0] / a[3] - b[0] / b[3]) / 2, (a[1] / a[3] - b[1] / b[3]) / 2];
      }
      const error = Math.max(Math.abs(texel[0] - expected[0]), Math.abs(texel[1] - expected[1]));
      figures.compared++;
      if (Math.hypot(expected[0], expected[1]) > 1e-3) figures.moving++;
      figures.worst = Math.max(figures.worst, error);
      const exactZero = zero.has(mesh) && (texel[0] !== 0 || texel[1] !== 0);
      if ((error > 1e-3 || exactZero) && figures.failures.length < 5)
        figures.failures.push(
          `(${x}, ${y}) ${mesh.name}/${hit.thinInstanceIndex}: expected ${expected} got ${texel.slice(0, 2)}`,
        );
      if (previousDepth) {
        const depthError = Math.abs(
          texel[2] - (zero.has(mesh) ? -vec3.transformMat4(hit.point, is.view)[2] : expectedDepth),
        );
        figures.worstDepth = Math.max(figures.worstDepth, depthError / expectedDepth);
        if (depthError > 1e-4 * expectedDepth && figures.failures.length < 5)
          figures.failures.push(`(${x}, ${y}) previous depth ${texel[2]} vs ${expectedDepth}`);
      }
    }
  }
  camera.position.set(current.camera);
  return figures;
}

/** Largest |x| or |y| of a velocity image. */
function largestMotion(image: Pixels): number {
  let largest = 0;
  for (let i = 0; i < image.width * image.height; i++)
    largest = Math.max(largest, Math.abs(image.values[i * 4]), Math.abs(image.values[i * 4 + 1]));
  return largest;
}

function makeTask(s: MotionScene, format?: GPUTextureFormat): GeometryRendererTask {
  return createGeometryRendererTask(s.scene, {
    textureDescriptions: [{ type: GeometryTextureType.LINEAR_VELOCITY, format }],
  });
}

describe('LINEAR_VELOCITY against the CPU-projected motion of the ray-cast hit point', () => {
  gpuTest(
    'camera translation, mesh rotation and thin-instance motion; first frame and a stopped pose read zero',
    async ({ engine }) => {
      const s = buildScene(engine);
      const task = makeTask(s);
      runTasks(engine, [task]);
      const first = largestMotion(await readPixels(task.geometryLinearVelocityTexture!));
      expect(first, 'first frame: no history, zero motion').toBe(0);
      applyPose(s, poses[1]);
      runTasks(engine, [task]);
      const moving = compareVelocity(
        s,
        await readPixels(task.geometryLinearVelocityTexture!),
        poses[0],
        poses[1],
        new Set(),
        false,
      );
      console.log('[velocity: camera + rotation + thin instances]', {
        compared: moving.compared,
        moving: moving.moving,
        worst: moving.worst.toExponential(2),
      });
      expect(moving.failures).toEqual([]);
      expect(moving.compared).toBeGreaterThan(1500);
      expect(moving.moving).toBeGreaterThan(1500);
      runTasks(engine, [task]);
      const stoppedMotion = largestMotion(await readPixels(task.geometryLinearVelocityTexture!));
      console.log('[velocity: first frame and stopped pose]', { first, stopped: stoppedMotion });
      expect(stoppedMotion).toBe(0);
      task.dispose();
    },
    [96, 72],
  );

  gpuTest(
    'an excluded mesh writes exactly zero while the rest moves; re-included it starts from zero',
    async ({ engine }) => {
      const s = buildScene(engine);
      const task = makeTask(s);
      excludeFromVelocity(task, s.box);
      runTasks(engine, [task]);
      applyPose(s, poses[1]);
      runTasks(engine, [task]);
      const figures = compareVelocity(
        s,
        await readPixels(task.geometryLinearVelocityTexture!),
        poses[0],
        poses[1],
        new Set([s.box]),
        false,
      );
      console.log('[velocity: box excluded]', {
        compared: figures.compared,
        moving: figures.moving,
        worst: figures.worst.toExponential(2),
      });
      expect(figures.failures).toEqual([]);
      expect(figures.moving).toBeGreaterThan(800);
      includeInVelocity(task, s.box);
      applyPose(s, poses[0]);
      runTasks(engine, [task]);
      const back = compareVelocity(
        s,
        await readPixels(task.geometryLinearVelocityTexture!),
        poses[1],
        poses[0],
        new Set([s.box]),
        false,
      );
      expect(back.failures, 're-included: zero on its first frame, the others move').toEqual([]);
      task.dispose();
    },
    [96, 72],
  );

  gpuTest(
    'still draws take the still variant (exact zero, previous depth = current depth) beside a moving one; stopped then moved again, the motion is since the still frame',
    async ({ engine }) => {
      const s = buildScene(engine);
      const task = makeTask(s, 'rgba32float');
      enableGeometryVelocity(task, { previousDepth: true });
      const stillOf = () => new Map(task.state.draws.map((d) => [d.mesh.name, d.still]));
      runTasks(engine, [task]);
      expect(stillOf(), 'first frame: no history').toEqual(
        new Map([
          ['box', true],
          ['spheres', true],
          ['torus', true],
        ]),
      );
      // Only the box moves; camera, instances and torus stay.
      const boxMoved: Pose = { ...poses[0], box: poses[1].box };
      setMeshWorldMatrix(s.box, boxMoved.box);
      runTasks(engine, [task]);
      expect(stillOf()).toEqual(
        new Map([
          ['box', false],
          ['spheres', true],
          ['torus', true],
        ]),
      );
      const mixed = compareVelocity(
        s,
        await readPixels(task.geometryLinearVelocityTexture!),
        poses[0],
        boxMoved,
        new Set([s.spheres, s.torus]),
        true,
      );
      expect(mixed.failures).toEqual([]);
      expect(mixed.moving).toBeGreaterThan(100);
      runTasks(engine, [task]);
      expect([...stillOf().values()], 'stopped').toEqual([true, true, true]);
      expect(largestMotion(await readPixels(task.geometryLinearVelocityTexture!))).toBe(0);
      applyPose(s, poses[1]);
      runTasks(engine, [task]);
      expect([...stillOf().values()], 'camera moved: every draw moves').toEqual([false, false, false]);
      const again = compareVelocity(
        s,
        await readPixels(task.geometryLinearVelocityTexture!),
        boxMoved,
        poses[1],
        new Set(),
        true,
      );
      console.log('[velocity: still and moving draws]', {
        mixedMoving: mixed.moving,
        worst: again.worst.toExponential(2),
        worstRelativeDepth: Math.max(mixed.worstDepth, again.worstDepth).toExponential(2),
      });
      expect(again.failures).toEqual([]);
      expect(again.moving).toBeGreaterThan(1500);
      task.dispose();
    },
    [96, 72],
  );

  gpuTest(
    'previousDepth puts the previous positive view depth in z (rgba32float)',
    async ({ engine }) => {
      const s = buildScene(engine);
      const task = makeTask(s, 'rgba32float');
      enableGeometryVelocity(task, { previousDepth: true });
      runTasks(engine, [task]);
      applyPose(s, poses[1]);
      runTasks(engine, [task]);
      const figures = compareVelocity(
        s,
        await readPixels(task.geometryLinearVelocityTexture!),
        poses[0],
        poses[1],
        new Set(),
        true,
      );
      console.log('[velocity: previous depth]', {
        compared: figures.compared,
        worst: figures.worst.toExponential(2),
        worstRelativeDepth: figures.worstDepth.toExponential(2),
      });
      expect(figures.failures).toEqual([]);
      expect(() => enableGeometryVelocity(task, {})).toThrow(
        'enableGeometryVelocity: task "geometry" has already recorded',
      );
      task.dispose();
    },
    [96, 72],
  );

  gpuTest(
    'history is local to the task: a second task running every other frame sees the motion since its own last frame',
    async ({ engine }) => {
      const s = buildScene(engine);
      const every = makeTask(s);
      const sometimes = makeTask(s);
      runTasks(engine, [every, sometimes]);
      applyPose(s, poses[1]);
      runTasks(engine, [every]);
      runTasks(engine, [every]);
      runTasks(engine, [sometimes]);
      const figures = compareVelocity(
        s,
        await readPixels(sometimes.geometryLinearVelocityTexture!),
        poses[0],
        poses[1],
        new Set(),
        false,
      );
      expect(figures.failures).toEqual([]);
      expect(figures.moving).toBeGreaterThan(1500);
      every.dispose();
      sometimes.dispose();
    },
    [96, 72],
  );
});
