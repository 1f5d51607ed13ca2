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

/** The agreed `fallback` interface (COMMON.md): typed loosely here until that branch is merged. */
type DetailMethod = 'auto' | 'primitive-index' | 'vertex-index';
const enableDetail = enableDetailedPicking as (picker: GpuPicker, options?: { method: DetailMethod }) => boolean;
const detailMethodOf = (picker: GpuPicker) => (picker as { detailMethod?: string | null }).detailMethod;

function primitiveIndexDetail(picker: GpuPicker): void {
  expect(picker.scene.engine.features.has('primitive-index'), 'Dawn on lavapipe offers primitive-index').toBe(true);
  expect(enableDetailedPicking(picker)).toBe(true);
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
          // WORLD_NORMAL is the interpolated normal where the mesh has normals, else the face normal; a back face's
          // orientation is the `drawn` helper's documented rule (issue 15 item 5), so it is compared as a line there.
          ...(truth?.normalWorld
            ? { normal: n.slice(0, 3) as Vec3, normalAsLine: !truth.frontFacing }
            : { faceNormal: n.slice(0, 3) as Vec3 }),
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
          expect(enableDetail(picker, { method: 'vertex-index' })).toBe(true);
          expect(detailMethodOf(picker)).toBe('vertex-index');
        },
        64,
        (picker, points) => Promise.all(points.map((p) => pickAsync(picker, p.x, p.y))),
      ),
  },
];

const VARIANTS = ACCEPTANCE_VARIANTS;

/**
 * Paths and variants written here but not run until another helper's branch is merged (COMMON.md): the coordinator
 * deletes a name from this list after merging the branch that makes it pass.
 * - 'pickAsync detail (vertex-index)': the `fallback` helper's detail without primitive-index
 *   (`enableDetailedPicking(picker, { method: 'vertex-index' })`, `picker.detailMethod`).
 * - 'single-sided materials', 'mirrored scales / mirrored thin instances': the `drawn` helper's culling rule. Measured
 *   today (one seed): on single-sided, the picks (GPU and CPU) hit the back faces of one-sided planes that are not
 *   drawn (identity 99.3 %) while the G-buffer passes; on mirrored, the picks pass but the G-buffer draws mirrored
 *   meshes inside out (identity 97.6 %, faceId 23 %).
 */
const PENDING_AFTER_MERGE: readonly string[] = [
  'pickAsync detail (vertex-index)',
  'single-sided materials',
  'mirrored scales / mirrored thin instances',
];

/**
 * Paths that run and are printed but fail a precision bar today for a reason another helper owns: their identity,
 * faceId and miss agreement are still asserted; their precision columns are reported, not asserted (the table marks
 * them). The coordinator deletes an entry once the named work is merged and the row passes.
 */
const KNOWN_GAPS: Readonly<Record<string, string>> = {
  'pickSync (CPU)':
    'the CPU ray comes from a 32-bit inverted view-projection (issue 15 item 4, the `drawn` helper): point, bu/bv and normal errors follow the ray error',
  'pickManyAsync detail (primitive-index)':
    'measured up to 10x less precise than pickAsync on the same pixels (worst bu/bv 1.1e-4 vs 2.5e-5, point 6.6e-6 vs 1.5e-6 x distance); not diagnosed: the likely cause is that the points are drawn side by side in one K-wide row, so point p is rasterised at texel x = p (pickAsync draws at x = 0) and float32 attribute interpolation loses precision with x',
};

const SEEDS = [101, 102, 103];
const SIZE: [number, number] = [80, 60];
const tallies: Tally[] = [];

describe('acceptance: every pick path on every scene variant, against float64 rays and three-mesh-bvh', () => {
  for (const variant of VARIANTS.filter((v) => !PENDING_AFTER_MERGE.includes(v.name))) {
    gpuTest(
      `${variant.name}: ${variant.description}`,
      async ({ engine }) => {
        const paths = PATHS.filter((p) => !PENDING_AFTER_MERGE.includes(p.name));
        const rows = paths.map((path) => makeTally(path.name, variant.name));
        for (const seed of SEEDS) {
          const scene = await buildAcceptanceScene(engine, variant, seed);
          for (const [i, path] of paths.entries()) {
            const samples = await path.run(engine, scene);
            expect(samples).toHaveLength(scene.pixels.length);
            scene.pixels.forEach((pixel, k) => scoreSample(rows[i], pixel, samples[k]));
          }
        }
        tallies.push(...rows);
        for (const row of rows) {
          expect(row.hits, `${row.path}: enough judged hits`).toBeGreaterThan(2000);
          const failures = tallyFailures(row);
          const gap = KNOWN_GAPS[row.path];
          const asserted = gap ? failures.filter((f) => !/errors over the bar$/.test(f)) : failures;
          if (gap && failures.length)
            console.log(`[acceptance] known gap, ${row.path} on ${row.variant}: ${failures.join('; ')} (${gap})`);
          expect(asserted, `${row.path} on ${row.variant}; first: ${row.firstFailures.join('; ')}`).toEqual([]);
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
      `[acceptance] ${SEEDS.length} seeds × ${SIZE.join('×')} px per variant; pending after merge: ${PENDING_AFTER_MERGE.join(', ')}\n${formatAcceptanceTable(tallies, produced, (t) => tallyFailures(t).length === 0)}\nknown gaps (precision reported, not asserted):\n${Object.entries(
        KNOWN_GAPS,
      )
        .map(([path, why]) => `- ${path}: ${why}`)
        .join('\n')}`,
    );
  });
});
