import { mat4, quat } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import { createBillboardRenderTask, createBillboardSystem } from '../../entities/billboards/index.js';
import {
  createForwardRenderTask,
  createRenderTarget,
  readRenderTargetPixelsAsync,
  runTasks,
} from '../../engine/index.js';
import { createSplatMesh, createSplatRenderTask, splatRenderCutoff } from '../../entities/splats/index.js';
import { pixelRay } from '../support/camera-rays.js';
import {
  boxCandidates,
  nearest,
  type Ray,
  referenceCamera,
  setUpReferenceScene,
  splatCandidate,
  spriteCandidate,
  type Vec3,
} from '../support/entity-reference.js';
import { gpuTest } from '../support/gpu.js';
import { countDeviceCreates } from '../support/create-counter.js';

const boxColors: Record<string, Vec3> = { front: [0.8, 0.2, 0.2], back: [0.2, 0.4, 0.8] };

/** Compares every pixel with `expected` (0..1 RGB, or null to skip); returns how many were compared and the worst error in 8-bit steps. */
function comparePixels(
  pixels: Uint8Array,
  width: number,
  height: number,
  expected: (px: number, py: number) => Vec3 | null,
): { compared: number; worst: number; where: string } {
  let compared = 0;
  let worst = 0;
  let where = '';
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      const colour = expected(px, py);
      if (!colour) continue;
      compared++;
      for (let c = 0; c < 3; c++) {
        const error = Math.abs(pixels[(py * width + px) * 4 + c] - colour[c] * 255);
        if (error > worst) [worst, where] = [error, `(${px}, ${py}) channel ${c}`];
      }
    }
  }
  return { compared, worst, where };
}

describe('entity renderers', () => {
  gpuTest(
    'billboards draw their sprite colours where the reference quads are, depth-tested against meshes',
    async ({ engine }) => {
      const { scene, camera } = setUpReferenceScene(engine, boxColors);
      const positions: number[] = [];
      for (let row = 0; row < 3; row++)
        for (let col = 0; col < 4; col++) positions.push(col * 1.3 - 2, row * 1.1 - 1, 0);
      const colors = new Float32Array(48).map((_, i) => (i % 4 === 3 ? 1 : ((i * 37) % 11) / 10));
      const system = createBillboardSystem(scene, 'sprites', {
        positions: new Float32Array(positions),
        sizes: [0.9, 0.7],
        orientation: 'axis',
        colors,
      });
      const target = createRenderTarget(engine, { width: engine.width, height: engine.height, format: 'rgba8unorm' });
      const tasks = [createForwardRenderTask(scene, { target }), createBillboardRenderTask(system, { target })];
      runTasks(engine, tasks);
      const pixels = await readRenderTargetPixelsAsync(target);
      const { width, height } = engine;
      const result = comparePixels(pixels, width, height, (px, py) => {
        const ray: Ray = pixelRay(camera, px, py, width, height);
        const truth = nearest([
          ...boxCandidates(ray),
          ...Array.from({ length: system.count }, (_, i) => spriteCandidate(system, camera, ray, i)),
        ]);
        if (truth === 'unsure') return null;
        if (truth === 'miss') return [0, 0, 0];
        if (truth.name in boxColors) return boxColors[truth.name];
        const index = Number(truth.name.split('#')[1]);
        return [colors[index * 4], colors[index * 4 + 1], colors[index * 4 + 2]];
      });
      console.log(
        `billboard render: ${result.compared} pixels compared, worst error ${result.worst} / 255 at ${result.where}`,
      );
      expect(result.compared).toBeGreaterThan(width * height * 0.9);
      expect(result.worst).toBeLessThanOrEqual(1);
      // A steady frame creates no GPU objects.
      const counter = countDeviceCreates(engine.device);
      try {
        runTasks(engine, tasks);
      } finally {
        counter.restore();
      }
      expect(counter.count()).toBe(0);
    },
    [96, 72],
  );

  gpuTest(
    'splats blend back to front at their peak opacity along each pixel ray and hide behind nearer meshes',
    async ({ engine }) => {
      const { scene, camera } = setUpReferenceScene(engine, boxColors);
      const rotations = new Float32Array(12);
      [quat.identity(), quat.fromEuler(0.3, 0.8, 0.2, 'xyz'), quat.fromEuler(-0.5, 0.1, 1.1, 'xyz')].forEach((q, i) =>
        rotations.set(q, i * 4),
      );
      const splats = createSplatMesh(scene, 'splats', {
        centers: new Float32Array([-1.5, -0.3, 0.5, 0.4, 0.4, 0, 1.2, -0.2, -0.5]),
        scales: new Float32Array([0.5, 0.3, 0.3, 0.7, 0.25, 0.4, 0.3, 0.6, 0.3]),
        rotations,
        opacities: new Float32Array([0.9, 0.7, 0.6]),
        colors: new Float32Array([1, 0.9, 0.1, 0.1, 1, 0.3, 0.9, 0.2, 1]),
        worldMatrix: mat4.translation([0.2, 0, 0]),
      });
      const target = createRenderTarget(engine, { width: engine.width, height: engine.height, format: 'rgba8unorm' });
      runTasks(engine, [createForwardRenderTask(scene, { target }), createSplatRenderTask(splats, { target })]);
      const pixels = await readRenderTargetPixelsAsync(target);
      const { width, height } = engine;
      // Back to front by the centre's distance along the view direction, as documented for the renderer.
      const centreDepth = (i: number) => {
        const c = [splats.centers[i * 3] + 0.2, splats.centers[i * 3 + 1], splats.centers[i * 3 + 2]];
        return (
          (c[0] - referenceCamera.position[0]) * camera.forward[0] +
          (c[1] - referenceCamera.position[1]) * camera.forward[1] +
          (c[2] - referenceCamera.position[2]) * camera.forward[2]
        );
      };
      const order = [0, 1, 2].sort((a, b) => centreDepth(b) - centreDepth(a));
      let blended = 0;
      const result = comparePixels(pixels, width, height, (px, py) => {
        const ray: Ray = pixelRay(camera, px, py, width, height);
        const behind = nearest(boxCandidates(ray));
        if (behind === 'unsure') return null;
        let colour: Vec3 = behind === 'miss' ? [0, 0, 0] : boxColors[behind.name];
        for (const i of order) {
          const sample = splatCandidate({ ...splats, pickOpacityThreshold: splatRenderCutoff + 0.01 }, ray, i);
          if (!sample || sample.t < 0 || (behind !== 'miss' && sample.t >= behind.t)) continue;
          if (behind !== 'miss' && Math.abs(sample.t - behind.t) < 1e-3 * behind.t) return null;
          const rgb = [splats.colors[i * 3], splats.colors[i * 3 + 1], splats.colors[i * 3 + 2]];
          colour = [0, 1, 2].map((c) => rgb[c] * sample.alpha + (1 - sample.alpha) * colour[c]) as Vec3;
          blended++;
        }
        return colour;
      });
      console.log(
        `splat render: ${result.compared} pixels compared (${blended} splat layers), worst error ${result.worst.toFixed(2)} / 255 at ${result.where}`,
      );
      expect(blended).toBeGreaterThan(500);
      expect(result.worst).toBeLessThanOrEqual(3.5);
    },
    [96, 72],
  );
});
