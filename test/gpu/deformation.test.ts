import { mat4 } from 'wgpu-matrix';
import { describe, expect, test } from 'vitest';
import {
  createMeshFromData,
  createScene,
  type Engine,
  makeBoxData,
  makePerspectiveCamera,
  makeSkeleton,
  makeSphereData,
  makeStandardMaterial,
  MeshDataError,
  type MeshData,
  readEngineFrameAsync,
  readRenderTargetPixelsAsync,
  renderFrame,
  runTasks,
  type Scene,
  setBoneMatrix,
} from '../../engine/index.js';
import { deformedLocalBounds } from '../../engine/mesh-deformation.js';
import { createGeometryRendererTask, GeometryTextureType } from '../../geometry/index.js';
import { createGpuPicker, enableDetailedPicking, pickAsync } from '../../picking/index.js';
import { gpuTest } from '../support/gpu.js';
import { twoBoneBox } from '../support/vat-reference.js';
import { cameraPixelRay, makeFloat64Camera, projectToPixel } from '../support/camera-rays.js';
import { deformWithThree } from '../support/three-deform.js';
import { castReferenceRay, createReferenceScene } from '../support/reference-raycast.js';

function pixelOf(engine: Engine, scene: Scene, point: [number, number, number]): [number, number] {
  const p = projectToPixel(makeFloat64Camera(scene.camera!, engine.width, engine.height), point)!;
  return [Math.floor(p.x), Math.floor(p.y)];
}

/** CPU linear-blend skinning of positions (4 influences), written here independently of the shaders. */
function skinOnCpu(data: MeshData, bones: Float32Array): Float32Array {
  const out = new Float32Array(data.positions!.length);
  for (let v = 0; v < out.length / 3; v++) {
    const p = [data.positions![v * 3], data.positions![v * 3 + 1], data.positions![v * 3 + 2], 1];
    const sum = [0, 0, 0];
    for (let k = 0; k < 4; k++) {
      const w = data.weights![v * 4 + k];
      if (!w) continue;
      const m = bones.subarray(data.joints![v * 4 + k] * 16, data.joints![v * 4 + k] * 16 + 16);
      for (let r = 0; r < 3; r++) sum[r] += w * (m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r] * p[3]);
    }
    out.set(sum, v * 3);
  }
  return out;
}

describe('deformed meshes', () => {
  gpuTest(
    'a skinned mesh posed away from its rest pose is drawn and picked where it is posed; details match the CPU-skinned mesh',
    async ({ engine }) => {
      const scene = createScene(engine, { clearColor: [0, 0, 0, 1] });
      scene.camera = makePerspectiveCamera({ position: [0, 0, 7], target: [0, 0, 0] });
      const data = twoBoneBox();
      const skeleton = makeSkeleton(2);
      setBoneMatrix(skeleton, 0, mat4.translation([1.5, 0, 0]));
      setBoneMatrix(skeleton, 1, mat4.multiply(mat4.translation([1.5, 0.6, 0]), mat4.rotationZ(0.4)));
      const mesh = createMeshFromData(scene, 'skinned', data, {
        skeleton,
        material: makeStandardMaterial({ baseColor: [1, 0, 0], unlit: true }),
      });
      renderFrame(scene);
      const frame = await readEngineFrameAsync(engine);
      const [px, py] = pixelOf(engine, scene, [1.5, -0.25, 0.5]);
      expect(frame[(py * engine.width + px) * 4]).toBe(255);
      const [rx, ry] = pixelOf(engine, scene, [0, 0, 0.5]);
      expect(frame[(ry * engine.width + rx) * 4]).toBe(0);
      const picker = createGpuPicker(scene);
      enableDetailedPicking(picker);
      expect((await pickAsync(picker, rx, ry)).hit).toBe(false);
      const reference = createReferenceScene([
        {
          id: mesh.uniqueId,
          positions: skinOnCpu(data, skeleton.matrices),
          indices: data.indices ?? null,
          worldMatrix: new Float32Array(mat4.identity()),
        },
      ]);
      let compared = 0;
      for (let y = 0; y < engine.height; y += 2) {
        for (let x = 0; x < engine.width; x += 2) {
          const cast = (dx: number, dy: number) => {
            const ray = cameraPixelRay(scene.camera!, x + dx, y + dy, engine.width, engine.height);
            return castReferenceRay(reference, ray.origin, ray.direction);
          };
          const truth = cast(0, 0);
          if (
            [
              [-0.05, 0],
              [0.05, 0],
              [0, -0.05],
              [0, 0.05],
            ].some(([dx, dy]) => cast(dx, dy)?.faceId !== truth?.faceId)
          )
            continue;
          const info = await pickAsync(picker, x, y);
          expect(info.hit, `pixel ${x},${y}`).toBe(!!truth);
          if (!truth) continue;
          compared++;
          expect(info.faceId).toBe(truth.faceId);
          info.pickedPoint!.forEach((c, i) => expect(Math.abs(c - truth.point[i])).toBeLessThan(1e-3 * truth.distance));
          expect(Math.abs(info.bu - truth.bu)).toBeLessThan(1e-3);
          expect(Math.abs(info.bv - truth.bv)).toBeLessThan(1e-3);
          // Face normal from the CPU deformation of that one triangle.
          info.pickedFaceNormalWorld!.forEach((c, i) =>
            expect(Math.abs(c - truth.faceNormalWorld[i])).toBeLessThan(1e-3),
          );
        }
      }
      expect(compared).toBeGreaterThan(30);
      // Moving the bones moves the pick: no re-record needed.
      setBoneMatrix(skeleton, 0, mat4.translation([-1.5, 0, 0]));
      setBoneMatrix(skeleton, 1, mat4.translation([-1.5, 0, 0]));
      const [lx, ly] = pixelOf(engine, scene, [-1.5, 0, 0.5]);
      expect((await pickAsync(picker, lx, ly)).pickedMesh).toBe(mesh);
      expect((await pickAsync(picker, px, py)).hit).toBe(false);
    },
    [96, 64],
  );

  gpuTest(
    'the G-buffer sees the posed skinned mesh: world positions equal the CPU-skinned surface',
    async ({ engine }) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0, 7], target: [0, 0, 0] });
      const data = twoBoneBox();
      const skeleton = makeSkeleton(2);
      setBoneMatrix(skeleton, 0, mat4.translation([1.2, 0, 0]));
      setBoneMatrix(skeleton, 1, mat4.multiply(mat4.translation([1.2, 0.5, 0]), mat4.rotationZ(-0.3)));
      const mesh = createMeshFromData(scene, 'skinned', data, { skeleton });
      const task = createGeometryRendererTask(scene, {
        size: { width: engine.width, height: engine.height },
        textureDescriptions: [{ type: GeometryTextureType.WORLD_POSITION }],
      });
      runTasks(engine, [task]);
      const world = new Float32Array((await readRenderTargetPixelsAsync(task.geometryWorldPositionTexture!)).buffer);
      const reference = createReferenceScene([
        {
          id: mesh.uniqueId,
          positions: skinOnCpu(data, skeleton.matrices),
          indices: data.indices ?? null,
          worldMatrix: new Float32Array(mat4.identity()),
        },
      ]);
      let compared = 0;
      for (let y = 1; y < engine.height; y += 2) {
        for (let x = 1; x < engine.width; x += 2) {
          const cast = (dx: number, dy: number) => {
            const ray = cameraPixelRay(scene.camera!, x + dx, y + dy, engine.width, engine.height);
            return castReferenceRay(reference, ray.origin, ray.direction);
          };
          const truth = cast(0, 0);
          if (
            [
              [-0.05, 0],
              [0.05, 0],
              [0, -0.05],
              [0, 0.05],
            ].some(([dx, dy]) => cast(dx, dy)?.faceId !== truth?.faceId)
          )
            continue;
          const at = (y * engine.width + x) * 4;
          expect(world[at + 3], `pixel ${x},${y} coverage`).toBe(truth ? 1 : 0);
          if (!truth) continue;
          compared++;
          for (let c = 0; c < 3; c++)
            expect(Math.abs(world[at + c] - truth.point[c])).toBeLessThan(1e-3 * truth.distance);
        }
      }
      expect(compared).toBeGreaterThan(30);
    },
    [96, 64],
  );

  gpuTest(
    'G-buffer velocity includes the motion of bones and morph weights between two frames',
    async ({ engine }) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0, 6], target: [0, 0, 0] });
      const data = twoBoneBox();
      const skeleton = makeSkeleton(2);
      const morph = data.positions!.map((c, i) => (i % 3 === 0 ? Math.sign(c) * 0.3 : 0)); // widens the box along x
      const mesh = createMeshFromData(scene, 'rig', data, {
        skeleton,
        morphTargets: { positions: [morph] },
        morphWeights: [0],
      });
      const task = createGeometryRendererTask(scene, {
        size: { width: engine.width, height: engine.height },
        textureDescriptions: [{ type: GeometryTextureType.LINEAR_VELOCITY, format: 'rgba32float' }],
      });
      const pose = (shift: number, weight: number) => {
        setBoneMatrix(skeleton, 1, mat4.translation([shift, 0, 0]));
        mesh.morphWeights[0] = weight;
      };
      // The reference pose: three.js morphs and skins the same data with the same bone matrices.
      const deformedNow = () =>
        deformWithThree(
          {
            positions: data.positions!,
            joints: data.joints,
            weights: data.weights,
            morphPositions: [morph],
            morphWeights: [mesh.morphWeights[0]],
          },
          Float32Array.from(skeleton.matrices),
        ).positions;
      pose(0, 0);
      runTasks(engine, [task]);
      const before = deformedNow();
      pose(0.15, 0.5);
      runTasks(engine, [task]);
      const after = deformedNow();
      const velocity = new Float32Array(
        (await readRenderTargetPixelsAsync(task.geometryLinearVelocityTexture!)).buffer,
      );
      const reference = createReferenceScene([
        { id: 1, positions: after, indices: data.indices ?? null, worldMatrix: new Float32Array(mat4.identity()) },
      ]);
      // NDC in float64 from the camera's parameters (not weft's view-projection).
      const camera = makeFloat64Camera(scene.camera, engine.width, engine.height);
      const ndc = (p: number[]) => {
        const q = projectToPixel(camera, p)!;
        return [(q.x / engine.width) * 2 - 1, 1 - (q.y / engine.height) * 2];
      };
      let compared = 0;
      let moving = 0;
      for (let y = 0; y < engine.height; y += 2) {
        for (let x = 0; x < engine.width; x += 2) {
          const cast = (dx: number, dy: number) => {
            const ray = cameraPixelRay(scene.camera!, x + dx, y + dy, engine.width, engine.height);
            return castReferenceRay(reference, ray.origin, ray.direction);
          };
          const truth = cast(0, 0);
          if (
            !truth ||
            [
              [-0.05, 0],
              [0.05, 0],
              [0, -0.05],
              [0, 0.05],
            ].some(([dx, dy]) => cast(dx, dy)?.faceId !== truth.faceId)
          )
            continue;
          // The same surface point a frame earlier: the hit's barycentrics on the previous pose's triangle.
          const corners = [0, 1, 2].map((k) => data.indices![truth.faceId * 3 + k]);
          const weights = [truth.bu, truth.bv, 1 - truth.bu - truth.bv];
          const previous = [0, 1, 2].map((c) => corners.reduce((sum, v, k) => sum + weights[k] * before[v * 3 + c], 0));
          const [cx, cy] = ndc(truth.point);
          const [qx, qy] = ndc(previous);
          const at = (y * engine.width + x) * 4;
          expect(Math.abs(velocity[at] - (qx - cx) / 2), `pixel ${x},${y} vx`).toBeLessThan(1e-3);
          expect(Math.abs(velocity[at + 1] - (qy - cy) / 2), `pixel ${x},${y} vy`).toBeLessThan(1e-3);
          compared++;
          if (Math.abs(qx - cx) > 1e-3) moving++;
        }
      }
      expect(compared).toBeGreaterThan(50);
      expect(moving).toBeGreaterThan(30);
      // A stopped pose: zero motion on the next frame.
      runTasks(engine, [task]);
      const still = new Float32Array((await readRenderTargetPixelsAsync(task.geometryLinearVelocityTexture!)).buffer);
      let maxMotion = 0;
      for (let i = 0; i < still.length; i += 4)
        maxMotion = Math.max(maxMotion, Math.abs(still[i]), Math.abs(still[i + 1]));
      expect(maxMotion).toBe(0);
    },
    [96, 64],
  );

  gpuTest(
    'morph targets are drawn and picked with their weights',
    async ({ engine }) => {
      const scene = createScene(engine, { clearColor: [0, 0, 0, 1] });
      scene.camera = makePerspectiveCamera({ position: [0, 0, 6], target: [0, 0, 0] });
      const data = makeSphereData({ radius: 0.5, segments: 24, rings: 12 });
      const inflate = data.positions!.map((c) => c); // delta = position: weight w scales the radius by (1 + w)
      const mesh = createMeshFromData(scene, 'blob', data, {
        morphTargets: { positions: [inflate] },
        morphWeights: [0],
      });
      const picker = createGpuPicker(scene);
      const [x, y] = pixelOf(engine, scene, [0.8, 0, 0]);
      expect((await pickAsync(picker, x, y)).hit).toBe(false);
      mesh.morphWeights[0] = 1; // radius 1
      expect((await pickAsync(picker, x, y)).pickedMesh).toBe(mesh);
      renderFrame(scene);
      const frame = await readEngineFrameAsync(engine);
      expect(frame[(y * engine.width + x) * 4]).toBeGreaterThan(20);
    },
    [96, 64],
  );
});

describe('deformation bounds for the pick pre-filter', () => {
  test('the conservative bounds of the current pose contain every CPU-deformed vertex', () => {
    const data = twoBoneBox();
    const skeleton = makeSkeleton(2);
    setBoneMatrix(skeleton, 0, mat4.multiply(mat4.translation([3, -1, 2]), mat4.rotationY(0.7)));
    setBoneMatrix(skeleton, 1, mat4.multiply(mat4.translation([-2, 4, 0]), mat4.scaling([2, 0.5, 1])));
    const mesh = createMeshFromData(createScene({} as Engine), 'b', data, {
      skeleton,
      morphTargets: { positions: [data.positions!.map((c) => c * 0.5)] },
      morphWeights: [0.8],
    });
    const bounds = deformedLocalBounds(mesh);
    // Every vertex as three.js morphs and skins it, not as weft's own CPU deformation does.
    const posed = deformWithThree(
      {
        positions: data.positions!,
        joints: data.joints,
        weights: data.weights,
        morphPositions: [data.positions!.map((c) => c * 0.5)],
        morphWeights: [0.8],
      },
      Float32Array.from(skeleton.matrices),
    ).positions;
    for (let v = 0; v < mesh.geometry.vertexCount; v++) {
      for (let c = 0; c < 3; c++) {
        expect(posed[v * 3 + c]).toBeGreaterThanOrEqual(bounds.min[c] - 1e-5);
        expect(posed[v * 3 + c]).toBeLessThanOrEqual(bounds.max[c] + 1e-5);
      }
    }
  });
});

describe('deformation data is validated at mesh creation', () => {
  const scene = () => createScene({} as Engine);
  test('bone index beyond the skeleton, bad weights, missing pieces, mismatched morph targets', () => {
    const data = twoBoneBox();
    expect(() => createMeshFromData(scene(), 's', data, { skeleton: makeSkeleton(1) })).toThrow(
      /field "joints": vertex \d+ uses bone 1; skeleton "skeleton" has 1 bones \(0..0\)/,
    );
    const badWeights = { ...data, weights: data.weights!.map((w, i) => (i === 0 ? 0.7 : w)) };
    expect(() => createMeshFromData(scene(), 's', badWeights, { skeleton: makeSkeleton(2) })).toThrow(
      /field "weights": vertex 0 weights sum to 0.7000; influences must be non-negative and sum to 1/,
    );
    expect(() => createMeshFromData(scene(), 's', data)).toThrow(MeshDataError);
    expect(() =>
      createMeshFromData(scene(), 's', { ...data, weights: undefined }, { skeleton: makeSkeleton(2) }),
    ).toThrow(/field "weights": is missing/);
    const box = makeBoxData();
    expect(() => createMeshFromData(scene(), 'm', box, { morphTargets: { positions: [new Float32Array(9)] } })).toThrow(
      /field "morphTargets.positions\[0\]": holds 3 vertices; the mesh has 24/,
    );
    expect(() =>
      createMeshFromData(scene(), 'm', box, { morphTargets: { positions: [box.positions!] }, morphWeights: [0, 1] }),
    ).toThrow(/field "morphWeights": expected 1 finite numbers/);
    const s = scene();
    expect(() => createMeshFromData(s, 'm', box, { morphTargets: { positions: [] } })).toThrow(
      /morphTargets.positions/,
    );
    expect(s.meshes).toHaveLength(0);
  });
});
