// Both triangle-detail paths (primitive-index, vertex-index) forced on Dawn, each checked against three.js +
// three-mesh-bvh rays built in float64 from the camera's parameters (test/support/camera-rays.ts), and against each other.
import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import {
  createMeshFromData,
  createScene,
  type Engine,
  makeBoxData,
  makePerspectiveCamera,
  makeSkeleton,
  makeVertexAnimation,
  makeSphereData,
  type MeshData,
  type Scene,
  setBoneMatrix,
  setThinInstances,
  setMeshWorldMatrix,
} from '../../../engine/index.js';
import {
  createGpuPicker,
  enableDetailedPicking,
  getPickedUV,
  type PickDiscardRule,
  PickError,
  pickManyAsync,
  type PickingInfo,
} from '../../../picking/index.js';
import { checkPulledBufferSizes } from '../../../picking/gpu/vertex-pull-binding.js';
import { gpuTest } from '../../support/gpu.js';
import { cameraBasis, pixelRay } from '../../support/camera-rays.js';
import {
  castReferenceRay,
  castReferenceRayAll,
  createReferenceScene,
  type ReferenceHit,
  type ReferenceMesh,
} from '../../support/reference-raycast.js';
import { animateOnCpu, crowdFrames, crowdInstances, twoBoneBox } from '../../support/vat-reference.js';

type Vec3 = [number, number, number];

/** Expands an indexed geometry into a non-indexed one (3 vertices per triangle, in triangle order). */
function deindex(data: MeshData): MeshData {
  const idx = data.indices!;
  const take = (src: Float32Array, n: number) => {
    const out = new Float32Array(idx.length * n);
    idx.forEach((v, k) => out.set(src.subarray(v * n, v * n + n), k * n));
    return out;
  };
  return { positions: take(data.positions!, 3), normals: take(data.normals!, 3), uvs: take(data.uvs!, 2) };
}

/** CPU linear-blend skinning (any influence sets), written here independently of weft. */
function skinOnCpu(
  positions: Float32Array,
  sets: [Uint16Array | Uint8Array | Uint32Array, Float32Array][],
  bones: Float32Array,
): Float32Array {
  const out = new Float32Array(positions.length);
  for (let v = 0; v < out.length / 3; v++) {
    const p = [positions[v * 3], positions[v * 3 + 1], positions[v * 3 + 2], 1];
    const sum = [0, 0, 0];
    for (const [joints, weights] of sets)
      for (let k = 0; k < 4; k++) {
        const w = weights[v * 4 + k];
        if (!w) continue;
        const m = bones.subarray(joints[v * 4 + k] * 16, joints[v * 4 + k] * 16 + 16);
        for (let r = 0; r < 3; r++) sum[r] += w * (m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r] * p[3]);
      }
    out.set(sum, v * 3);
  }
  return out;
}

const translation = (x: number, y: number, z: number) => new Float32Array(mat4.translation([x, y, z]));

/** The scene: uint16 and uint32 spheres, a non-indexed sphere, thin-instanced boxes, a skinned (8) and a morphed mesh. */
function buildScene(engine: Engine): { scene: Scene; reference: ReturnType<typeof createReferenceScene> } {
  const scene = createScene(engine);
  const eye: Vec3 = [0.3, 1.2, 9];
  scene.camera = makePerspectiveCamera({ position: eye, target: [0, 0, 0], fovY: 0.8 });
  const refs: ReferenceMesh[] = [];
  const sphere = makeSphereData({ radius: 0.9, segments: 14 });
  expect(sphere.indices).toBeInstanceOf(Uint16Array);
  const add = (name: string, data: MeshData, world: Float32Array, positions = data.positions!, extra = {}) => {
    const mesh = createMeshFromData(scene, name, data, extra);
    setMeshWorldMatrix(mesh, world);
    refs.push({
      id: mesh.uniqueId,
      positions,
      indices: data.indices ?? null,
      normals: data.normals ?? null,
      uvs: data.uvs ?? null,
      worldMatrix: world,
    });
    return mesh;
  };
  add('sphere16', sphere, translation(-2.6, 1.1, 0));
  add('sphere32', { ...sphere, indices: Uint32Array.from(sphere.indices!) }, translation(0, 1.1, 0));
  add('flat', deindex(sphere), translation(2.6, 1.1, 0));
  const box = makeBoxData({ width: 0.7, height: 0.7, depth: 0.7 });
  const boxes = createMeshFromData(scene, 'boxes', box);
  const instances = new Float32Array(48);
  [-2.8, -1.8, -0.8].forEach((x, i) => {
    const m = mat4.multiply(mat4.translation([x, -1.3, 0.2 * i]), mat4.rotationY(0.5 + i * 0.3));
    instances.set(m, i * 16);
  });
  setThinInstances(boxes, instances);
  refs.push({
    id: boxes.uniqueId,
    positions: box.positions!,
    indices: box.indices ?? null,
    normals: box.normals ?? null,
    uvs: box.uvs ?? null,
    worldMatrix: new Float32Array(mat4.identity()),
    thinInstances: instances,
  });
  // Eight influences: the four of twoBoneBox split in halves over joints and joints2 (same bones, same pose).
  const skinData = twoBoneBox();
  const halves = skinData.weights!.map((w) => w / 2);
  const skin8: MeshData = { ...skinData, weights: halves, joints2: skinData.joints, weights2: halves };
  const skeleton = makeSkeleton(2);
  setBoneMatrix(skeleton, 0, mat4.translation([0.6, -1.2, 0]));
  setBoneMatrix(skeleton, 1, mat4.multiply(mat4.translation([0.6, -0.7, 0]), mat4.rotationZ(0.4)));
  const skinWorld = mat4.scaling([0.5, 0.5, 0.5]) as Float32Array;
  const posed = skinOnCpu(
    skinData.positions!,
    [
      [skinData.joints!, halves],
      [skinData.joints!, halves],
    ],
    skeleton.matrices,
  );
  add('skinned', skin8, skinWorld, posed, { skeleton });
  const inflate = sphere.positions!.map((c) => c * 0.4);
  const morphed = add(
    'morphed',
    sphere,
    translation(2.6, -1.2, 0),
    sphere.positions!.map((c, i) => c + 0.5 * inflate[i]),
    {
      morphTargets: { positions: [inflate] },
      morphWeights: [0.5],
    },
  );
  expect(morphed.morphWeights[0]).toBe(0.5);
  return { scene, reference: createReferenceScene(refs) };
}

describe('triangle detail on both paths', () => {
  gpuTest(
    'primitive-index and vertex-index picks agree with a float64 three-mesh-bvh ray cast and with each other',
    async ({ engine }) => {
      const { scene, reference } = buildScene(engine);
      const { width, height } = engine;
      const camera = cameraBasis([0.3, 1.2, 9], [0, 0, 0], 0.8, width, height);
      const byMethod = new Map<string, PickingInfo[]>();
      const points: { x: number; y: number }[] = [];
      for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) points.push({ x, y });
      for (const method of ['primitive-index', 'vertex-index'] as const) {
        const picker = createGpuPicker(scene);
        expect(enableDetailedPicking(picker, { method })).toBe(true);
        expect(picker.detailMethod).toBe(method);
        const infos: PickingInfo[] = [];
        for (let i = 0; i < points.length; i += 256)
          infos.push(...(await pickManyAsync(picker, points.slice(i, i + 256))));
        byMethod.set(method, infos);
        // The vertex-index path really pulls: each indexed layout (sphere16, sphere32, boxes, skinned, morphed) drew non-indexed from its storage-bound buffers.
        const pulled = [...picker.gpu!.pipelines.values()].filter((p) => p.pulled).length;
        expect(pulled).toBe(method === 'vertex-index' ? 5 : 0);
      }
      const figures = {
        compared: 0,
        identity: 0,
        face: 0,
        point: 0,
        bary: 0,
        normal: 0,
        uv: 0,
        uvCompared: 0,
        meshes: new Set<string>(),
      };
      const [a, b] = [byMethod.get('primitive-index')!, byMethod.get('vertex-index')!];
      points.forEach(({ x, y }, k) => {
        // The two paths rasterise the same positions: the same hit, bit for bit.
        expect(b[k].hit, `pixel ${x},${y}`).toBe(a[k].hit);
        expect(b[k].pickedMesh).toBe(a[k].pickedMesh);
        expect(b[k].thinInstanceIndex).toBe(a[k].thinInstanceIndex);
        expect(b[k].faceId, `pixel ${x},${y}`).toBe(a[k].faceId);
        expect(b[k].bu).toBe(a[k].bu);
        expect(b[k].bv).toBe(a[k].bv);
        expect(b[k].pickedPoint).toEqual(a[k].pickedPoint);
        expect(b[k].pickedNormalWorld).toEqual(a[k].pickedNormalWorld);
        const cast = (dx: number, dy: number) => {
          const ray = pixelRay(camera, x + dx, y + dy, width, height);
          return castReferenceRay(reference, ray.origin, ray.direction);
        };
        const truth = cast(0, 0);
        const stable = [
          [-0.05, 0],
          [0.05, 0],
          [0, -0.05],
          [0, 0.05],
        ].every(([dx, dy]) => {
          const near = cast(dx, dy);
          return (
            near?.meshId === truth?.meshId &&
            near?.faceId === truth?.faceId &&
            near?.thinInstanceIndex === truth?.thinInstanceIndex
          );
        });
        if (!stable || !truth) return;
        for (const info of [a[k], b[k]]) {
          figures.compared++;
          figures.meshes.add(info.pickedMesh?.name ?? 'miss');
          if (info.pickedMesh?.uniqueId === truth.meshId && info.thinInstanceIndex === truth.thinInstanceIndex)
            figures.identity++;
          if (info.faceId === truth.faceId) figures.face++;
          if (info.pickedPoint?.every((c, i) => Math.abs(c - truth.point[i]) <= 1e-5 * truth.distance)) figures.point++;
          if (Math.abs(info.bu - truth.bu) <= 1e-4 && Math.abs(info.bv - truth.bv) <= 1e-4) figures.bary++;
          const n = info.pickedFaceNormalWorld;
          const t = truth.faceNormalWorld;
          if (n && Math.acos(Math.min(1, Math.abs(n[0] * t[0] + n[1] * t[1] + n[2] * t[2]))) <= (0.01 * Math.PI) / 180)
            figures.normal++;
          const uv = getPickedUV(info);
          if (truth.uv && uv) {
            figures.uvCompared++;
            if (Math.abs(uv[0] - truth.uv[0]) <= 1e-4 && Math.abs(uv[1] - truth.uv[1]) <= 1e-4) figures.uv++;
          }
        }
      });
      console.log('detail-methods', { ...figures, meshes: [...figures.meshes].sort().join(',') });
      expect([...figures.meshes].sort()).toEqual(['boxes', 'flat', 'morphed', 'skinned', 'sphere16', 'sphere32']);
      expect(figures.compared).toBeGreaterThan(1500);
      for (const key of ['identity', 'face', 'point', 'bary', 'normal'] as const)
        expect(figures[key] / figures.compared, key).toBeGreaterThanOrEqual(0.999);
      expect(figures.uv / figures.uvCompared).toBeGreaterThanOrEqual(0.999);
    },
    [96, 72],
  );

  gpuTest(
    'VAT crowds, discard rules with pulled vertex data (interleaved colours) and world-adjust hooks: both paths agree',
    async ({ engine }) => {
      const { width, height } = engine;
      const scene = createScene(engine);
      const eye: Vec3 = [0, 0.4, 6];
      scene.camera = makePerspectiveCamera({ position: eye, target: [0, 0, 0], fovY: 0.9 });
      const camera = cameraBasis(eye, [0, 0, 0], 0.9, width, height);
      const crowd = twoBoneBox();
      const frames = crowdFrames();
      const { matrices, playback } = crowdInstances();
      const time = 0.25;
      const vat = createMeshFromData(scene, 'crowd', crowd, {
        vertexAnimation: makeVertexAnimation({ name: 'crowd', frames, boneCount: 2, frameCount: 4 }),
        vertexAnimationPlayback: playback,
        thinInstances: matrices,
      });
      vat.vertexAnimationTime = time;
      // Interleaved position (float32x3) + float32x4 colour in a 28-byte vertex; red where y > 0.2 (the upper cap).
      const ball = makeSphereData({ radius: 0.8, segments: 16 });
      const n = ball.positions!.length / 3;
      const bytes = new ArrayBuffer(n * 28);
      const red = (v: number) => ball.positions![v * 3 + 1] > 0.2;
      for (let v = 0; v < n; v++) {
        new Float32Array(bytes, v * 28, 3).set(ball.positions!.subarray(v * 3, v * 3 + 3));
        new Float32Array(bytes, v * 28 + 12, 4).set([red(v) ? 1 : 0, 0.25, 0.5, 1]);
      }
      const capped = createMeshFromData(scene, 'capped', {
        interleaved: {
          data: new Uint8Array(bytes),
          arrayStride: 28,
          attributes: { position: { format: 'float32x3', offset: 0 }, color: { format: 'float32x4', offset: 12 } },
        },
        indices: ball.indices,
      });
      setMeshWorldMatrix(capped, translation(0, -1.2, 0));
      const rule: PickDiscardRule = {
        key: 'red-cap-and-inflate',
        vertexData: 'color',
        wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.vertexData.x > 0.5;\n}',
        worldAdjustWgsl:
          'fn adjustPickWorld(input: PickWorldInput) -> vec3f {\n  return input.origin + (input.worldPos - input.origin) * 1.25;\n}',
      };
      const points: { x: number; y: number }[] = [];
      for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) points.push({ x, y });
      const results: PickingInfo[][] = [];
      for (const method of ['primitive-index', 'vertex-index'] as const) {
        const picker = createGpuPicker(scene);
        enableDetailedPicking(picker, { method });
        const infos: PickingInfo[] = [];
        for (let i = 0; i < points.length; i += 256)
          // The reference casts both sides: through the discarded cap the ball's inside (back faces) is what is seen.
          infos.push(...(await pickManyAsync(picker, points.slice(i, i + 256), { discard: rule, culling: 'none' })));
        results.push(infos);
      }
      // Truth: each crowd member animated on the CPU (test/support/vat-reference.ts); the hook scales the surface by
      // 1.25 about the (instance's) world origin, which is the world matrix × a local 1.25 scale.
      const hook = (world: Float32Array) => new Float32Array(mat4.multiply(world, mat4.scaling([1.25, 1.25, 1.25])));
      const refs: ReferenceMesh[] = Array.from({ length: matrices.length / 16 }, (_, i) => ({
        id: i,
        positions: animateOnCpu(crowd, frames, 2, playback.subarray(i * 12, i * 12 + 12), time),
        indices: crowd.indices ?? null,
        worldMatrix: hook(matrices.subarray(i * 16, i * 16 + 16)),
      }));
      refs.push({
        id: 100,
        positions: ball.positions!,
        indices: ball.indices ?? null,
        worldMatrix: hook(translation(0, -1.2, 0)),
      });
      const reference = createReferenceScene(refs);
      // A face is kept when its provoking (first) vertex is not red: the flat vertex data comes from it.
      const keeps = (hit: ReferenceHit) => hit.meshId !== 100 || !red(ball.indices![hit.faceId * 3]);
      let compared = 0;
      let agree = 0;
      const seen = new Set<string>();
      points.forEach(({ x, y }, k) => {
        const [a, b] = [results[0][k], results[1][k]];
        expect(b.pickedMesh, `pixel ${x},${y}`).toBe(a.pickedMesh);
        expect([b.faceId, b.thinInstanceIndex, b.bu, b.bv]).toEqual([a.faceId, a.thinInstanceIndex, a.bu, a.bv]);
        expect(b.pickedPoint).toEqual(a.pickedPoint);
        const cast = (dx: number, dy: number) => {
          const ray = pixelRay(camera, x + dx, y + dy, width, height);
          return castReferenceRayAll(reference, ray.origin, ray.direction).find(keeps) ?? null;
        };
        const truth = cast(0, 0);
        const stable = [
          [-0.05, 0],
          [0.05, 0],
          [0, -0.05],
          [0, 0.05],
        ].every(([dx, dy]) => {
          const near = cast(dx, dy);
          return near?.meshId === truth?.meshId && near?.faceId === truth?.faceId;
        });
        if (!stable || !truth) return;
        compared++;
        const identity =
          truth.meshId === 100 ? b.pickedMesh === capped : b.pickedMesh === vat && b.thinInstanceIndex === truth.meshId;
        seen.add(b.pickedMesh?.name ?? 'miss');
        if (
          identity &&
          b.faceId === truth.faceId &&
          Math.abs(b.bu - truth.bu) <= 1e-4 &&
          Math.abs(b.bv - truth.bv) <= 1e-4 &&
          b.pickedPoint!.every((c, i) => Math.abs(c - truth.point[i]) <= 1e-5 * truth.distance)
        )
          agree++;
      });
      console.log('detail-methods rules/VAT', { compared, agree });
      expect([...seen].sort()).toEqual(['capped', 'crowd']);
      expect(compared).toBeGreaterThan(400);
      expect(agree / compared).toBeGreaterThanOrEqual(0.999);
    },
    [96, 72],
  );

  gpuTest(
    'method is checked: unknown values and options are typed errors; auto takes primitive-index where offered',
    async ({ engine }) => {
      const scene = createScene(engine);
      const picker = createGpuPicker(scene);
      expect(picker.detailMethod).toBe(null);
      expect(() => enableDetailedPicking(picker, { method: 'fast' as never })).toThrow(PickError);
      expect(() => enableDetailedPicking(picker, { methd: 'auto' } as never)).toThrow(/methd/);
      expect(picker.detailed).toBe(false);
      expect(enableDetailedPicking(picker)).toBe(true);
      expect(picker.detailMethod).toBe(engine.features.has('primitive-index') ? 'primitive-index' : 'vertex-index');
    },
  );
});

describe('vertex-index detail limits', () => {
  gpuTest(
    'a pulled shader needing more vertex storage buffers than maxStorageBuffersPerShaderStage is refused before the GPU sees it; the picker keeps working',
    async ({ engine }) => {
      expect(engine.device.limits.maxStorageBuffersPerShaderStage).toBe(8);
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0, 6], target: [0, 0, 0] });
      // Morph targets + 8 influences + a rule's vertex data: index, position, joints, weights, joints2, weights2,
      // vertex data, morph deltas and weights = 9 storage buffers in the vertex stage.
      const data = twoBoneBox();
      const skeleton = makeSkeleton(2);
      const mesh = createMeshFromData(
        scene,
        'heavy',
        {
          ...data,
          joints2: data.joints,
          weights2: new Float32Array(data.weights!.length),
          uvs: new Float32Array((data.positions!.length / 3) * 2),
        },
        {
          skeleton,
          morphTargets: { positions: [new Float32Array(data.positions!.length)] },
          morphWeights: [0],
        },
      );
      const picker = createGpuPicker(scene);
      enableDetailedPicking(picker, { method: 'vertex-index' });
      const rule: PickDiscardRule = {
        key: 'with-vertex-data',
        vertexData: 'uv',
        wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return false;\n}',
      };
      engine.device.pushErrorScope('validation');
      const refused = await pickManyAsync(picker, [{ x: 32, y: 32 }], { discard: rule }).catch((e) => e);
      expect(await engine.device.popErrorScope()).toBe(null);
      expect(refused).toBeInstanceOf(PickError);
      expect(refused.code).toBe('limit-exceeded');
      expect(refused.message).toMatch(/maxStorageBuffersPerShaderStage is 8; use at most 8/);
      expect(refused.message).toMatch(/"heavy".*9 storage buffers/);
      // Nothing half-built: the same picker picks the mesh without the rule (8 buffers) and on the other path.
      const info = (await pickManyAsync(picker, [{ x: 32, y: 32 }]))[0];
      expect(info.pickedMesh).toBe(mesh);
      expect(info.faceId).toBeGreaterThanOrEqual(0);
      enableDetailedPicking(picker, { method: 'primitive-index' });
      expect((await pickManyAsync(picker, [{ x: 32, y: 32 }], { discard: rule }))[0].faceId).toBe(info.faceId);
    },
    [64, 64],
    { requiredLimits: { maxStorageBuffersPerShaderStage: 8 } },
  );

  gpuTest(
    'a mesh buffer over maxStorageBufferBindingSize is refused naming the limit (the size arithmetic)',
    async ({ engine }) => {
      // No device offers a storage binding limit under WebGPU's 128 MiB default, so the check itself is fed a smaller
      // one: the limit is the only thing it reads of the device.
      const scene = createScene(engine);
      // 3 vertices (36 bytes of positions) drawn 11 times: 33 uint16 indices, 66 bytes, bound as 68.
      const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
      const mesh = createMeshFromData(scene, 'odd', { positions, indices: new Uint16Array(33).map((_, i) => i % 3) });
      const bytes = mesh.geometry.indices!.byteLength;
      expect(bytes % 4).toBe(2);
      const at = (limit: number) => ({ limits: { maxStorageBufferBindingSize: limit } }) as GPUDevice;
      expect(() => checkPulledBufferSizes('pickAsync', at(1 << 20), mesh)).not.toThrow();
      // uint16 indices are bound padded to 4 bytes: that padded size is what must fit.
      expect(() => checkPulledBufferSizes('pickAsync', at(bytes + 2), mesh)).not.toThrow();
      expect(() => checkPulledBufferSizes('pickAsync', at(bytes), mesh)).toThrow(
        new RegExp(`index buffer holds ${bytes + 2} bytes, over the device's maxStorageBufferBindingSize ${bytes}`),
      );
    },
  );

  gpuTest(
    "a device without primitive-index: 'auto' takes vertex-index, 'primitive-index' is a typed error and changes nothing",
    async ({ engine }) => {
      expect(engine.features.has('primitive-index')).toBe(false);
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0, 4], target: [0, 0, 0] });
      const ball = createMeshFromData(scene, 'ball', makeSphereData({ radius: 1 }));
      const picker = createGpuPicker(scene);
      const refused = (() => {
        try {
          enableDetailedPicking(picker, { method: 'primitive-index' });
        } catch (error) {
          return error as PickError;
        }
      })();
      expect(refused).toBeInstanceOf(PickError);
      expect(refused!.code).toBe('unsupported');
      expect(refused!.message).toMatch(/lacks; allowed here: 'auto', 'vertex-index' or 'expanded-vertices'/);
      expect([picker.detailed, picker.detailMethod]).toEqual([false, null]);
      expect(enableDetailedPicking(picker)).toBe(true);
      expect(picker.detailMethod).toBe('vertex-index');
      const [info] = await pickManyAsync(picker, [{ x: 32, y: 32 }]);
      expect(info.pickedMesh).toBe(ball);
      expect(info.faceId).toBeGreaterThanOrEqual(0);
      expect(info.bu + info.bv).toBeLessThanOrEqual(1);
    },
    [64, 64],
    { optionalFeatures: [] },
  );
});
