import { mat4, vec4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import {
  createMeshFromData,
  createScene,
  type Engine,
  getCameraViewProjectionMatrix,
  makeBoxData,
  makePerspectiveCamera,
  makeStandardMaterial,
  makeVertexAnimation,
  type Mesh,
  type MeshData,
  readEngineFrameAsync,
  readRenderTargetPixelsAsync,
  renderFrame,
  runTasks,
  type Scene,
  setThinInstances,
} from '../../engine/index.js';
import { createGeometryRendererTask, GeometryTextureType } from '../../geometry/index.js';
import {
  createGpuPicker,
  enableDetailedPicking,
  getPickedUV,
  type GpuPicker,
  pickAsync,
  pickManyAsync,
} from '../../picking/index.js';
import { gpuTest } from '../support/gpu.js';
import { countDeviceCreates } from '../support/create-counter.js';
import { cameraPixelRay } from '../support/camera-rays.js';
import {
  castReferenceRay,
  createReferenceScene,
  type ReferenceHit,
  type ReferenceScene,
} from '../support/reference-raycast.js';
import { animateOnCpu, bakeFrames, crowdFrames, crowdInstances, twoBoneBox } from '../support/vat-reference.js';

const eye: [number, number, number] = [0, 0, 5];

function setUpScene(engine: Engine): Scene {
  const scene = createScene(engine, { clearColor: [0, 0, 0, 1] });
  scene.camera = makePerspectiveCamera({ position: eye, target: [0, 0, 0] });
  return scene;
}

/** One reference mesh per thin instance: its own CPU-animated positions under world × instance. */
function crowdReference(
  data: MeshData,
  frames: Float32Array,
  matrices: Float32Array,
  playback: Float32Array,
  time: number | null,
): ReferenceScene {
  return createReferenceScene(
    Array.from({ length: matrices.length / 16 }, (_, i) => ({
      id: i,
      indices: data.indices ?? null,
      uvs: data.uvs ?? null,
      worldMatrix: matrices.slice(i * 16, i * 16 + 16),
      positions:
        time === null
          ? new Float32Array(data.positions!)
          : animateOnCpu(data, frames, 2, playback.subarray(i * 12, i * 12 + 12), time),
    })),
  );
}

/** Pixels (odd rows/columns) whose centre ray meets one surface, same face (or nothing) a little to each side: away from edges. */
function stablePixels(
  engine: Engine,
  scene: Scene,
  reference: ReferenceScene,
): { x: number; y: number; truth: ReferenceHit | null }[] {
  const key = (hit: ReferenceHit | null) => (hit ? `${hit.meshId}:${hit.faceId}` : 'miss');
  const out: { x: number; y: number; truth: ReferenceHit | null }[] = [];
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
        ].some(([dx, dy]) => key(cast(dx, dy)) !== key(truth))
      )
        continue;
      out.push({ x, y, truth });
    }
  }
  return out;
}

/** Detailed picks at every stable pixel agree with the reference: hit, mesh, instance, face, point, barycentrics; normals null. */
async function expectPicksMatch(
  picker: GpuPicker,
  mesh: Mesh,
  pixels: { x: number; y: number; truth: ReferenceHit | null }[],
  thin: boolean,
): Promise<void> {
  const infos = await pickManyAsync(
    picker,
    pixels.map(({ x, y }) => ({ x, y })),
  );
  pixels.forEach(({ x, y, truth }, k) => {
    const info = infos[k];
    expect(info.hit, `pixel ${x},${y}`).toBe(!!truth);
    if (!truth) return;
    expect(info.pickedMesh).toBe(mesh);
    expect(info.thinInstanceIndex, `pixel ${x},${y}`).toBe(thin ? truth.meshId : -1);
    expect(info.faceId, `pixel ${x},${y}`).toBe(truth.faceId);
    info.pickedPoint!.forEach((c, i) => expect(Math.abs(c - truth.point[i])).toBeLessThan(1e-3 * truth.distance));
    expect(Math.abs(info.bu - truth.bu)).toBeLessThan(1e-3);
    expect(Math.abs(info.bv - truth.bv)).toBeLessThan(1e-3);
    // UV comes from the barycentrics on the rest uvs (a per-vertex deformation keeps barycentrics); normals are null:
    // the VAT's per-frame normal transform is baked in a texture the CPU does not sample (docs/picking.md).
    if (truth.uv) getPickedUV(info)!.forEach((c, i) => expect(Math.abs(c - truth.uv![i])).toBeLessThan(1e-4));
    else expect(getPickedUV(info)).toBeNull();
    expect([info.pickedNormal, info.pickedNormalWorld, info.pickedFaceNormal, info.pickedFaceNormalWorld]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });
}

/** Stable pixels covered by `other` but not by `now`: where a pose is not drawn any more. */
function vacated(
  now: { x: number; y: number; truth: ReferenceHit | null }[],
  other: ReferenceScene,
  engine: Engine,
  scene: Scene,
): { x: number; y: number }[] {
  return now.filter(({ x, y, truth }) => {
    const ray = cameraPixelRay(scene.camera!, x, y, engine.width, engine.height);
    return !truth && castReferenceRay(other, ray.origin, ray.direction) !== null;
  });
}

function createCrowd(scene: Scene): {
  mesh: Mesh;
  data: MeshData;
  frames: Float32Array;
  matrices: Float32Array;
  playback: Float32Array;
} {
  const data = twoBoneBox();
  const frames = crowdFrames();
  const { matrices, playback } = crowdInstances();
  const vertexAnimation = makeVertexAnimation({ name: 'crowd', frames, boneCount: 2, frameCount: 4 });
  const mesh = createMeshFromData(scene, 'crowd', data, {
    vertexAnimation,
    vertexAnimationPlayback: playback,
    thinInstances: matrices,
    material: makeStandardMaterial({ baseColor: [1, 0, 0], unlit: true }),
  });
  return { mesh, data, frames, matrices, playback };
}

describe('vertex animation textures', () => {
  gpuTest(
    'a thin-instanced VAT crowd is picked where each member is animated at two times; details match the CPU-animated mesh',
    async ({ engine }) => {
      const scene = setUpScene(engine);
      const { mesh, data, frames, matrices, playback } = createCrowd(scene);
      const picker = createGpuPicker(scene);
      expect(enableDetailedPicking(picker)).toBe(true);
      const rest = crowdReference(data, frames, matrices, playback, null);
      const [t1, t2] = [0.25, 1.6];
      for (const [time, other] of [
        [t1, t2],
        [t2, t1],
      ]) {
        mesh.vertexAnimationTime = time;
        const pixels = stablePixels(engine, scene, crowdReference(data, frames, matrices, playback, time));
        await expectPicksMatch(picker, mesh, pixels, true);
        // Every member is hit somewhere, and nothing is hit where the rest pose or the other time's pose would be.
        for (let i = 0; i < 5; i++)
          expect(pixels.filter((p) => p.truth?.meshId === i).length, `instance ${i} at t=${time}`).toBeGreaterThan(4);
        for (const away of [rest, crowdReference(data, frames, matrices, playback, other)]) {
          const empty = vacated(pixels, away, engine, scene);
          expect(empty.length).toBeGreaterThan(10);
          for (const info of await pickManyAsync(picker, empty)) expect(info.hit).toBe(false);
        }
      }
    },
    [128, 64],
  );

  gpuTest(
    'a regular VAT mesh with 8 influences and a 50/50 clip blend is drawn and picked where the CPU-blended pose is',
    async ({ engine }) => {
      const scene = setUpScene(engine);
      const data: MeshData = makeBoxData({ width: 1.6, height: 1.2, depth: 0.8 });
      const n = data.positions!.length / 3;
      const [joints, weights, joints2, weights2] = [
        new Uint16Array(n * 4),
        new Float32Array(n * 4),
        new Uint16Array(n * 4),
        new Float32Array(n * 4),
      ];
      for (let v = 0; v < n; v++) {
        const upper = data.positions![v * 3 + 1] > 0;
        joints.set([upper ? 1 : 0, 1, 0, 0], v * 4);
        weights.set(upper ? [0.3, 0, 0, 0] : [0.6, 0.2, 0, 0], v * 4);
        joints2.set([2, 0, 0, 0], v * 4);
        weights2.set([upper ? 0.7 : 0.2, 0, 0, 0], v * 4);
      }
      Object.assign(data, { joints, weights, joints2, weights2 });
      const frames = bakeFrames(
        4,
        3,
        (f, b) =>
          (b === 0
            ? mat4.translation([-0.3 * f, 0, 0])
            : b === 1
              ? mat4.rotationY(0.4 * f)
              : mat4.multiply(mat4.translation([0.2 * f, 0.5 * f - 0.8, 0]), mat4.rotationZ(-0.3 * f))) as Float32Array,
      );
      const playback = new Float32Array([0, 3, 0.5, 1, 0, 3, 2.5, 1, 0.5, 0, 0, 0]); // at t = 0.25: rows 0 and 2, blended 50/50
      const vertexAnimation = makeVertexAnimation({ frames, boneCount: 3, frameCount: 4 });
      const mesh = createMeshFromData(scene, 'blend', data, {
        vertexAnimation,
        vertexAnimationPlayback: playback,
        material: makeStandardMaterial({ baseColor: [1, 0, 0], unlit: true }),
      });
      mesh.vertexAnimationTime = 0.25;
      const blended = animateOnCpu(data, frames, 3, playback, 0.25);
      const reference = createReferenceScene([
        {
          id: 0,
          positions: blended,
          indices: data.indices ?? null,
          uvs: data.uvs ?? null,
          worldMatrix: new Float32Array(mat4.identity()),
        },
      ]);
      const pixels = stablePixels(engine, scene, reference);
      renderFrame(scene);
      const frame = await readEngineFrameAsync(engine);
      for (const { x, y, truth } of pixels)
        expect(frame[(y * engine.width + x) * 4], `pixel ${x},${y}`).toBe(truth ? 255 : 0);
      expect(pixels.filter((p) => p.truth).length).toBeGreaterThan(30);
      const restReference = createReferenceScene([
        {
          id: 0,
          positions: new Float32Array(data.positions!),
          indices: data.indices ?? null,
          worldMatrix: new Float32Array(mat4.identity()),
        },
      ]);
      expect(vacated(pixels, restReference, engine, scene).length).toBeGreaterThan(10);
      const picker = createGpuPicker(scene);
      enableDetailedPicking(picker);
      await expectPicksMatch(picker, mesh, pixels, false);
    },
    [96, 64],
  );

  gpuTest(
    'the G-buffer sees the animated crowd: world positions match the CPU ray cast, velocity the motion between two times',
    async ({ engine }) => {
      const scene = setUpScene(engine);
      const { mesh, data, frames, matrices, playback } = createCrowd(scene);
      const task = createGeometryRendererTask(scene, {
        size: { width: engine.width, height: engine.height },
        textureDescriptions: [
          { type: GeometryTextureType.WORLD_POSITION },
          { type: GeometryTextureType.LINEAR_VELOCITY, format: 'rgba32float' },
        ],
      });
      const [t1, t2] = [0.25, 1.6];
      mesh.vertexAnimationTime = t1;
      runTasks(engine, [task]);
      mesh.vertexAnimationTime = t2;
      runTasks(engine, [task]);
      const world = new Float32Array((await readRenderTargetPixelsAsync(task.geometryWorldPositionTexture!)).buffer);
      const velocity = new Float32Array(
        (await readRenderTargetPixelsAsync(task.geometryLinearVelocityTexture!)).buffer,
      );
      const viewProjection = getCameraViewProjectionMatrix(scene.camera!, engine.width / engine.height);
      const ndc = (p: ArrayLike<number>) => {
        const c = vec4.transformMat4([p[0], p[1], p[2], 1], viewProjection);
        return [c[0] / c[3], c[1] / c[3]];
      };
      const pixels = stablePixels(engine, scene, crowdReference(data, frames, matrices, playback, t2));
      let moving = 0;
      for (const { x, y, truth } of pixels) {
        const at = (y * engine.width + x) * 4;
        expect(world[at + 3], `pixel ${x},${y} coverage`).toBe(truth ? 1 : 0);
        if (!truth) continue;
        for (let c = 0; c < 3; c++)
          expect(Math.abs(world[at + c] - truth.point[c])).toBeLessThan(1e-3 * truth.distance);
        // The same surface point at t1: the hit's barycentrics on the member's t1 pose, through its instance matrix.
        const before = animateOnCpu(data, frames, 2, playback.subarray(truth.meshId * 12, truth.meshId * 12 + 12), t1);
        const corners = [0, 1, 2].map((k) => data.indices![truth.faceId * 3 + k]);
        const weights = [truth.bu, truth.bv, 1 - truth.bu - truth.bv];
        const local = [0, 1, 2].map((c) => corners.reduce((sum, v, k) => sum + weights[k] * before[v * 3 + c], 0));
        const previous = vec4.transformMat4(
          [...local, 1],
          matrices.subarray(truth.meshId * 16, truth.meshId * 16 + 16),
        );
        const [cx, cy] = ndc(truth.point);
        const [qx, qy] = ndc(previous);
        expect(Math.abs(velocity[at] - (qx - cx) / 2), `pixel ${x},${y} vx`).toBeLessThan(1e-3);
        expect(Math.abs(velocity[at + 1] - (qy - cy) / 2), `pixel ${x},${y} vy`).toBeLessThan(1e-3);
        if (Math.abs(qy - cy) > 1e-2) moving++;
      }
      expect(pixels.filter((p) => p.truth).length).toBeGreaterThan(60);
      expect(moving).toBeGreaterThan(30);
    },
    [128, 64],
  );

  gpuTest(
    'warm VAT frames, picks and G-buffer passes create no GPU objects; a grown crowd gets room for its playback',
    async ({ engine }) => {
      const scene = setUpScene(engine);
      const { mesh, data, frames, matrices, playback } = createCrowd(scene);
      const picker = createGpuPicker(scene);
      enableDetailedPicking(picker);
      const task = createGeometryRendererTask(scene, {
        size: { width: engine.width, height: engine.height },
        textureDescriptions: [
          { type: GeometryTextureType.WORLD_POSITION },
          { type: GeometryTextureType.LINEAR_VELOCITY },
        ],
      });
      renderFrame(scene);
      runTasks(engine, [task]);
      await pickAsync(picker, 64, 32);
      const counter = countDeviceCreates(engine.device);
      try {
        for (let i = 0; i < 4; i++) {
          mesh.vertexAnimationTime = 0.3 * i;
          mesh.vertexAnimationPlayback[3] = 1 + i; // instance 0 speeds up, edited in place
          renderFrame(scene);
          runTasks(engine, [task]);
          await pickAsync(picker, 60 + i, 30);
        }
        expect(counter.count()).toBe(0);
      } finally {
        counter.restore();
      }
      // A sixth member (with its own playback record) is drawn and picked after setThinInstances.
      const grown = new Float32Array(6 * 16);
      grown.set(matrices);
      grown.set(mat4.multiply(mat4.translation([0, 1.6, 0]), mat4.scaling([0.7, 0.7, 0.7])), 80);
      const grownPlayback = new Float32Array(6 * 12);
      grownPlayback.set(playback);
      grownPlayback.set([2, 2, 0, 1, 2, 2, 0, 1, 0, 0, 0, 0], 60); // always frame 2
      setThinInstances(mesh, grown, grownPlayback);
      mesh.vertexAnimationTime = 0;
      renderFrame(scene);
      runTasks(engine, [task]);
      const sixth = animateOnCpu(data, frames, 2, grownPlayback.subarray(60), 0);
      const centre = [0, 1, 2].map(
        (c) => sixth.filter((_, k) => k % 3 === c).reduce((a, b) => a + b, 0) / (sixth.length / 3),
      );
      const clip = vec4.transformMat4(
        vec4.transformMat4([...centre, 1], grown.subarray(80, 96)),
        getCameraViewProjectionMatrix(scene.camera!, engine.width / engine.height),
      );
      const [x, y] = [
        Math.floor(((clip[0] / clip[3] + 1) / 2) * engine.width),
        Math.floor(((1 - clip[1] / clip[3]) / 2) * engine.height),
      ];
      const info = await pickAsync(picker, x, y);
      expect(info.pickedMesh).toBe(mesh);
      expect(info.thinInstanceIndex).toBe(5);
      const frame = await readEngineFrameAsync(engine);
      expect(frame[(y * engine.width + x) * 4]).toBe(255);
    },
    [128, 64],
  );

  gpuTest('a VAT texture wider than the device allows is refused at mesh creation', async ({ engine }) => {
    const scene = createScene(engine);
    const boneCount = engine.device.limits.maxTextureDimension2D / 4 + 1;
    const frames = new Float32Array(boneCount * 16);
    for (let b = 0; b < boneCount; b++) frames.set(mat4.identity(), b * 16);
    const vertexAnimation = makeVertexAnimation({ frames, boneCount, frameCount: 1 });
    expect(() => createMeshFromData(scene, 'wide', twoBoneBox(), { vertexAnimation })).toThrow(
      `field "vertexAnimation": vertex animation "vertex-animation" needs a ${boneCount * 4} × 1 texture (4 texels per bone × frames); the device allows at most ${engine.device.limits.maxTextureDimension2D}`,
    );
    expect(scene.meshes).toHaveLength(0);
  });
});
