import { mat4 } from 'wgpu-matrix';
import { beforeAll, describe, expect } from 'vitest';
import { loadSceneHierarchyAsync } from '../../../picking/gpu-picker.js';
import {
  createBoxMesh,
  createScene,
  type Engine,
  makePerspectiveCamera,
  type Mesh,
  type Scene,
  setMeshWorldMatrix,
} from '../../../engine/index.js';
import { createGpuPicker, getCpuPicker, type PickingInfo, pickAsync, pickManyAsync } from '../../../picking/index.js';
import { cameraPixelRay } from '../../support/camera-rays.js';
import { gpuTest } from '../../support/gpu.js';

/** Separate boxes 0.4 wide (top face at y = 0.2) on a grid 0.9 apart, seen from straight above. */
const half = 0.2;
const spacing = 0.9;
const side = 64;

/**
 * The box whose top face the pixel's ray meets, from the test's own list of centres (float64 ray from the camera's
 * parameters); 'miss' when the ray passes down to the floor y = −0.2 between boxes; null (not checked) within 0.03 of
 * a top-face edge, or when the slanted ray may clip a box's side on its way down.
 */
function expectedBox(engine: Engine, scene: Scene, centres: [number, number][], x: number, y: number): string | null {
  const ray = cameraPixelRay(scene.camera!, x, y, engine.width, engine.height);
  const at = (height: number): [number, number] => {
    const t = (height - ray.origin[1]) / ray.direction[1];
    return [ray.origin[0] + t * ray.direction[0], ray.origin[2] + t * ray.direction[2]];
  };
  const near = (p: [number, number], margin: number) =>
    centres.findIndex(([cx, cz]) => Math.abs(p[0] - cx) <= half + margin && Math.abs(p[1] - cz) <= half + margin);
  const top = at(half);
  const onTop = near(top, 0.03);
  if (onTop >= 0) return near(top, -0.03) === onTop ? `box${onTop}` : null;
  for (let k = 1; k <= 16; k++) if (near(at(half - (2 * half * k) / 16), 0.03) >= 0) return null;
  return 'miss';
}

const who = (info: PickingInfo) => (info.hit ? info.pickedMesh!.name : 'miss');

describe('GPU picks after a few of many meshes moved (refit only what moved)', () => {
  // The GPU picker loads its scene-hierarchy path on first need (the first large pick scans); these tests are about
  // that path, so it is loaded before they pick.
  beforeAll(() => loadSceneHierarchyAsync());
  gpuTest(
    'swaps and removals among 4 096 meshes are picked at their new places, by pickAsync and pickManyAsync',
    async ({ engine }) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 30, 0.01], target: [0, 0, 0], fovY: 0.9 });
      const centres: [number, number][] = [];
      const meshes: Mesh[] = [];
      for (let i = 0; i < side * side; i++) {
        centres.push([((i % side) - side / 2) * spacing, (Math.floor(i / side) - side / 2) * spacing]);
        meshes.push(
          createBoxMesh(
            scene,
            `box${i}`,
            { width: 0.4, height: 0.4, depth: 0.4 },
            { worldMatrix: mat4.translation([centres[i][0], 0, centres[i][1]]) },
          ),
        );
      }
      const picker = createGpuPicker(scene);
      const pixels: { x: number; y: number }[] = [];
      for (let y = 2; y < engine.height; y += 9) for (let x = 3; x < engine.width; x += 9) pixels.push({ x, y });
      const check = async () => {
        const expected = pixels.map(({ x, y }) => expectedBox(engine, scene, centres, x, y));
        const many = (await pickManyAsync(picker, pixels)).map(who);
        let checked = 0;
        expected.forEach((name, i) => {
          if (name === null) return;
          checked++;
          expect(many[i], `pixel ${pixels[i].x},${pixels[i].y}`).toBe(name);
        });
        // Single picks take the default path too (pre-filter through the refitted hierarchy).
        for (let i = 0; i < expected.length; i += 37)
          if (expected[i] !== null) expect(who(await pickAsync(picker, pixels[i].x, pixels[i].y))).toBe(expected[i]);
        expect(checked).toBeGreaterThan(pixels.length / 3);
        return expected;
      };
      const move = (i: number, x: number, z: number) => {
        centres[i] = [x, z];
        setMeshWorldMatrix(meshes[i], mat4.translation([x, 0, z]));
      };
      let seen = await check();
      const builds = getCpuPicker(scene).stats.builds;
      let seed = 99;
      const random = (n: number) => {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        return seed % n;
      };
      // Rounds of 1, 2 and 40 changes: swaps of two boxes that are in view, and boxes sent far away.
      for (const changes of [1, 2, 40]) {
        const inView = [...new Set(seen.filter((name) => name?.startsWith('box')))].map((n) => Number(n!.slice(3)));
        for (let k = 0; k < changes; k++) {
          const a = inView[random(inView.length)];
          if (k % 3 === 2) {
            move(a, centres[a][0] + 1000, centres[a][1]);
            continue;
          }
          const b = inView[random(inView.length)];
          const [pa, pb] = [centres[a], centres[b]];
          move(a, pb[0], pb[1]);
          move(b, pa[0], pa[1]);
        }
        const now = await check();
        expect(now).not.toEqual(seen);
        seen = now;
      }
      // Moves are refits, not rebuilds.
      expect(getCpuPicker(scene).stats.builds).toBe(builds);
    },
    [192, 192],
  );
});
