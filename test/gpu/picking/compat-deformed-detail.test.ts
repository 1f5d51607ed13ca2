// Morph targets and vertex-animation textures under 'expanded-vertices' detail on a WebGPU compatibility-mode device
// (Dawn, featureLevel 'compatibility': no vertex-stage storage, no primitive-index, deformation data in textures).
// Morph deltas are read at the ORIGINAL vertex, which the de-indexed draw feeds as a per-corner stream; VAT reads its
// playback by instance and its influences per vertex, so it draws from the plain copies. These picks must meet
// the acceptance bars against the same data deformed in this file (three.js for morphs, vat-reference.ts for VAT) and
// ray-cast with three-mesh-bvh along float64 rays, on pixel centres ≥ 0.05 px from every projected edge.
import { Euler, Matrix4, Quaternion, Vector3 } from 'three';
import { describe, expect, test } from 'vitest';
import { mat4 } from 'wgpu-matrix';
import {
  createMeshFromData,
  createScene,
  type Engine,
  makePerspectiveCamera,
  makeSphereData,
  makeVertexAnimation,
  type Mesh,
  type MeshData,
  type Scene,
} from '../../../engine/index.js';
import {
  createGpuPicker,
  disposeGpuPicker,
  enableDetailedPicking,
  type GpuPicker,
  getPickedUV,
  pickAllAsync,
  pickAsync,
  pickManyAsync,
  type PickingInfo,
} from '../../../picking/index.js';
import { type JudgedPixel, judgePixel } from '../../support/acceptance-scenes.js';
import { makeTally, type PathSample, scoreSample, type Tally, tallyFailures } from '../../support/acceptance-tally.js';
import { makeFloat64Camera } from '../../support/camera-rays.js';
import { onCompatibilityEngineAsync } from '../../support/compat-device.js';
import { makeEdgeMap } from '../../support/projected-edges.js';
import { makeRandom } from '../../support/random.js';
import { createReferenceScene } from '../../support/reference-raycast.js';
import { deformWithThree } from '../../support/three-deform.js';
import { animateOnCpu, bakeFrames } from '../../support/vat-reference.js';

const SIZE: [number, number] = [80, 60];

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

function frontScene(engine: Engine): Scene {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [0.6, 0.8, 3.6], target: [0, 0, 0], fovY: 0.8 });
  return scene;
}

/** Judges every pixel centre against the mesh as deformed in the test (edges projected from the deformed triangles). */
function judgeFrame(
  engine: Engine,
  scene: Scene,
  mesh: Mesh,
  data: MeshData,
  positions: Float32Array,
  normals: Float32Array | null,
): JudgedPixel[] {
  const world = Array.from(mesh.worldMatrix);
  const reference = createReferenceScene([
    {
      id: mesh.uniqueId,
      positions,
      indices: data.indices ?? null,
      normals,
      uvs: data.uvs ?? null,
      worldMatrix: new Float32Array(world),
    },
  ]);
  const camera = makeFloat64Camera(scene.camera!, engine.width, engine.height);
  const edges = makeEdgeMap(camera, [{ positions, indices: data.indices ?? null, worldMatrices: [world] }]);
  const pixels: JudgedPixel[] = [];
  for (let y = 0; y < engine.height; y++)
    for (let x = 0; x < engine.width; x++) pixels.push(judgePixel(reference, camera, edges, x, y));
  return pixels;
}

function sampleOf(info: PickingInfo, withNormals: boolean): PathSample {
  return {
    hit: info.hit,
    meshId: info.pickedMesh?.uniqueId ?? 0,
    thinInstanceIndex: info.thinInstanceIndex,
    faceId: info.faceId,
    point: info.pickedPoint,
    bu: info.bu,
    bv: info.bv,
    uv: getPickedUV(info),
    ...(withNormals ? { normal: info.pickedNormalWorld, faceNormal: info.pickedFaceNormalWorld } : {}),
  };
}

/**
 * Scores pickAsync (64 at a time) and pickManyAsync detail at every pixel, and pickAllAsync's nearest layer at every
 * fourth, on the expanded-vertices method.
 */
async function scorePaths(
  picker: GpuPicker,
  pixels: JudgedPixel[],
  variant: string,
  withNormals: boolean,
): Promise<Tally[]> {
  expect(enableDetailedPicking(picker)).toBe(true);
  expect(picker.detailMethod).toBe('expanded-vertices');
  const single = makeTally('pickAsync detail (expanded-vertices)', variant);
  const many = makeTally('pickManyAsync detail (expanded-vertices)', variant);
  for (let start = 0; start < pixels.length; start += 64) {
    const batch = pixels.slice(start, start + 64);
    const infos = await Promise.all(batch.map(({ x, y }) => pickAsync(picker, x, y)));
    infos.forEach((info, k) => scoreSample(single, batch[k], sampleOf(info, withNormals)));
  }
  const infos = await pickManyAsync(
    picker,
    pixels.map(({ x, y }) => ({ x, y })),
  );
  infos.forEach((info, k) => scoreSample(many, pixels[k], sampleOf(info, withNormals)));
  // Drill-through draws the same pipelines in render bundles: its nearest layer, at every fourth pixel.
  const drill = makeTally('pickAllAsync nearest layer (expanded-vertices)', variant);
  const sparse = pixels.filter((_, k) => k % 4 === 0);
  const layers = await Promise.all(sparse.map(({ x, y }) => pickAllAsync(picker, x, y, { max: 2 })));
  layers.forEach((found, k) => {
    const nearest = found[0];
    const sample: PathSample = nearest
      ? sampleOf(nearest, withNormals)
      : { hit: false, meshId: 0, thinInstanceIndex: -1 };
    scoreSample(drill, sparse[k], sample);
  });
  return [single, many, drill];
}

function expectPasses(rows: Tally[]): void {
  for (const row of rows) {
    console.log(
      `[compat deformed detail] ${row.variant} / ${row.path}: ${row.identity}/${row.hits} identities, faces ${row.face}/${row.faceCompared}, worst point ${row.worstPoint.toExponential(1)} × distance, bu/bv ${row.worstBary.toExponential(1)}, UV ${row.worstUv.toExponential(1)}, normal ${row.worstNormalDeg.toExponential(1)}°, face normal ${row.worstFaceNormalDeg.toExponential(1)}°; skipped ${row.nearEdge} near edges`,
    );
    expect(row.hits, `${row.path}: judged hits`).toBeGreaterThan(row.path.startsWith('pickAllAsync') ? 150 : 600);
    expect(tallyFailures(row), `${row.variant} / ${row.path}; first: ${row.firstFailures.join('; ')}`).toEqual([]);
  }
}

/**
 * The picker drew the mesh from its expanded copy, with an original-vertex stream (one uint32 per corner) when its
 * deformation reads the vertex (morph deltas; VAT reads the instance's playback and per-vertex influences only).
 */
function expectExpandedCopy(picker: GpuPicker, mesh: Mesh, withVertexIndices: boolean): void {
  const copy = picker.gpu!.expanded.get(mesh);
  expect(copy).toBeDefined();
  expect(copy!.vertexIndices?.size ?? null).toBe(withVertexIndices ? mesh.geometry.indices!.length * 4 : null);
  expect(mesh.deformationGpu?.morphDeltas ?? null).toBeNull(); // data in textures: the compatibility path
}

describe("morph targets and VAT on 'expanded-vertices' detail (compatibility-mode device)", () => {
  test(
    'morph targets (positions and normals, non-zero weights): face, point, bu/bv, UV, normal and face normal meet the bars',
    () =>
      onCompatibilityEngineAsync(SIZE[0], SIZE[1], async (engine) => {
        expect(engine.device.limits.maxStorageBuffersInVertexStage).toBe(0);
        const random = makeRandom(17);
        const base = makeSphereData({ radius: 0.8, segments: 32, rings: 16 });
        const n = base.positions!.length / 3;
        const bumps = [0, 1].map(() => {
          const axis = new Vector3(random() - 0.5, random() - 0.5, random() - 0.5).normalize();
          const positions = new Float32Array(n * 3);
          const normals = new Float32Array(n * 3);
          for (let v = 0; v < n; v++) {
            const p = new Vector3().fromArray(base.positions!, v * 3);
            const s = 0.4 * Math.max(0, p.clone().normalize().dot(axis)) ** 2;
            p.multiplyScalar(s).toArray(positions, v * 3);
            new Vector3()
              .fromArray(base.normals!, v * 3)
              .multiplyScalar(-0.3 * s)
              .addScaledVector(axis, s)
              .toArray(normals, v * 3);
          }
          return { positions, normals };
        });
        const weights = [0.75, 0.5];
        const scene = frontScene(engine);
        const mesh = createMeshFromData(scene, 'morphed', base, {
          worldMatrix: rigidWorld(),
          morphTargets: { positions: bumps.map((b) => b.positions), normals: bumps.map((b) => b.normals) },
          morphWeights: weights,
        });
        const deformed = deformWithThree({
          positions: base.positions!,
          normals: base.normals,
          morphPositions: bumps.map((b) => b.positions),
          morphNormals: bumps.map((b) => b.normals),
          morphWeights: weights,
        });
        const pixels = judgeFrame(engine, scene, mesh, base, deformed.positions, deformed.normals);
        const picker = createGpuPicker(scene);
        try {
          const rows = await scorePaths(picker, pixels, 'morph targets', true);
          expectExpandedCopy(picker, mesh, true);
          expectPasses(rows);
        } finally {
          disposeGpuPicker(picker);
        }
      }),
    300_000,
  );

  test(
    'vertex-animation textures (two blended clips, smooth two-bone weights): face, point, bu/bv and UV meet the bars',
    () =>
      onCompatibilityEngineAsync(SIZE[0], SIZE[1], async (engine) => {
        const sphere = makeSphereData({ radius: 0.8, segments: 32, rings: 16 });
        const n = sphere.positions!.length / 3;
        const joints = new Uint16Array(n * 4);
        const weights = new Float32Array(n * 4);
        for (let v = 0; v < n; v++) {
          // Bone 1 takes over smoothly from the equator up: most vertices blend both bones.
          const upper = Math.min(1, Math.max(0, (sphere.positions![v * 3 + 1] + 0.4) / 1.2));
          joints.set([0, 1], v * 4);
          weights.set([1 - upper, upper], v * 4);
        }
        const data: MeshData = { ...sphere, joints, weights };
        const frames = bakeFrames(
          4,
          2,
          (f, b) =>
            (b === 0
              ? mat4.translation([0.05 * f, -0.1 * f, 0])
              : mat4.multiply(mat4.translation([0.08 * f, 0.1 * f, 0]), mat4.rotationZ(0.2 * f))) as Float32Array,
        );
        // Clip A rows 0..3 at speed 1, clip B rows 1..3 at speed 0.5, blended 35 % B.
        const record = [0, 3, 0.3, 1, 1, 3, 0, 0.5, 0.35, 0, 0, 0];
        const time = 1.3;
        const scene = frontScene(engine);
        const mesh = createMeshFromData(scene, 'animated', data, {
          worldMatrix: rigidWorld(),
          vertexAnimation: makeVertexAnimation({ name: 'bend', frames, boneCount: 2, frameCount: 4 }),
          vertexAnimationPlayback: record,
        });
        mesh.vertexAnimationTime = time;
        const positions = animateOnCpu(data, frames, 2, record, time);
        // The reference has no normals: weft reports none on a VAT mesh (its normals are not animated on the CPU).
        const pixels = judgeFrame(engine, scene, mesh, data, positions, null);
        const picker = createGpuPicker(scene);
        try {
          const rows = await scorePaths(picker, pixels, 'vertex-animation textures', false);
          expectExpandedCopy(picker, mesh, false);
          expect(mesh.deformationGpu?.vatPlaybackTexture).toBeTruthy();
          const [info] = await pickManyAsync(picker, [pixels.find((p) => p.truth && p.verdict === 'judged')!]);
          expect(info.pickedNormalWorld).toBeNull();
          expectPasses(rows);
        } finally {
          disposeGpuPicker(picker);
        }
      }),
    300_000,
  );
});
