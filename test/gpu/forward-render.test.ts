import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import {
  createMeshFromData,
  createScene,
  type Engine,
  makePerspectiveCamera,
  makeStandardMaterial,
  type MeshData,
  readEngineFrameAsync,
  renderFrame,
  type Scene,
  type PerspectiveCamera,
} from '../../engine/index.js';
import { makeBoxData } from '../../engine/primitives/box.js';
import { makeSphereData } from '../../engine/primitives/sphere.js';
import { makeTorusData } from '../../engine/primitives/torus.js';
import { compareFrameToReference, lambert } from '../support/frame-check.js';
import { gpuTest } from '../support/gpu.js';
import { createReferenceScene, type ReferenceMesh } from '../support/reference-raycast.js';

type Rgb = [number, number, number];
const clear: Rgb = [0.1, 0.2, 0.3];
const ambient: Rgb = [0.2, 0.2, 0.2];
const lightDirection: Rgb = [0.3, 0.8, 0.5];
const lightColor: Rgb = [0.7, 0.7, 0.7];

function litScene(engine: Engine): Scene {
  const scene = createScene(engine, { clearColor: [...clear, 1], ambientColor: ambient, lightDirection, lightColor });
  scene.camera = makePerspectiveCamera({ position: [1.9, 1.4, 2.5], target: [0, 0, 0], fovY: 0.9 });
  return scene;
}

interface Placed {
  id: number;
  data: MeshData;
  world: Float32Array;
  color: Rgb;
  instances?: Float32Array;
}

/** Renders the placed meshes and compares every pixel centre with the three-mesh-bvh ray cast. */
async function renderAndCompare(engine: Engine, placed: Placed[], smoothNormals: boolean) {
  const scene = litScene(engine);
  for (const p of placed) {
    createMeshFromData(scene, `mesh${p.id}`, p.data, {
      worldMatrix: p.world,
      material: makeStandardMaterial({ baseColor: p.color }),
      thinInstances: p.instances,
    });
  }
  expect(renderFrame(scene)).toBe(true);
  const pixels = await readEngineFrameAsync(engine);
  const references: ReferenceMesh[] = placed.map((p) => ({
    id: p.id,
    positions: p.data.positions!,
    indices: p.data.indices ?? null,
    normals: p.data.normals ?? null,
    worldMatrix: p.world,
    thinInstances: p.instances ?? null,
    doubleSided: true,
  }));
  const colorOf = new Map(placed.map((p) => [p.id, p.color]));
  return compareFrameToReference(pixels, {
    width: engine.width,
    height: engine.height,
    camera: scene.camera as PerspectiveCamera,
    scene: createReferenceScene(references),
    hitColor: (hit) =>
      lambert(
        colorOf.get(hit.meshId)!,
        smoothNormals ? hit.normalWorld! : hit.faceNormalWorld,
        lightDirection,
        lightColor,
        ambient,
      ),
    clearColor: clear,
    tolerance: smoothNormals ? 3 : 2,
  });
}

describe('forward renderer on Dawn', () => {
  gpuTest(
    'a rotated box covers exactly the pixels a CPU ray cast hits, lit as Lambert predicts',
    async ({ engine }) => {
      const world = mat4.multiply(mat4.rotationY(0.5), mat4.scaling([1.2, 0.8, 1]));
      const figures = await renderAndCompare(
        engine,
        [{ id: 1, data: makeBoxData(), world, color: [0.9, 0.5, 0.2] }],
        false,
      );
      console.log('box vs reference', figures);
      expect(figures.mismatches).toEqual([]);
      expect(figures.hits).toBeGreaterThan(500);
      expect(figures.compared - figures.hits).toBeGreaterThan(1000);
    },
    [128, 96],
  );

  gpuTest(
    'thin instances appear where their transforms put them; payload lanes do not move them',
    async ({ engine }) => {
      const instances = new Float32Array(48);
      const transforms = [
        mat4.translation([-1.2, 0, 0]),
        mat4.multiply(mat4.translation([0.3, 0.4, -0.5]), mat4.scaling([0.5, 1.5, 0.7])),
        mat4.multiply(mat4.translation([1.1, -0.3, 0.4]), mat4.rotationZ(0.7)),
      ];
      transforms.forEach((m, i) => {
        instances.set(m, i * 16);
        // A payload in the w lanes: the shader must use 0, 0, 0, 1 instead.
        [3, 7, 11, 15].forEach((lane, k) => (instances[i * 16 + lane] = [7, -3, 250, 9][k] + i));
      });
      const figures = await renderAndCompare(
        engine,
        [
          {
            id: 1,
            data: makeBoxData({ width: 0.6, height: 0.6, depth: 0.6 }),
            world: mat4.translation([0, 0.2, 0]),
            color: [0.3, 0.9, 0.4],
            instances,
          },
        ],
        false,
      );
      console.log('thin instances vs reference', figures);
      expect(figures.mismatches).toEqual([]);
      expect(figures.hits).toBeGreaterThan(400);
    },
    [128, 96],
  );

  gpuTest(
    'smooth-shaded sphere and torus with non-uniform scale match interpolated normals',
    async ({ engine }) => {
      const figures = await renderAndCompare(
        engine,
        [
          {
            id: 1,
            data: makeSphereData({ radius: 0.7, segments: 48, rings: 24 }),
            world: mat4.multiply(mat4.translation([-0.6, 0, 0]), mat4.scaling([1, 1.4, 0.8])),
            color: [0.8, 0.8, 0.9],
          },
          {
            id: 2,
            data: makeTorusData({ radius: 0.5, tube: 0.18 }),
            world: mat4.multiply(mat4.translation([0.8, 0.1, 0.3]), mat4.rotationX(1.1)),
            color: [0.95, 0.6, 0.3],
          },
        ],
        true,
      );
      console.log('sphere + torus vs reference', figures);
      // Normals are interpolated per pixel on the GPU and at the exact hit on the CPU: identical maths, float rounding only.
      expect(figures.mismatches).toEqual([]);
      expect(figures.hits).toBeGreaterThan(1000);
    },
    [128, 96],
  );
});
