import { mat4, vec4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import {
  createBoxMesh,
  createMeshFromData,
  createScene,
  createSphereMesh,
  type Engine,
  getCameraViewProjectionMatrix,
  makePerspectiveCamera,
  makeSphereData,
  type Mesh,
  type MeshData,
  type Scene,
} from '../../../engine/index.js';
import {
  createGpuPicker,
  enableDetailedPicking,
  type GpuPicker,
  type PickDiscardRule,
  pickAsync,
  pickManyAsync,
  type PickingInfo,
} from '../../../picking/index.js';
import { gpuTest } from '../../support/gpu.js';
import { cameraPixelRay } from '../../support/camera-rays.js';
import { castReferenceRayAll, createReferenceScene } from '../../support/reference-raycast.js';

const who = (info: PickingInfo) =>
  info.hit ? `${info.pickedMesh!.name}${info.thinInstanceIndex >= 0 ? `#${info.thinInstanceIndex}` : ''}` : 'miss';

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

/** A box in front of a wide wall; a thin-instanced row of three boxes below. */
function wallScene(engine: Engine): { scene: Scene; front: Mesh; wall: Mesh; row: Mesh } {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [0, 0, 8], target: [0, 0, 0], fovY: 0.8 });
  const front = createBoxMesh(
    scene,
    'front',
    { width: 2, height: 1, depth: 1 },
    { worldMatrix: mat4.translation([0, 1, 0]) },
  );
  const instances = new Float32Array(48);
  [-2, 0, 2].forEach((x, i) => {
    instances.set(mat4.translation([x, 0, 0]), i * 16);
    instances[i * 16 + 3] = i === 1 ? 1 : 0; // payload lane 3: the "hidden" flag of instance 1
  });
  const row = createBoxMesh(scene, 'row', {}, { worldMatrix: mat4.translation([0, -1, 0]), thinInstances: instances });
  const wall = createBoxMesh(
    scene,
    'wall',
    { width: 14, height: 9, depth: 0.2 },
    { worldMatrix: mat4.translation([0, 0, -2]) },
  );
  return { scene, front, wall, row };
}

async function pickPoint(
  picker: GpuPicker,
  point: [number, number, number],
  discard?: PickDiscardRule,
): Promise<PickingInfo> {
  const [x, y] = pixelOf(picker.scene.engine, picker.scene, point);
  return pickAsync(picker, x, y, discard ? { discard } : {});
}

// A cut-away: everything with x > 0 in front of the plane z = -1 is clipped.
const clipPositiveX: PickDiscardRule = {
  key: 'clip-x',
  wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.worldPos.x > 0.0 && input.worldPos.z > -1.0;\n}',
};

describe('pick discard rules', () => {
  gpuTest(
    'a clip plane lets the pick fall through to the object behind, in the same pass',
    async ({ engine }) => {
      const { scene } = wallScene(engine);
      const picker = createGpuPicker(scene);
      expect(who(await pickPoint(picker, [0.5, 1, 0.5]))).toBe('front');
      expect(who(await pickPoint(picker, [0.5, 1, 0.5], clipPositiveX))).toBe('wall');
      expect(who(await pickPoint(picker, [-0.5, 1, 0.5], clipPositiveX))).toBe('front');
      expect(who(await pickPoint(picker, [3, 3, -1.9], clipPositiveX))).toBe('wall');
    },
    [96, 64],
  );

  gpuTest(
    'a per-instance flag in the thin-instance w lanes hides exactly those instances',
    async ({ engine }) => {
      const { scene } = wallScene(engine);
      const picker = createGpuPicker(scene);
      const hidden: PickDiscardRule = {
        key: 'hidden-flag',
        wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.hasThinInstance == 1u && input.instanceExtras.x > 0.5;\n}',
      };
      expect(who(await pickPoint(picker, [0, -1, 0.5], hidden))).toBe('wall');
      expect(who(await pickPoint(picker, [-2, -1, 0.5], hidden))).toBe('row#0');
      expect(who(await pickPoint(picker, [2, -1, 0.5], hidden))).toBe('row#2');
      expect(who(await pickPoint(picker, [0, 1, 0.5], hidden))).toBe('front');
      // The rule sees the instance index and the 0xffffffff sentinel for meshes without instances.
      const onlyInstanceTwo: PickDiscardRule = {
        key: 'only-2',
        wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.thinInstanceIndex != 2u && input.thinInstanceIndex != 0xffffffffu;\n}',
      };
      expect(who(await pickPoint(picker, [-2, -1, 0.5], onlyInstanceTwo))).toBe('wall');
      expect(who(await pickPoint(picker, [2, -1, 0.5], onlyInstanceTwo))).toBe('row#2');
    },
    [96, 64],
  );

  gpuTest(
    'fragmentCoord is the selected pixel centre of the original framebuffer (pickAsync and pickManyAsync)',
    async ({ engine }) => {
      const { scene } = wallScene(engine);
      const picker = createGpuPicker(scene);
      const keepOnly = (x: number, y: number): PickDiscardRule => ({
        key: `only-${x}-${y}`,
        wgsl: `fn pickDiscard(input: PickDiscardInput) -> bool {\n  return any(abs(input.fragmentCoord - vec2f(${x + 0.5}, ${y + 0.5})) > vec2f(0.001));\n}`,
      });
      expect((await pickAsync(picker, 40, 30, { discard: keepOnly(40, 30) })).hit).toBe(true);
      expect((await pickAsync(picker, 41, 30, { discard: keepOnly(40, 30) })).hit).toBe(false);
      const points = [
        { x: 10, y: 5 },
        { x: 40, y: 30 },
        { x: 70, y: 50 },
      ];
      expect((await pickManyAsync(picker, points, { discard: keepOnly(40, 30) })).map((i) => i.hit)).toEqual([
        false,
        true,
        false,
      ]);
      expect((await pickManyAsync(picker, points, { discard: keepOnly(70, 50) })).map((i) => i.hit)).toEqual([
        false,
        false,
        true,
      ]);
    },
    [96, 64],
  );

  gpuTest(
    'each vertexData attribute reaches the predicate with its value, tight and interleaved; absent attributes read zero',
    async ({ engine }) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0, 3], target: [0, 0, 0] });
      const quad = new Float32Array([-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, -1, 0, 1, 1, 0, -1, 1, 0]);
      const values: Record<string, number[]> = {
        normal: [0.25, 0.5, 0.75],
        uv: [0.125, 0.625],
        uv2: [0.375, 0.875],
        tangent: [0.1, 0.2, 0.3, 0.4],
        color: [0.6, 0.7, 0.8, 0.9],
      };
      const fields: Record<string, keyof MeshData> = {
        normal: 'normals',
        uv: 'uvs',
        uv2: 'uv2s',
        tangent: 'tangents',
        color: 'colors',
      };
      const picker = createGpuPicker(scene);
      const rule = (attribute: string, expected: number[]): PickDiscardRule => ({
        key: `vertex-data-${attribute}`,
        vertexData: attribute as PickDiscardRule['vertexData'],
        wgsl: `fn pickDiscard(input: PickDiscardInput) -> bool {\n  return any(abs(input.vertexData - vec4f(${[0, 1, 2, 3].map((i) => (expected[i] ?? 0).toFixed(6)).join(', ')})) > vec4f(1e-6));\n}`,
      });
      for (const [attribute, value] of Object.entries(values)) {
        const repeated = Float32Array.from({ length: 6 * value.length }, (_, i) => value[i % value.length]);
        const tight = createMeshFromData(scene, `tight-${attribute}`, {
          positions: quad,
          [fields[attribute]]: repeated,
        });
        expect(who(await pickAsync(picker, 32, 32, { discard: rule(attribute, value) })), `tight ${attribute}`).toBe(
          `tight-${attribute}`,
        );
        expect(
          who(
            await pickAsync(picker, 32, 32, {
              discard: rule(
                attribute,
                value.map((v) => v + 0.5),
              ),
            }),
          ),
          `tight ${attribute}, wrong value`,
        ).toBe('miss');
        tight.pickable = false;
        // Interleaved: position + the attribute at an offset inside a 48-byte vertex.
        const stride = 48;
        const data = new Float32Array(6 * (stride / 4));
        for (let v = 0; v < 6; v++) {
          data.set(quad.subarray(v * 3, v * 3 + 3), v * 12);
          data.set(value, v * 12 + 4);
        }
        const format = (['float32', 'float32x2', 'float32x3', 'float32x4'] as const)[value.length - 1];
        const interleaved = createMeshFromData(scene, `interleaved-${attribute}`, {
          interleaved: {
            data,
            arrayStride: stride,
            attributes: { position: { offset: 0, format: 'float32x3' }, [attribute]: { offset: 16, format } },
          },
        });
        expect(
          who(await pickAsync(picker, 32, 32, { discard: rule(attribute, value) })),
          `interleaved ${attribute}`,
        ).toBe(`interleaved-${attribute}`);
        interleaved.pickable = false;
        const plain = createMeshFromData(scene, `plain-${attribute}`, { positions: quad });
        expect(
          who(await pickAsync(picker, 32, 32, { discard: rule(attribute, []) })),
          `absent ${attribute} reads zero`,
        ).toBe(`plain-${attribute}`);
        plain.pickable = false;
      }
    },
  );

  gpuTest(
    'a displaced sphere (world adjust) is hit where it is drawn displaced, with the displaced point and exact face',
    async ({ engine }) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0, 5], target: [0, 0, 0], fovY: 0.9 });
      const data = makeSphereData({ radius: 0.5, segments: 24, rings: 12 });
      createSphereMesh(scene, 'ball', { radius: 0.5, segments: 24, rings: 12 });
      const picker = createGpuPicker(scene);
      enableDetailedPicking(picker);
      // Mirrors a visible vertex shader that doubles the radius along the normal from the centre.
      const inflate: PickDiscardRule = {
        key: 'inflate',
        wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return false;\n}',
        worldAdjustWgsl:
          'fn adjustPickWorld(input: PickWorldInput) -> vec3f {\n  return input.origin + (input.worldPos - input.origin) * 2.0;\n}',
      };
      const [x, y] = pixelOf(engine, scene, [0.8, 0.1, 0]);
      expect((await pickAsync(picker, x, y)).hit).toBe(false);
      const info = await pickAsync(picker, x, y, { discard: inflate });
      expect(who(info)).toBe('ball');
      // Truth: the same sphere scaled 2× (the displacement) cast by three-mesh-bvh through the same pixel centre.
      const reference = createReferenceScene([
        {
          id: 1,
          positions: data.positions!.map((v) => v * 2),
          indices: data.indices ?? null,
          worldMatrix: new Float32Array(mat4.identity()),
        },
      ]);
      const ray = cameraPixelRay(scene.camera, x, y, engine.width, engine.height);
      const truth = castReferenceRayAll(reference, ray.origin, ray.direction)[0];
      expect(info.faceId).toBe(truth.faceId);
      info.pickedPoint!.forEach((c, i) => expect(Math.abs(c - truth.point[i])).toBeLessThan(1e-3 * truth.distance));
      expect(Math.abs(info.bu - truth.bu)).toBeLessThan(1e-3);
      expect(Math.abs(info.bv - truth.bv)).toBeLessThan(1e-3);
      expect(info.pickedNormalWorld).toBeNull();
      expect(info.pickedFaceNormal).toBeNull();
    },
  );

  gpuTest(
    'storage: per-mesh data reaches the rule; vertex visibility only when asked',
    async ({ engine }) => {
      const { scene, front, wall } = wallScene(engine);
      const picker = createGpuPicker(scene);
      // Each mesh says through storage whether it may be picked.
      const byStorage: PickDiscardRule = {
        key: 'storage-flag',
        wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return flags[0] > 0.5;\n}',
        storage: [
          { name: 'flags', type: 'array<f32>', data: (mesh) => new Float32Array([mesh === front ? 1 : 0, 0, 0, 0]) },
        ],
      };
      expect(who(await pickPoint(picker, [0, 1, 0.5], byStorage))).toBe('wall');
      expect(who(await pickPoint(picker, [3, 3, -1.9], byStorage))).toBe('wall');
      // null data binds zeros: nothing is discarded.
      expect(
        who(
          await pickPoint(picker, [0, 1, 0.5], {
            ...byStorage,
            storage: [{ ...byStorage.storage![0], data: () => null }],
          }),
        ),
      ).toBe('front');
      // A world-adjust hook reading storage needs vertex: true.
      const lift = (vertex: boolean): PickDiscardRule => ({
        key: `lift-${vertex}`,
        wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return false;\n}',
        worldAdjustWgsl:
          'fn adjustPickWorld(input: PickWorldInput) -> vec3f {\n  return input.worldPos + vec3f(0.0, offsets[0], 0.0);\n}',
        storage: [
          { name: 'offsets', type: 'array<f32>', vertex, data: (mesh) => new Float32Array([mesh === wall ? 0 : 1.5]) },
        ],
      });
      expect(who(await pickPoint(picker, [0, 2.5, 0.5], lift(true)))).toBe('front');
      await expect(pickPoint(picker, [0, 2.5, 0.5], lift(false))).rejects.toThrow(/discard rule "lift-false"/);
      expect(who(await pickPoint(picker, [0, 1, 0.5]))).toBe('front');
    },
    [96, 64],
  );

  gpuTest(
    'a rule whose WGSL changes under the same key never gets a stale pipeline',
    async ({ engine }) => {
      const { scene } = wallScene(engine);
      const picker = createGpuPicker(scene);
      const keep: PickDiscardRule = {
        key: 'same-key',
        wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return false;\n}',
      };
      const drop: PickDiscardRule = {
        key: 'same-key',
        wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.pickId > 0u;\n}',
      };
      expect(who(await pickPoint(picker, [0, 1, 0.5], keep))).toBe('front');
      expect(who(await pickPoint(picker, [0, 1, 0.5], drop))).toBe('miss');
      expect(who(await pickPoint(picker, [0, 1, 0.5], keep))).toBe('front');
    },
    [96, 64],
  );
});
