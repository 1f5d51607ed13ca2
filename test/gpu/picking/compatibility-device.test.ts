// Identity picks on a WebGPU compatibility-mode device (Dawn's `featureLevel: 'compatibility'`): flat varyings there
// must be `@interpolate(flat, either)`, and a pipeline that fails to build must never read as "nothing under the
// cursor". The reference is a float64 ray cast against the boxes, built from the camera's parameters in the test.
import { describe, expect, test } from 'vitest';
import {
  createBoxMesh,
  createScene,
  makePerspectiveCamera,
  renderFrame,
  setMeshWorldMatrix,
  setThinInstances,
} from '../../../engine/index.js';
import {
  createGpuPicker,
  disposeGpuPicker,
  enableDetailedPicking,
  PickError,
  pickAsync,
  pickManyAsync,
} from '../../../picking/index.js';
import { createBillboardSystem, disposeBillboardSystem } from '../../../entities/billboards/index.js';
import { createSplatMesh, disposeSplatMesh } from '../../../entities/splats/index.js';
import { type RefBox, refRect } from '../../support/box-rays.js';
import { onCompatibilityEngineAsync } from '../../support/compat-device.js';

const translation = (x: number, y: number, z: number, s = 1) =>
  new Float32Array([s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, x, y, z, 1]);

/** What a promise rejects with, or null when it resolves. */
const rejectionOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe('a compatibility-mode device (Dawn, featureLevel "compatibility")', () => {
  test('identity picks agree with a float64 ray cast at every pixel; vertex-index detail is refused by name, auto takes expanded-vertices', async () => {
    const width = 48;
    const height = 40;
    await onCompatibilityEngineAsync(width, height, async (engine) => {
      // It is a compatibility device: no storage buffers in the vertex stage, at most 4 colour attachments.
      expect(engine.device.limits.maxStorageBuffersInVertexStage).toBe(0);
      expect(engine.device.limits.maxColorAttachments).toBeLessThanOrEqual(4);
      const scene = createScene(engine);
      const camera = { position: [0.4, 2.2, 6], target: [0, 0, 0], fovY: Math.PI / 4 } as const;
      scene.camera = makePerspectiveCamera({
        position: [...camera.position],
        target: [...camera.target],
        fovY: camera.fovY,
      });
      const boxes: RefBox[] = [];
      const placed: [string, number, number, number, number][] = [
        ['left', -1.6, 0, 0, 1],
        ['right', 1.5, 0.3, -1, 1.2],
        ['front', 0.2, -0.4, 1.4, 0.7],
      ];
      for (const [name, x, y, z, s] of placed) {
        const mesh = createBoxMesh(scene, name);
        setMeshWorldMatrix(mesh, translation(x, y, z, s));
        boxes.push({ key: name, min: [x - s / 2, y - s / 2, z - s / 2], max: [x + s / 2, y + s / 2, z + s / 2] });
      }
      const instanced = createBoxMesh(scene, 'row', { width: 0.5, height: 0.5, depth: 0.5 });
      const offsets = [-1.2, -0.4, 0.4, 1.2];
      const matrices = new Float32Array(16 * offsets.length);
      offsets.forEach((x, i) => {
        matrices.set(translation(x, 1.3, -0.5), 16 * i);
        boxes.push({ key: `row#${i}`, min: [x - 0.25, 1.05, -0.75], max: [x + 0.25, 1.55, -0.25] });
      });
      setThinInstances(instanced, matrices);
      renderFrame(scene);
      const picker = createGpuPicker(scene);
      const points = Array.from({ length: width * height }, (_, i) => ({
        x: (i % width) + 0.5,
        y: Math.floor(i / width) + 0.5,
      }));
      const infos = await pickManyAsync(picker, points);
      let compared = 0;
      let hits = 0;
      const wrong: string[] = [];
      infos.forEach((info, i) => {
        const x = i % width;
        const y = Math.floor(i / width);
        const expected = refRect(camera, width, height, boxes, { x, y, width: 1, height: 1 });
        if (expected.ambiguous > 0 || expected.possible.size !== expected.certain.size) return;
        const want = [...expected.certain][0] ?? null;
        const got = info.hit
          ? `${info.pickedMesh?.name}${info.thinInstanceIndex >= 0 ? `#${info.thinInstanceIndex}` : ''}`
          : null;
        compared++;
        if (want) hits++;
        if (got !== want) wrong.push(`(${x}, ${y}): ${got} where the ray hits ${want}`);
      });
      expect(wrong.slice(0, 10), `${wrong.length} of ${compared} pixels differ`).toEqual([]);
      expect(compared).toBeGreaterThan(width * height * 0.9);
      expect(hits).toBeGreaterThan(200);
      // Vertex-index detail needs storage in the vertex stage: refused by name at enable, nothing changed; 'auto' takes
      // the expanded-vertices path, which answers the same identity with a face.
      const refusedMethod = (() => {
        try {
          enableDetailedPicking(picker, { method: 'vertex-index' });
        } catch (error) {
          return error;
        }
      })();
      expect(refusedMethod).toBeInstanceOf(PickError);
      expect((refusedMethod as PickError).code).toBe('unsupported');
      expect((refusedMethod as PickError).message).toContain(
        "maxStorageBuffersInVertexStage is 0; allowed here: 'auto' or 'expanded-vertices'",
      );
      expect([picker.detailed, picker.detailMethod]).toEqual([false, null]);
      expect(enableDetailedPicking(picker)).toBe(true);
      expect(picker.detailMethod).toBe('expanded-vertices');
      const hitIndex = infos.findIndex((info) => info.hit);
      const hitPoint = points[hitIndex];
      const detail = await pickAsync(picker, hitPoint.x, hitPoint.y);
      expect(detail.pickedMesh).toBe(infos[hitIndex].pickedMesh);
      expect(detail.faceId).toBeGreaterThanOrEqual(0);
      // A discard rule reading per-vertex data needs `flat, first` sampling, which such a device refuses: typed error.
      const plain = createGpuPicker(scene);
      const rule = {
        key: 'vertex-data',
        vertexData: 'normal' as const,
        wgsl: 'fn pickDiscard(input: PickDiscardInput) -> bool {\n  return input.vertexData.y > 0.5;\n}',
      };
      const refused = await rejectionOf(pickAsync(plain, hitPoint.x, hitPoint.y, { discard: rule }));
      expect(refused).toBeInstanceOf(PickError);
      // ... and the picker answers the next pick without the rule.
      expect((await pickAsync(plain, hitPoint.x, hitPoint.y)).hit).toBe(true);
      disposeGpuPicker(plain);
      disposeGpuPicker(picker);
    });
  });

  test('billboards and splats, which read storage in the vertex stage, are refused by name where they could be hit', async () => {
    // No uncaptured device error either (checked by the helper): refused before any bind group layout was made.
    await onCompatibilityEngineAsync(64, 64, async (engine) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0, 4], target: [0, 0, 0] });
      createBoxMesh(scene, 'box', { width: 0.5, height: 0.5, depth: 0.5 });
      const labels = createBillboardSystem(scene, 'labels', {
        positions: new Float32Array([-0.68, 0, 1]),
        sizes: [0.4, 0.4],
      });
      const splats = createSplatMesh(scene, 'splats', {
        centers: new Float32Array([0.72, 0, 1]),
        scales: new Float32Array([0.08, 0.08, 0.08]),
      });
      renderFrame(scene);
      const picker = createGpuPicker(scene);
      // Left of centre: the billboard; right: the splat. Each needs a storage buffer in the vertex stage.
      for (const x of [14, 50]) {
        const refused = await rejectionOf(pickAsync(picker, x, 32));
        expect(refused, `pixel (${x}, 32)`).toBeInstanceOf(PickError);
        expect((refused as PickError).message).toContain("the device's maxStorageBuffersInVertexStage is 0");
      }
      // The centre is the box alone: answered. Without the entities, every pixel is answered again.
      expect((await pickAsync(picker, 32, 32)).pickedMesh?.name).toBe('box');
      disposeBillboardSystem(labels);
      disposeSplatMesh(splats);
      const after = await pickManyAsync(
        picker,
        [14, 32, 50].map((x) => ({ x, y: 32 })),
      );
      expect(after.map((info) => info.pickedMesh?.name ?? null)).toEqual([null, 'box', null]);
      disposeGpuPicker(picker);
    });
  });
});
