// The acceptance suite's GPU pick paths on a WebGPU compatibility-mode device (Dawn, featureLevel 'compatibility': no
// storage in the vertex stage, no primitive-index), where 'auto' detail is the expanded-vertices method. Judged like the
// core suite (acceptance-suite.test.ts): three.js + three-mesh-bvh rays built in float64 from the camera's parameters,
// on pixel centres ≥ 0.05 px from every projected edge, with the same bars; skinned meshes included.
import { afterAll, describe, expect, test } from 'vitest';
import { mat4 } from 'wgpu-matrix';
import {
  createBoxMesh,
  createMeshFromData,
  createScene,
  disposeMesh,
  type Engine,
  makePerspectiveCamera,
  makeSphereData,
  type Mesh,
  type Scene,
} from '../../../engine/index.js';
import {
  createGpuPicker,
  createPickOverlay,
  disposeGpuPicker,
  disposePickOverlay,
  enableDetailedPicking,
  type GpuPicker,
  getPickedUV,
  pickAsync,
  PickError,
  pickManyAsync,
  pickRectAsync,
  type PickDiscardRule,
  type PickingInfo,
} from '../../../picking/index.js';
import {
  ACCEPTANCE_VARIANTS,
  type AcceptanceScene,
  buildAcceptanceScene,
  SKINNED_ACCEPTANCE_VARIANT,
} from '../../support/acceptance-scenes.js';
import {
  formatAcceptanceTable,
  makeTally,
  type PathSample,
  scoreSample,
  type Tally,
  tallyFailures,
} from '../../support/acceptance-tally.js';
import { onCompatibilityEngineAsync } from '../../support/compat-device.js';
import { runOnGpu } from '../../support/gpu.js';
import { composeShader } from '../../../composer/compose-shader.js';
import { checkVertexStreamLimits } from '../../../picking/gpu/expanded-vertices.js';
import { describePickShader } from '../../../picking/gpu/pick-pipelines.js';
import { pickShaderSpec } from '../../../picking/gpu/pick-shader.js';
import { cameraBasis, pixelRay } from '../../support/camera-rays.js';
import { castReferenceRayAll, createReferenceScene, type ReferenceHit } from '../../support/reference-raycast.js';

interface CompatPath {
  name: string;
  detailed: boolean;
  batch: number;
  pick(picker: GpuPicker, points: { x: number; y: number }[]): Promise<PickingInfo[]>;
}

const PATHS: readonly CompatPath[] = [
  {
    name: 'pickAsync detail (auto: expanded-vertices)',
    detailed: true,
    batch: 64,
    pick: (picker, points) => Promise.all(points.map((p) => pickAsync(picker, p.x, p.y))),
  },
  {
    name: 'pickManyAsync detail (auto: expanded-vertices)',
    detailed: true,
    batch: 400,
    pick: (picker, points) => pickManyAsync(picker, points),
  },
  {
    name: 'pickManyAsync identity (no detail)',
    detailed: false,
    batch: 400,
    pick: (picker, points) => pickManyAsync(picker, points),
  },
];

function fromInfo(info: PickingInfo, detailed: boolean): PathSample {
  const identity = { hit: info.hit, meshId: info.pickedMesh?.uniqueId ?? 0, thinInstanceIndex: info.thinInstanceIndex };
  if (!detailed) return identity;
  return {
    ...identity,
    faceId: info.faceId,
    point: info.pickedPoint,
    bu: info.bu,
    bv: info.bv,
    normal: info.pickedNormalWorld,
    faceNormal: info.pickedFaceNormalWorld,
    uv: getPickedUV(info),
  };
}

async function runPath(path: CompatPath, scene: AcceptanceScene): Promise<PathSample[]> {
  const picker = createGpuPicker(scene.scene);
  try {
    if (path.detailed) {
      expect(enableDetailedPicking(picker)).toBe(true);
      expect(picker.detailMethod).toBe('expanded-vertices');
    }
    const out: PathSample[] = [];
    for (let start = 0; start < scene.pixels.length; start += path.batch) {
      const points = scene.pixels.slice(start, start + path.batch).map(({ x, y }) => ({ x, y }));
      for (const info of await path.pick(picker, points)) out.push(fromInfo(info, path.detailed));
    }
    if (path.detailed) {
      // Every indexed mesh drawn was drawn from its expanded copy: 3 vertices per triangle per vertex buffer.
      const copies = [...picker.gpu!.expanded];
      expect(copies.length).toBeGreaterThan(0);
      for (const [mesh, copy] of copies)
        expect(copy.vertexBuffers.map((b) => b.size)).toEqual(
          mesh.geometry.buffers.map((b) => Math.max(4, mesh.geometry.indices!.length * b.arrayStride)),
        );
    }
    return out;
  } finally {
    disposeGpuPicker(picker);
  }
}

const SEEDS = [101, 102, 103];
const SIZE: [number, number] = [80, 60];
const tallies: Tally[] = [];

describe('acceptance on a compatibility-mode device: GPU pick paths against float64 rays and three-mesh-bvh', () => {
  for (const variant of [...ACCEPTANCE_VARIANTS, SKINNED_ACCEPTANCE_VARIANT]) {
    test(
      `${variant.name}: ${variant.description}`,
      () =>
        onCompatibilityEngineAsync(SIZE[0], SIZE[1], async (engine) => {
          expect(engine.device.limits.maxStorageBuffersInVertexStage).toBe(0);
          expect(engine.features.has('primitive-index')).toBe(false);
          const rows = PATHS.map((path) => makeTally(path.name, variant.name));
          for (const seed of SEEDS) {
            const scene = await buildAcceptanceScene(engine, variant, seed);
            for (const [i, path] of PATHS.entries()) {
              const samples = await runPath(path, scene);
              expect(samples).toHaveLength(scene.pixels.length);
              scene.pixels.forEach((pixel, k) => scoreSample(rows[i], pixel, samples[k]));
            }
          }
          tallies.push(...rows);
          for (const row of rows) {
            expect(row.hits, `${row.path}: enough judged hits`).toBeGreaterThan(2000);
            expect(tallyFailures(row), `${row.path} on ${row.variant}; first: ${row.firstFailures.join('; ')}`).toEqual(
              [],
            );
          }
        }),
      480_000,
    );
  }

  afterAll(() => {
    const detail = { face: true, point: true, barycentric: true, uv: true, normal: true, faceNormal: true };
    const none = { face: false, point: false, barycentric: false, uv: false, normal: false, faceNormal: false };
    const produced = (t: Tally) => (PATHS.find((p) => p.name === t.path)!.detailed ? detail : none);
    console.log(
      `[compat acceptance] ${SEEDS.length} seeds × ${SIZE.join('×')} px per variant\n${formatAcceptanceTable(tallies, produced, (t) => tallyFailures(t).length === 0)}`,
    );
  });
});

/** A scene looking down -z at the origin from z = 4. */
function frontScene(engine: Engine): Scene {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [0, 0, 4], target: [0, 0, 0], fovY: 0.8 });
  return scene;
}

/** Picks a 5 × 5 grid of pixels around the centre with detail: [mesh name, face, bu, bv] per pixel. */
async function detailGrid(picker: GpuPicker, engine: Engine): Promise<(string | number)[][]> {
  const points = Array.from({ length: 25 }, (_, i) => ({
    x: engine.width / 2 + ((i % 5) - 2) * 3,
    y: engine.height / 2 + (Math.floor(i / 5) - 2) * 3,
  }));
  return (await pickManyAsync(picker, points)).map((info) => [
    info.pickedMesh?.name ?? '',
    info.faceId,
    info.bu,
    info.bv,
  ]);
}

describe('expanded-vertices detail: limits, host buffers, lifetime', () => {
  test(
    'a mesh whose expanded copy is past maxStorageBufferBindingSize is refused before anything is made; the next pick works',
    () =>
      onCompatibilityEngineAsync(32, 32, async (engine) => {
        const limit = engine.device.limits.maxStorageBufferBindingSize;
        const scene = frontScene(engine);
        // One triangle drawn corners / 3 times: its uint32 indices fit a storage binding, its expanded positions
        // (12 bytes a corner) do not.
        const corners = Math.ceil(limit / 12 / 3 + 1) * 3;
        expect(corners * 4).toBeLessThan(limit);
        const indices = new Uint32Array(corners);
        for (let i = 0; i < corners; i++) indices[i] = i % 3;
        const huge = createMeshFromData(scene, 'huge', {
          positions: new Float32Array([-1, -1, 0, 1, -1, 0, 0, 1, 0]),
          indices,
        });
        const picker = createGpuPicker(scene);
        expect(enableDetailedPicking(picker)).toBe(true);
        expect(picker.detailMethod).toBe('expanded-vertices');
        const refused = await pickAsync(picker, 16, 16).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(PickError);
        expect((refused as PickError).code).toBe('limit-exceeded');
        expect((refused as PickError).message).toContain(
          `mesh "huge": expanded-vertices detail needs its expanded copy of vertex buffer 0 of ${corners * 12} bytes as storage, over the device's maxStorageBufferBindingSize ${limit}`,
        );
        expect(picker.gpu!.expanded.size).toBe(0);
        disposeMesh(huge);
        const ball = createMeshFromData(scene, 'ball', makeSphereData({ radius: 1 }));
        const info = await pickAsync(picker, 16, 16);
        expect(info.pickedMesh).toBe(ball);
        expect(info.faceId).toBeGreaterThanOrEqual(0);
        expect([...picker.gpu!.expanded.keys()]).toEqual([ball]);
        disposeGpuPicker(picker);
      }),
    120_000,
  );

  test(
    "host buffers without STORAGE usage are de-indexed on the CPU and pick like weft's own upload",
    () =>
      onCompatibilityEngineAsync(48, 48, async (engine) => {
        const data = makeSphereData({ radius: 1, segments: 20 });
        const own = frontScene(engine);
        const twin = createMeshFromData(own, 'ball', data);
        const hosted = frontScene(engine);
        const usage = GPUBufferUsage.COPY_DST;
        // Host buffers as a host engine might make them: VERTEX / INDEX usage, no STORAGE; sizes padded to 4 bytes.
        const upload = (bytes: Uint8Array, kind: number) => {
          const padded = new Uint8Array(Math.ceil(bytes.byteLength / 4) * 4);
          padded.set(bytes);
          const buffer = engine.device.createBuffer({ label: 'host', size: padded.byteLength, usage: usage | kind });
          engine.device.queue.writeBuffer(buffer, 0, padded);
          return buffer;
        };
        const vertexBuffers = twin.geometry.buffers.map((b) => upload(b.bytes, GPUBufferUsage.VERTEX));
        const indices = data.indices!;
        const indexBuffer = upload(
          new Uint8Array(indices.buffer, indices.byteOffset, indices.byteLength),
          GPUBufferUsage.INDEX,
        );
        expect(vertexBuffers.every((b) => (b.usage & GPUBufferUsage.STORAGE) === 0)).toBe(true);
        const host: Mesh = createMeshFromData(hosted, 'ball', data, { hostBuffers: { vertexBuffers, indexBuffer } });
        const pickers = [createGpuPicker(own), createGpuPicker(hosted)];
        for (const picker of pickers) expect(enableDetailedPicking(picker)).toBe(true);
        const [a, b] = [await detailGrid(pickers[0], engine), await detailGrid(pickers[1], engine)];
        expect(a.filter((row) => row[0] === 'ball').length).toBe(25);
        expect(b).toEqual(a);
        expect(pickers[1].gpu!.expanded.has(host)).toBe(true);
        for (const picker of pickers) disposeGpuPicker(picker);
        for (const buffer of [...vertexBuffers, indexBuffer]) buffer.destroy();
      }),
    120_000,
  );

  test(
    'copies are freed with their mesh; identity, marquee and detail keep working on the device',
    () =>
      onCompatibilityEngineAsync(48, 48, async (engine) => {
        const scene = frontScene(engine);
        const left = createMeshFromData(scene, 'left', makeSphereData({ radius: 0.6 }), {
          worldMatrix: mat4.translation([-0.7, 0, 0]),
        });
        // Not the left one's geometry (equal geometries draw from one copy: the pass keeps their bound buffers).
        const right = createMeshFromData(scene, 'right', makeSphereData({ radius: 0.6, segments: 20 }), {
          worldMatrix: mat4.translation([0.7, 0, 0]),
        });
        const picker = createGpuPicker(scene);
        enableDetailedPicking(picker);
        const first = await pickManyAsync(picker, [
          { x: 14, y: 24 },
          { x: 34, y: 24 },
        ]);
        expect(first.map((info) => info.pickedMesh)).toEqual([left, right]);
        expect(first.every((info) => info.faceId >= 0)).toBe(true);
        expect(new Set(picker.gpu!.expanded.keys())).toEqual(new Set([left, right]));
        const rect = await pickRectAsync(picker, 0, 0, 48, 48);
        expect(new Set(rect.map((hit) => hit.mesh))).toEqual(new Set([left, right]));
        // An overlay handle (its own scene) in front of the left sphere, on the same pixel: it wins there.
        const handles = createScene(engine);
        const handle = createBoxMesh(
          handles,
          'handle',
          { width: 0.1, height: 0.1, depth: 0.1 },
          {
            worldMatrix: mat4.translation([-0.7 * 0.75, 0, 1]),
          },
        );
        const overlay = createPickOverlay(picker, [{ handleId: 'grip', mesh: handle }]);
        const onHandle = await pickAsync(picker, 14, 24);
        expect(onHandle.pickedOverlay?.handleId).toBe('grip');
        disposePickOverlay(overlay);
        disposeMesh(left);
        const after = await pickAsync(picker, 34, 24);
        expect(after.pickedMesh).toBe(right);
        expect(after.faceId).toBe(first[1].faceId);
        // The disposed mesh's copy is gone; the live ones (the right sphere, the handle) stay.
        expect(new Set(picker.gpu!.expanded.keys())).toEqual(new Set([right, handle]));
        disposeGpuPicker(picker);
        expect(picker.gpu).toBeNull();
      }),
    120_000,
  );

  test(
    'a discard rule and a world-adjust hook are honoured as drawn (float64 three-mesh-bvh reference)',
    () =>
      onCompatibilityEngineAsync(64, 64, async (engine) => {
        const { width, height } = engine;
        const scene = createScene(engine);
        const eye: [number, number, number] = [0, 3, 4];
        scene.camera = makePerspectiveCamera({ position: eye, target: [0, 0, 0], fovY: 0.8 });
        const data = makeSphereData({ radius: 1, segments: 24 });
        createMeshFromData(scene, 'ball', data);
        // The hook scales the surface by 1.25 about the mesh's origin; the rule discards the adjusted surface above
        // y = 0.3, through which the inside of the ball (back faces, culling 'none') is seen.
        const rule: PickDiscardRule = {
          key: 'cap',
          wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.worldPos.y > 0.3;\n}',
          worldAdjustWgsl:
            'fn adjustPickWorld(input: PickWorldInput) -> vec3f {\n  return input.origin + (input.worldPos - input.origin) * 1.25;\n}',
        };
        const picker = createGpuPicker(scene);
        expect(enableDetailedPicking(picker)).toBe(true);
        expect(picker.detailMethod).toBe('expanded-vertices');
        const points: { x: number; y: number }[] = [];
        for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) points.push({ x, y });
        const infos = await pickManyAsync(picker, points, { discard: rule, culling: 'none' });
        const reference = createReferenceScene([
          {
            id: 1,
            positions: data.positions!,
            indices: data.indices ?? null,
            uvs: data.uvs ?? null,
            worldMatrix: new Float32Array(mat4.scaling([1.25, 1.25, 1.25])),
            doubleSided: true,
          },
        ]);
        const camera = cameraBasis(eye, [0, 0, 0], 0.8, width, height);
        const keeps = (hit: ReferenceHit) => hit.point[1] <= 0.3;
        const cast = (x: number, y: number) => {
          const ray = pixelRay(camera, x, y, width, height);
          return castReferenceRayAll(reference, ray.origin, ray.direction).find(keeps) ?? null;
        };
        let compared = 0;
        let agree = 0;
        let insideSeen = 0;
        points.forEach(({ x, y }, k) => {
          const truth = cast(x, y);
          const stable = [
            [-0.05, 0],
            [0.05, 0],
            [0, -0.05],
            [0, 0.05],
          ].every(([dx, dy]) => cast(x + dx, y + dy)?.faceId === truth?.faceId);
          if (!stable || !truth || Math.abs(truth.point[1] - 0.3) < 1e-3) return;
          compared++;
          const info = infos[k];
          const uv = getPickedUV(info);
          if (!truth.frontFacing) insideSeen++;
          if (
            info.faceId === truth.faceId &&
            Math.abs(info.bu - truth.bu) <= 1e-4 &&
            Math.abs(info.bv - truth.bv) <= 1e-4 &&
            info.pickedPoint!.every((c, i) => Math.abs(c - truth.point[i]) <= 1e-5 * truth.distance) &&
            uv &&
            Math.abs(uv[0] - truth.uv![0]) <= 1e-4 &&
            Math.abs(uv[1] - truth.uv![1]) <= 1e-4
          )
            agree++;
        });
        expect(compared).toBeGreaterThan(600);
        expect(insideSeen).toBeGreaterThan(50);
        expect(agree / compared).toBeGreaterThanOrEqual(0.999);
        disposeGpuPicker(picker);
      }),
    120_000,
  );

  test("a morphed mesh on 'expanded-vertices' (a core device's storage morph data) picks as on 'vertex-index'", () =>
    runOnGpu(async ({ engine }) => {
      const scene = frontScene(engine);
      const data = makeSphereData({ radius: 1 });
      const morphed = createMeshFromData(scene, 'morphed', data, {
        morphTargets: { positions: [data.positions!.map((c, i) => (i % 3 === 0 ? c * 0.4 : 0))] },
        morphWeights: [0.8],
      });
      const picker = createGpuPicker(scene);
      expect(enableDetailedPicking(picker, { method: 'vertex-index' })).toBe(true);
      const pulled = await detailGrid(picker, engine);
      expect(enableDetailedPicking(picker, { method: 'expanded-vertices' })).toBe(true);
      const expanded = await detailGrid(picker, engine);
      expect(expanded.filter((row) => row[0] === 'morphed').length).toBe(25);
      // The same triangles and barycentrics: the deltas were read at each corner's original vertex, not 3t + k.
      expect(expanded).toEqual(pulled);
      expect(picker.gpu!.expanded.get(morphed)?.vertexIndices?.size).toBe(data.indices!.length * 4);
      expect(morphed.deformationGpu?.morphDeltas).toBeTruthy(); // storage, not textures: the core device's path
      disposeGpuPicker(picker);
    }));

  test('the original-vertex stream past maxVertexBuffers / maxVertexAttributes is a typed PickError naming the limit', () =>
    onCompatibilityEngineAsync(32, 32, async (engine) => {
      const scene = frontScene(engine);
      const data = makeSphereData({ radius: 1 });
      const morphed = createMeshFromData(scene, 'morphed', data, {
        morphTargets: { positions: [data.positions!.map((c) => c * 0.1)] },
        morphWeights: [0.5],
      });
      const { description } = describePickShader('pickAsync', morphed, true, null, 'expanded-vertices');
      expect(description.vertexIndexStream).toBe(true);
      const composed = composeShader(pickShaderSpec(description, { deformationTextures: true }));
      const buffers = composed.vertexBuffers.length;
      // Dawn's compatibility mode counts the vertex_index and instance_index builtins as attributes too.
      expect(engine.device.features.has('core-features-and-limits')).toBe(false);
      const attributes = composed.vertexBuffers.reduce((n, b) => n + [...b.attributes].length, 2);
      expect(composed.vertexInputs.some((input) => input.semantic === 'vertexIndex')).toBe(true);
      const device = (limits: Partial<GPUSupportedLimits>) =>
        ({
          features: engine.device.features,
          limits: { maxVertexBuffers: buffers, maxVertexAttributes: attributes, ...limits },
        }) as GPUDevice;
      expect(() => checkVertexStreamLimits('pickAsync', device({}), morphed, composed)).not.toThrow();
      for (const [name, limit] of [
        ['maxVertexBuffers', buffers - 1],
        ['maxVertexAttributes', attributes - 1],
      ] as const) {
        const refused = (() => {
          try {
            checkVertexStreamLimits('pickAsync', device({ [name]: limit }), morphed, composed);
          } catch (error) {
            return error;
          }
        })();
        expect(refused).toBeInstanceOf(PickError);
        expect((refused as PickError).code).toBe('limit-exceeded');
        expect((refused as PickError).message).toContain(`mesh "morphed": expanded-vertices detail`);
        expect((refused as PickError).message).toContain(`but the device's ${name} is ${limit}`);
      }
    }));
});
