// Issue 15's acceptance suite: every pick path × every scene variant, judged against three.js + three-mesh-bvh rays
// built in float64 from the camera's parameters, on pixel centres ≥ 0.05 px from every projected edge (computed in
// float64 here, never through weft's ray or matrix code). Paths and variants are tables: add a row to extend it.
import { afterAll, describe, expect } from 'vitest';
import { type Engine, type RenderTarget, runTasks } from '../../../engine/index.js';
import {
  createGeometryRendererTask,
  GEOMETRY_TEXTURE_DESCRIPTIONS,
  type GeometryRendererTask,
  GeometryTextureType,
  readGeometryFrameIdAsync,
} from '../../../geometry/index.js';
import {
  createGpuPicker,
  disposeGpuPicker,
  enableDetailedPicking,
  type GpuPicker,
  getPickedUV,
  pickAsync,
  pickManyAsync,
  type PickingInfo,
} from '../../../picking/index.js';
import { pickSync, pickWithRaySync } from '../../../picking/cpu/index.js';
import { ACCEPTANCE_VARIANTS, type AcceptanceScene, buildAcceptanceScene } from '../../support/acceptance-scenes.js';
import {
  formatAcceptanceTable,
  makeTally,
  type PathSample,
  scoreSample,
  type Tally,
  tallyFailures,
} from '../../support/acceptance-tally.js';
import { pixelRay } from '../../support/camera-rays.js';
import { gpuTest } from '../../support/gpu.js';
import { readPixels } from '../geometry/geometry-test-helpers.js';

type Vec3 = [number, number, number];

/** What a path's samples carry, so the table shows "—" rather than a vacuous 0 for what it never produces. */
interface Produces {
  face: boolean;
  point: boolean;
  barycentric: boolean;
  uv: boolean;
  normal: boolean;
  faceNormal: boolean;
}

/** A way of asking weft what is under a pixel centre. */
interface AcceptancePath {
  name: string;
  produces: Produces;
  run(engine: Engine, scene: AcceptanceScene): Promise<PathSample[]>;
}

const detailFields: Produces = { face: true, point: true, barycentric: true, uv: true, normal: true, faceNormal: true };

function fromInfo(info: PickingInfo): PathSample {
  return {
    hit: info.hit,
    meshId: info.pickedMesh?.uniqueId ?? 0,
    thinInstanceIndex: info.thinInstanceIndex,
    faceId: info.faceId,
    point: info.pickedPoint,
    bu: info.bu,
    bv: info.bv,
    normal: info.pickedNormalWorld,
    faceNormal: info.pickedFaceNormalWorld,
    uv: getPickedUV(info),
  };
}

async function pickEveryPixel(
  scene: AcceptanceScene,
  setUp: (picker: GpuPicker) => void,
  batch: number,
  pick: (picker: GpuPicker, points: { x: number; y: number }[]) => Promise<PickingInfo[]>,
): Promise<PathSample[]> {
  const picker = createGpuPicker(scene.scene);
  try {
    setUp(picker);
    const out: PathSample[] = [];
    for (let start = 0; start < scene.pixels.length; start += batch) {
      const points = scene.pixels.slice(start, start + batch).map(({ x, y }) => ({ x, y }));
      for (const info of await pick(picker, points)) out.push(fromInfo(info));
    }
    return out;
  } finally {
    disposeGpuPicker(picker);
  }
}

function primitiveIndexDetail(picker: GpuPicker): void {
  expect(picker.scene.engine.features.has('primitive-index'), 'Dawn on lavapipe offers primitive-index').toBe(true);
  expect(enableDetailedPicking(picker)).toBe(true);
  expect(picker.detailMethod).toBe('primitive-index');
}

async function gbufferSamples(engine: Engine, scene: AcceptanceScene): Promise<PathSample[]> {
  const task = createGeometryRendererTask(scene.scene, {
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
    for (let start = 0; start < scene.pixels.length; start += 64) {
      const batch = scene.pixels.slice(start, start + 64);
      const ids = await Promise.all(batch.map(({ x, y }) => readGeometryFrameIdAsync(task, x, y)));
      batch.forEach(({ x, y, truth }, k) => {
        const id = ids[k];
        const p = positions.at(x, y);
        const n = normals.at(x, y);
        out.push({
          hit: id.hit,
          meshId: id.hit ? id.mesh.uniqueId : 0,
          thinInstanceIndex: id.hit ? id.thinInstanceIndex : -1,
          faceId: id.hit ? id.primitiveIndex : -1,
          point: id.hit ? (p.slice(0, 3) as Vec3) : null,
          // WORLD_NORMAL is the interpolated normal where the mesh has normals (on the side the camera sees, like the
          // picks' normals: compared as a vector), else the face normal.
          ...(truth?.normalWorld ? { normal: n.slice(0, 3) as Vec3 } : { faceNormal: n.slice(0, 3) as Vec3 }),
        });
      });
    }
    return out;
  } finally {
    task.dispose();
  }
}

const PATHS: readonly AcceptancePath[] = [
  {
    name: 'pickAsync detail (primitive-index)',
    produces: detailFields,
    run: (_, scene) =>
      pickEveryPixel(scene, primitiveIndexDetail, 64, (picker, points) =>
        Promise.all(points.map((p) => pickAsync(picker, p.x, p.y))),
      ),
  },
  {
    name: 'pickManyAsync detail (primitive-index)',
    produces: detailFields,
    run: (_, scene) =>
      pickEveryPixel(scene, primitiveIndexDetail, 400, (picker, points) => pickManyAsync(picker, points)),
  },
  {
    name: 'pickSync (CPU)',
    produces: detailFields,
    run: async (_, scene) => scene.pixels.map(({ x, y }) => fromInfo(pickSync(scene.scene, x, y))),
  },
  {
    // The same CPU BVH fed the test's float64 ray: separates the BVH's exactness from pickSync's own pixel ray.
    name: 'pickWithRaySync (CPU, float64 test ray)',
    produces: detailFields,
    run: async (_, scene) =>
      scene.pixels.map(({ x, y }) => fromInfo(pickWithRaySync(scene.scene, pixelRay(scene.camera, x, y)))),
  },
  {
    name: 'G-buffer (world position, world normal, object id)',
    produces: { face: true, point: true, barycentric: false, uv: false, normal: true, faceNormal: true },
    run: gbufferSamples,
  },
  {
    name: 'pickAsync detail (vertex-index)',
    produces: detailFields,
    run: (_, scene) =>
      pickEveryPixel(
        scene,
        (picker) => {
          expect(enableDetailedPicking(picker, { method: 'vertex-index' })).toBe(true);
          expect(picker.detailMethod).toBe('vertex-index');
        },
        64,
        (picker, points) => Promise.all(points.map((p) => pickAsync(picker, p.x, p.y))),
      ),
  },
];

const VARIANTS = ACCEPTANCE_VARIANTS;

const SEEDS = [101, 102, 103];
const SIZE: [number, number] = [80, 60];
const tallies: Tally[] = [];

describe('acceptance: every pick path on every scene variant, against float64 rays and three-mesh-bvh', () => {
  for (const variant of VARIANTS) {
    gpuTest(
      `${variant.name}: ${variant.description}`,
      async ({ engine }) => {
        const rows = PATHS.map((path) => makeTally(path.name, variant.name));
        for (const seed of SEEDS) {
          const scene = await buildAcceptanceScene(engine, variant, seed);
          for (const [i, path] of PATHS.entries()) {
            const samples = await path.run(engine, scene);
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
      },
      SIZE,
    );
  }

  afterAll(() => {
    const produced = (t: Tally) => {
      const p = PATHS.find((path) => path.name === t.path)!.produces;
      return { ...p } as unknown as Record<string, boolean>;
    };
    console.log(
      `[acceptance] ${SEEDS.length} seeds × ${SIZE.join('×')} px per variant\n${formatAcceptanceTable(tallies, produced, (t) => tallyFailures(t).length === 0)}`,
    );
  });
});
