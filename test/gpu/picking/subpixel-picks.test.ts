// Sub-pixel picks and exact rays, against rays built here in float64 from the camera's parameters and the analytic
// intersection with a plane (test/support/camera-rays.ts uses none of weft's maths).
import { describe, expect, test } from 'vitest';
import { createMeshFromData, createScene, makePerspectiveCamera, makeStandardMaterial } from '../../../engine/index.js';
import { WeftError } from '../../../core/errors.js';
import {
  createGpuPicker,
  disposeGpuPicker,
  enableDetailedPicking,
  makePickingRay,
  pickAsync,
  pickManyAsync,
} from '../../../picking/index.js';
import { pickSync } from '../../../picking/cpu/index.js';
import { cameraBasis, dot, normalize, pixelRay } from '../../support/camera-rays.js';
import { gpuTest } from '../../support/gpu.js';
import { makeRandom } from '../../support/random.js';

type Vec3 = [number, number, number];

const eye: Vec3 = [0.7, 1.1, 6];
const fovY = 0.9;
const planeNormal = normalize([0.3, 0.2, 1]);
const planeOrigin: Vec3 = [0, 0, -0.5];

/** The exact ray through framebuffer point (x, y) and where it meets the plane. */
function analytic(width: number, height: number, x: number, y: number): { point: Vec3; distance: number } {
  const ray = pixelRay(cameraBasis(eye, [0, 0, 0], fovY, width, height), x - 0.5, y - 0.5, width, height);
  const t =
    dot(planeNormal, [planeOrigin[0] - eye[0], planeOrigin[1] - eye[1], planeOrigin[2] - eye[2]]) /
    dot(planeNormal, ray.direction);
  return { point: [0, 1, 2].map((a) => ray.origin[a] + t * ray.direction[a]) as Vec3, distance: t };
}

const error = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(WeftError);
    return `${(e as Error).constructor.name}:${(e as WeftError).code}`;
  }
  return 'no error';
}

async function codeOfAsync(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (e) {
    expect(e).toBeInstanceOf(WeftError);
    return `${(e as Error).constructor.name}:${(e as WeftError).code}`;
  }
  return 'no error';
}

describe('sub-pixel picks', () => {
  gpuTest(
    'fractional x, y with subpixel: true sample exactly there (GPU, pickManyAsync, pickSync); integers and the default keep the pixel centre',
    async ({ engine }) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: eye, target: [0, 0, 0], fovY, near: 0.1, far: 50 });
      // A tilted double-sided plane: the world point moves with every fraction of a pixel.
      const u = normalize([1, 0, -0.3]);
      const v = normalize([
        planeNormal[1] * u[2] - planeNormal[2] * u[1],
        planeNormal[2] * u[0] - planeNormal[0] * u[2],
        planeNormal[0] * u[1] - planeNormal[1] * u[0],
      ]);
      const corner = (a: number, b: number) => [0, 1, 2].map((k) => planeOrigin[k] + 20 * (a * u[k] + b * v[k]));
      createMeshFromData(
        scene,
        'plane',
        {
          positions: new Float32Array([...corner(-1, -1), ...corner(1, -1), ...corner(1, 1), ...corner(-1, 1)]),
          indices: new Uint16Array([0, 1, 2, 0, 2, 3]),
        },
        { material: makeStandardMaterial({ doubleSided: true }) },
      );
      const picker = createGpuPicker(scene);
      expect(enableDetailedPicking(picker)).toBe(true); // detailed infos carry their ray
      const { width, height } = engine;
      const points = [
        { x: 20.25, y: 31.7 },
        { x: 5.01, y: 44.99 },
        { x: 40, y: 12 },
        { x: 63.999, y: 0 },
        { x: 0, y: 63.5 },
      ];
      const many = await pickManyAsync(picker, points, { subpixel: true });
      let worstGpu = 0;
      let worstCpu = 0;
      for (const [i, p] of points.entries()) {
        const truth = analytic(width, height, p.x, p.y);
        const single = await pickAsync(picker, p.x, p.y, { subpixel: true });
        const cpu = pickSync(scene, p.x, p.y, { subpixel: true });
        for (const info of [single, many[i]]) {
          expect(info.hit).toBe(true);
          expect([info.ray!.sampleX, info.ray!.sampleY]).toEqual([p.x, p.y]);
          worstGpu = Math.max(worstGpu, error(info.pickedPoint!, truth.point) / truth.distance);
        }
        expect(cpu.ray!.sampleX).toBe(p.x);
        worstCpu = Math.max(worstCpu, error(cpu.pickedPoint!, truth.point) / truth.distance);
        // The default names the pixel the point falls in and samples its centre.
        const centre = analytic(width, height, Math.floor(p.x) + 0.5, Math.floor(p.y) + 0.5);
        const snapped = await pickAsync(picker, p.x, p.y);
        expect(error(snapped.pickedPoint!, centre.point) / centre.distance).toBeLessThan(1e-5);
        expect(error(pickSync(scene, p.x, p.y).pickedPoint!, centre.point) / centre.distance).toBeLessThan(1e-6);
        const offCentre = error(truth.point, centre.point) / truth.distance;
        if (p.x % 1 !== 0.5 || p.y % 1 !== 0.5) expect(offCentre).toBeGreaterThan(1e-4); // the test can tell them apart
      }
      console.log('[subpixel]', { worstGpu, worstCpu });
      expect(worstGpu).toBeLessThan(1e-5);
      expect(worstCpu).toBeLessThan(1e-6);
      // CSS pixels: the ratio scales the exact point.
      const css = await pickAsync(picker, 10.125, 15.85, { subpixel: true, devicePixelRatio: 2 });
      const cssTruth = analytic(width, height, 20.25, 31.7);
      expect(error(css.pickedPoint!, cssTruth.point) / cssTruth.distance).toBeLessThan(1e-5);
      // Integer x, y keep meaning the pixel centre: (40, 12) is (40.5, 12.5) exactly.
      const integer = await pickAsync(picker, 40, 12);
      const half = await pickAsync(picker, 40.5, 12.5, { subpixel: true });
      expect(integer.ray!.sampleX).toBe(40.5);
      expect(error(integer.pickedPoint!, half.pickedPoint!)).toBeLessThan(1e-6);

      // Bad input: typed errors naming the value; the picker keeps working.
      const cases: [string, () => Promise<unknown>, string][] = [
        ['NaN', () => pickAsync(picker, Number.NaN, 1, { subpixel: true }), 'PickError:bad-coordinates'],
        ['Infinity', () => pickAsync(picker, 1, Infinity, { subpixel: true }), 'PickError:bad-coordinates'],
        ['negative', () => pickAsync(picker, -0.01, 1, { subpixel: true }), 'PickError:out-of-range'],
        ['x = width', () => pickAsync(picker, width, 1, { subpixel: true }), 'PickError:out-of-range'],
        [
          'many',
          () =>
            pickManyAsync(
              picker,
              [
                { x: 1, y: 1 },
                { x: 1, y: 64.2 },
              ],
              { subpixel: true },
            ),
          'PickError:out-of-range',
        ],
        ['subpixel: 1', () => pickAsync(picker, 1, 1, { subpixel: 1 as unknown as boolean }), 'PickError:bad-option'],
        ['culling', () => pickAsync(picker, 1, 1, { culling: 'back' as 'none' }), 'PickError:bad-option'],
      ];
      for (const [name, run, code] of cases) expect(await codeOfAsync(run), name).toBe(code);
      await expect(pickAsync(picker, 1, 64.2, { subpixel: true })).rejects.toThrow(/outside the 64×64 framebuffer/);
      expect(codeOf(() => pickSync(scene, Number.NaN, 1, { subpixel: true }))).toBe('PickError:bad-coordinates');
      expect(codeOf(() => pickSync(scene, 64, 1, { subpixel: true }))).toBe('PickError:out-of-range');
      expect(codeOf(() => pickSync(scene, 1, 1, { subpixel: 'yes' as unknown as boolean }))).toBe(
        'CpuPickError:bad-option',
      );
      expect(codeOf(() => pickSync(scene, 1, 1, { culling: 'front' as 'none' }))).toBe('CpuPickError:bad-option');
      expect((await pickAsync(picker, 20.25, 31.7, { subpixel: true })).hit).toBe(true);
      disposeGpuPicker(picker);
    },
    [64, 64],
  );
});

describe('exact camera rays', () => {
  test('makePickingRay equals a float64 ray built from the camera parameters (random cameras, pixel centres and sub-pixel points)', () => {
    const random = makeRandom(7);
    let worst = 0;
    for (let c = 0; c < 50; c++) {
      const position: Vec3 = [random() * 20 - 10, random() * 20 - 10, random() * 20 - 10];
      const target: Vec3 = [random() * 2 - 1, random() * 2 - 1, random() * 2 - 1];
      const fov = 0.2 + random() * 2;
      const camera = makePerspectiveCamera({ position, target, fovY: fov });
      // The reference reads the camera's float32 parameters, as the renderer does.
      const p = Array.from(camera.position) as Vec3;
      const t = Array.from(camera.target) as Vec3;
      const width = 100 + Math.floor(random() * 1800);
      const height = 100 + Math.floor(random() * 1000);
      const basis = cameraBasis(p, t, camera.fovY, width, height);
      for (let k = 0; k < 20; k++) {
        const x = random() * width;
        const y = random() * height;
        const subpixel = k % 2 === 0;
        const ray = makePickingRay(camera, x, y, { width, height }, 'test', undefined, subpixel);
        const sx = subpixel ? x : Math.floor(x) + 0.5;
        const sy = subpixel ? y : Math.floor(y) + 0.5;
        const exact = pixelRay(basis, sx - 0.5, sy - 0.5, width, height);
        expect(ray.origin).toEqual(exact.origin);
        worst = Math.max(worst, Math.hypot(...([0, 1, 2].map((a) => ray.direction[a] - exact.direction[a]) as Vec3)));
      }
    }
    console.log('[exact rays] worst direction error (rad)', worst);
    expect(worst).toBeLessThan(1e-14);
  });
});
