import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import {
  type Camera,
  createMeshFromData,
  createScene,
  type Engine,
  makeMatrixCamera,
  makeOrthographicCamera,
  makePerspectiveCamera,
  makeStandardMaterial,
  type Mesh,
  type MeshData,
  type OrthographicCamera,
  type RenderTarget,
  readEngineFrameAsync,
  renderFrame,
  runTasks,
  type Scene,
} from '../../../engine/index.js';
import { makeBoxData } from '../../../engine/primitives/box.js';
import { makeSphereData } from '../../../engine/primitives/sphere.js';
import { makeTorusData } from '../../../engine/primitives/torus.js';
import {
  createGeometryRendererTask,
  GEOMETRY_TEXTURE_DESCRIPTIONS,
  type GeometryRendererTask,
  GeometryTextureType,
} from '../../../geometry/index.js';
import { pickSync } from '../../../picking/cpu/index.js';
import {
  createGpuPicker,
  disposeGpuPicker,
  enableDetailedPicking,
  type PickingInfo,
  pickAsync,
  pickRectAsync,
} from '../../../picking/index.js';
import { lookAt64, orthographic64, orthographicPixelRay } from '../../support/camera-matrices64.js';
import { gpuTest } from '../../support/gpu.js';
import {
  castReferenceRay,
  castReferenceRayAll,
  createReferenceScene,
  type ReferenceHit,
  type ReferenceScene,
} from '../../support/reference-raycast.js';
import { readPixels } from '../geometry/geometry-test-helpers.js';

type Vec3 = [number, number, number];
const size: [number, number] = [64, 48];
const colors: Vec3[] = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

interface OrthoScene {
  scene: Scene;
  meshes: Mesh[];
  reference: ReferenceScene;
  camera: OrthographicCamera;
  /** The camera's parameters as it holds them (float32 position and target), for the float64 references. */
  parameters: { position: number[]; target: number[]; up: number[]; height: number; near: number; far: number };
}

/** A box, a sphere and a torus seen by an orthographic camera; the reference scene holds the same triangles. */
function makeOrthoScene(engine: Engine): OrthoScene {
  const scene = createScene(engine, { clearColor: [0, 0, 0, 1] });
  const camera = makeOrthographicCamera({ position: [2.6, 2.1, 4.2], target: [0.1, 0, 0], height: 4.2, far: 30 });
  scene.camera = camera;
  const placed: { data: MeshData; world: Float32Array }[] = [
    {
      data: makeBoxData({ width: 1.2, height: 1.2, depth: 1.2 }),
      world: mat4.multiply(mat4.translation([-1, 0, 0]), mat4.rotationY(0.4)),
    },
    { data: makeSphereData({ radius: 0.65 }), world: mat4.translation([0.6, 0.3, -0.4]) },
    { data: makeTorusData(), world: mat4.multiply(mat4.translation([0.3, -0.6, 0.9]), mat4.rotationX(0.9)) },
  ];
  const meshes = placed.map((p, i) =>
    createMeshFromData(scene, `mesh${i}`, p.data, {
      worldMatrix: p.world,
      material: makeStandardMaterial({ baseColor: [...colors[i], 1], unlit: true }),
    }),
  );
  const reference = createReferenceScene(
    placed.map((p, i) => ({
      id: meshes[i].uniqueId,
      positions: p.data.positions!,
      indices: p.data.indices ?? null,
      normals: p.data.normals ?? null,
      worldMatrix: p.world,
    })),
  );
  const parameters = {
    position: Array.from(camera.position),
    target: Array.from(camera.target),
    up: Array.from(camera.up),
    height: camera.height,
    near: camera.near,
    far: camera.far,
  };
  return { scene, meshes, reference, camera, parameters };
}

const sameHit = (a: ReferenceHit | null, b: ReferenceHit | null) =>
  !a || !b ? a === b : a.meshId === b.meshId && a.faceId === b.faceId;
const close = (a: readonly number[], b: readonly number[], tolerance: number) =>
  a.every((v, i) => Math.abs(v - b[i]) <= tolerance);

/** The reference hit through pixel (x, y), or undefined when a triangle edge passes within 0.05 px of its centre. */
function interiorHit(s: OrthoScene, x: number, y: number): ReferenceHit | null | undefined {
  const [width, height] = size;
  const cast = (sx: number, sy: number) => {
    const ray = orthographicPixelRay(s.parameters, sx, sy, width, height);
    return castReferenceRay(s.reference, ray.origin, ray.direction);
  };
  const hit = cast(x + 0.5, y + 0.5);
  for (const [dx, dy] of [
    [-0.05, 0],
    [0.05, 0],
    [0, -0.05],
    [0, 0.05],
  ])
    if (!sameHit(hit, cast(x + 0.5 + dx, y + 0.5 + dy))) return undefined;
  return hit;
}

interface Tally {
  compared: number;
  misses: number;
  failures: string[];
}

/** Compares one pick with the reference hit: identity, face, point, barycentrics and the normal on the seen side. */
function compare(tally: Tally, where: string, info: PickingInfo, truth: ReferenceHit | null, pointTolerance: number) {
  if (!truth) {
    tally.misses++;
    if (info.hit) tally.failures.push(`${where}: hit ${info.pickedMesh?.name}, reference missed`);
    return;
  }
  tally.compared++;
  const wrong: string[] = [];
  if (info.pickedMesh?.uniqueId !== truth.meshId) wrong.push(`mesh ${info.pickedMesh?.uniqueId} vs ${truth.meshId}`);
  else if (info.faceId !== truth.faceId) wrong.push(`face ${info.faceId} vs ${truth.faceId}`);
  else {
    if (!close(info.pickedPoint!, truth.point, pointTolerance))
      wrong.push(`point ${info.pickedPoint} vs ${truth.point}`);
    if (!close([info.bu, info.bv], [truth.bu, truth.bv], 1e-3)) wrong.push(`bary ${info.bu},${info.bv}`);
    const seen = truth.normalWorld && (truth.frontFacing ? truth.normalWorld : truth.normalWorld.map((c) => -c));
    if (seen && !(info.pickedNormalWorld && close(info.pickedNormalWorld, seen, 1e-3)))
      wrong.push(`normal ${info.pickedNormalWorld} vs ${seen}`);
  }
  if (wrong.length) tally.failures.push(`${where}: ${wrong.join('; ')}`);
}

/** Every pixel whose centre is interior (no edge within 0.05 px), with its reference hit. */
function gridPixels(s: OrthoScene): { x: number; y: number; truth: ReferenceHit | null }[] {
  const out: { x: number; y: number; truth: ReferenceHit | null }[] = [];
  for (let y = 0; y < size[1]; y++)
    for (let x = 0; x < size[0]; x++) {
      const truth = interiorHit(s, x, y);
      if (truth !== undefined) out.push({ x, y, truth });
    }
  return out;
}

/** The host's matrices for the scene's orthographic camera, with a standard-depth (0 near … 1 far) projection. */
function standardDepthMatrixCamera(s: OrthoScene): Camera {
  const p = s.parameters;
  return makeMatrixCamera({
    view: lookAt64(p.position, p.target, p.up),
    projection: orthographic64(p.height, size[0] / size[1], p.near, p.far, 'standard'),
    depth: 'standard',
  });
}

async function pickAll(
  s: OrthoScene,
  camera: Camera | undefined,
  label: string,
): Promise<{ gpu: Tally; cpu: Tally; pixels: number }> {
  const picker = createGpuPicker(s.scene);
  try {
    expect(enableDetailedPicking(picker)).toBe(true);
    const pixels = gridPixels(s);
    const gpu: Tally = { compared: 0, misses: 0, failures: [] };
    const cpu: Tally = { compared: 0, misses: 0, failures: [] };
    const options = camera ? { camera } : {};
    for (let start = 0; start < pixels.length; start += 64) {
      const batch = pixels.slice(start, start + 64);
      const infos = await Promise.all(batch.map((p) => pickAsync(picker, p.x, p.y, options)));
      batch.forEach((p, k) => {
        const where = `${label} (${p.x}, ${p.y})`;
        compare(gpu, `gpu ${where}`, infos[k], p.truth, 2e-3);
        compare(cpu, `cpu ${where}`, pickSync(s.scene, p.x, p.y, options), p.truth, 1e-6);
      });
    }
    return { gpu, cpu, pixels: pixels.length };
  } finally {
    disposeGpuPicker(picker);
  }
}

function expectAgreement(result: { gpu: Tally; cpu: Tally; pixels: number }): void {
  expect(result.pixels).toBeGreaterThan(2000);
  expect(result.gpu.compared).toBeGreaterThan(300);
  expect(result.gpu.misses).toBeGreaterThan(300);
  expect(result.gpu.failures.slice(0, 8)).toEqual([]);
  expect(result.cpu.failures.slice(0, 8)).toEqual([]);
}

describe('orthographic and matrix cameras against three.js + three-mesh-bvh', () => {
  gpuTest(
    'an orthographic scene picks (GPU and CPU) as the float64 reference ray cast finds',
    async ({ engine }) => {
      const s = makeOrthoScene(engine);
      expectAgreement(await pickAll(s, undefined, 'ortho'));
    },
    size,
  );

  gpuTest(
    "a standard-depth matrix camera passed per pick agrees too (the scene's own camera is not used)",
    async ({ engine }) => {
      const s = makeOrthoScene(engine);
      const camera = standardDepthMatrixCamera(s);
      s.scene.camera = makePerspectiveCamera({ position: [0, 0, -6], target: [0, 0, 0] });
      expectAgreement(await pickAll(s, camera, 'matrices'));
      // A marquee through the same camera sees all three meshes; a non-camera is refused by name.
      const picker = createGpuPicker(s.scene);
      try {
        const seen = await pickRectAsync(picker, 0, 0, size[0], size[1], { camera });
        expect(seen.map((p) => p.mesh?.uniqueId).sort()).toEqual(s.meshes.map((m) => m.uniqueId).sort());
        await expect(pickAsync(picker, 1, 1, { camera: { kind: 'fisheye' } as never })).rejects.toThrow(
          /pickAsync: camera .* must be a camera/,
        );
        expect(() => pickSync(s.scene, 1, 1, { camera: 3 as never })).toThrow(/pickSync: camera 3 must be a camera/);
      } finally {
        disposeGpuPicker(picker);
      }
    },
    size,
  );

  gpuTest(
    'the forward renderer draws the orthographic scene (and the matrix camera) as the reference sees it',
    async ({ engine }) => {
      const s = makeOrthoScene(engine);
      const colorOf = new Map(s.meshes.map((m, i) => [m.uniqueId, colors[i]]));
      for (const camera of [s.camera, standardDepthMatrixCamera(s)]) {
        s.scene.camera = camera;
        expect(renderFrame(s.scene)).toBe(true);
        const frame = await readEngineFrameAsync(engine);
        let checked = 0;
        for (const { x, y, truth } of gridPixels(s)) {
          const expected = truth ? colorOf.get(truth.meshId)! : [0, 0, 0];
          const at = (y * size[0] + x) * 4;
          const actual = [frame[at], frame[at + 1], frame[at + 2]].map((v) => v / 255);
          expect(close(actual, expected, 2 / 255), `${camera.kind} (${x}, ${y}): ${actual} vs ${expected}`).toBe(true);
          checked++;
        }
        expect(checked).toBeGreaterThan(2000);
      }
    },
    size,
  );

  gpuTest(
    "the G-buffer's world positions at pixel centres agree with the reference for an orthographic camera",
    async ({ engine }) => {
      const s = makeOrthoScene(engine);
      const types = [GeometryTextureType.WORLD_POSITION, GeometryTextureType.NORMALIZED_VIEW_DEPTH];
      const task = createGeometryRendererTask(s.scene, { textureDescriptions: types.map((type) => ({ type })) });
      try {
        for (const camera of [s.camera, standardDepthMatrixCamera(s)]) {
          s.scene.camera = camera;
          expect(runTasks(engine, [task])).toBe(true);
          const read = (type: GeometryTextureType) =>
            readPixels(
              task[GEOMETRY_TEXTURE_DESCRIPTIONS[type].accessor as keyof GeometryRendererTask] as RenderTarget,
            );
          const positions = await read(GeometryTextureType.WORLD_POSITION);
          const depths = await read(GeometryTextureType.NORMALIZED_VIEW_DEPTH);
          let compared = 0;
          for (const { x, y, truth } of gridPixels(s)) {
            if (!truth) continue;
            const [width, height] = size;
            const ray = orthographicPixelRay(s.parameters, x + 0.5, y + 0.5, width, height);
            const next = castReferenceRayAll(s.reference, ray.origin, ray.direction).find(
              (h) => h.meshId !== truth.meshId,
            );
            if (next && next.distance - truth.distance < 1e-3) continue;
            const where = `${camera.kind} (${x}, ${y})`;
            expect(close(positions.at(x, y).slice(0, 3), truth.point, 2e-3), `${where} ${positions.at(x, y)}`).toBe(
              true,
            );
            // Linear depth between the planes: the hit's distance from the eye plane.
            const expectedDepth = (truth.distance - s.camera.near) / (s.camera.far - s.camera.near);
            expect(Math.abs(depths.at(x, y)[0] - expectedDepth), where).toBeLessThanOrEqual(1e-4);
            compared++;
          }
          expect(compared).toBeGreaterThan(300);
        }
      } finally {
        task.dispose();
      }
    },
    size,
  );
});
