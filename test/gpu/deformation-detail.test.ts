// Deformed hits in detail (issue 15 item 7): morph targets and 8-influence skinning checked at every judged pixel
// centre against the same data deformed by three.js's own code (test/support/three-deform.ts) and ray-cast with
// three-mesh-bvh along float64 rays from the camera's parameters: forward pixels, detailed picks (face, point, bu/bv,
// interpolated normal, UV, face normal), and the G-buffer (world position, world normal, object id).
import { Euler, Matrix4, Quaternion, Vector3 } from 'three';
import { describe, expect } from 'vitest';
import {
  createMeshFromData,
  createScene,
  type Engine,
  makePerspectiveCamera,
  makeSkeleton,
  makeSphereData,
  makeStandardMaterial,
  type Mesh,
  type MeshData,
  readEngineFrameAsync,
  type RenderTarget,
  renderFrame,
  runTasks,
  type Scene,
  setBoneMatrix,
} from '../../engine/index.js';
import {
  createGeometryRendererTask,
  GEOMETRY_TEXTURE_DESCRIPTIONS,
  type GeometryRendererTask,
  GeometryTextureType,
  readGeometryFrameIdAsync,
} from '../../geometry/index.js';
import { createGpuPicker, enableDetailedPicking, getPickedUV, pickAsync } from '../../picking/index.js';
import { type JudgedPixel, judgePixel } from '../support/acceptance-scenes.js';
import { makeTally, type PathSample, scoreSample, type Tally, tallyFailures } from '../support/acceptance-tally.js';
import { makeFloat64Camera } from '../support/camera-rays.js';
import { gpuTest } from '../support/gpu.js';
import { makeEdgeMap } from '../support/projected-edges.js';
import { makeRandom } from '../support/random.js';
import { createReferenceScene } from '../support/reference-raycast.js';
import { type Deformed, deformWithThree } from '../support/three-deform.js';
import { readPixels } from './geometry/geometry-test-helpers.js';

type Vec3 = [number, number, number];
const SIZE: [number, number] = [96, 72];

/** Judges every pixel centre of the deformed mesh (edges projected in float64 from the deformed triangles). */
function judgeFrame(engine: Engine, scene: Scene, mesh: Mesh, data: MeshData, deformed: Deformed): JudgedPixel[] {
  const world = Array.from(mesh.worldMatrix);
  const reference = createReferenceScene([
    {
      id: mesh.uniqueId,
      positions: deformed.positions,
      indices: data.indices ?? null,
      normals: deformed.normals,
      uvs: data.uvs ?? null,
      worldMatrix: new Float32Array(world),
    },
  ]);
  const camera = makeFloat64Camera(scene.camera!, engine.width, engine.height);
  const edges = makeEdgeMap(camera, [
    { positions: deformed.positions, indices: data.indices ?? null, worldMatrices: [world] },
  ]);
  const pixels: JudgedPixel[] = [];
  for (let y = 0; y < engine.height; y++)
    for (let x = 0; x < engine.width; x++) pixels.push(judgePixel(reference, camera, edges, x, y));
  return pixels;
}

async function pickSamples(scene: Scene, pixels: JudgedPixel[]): Promise<PathSample[]> {
  const picker = createGpuPicker(scene);
  expect(enableDetailedPicking(picker)).toBe(true);
  const out: PathSample[] = [];
  for (let start = 0; start < pixels.length; start += 64) {
    const infos = await Promise.all(pixels.slice(start, start + 64).map(({ x, y }) => pickAsync(picker, x, y)));
    for (const info of infos)
      out.push({
        hit: info.hit,
        meshId: info.pickedMesh?.uniqueId ?? 0,
        thinInstanceIndex: info.thinInstanceIndex,
        faceId: info.faceId,
        point: info.pickedPoint,
        bu: info.bu,
        bv: info.bv,
        normal: info.pickedNormalWorld,
        faceNormal: info.pickedFaceNormalWorld, // the CPU deformation of that one triangle
        uv: getPickedUV(info),
      });
  }
  return out;
}

async function gbufferSamples(engine: Engine, scene: Scene, pixels: JudgedPixel[]): Promise<PathSample[]> {
  const task = createGeometryRendererTask(scene, {
    textureDescriptions: [
      { type: GeometryTextureType.WORLD_POSITION, format: 'rgba32float' },
      { type: GeometryTextureType.WORLD_NORMAL, format: 'rgba32float' },
    ],
    objectId: true,
  });
  try {
    expect(runTasks(engine, [task])).toBe(true);
    const read = (type: GeometryTextureType) =>
      readPixels(task[GEOMETRY_TEXTURE_DESCRIPTIONS[type].accessor as keyof GeometryRendererTask] as RenderTarget);
    const positions = await read(GeometryTextureType.WORLD_POSITION);
    const normals = await read(GeometryTextureType.WORLD_NORMAL);
    const out: PathSample[] = [];
    for (let start = 0; start < pixels.length; start += 64) {
      const batch = pixels.slice(start, start + 64);
      const ids = await Promise.all(batch.map(({ x, y }) => readGeometryFrameIdAsync(task, x, y)));
      batch.forEach(({ x, y }, k) => {
        const id = ids[k];
        out.push({
          hit: id.hit,
          meshId: id.hit ? id.mesh.uniqueId : 0,
          thinInstanceIndex: id.hit ? id.thinInstanceIndex : -1,
          faceId: id.hit ? id.primitiveIndex : -1,
          point: id.hit ? (positions.at(x, y).slice(0, 3) as Vec3) : null,
          normal: id.hit ? (normals.at(x, y).slice(0, 3) as Vec3) : null,
        });
      });
    }
    return out;
  } finally {
    task.dispose();
  }
}

/** Forward frame: an unlit red mesh on black; coverage is all a forward pixel can tell. */
async function forwardSamples(engine: Engine, scene: Scene, mesh: Mesh, pixels: JudgedPixel[]): Promise<PathSample[]> {
  renderFrame(scene);
  const frame = await readEngineFrameAsync(engine);
  return pixels.map(({ x, y }) => {
    const red = frame[(y * engine.width + x) * 4];
    if (red !== 0 && red !== 255) throw new Error(`forward pixel (${x}, ${y}) red ${red} is neither mesh nor clear`);
    return { hit: red === 255, meshId: red === 255 ? mesh.uniqueId : 0, thinInstanceIndex: -1 };
  });
}

function expectPasses(rows: Tally[]): void {
  for (const row of rows) {
    console.log(
      `[deformation detail] ${row.variant} / ${row.path}: ${row.identity}/${row.hits} identities, faces ${row.face}/${row.faceCompared}, worst point ${row.worstPoint.toExponential(1)} × distance, bu/bv ${row.worstBary.toExponential(1)}, UV ${row.worstUv.toExponential(1)}, normal ${row.worstNormalDeg.toExponential(1)}°, face normal ${row.worstFaceNormalDeg.toExponential(1)}°; skipped ${row.nearEdge} near edges`,
    );
    expect(row.hits, `${row.path}: judged hits`).toBeGreaterThan(800);
    expect(tallyFailures(row), `${row.variant} / ${row.path}; first: ${row.firstFailures.join('; ')}`).toEqual([]);
  }
}

function rigidWorld(): Float32Array {
  return Float32Array.from(
    new Matrix4()
      .compose(
        new Vector3(0.1, -0.05, 0),
        new Quaternion().setFromEuler(new Euler(0.4, 0.7, -0.2)),
        new Vector3(1.1, 0.9, 1.2),
      )
      .toArray(),
  );
}

describe('deformed meshes in detail, against three.js deforming the same data', () => {
  gpuTest(
    'morph targets (positions and normals): picks and G-buffer match three.js Mesh.getVertexPosition + morphAttributes',
    async ({ engine }) => {
      const random = makeRandom(7);
      const base = makeSphereData({ radius: 0.8, segments: 32, rings: 16 });
      const n = base.positions!.length / 3;
      const bumps = [0, 1].map(() => {
        const axis = new Vector3(random() - 0.5, random() - 0.5, random() - 0.5).normalize();
        const positions = new Float32Array(n * 3);
        const normals = new Float32Array(n * 3);
        for (let v = 0; v < n; v++) {
          const p = new Vector3().fromArray(base.positions!, v * 3);
          const s = 0.35 * Math.max(0, p.clone().normalize().dot(axis)) ** 2;
          p.multiplyScalar(s).toArray(positions, v * 3);
          new Vector3()
            .fromArray(base.normals!, v * 3)
            .multiplyScalar(-0.3 * s)
            .addScaledVector(axis, s)
            .toArray(normals, v * 3);
        }
        return { positions, normals };
      });
      const weights = [0.8, 0.55];
      const scene = createScene(engine, { clearColor: [0, 0, 0, 1] });
      scene.camera = makePerspectiveCamera({ position: [0.6, 0.8, 3.6], target: [0, 0, 0], fovY: 0.8 });
      const mesh = createMeshFromData(scene, 'morphed', base, {
        worldMatrix: rigidWorld(),
        morphTargets: { positions: bumps.map((b) => b.positions), normals: bumps.map((b) => b.normals) },
        morphWeights: weights,
        material: makeStandardMaterial({ baseColor: [1, 0, 0], unlit: true }),
      });
      const deformed = deformWithThree({
        positions: base.positions!,
        normals: base.normals,
        morphPositions: bumps.map((b) => b.positions),
        morphNormals: bumps.map((b) => b.normals),
        morphWeights: weights,
      });
      const pixels = judgeFrame(engine, scene, mesh, base, deformed);
      const rows = ['forward', 'pickAsync detail', 'G-buffer'].map((path) => makeTally(path, 'morph targets'));
      const runs = [
        await forwardSamples(engine, scene, mesh, pixels),
        await pickSamples(scene, pixels),
        await gbufferSamples(engine, scene, pixels),
      ];
      runs.forEach((samples, i) => pixels.forEach((p, k) => scoreSample(rows[i], p, samples[k])));
      expectPasses(rows);
    },
    SIZE,
  );

  gpuTest(
    '8-influence skinning through a skeleton: forward, picks (with the CPU face normal) and G-buffer match three.js SkinnedMesh',
    async ({ engine }) => {
      const random = makeRandom(8);
      const data = makeSphereData({ radius: 0.8, segments: 32, rings: 16 });
      const n = data.positions!.length / 3;
      // Eight bones around the sphere; each vertex blends all eight by closeness (weights sum to 1, all non-zero).
      const centres = Array.from({ length: 8 }, () =>
        new Vector3(random() - 0.5, random() - 0.5, random() - 0.5).normalize().multiplyScalar(0.8),
      );
      const joints = new Uint16Array(n * 4);
      const joints2 = new Uint16Array(n * 4);
      const weights = new Float32Array(n * 4);
      const weights2 = new Float32Array(n * 4);
      for (let v = 0; v < n; v++) {
        const p = new Vector3().fromArray(data.positions!, v * 3);
        const raw = centres.map((c) => Math.exp(-3 * p.distanceTo(c)));
        const sum = raw.reduce((a, b) => a + b, 0);
        for (let k = 0; k < 4; k++) {
          joints[v * 4 + k] = k;
          joints2[v * 4 + k] = k + 4;
          weights[v * 4 + k] = raw[k] / sum;
          weights2[v * 4 + k] = raw[k + 4] / sum;
        }
      }
      const skinned: MeshData = { ...data, joints, weights, joints2, weights2 };
      const bones = new Float32Array(8 * 16);
      for (let j = 0; j < 8; j++) {
        const pivot = centres[j];
        const turn = new Matrix4().makeRotationAxis(
          new Vector3(random() - 0.5, random() - 0.5, random() - 0.5).normalize(),
          (random() - 0.5) * 0.9,
        );
        // Rotate about the bone's centre, then push it outwards a little.
        const m = new Matrix4()
          .makeTranslation(pivot.x * 1.15, pivot.y * 1.15, pivot.z * 1.15)
          .multiply(turn)
          .multiply(new Matrix4().makeTranslation(-pivot.x, -pivot.y, -pivot.z));
        bones.set(m.toArray(), j * 16);
      }
      const skeleton = makeSkeleton(8);
      for (let j = 0; j < 8; j++) setBoneMatrix(skeleton, j, bones.subarray(j * 16, j * 16 + 16));
      const scene = createScene(engine, { clearColor: [0, 0, 0, 1] });
      scene.camera = makePerspectiveCamera({ position: [-0.8, 0.5, 3.8], target: [0, 0, 0], fovY: 0.8 });
      const mesh = createMeshFromData(scene, 'skinned8', skinned, {
        worldMatrix: rigidWorld(),
        skeleton,
        material: makeStandardMaterial({ baseColor: [1, 0, 0], unlit: true }),
      });
      const deformed = deformWithThree({ ...skinned, positions: data.positions!, normals: data.normals }, bones);
      const pixels = judgeFrame(engine, scene, mesh, data, deformed);
      const rows = ['forward', 'pickAsync detail', 'G-buffer'].map((path) => makeTally(path, '8-influence skinning'));
      const runs = [
        await forwardSamples(engine, scene, mesh, pixels),
        await pickSamples(scene, pixels),
        await gbufferSamples(engine, scene, pixels),
      ];
      runs.forEach((samples, i) => pixels.forEach((p, k) => scoreSample(rows[i], p, samples[k])));
      expectPasses(rows);
    },
    SIZE,
  );
});
