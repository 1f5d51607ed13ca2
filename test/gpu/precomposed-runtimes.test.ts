// The runtimes on Dawn with the composer's linker replaced by its stand-in, as weft-gpu/vite builds a page: the
// forward frame, the detailed GPU pick and the G-buffer draw from a precomposed table only, and agree with an
// independent three.js ray cast. A mesh the table lacks is a typed not-precomposed error; the rest keeps working.
import { mat4 } from 'wgpu-matrix';
import { describe, expect, test, vi } from 'vitest';
import { makePrecomposedShaders } from '../../composer/precomposed-table.js';
import { makeVariantRegistry } from '../../composer/variant-registry.js';
import type { MeshData } from '../../engine/mesh-data.js';
import { makeBoxData } from '../../engine/primitives/box.js';
import { makeSphereData } from '../../engine/primitives/sphere.js';
import { GeometryTextureType } from '../../geometry/geometry-types.js';
import { registerMeshVariants } from '../../variants/mesh-variants.js';
import { getNodeGpu } from '../support/gpu.js';
import { castReferenceRay, createReferenceScene } from '../support/reference-raycast.js';
import { cameraPixelRay } from '../support/camera-rays.js';

const linkModule = new URL('../../composer/link.ts', import.meta.url).pathname;
const standIn = new URL('../../composer/precomposed-link.ts', import.meta.url).pathname;
const size = 48;
const box = makeBoxData();
const sphere = makeSphereData({ segments: 16 });
const worlds = {
  box: mat4.multiply(mat4.translation([-0.7, 0, 0]), mat4.rotationY(0.6)),
  sphere: mat4.translation([0.8, 0.1, -0.3]),
};

/** The table the plugin would emit for this page: both shapes, forward + pick + detailed pick + a world-normal G-buffer. */
function pageTable(without: readonly string[] = []) {
  const registry = makeVariantRegistry();
  for (const [name, data] of [
    ['box', box],
    ['sphere', sphere],
  ] as [string, MeshData][])
    registerMeshVariants(registry, name, {
      data,
      passes: ['forward', 'pick', 'pick-detail'],
      geometry: [GeometryTextureType.WORLD_NORMAL],
    });
  for (const name of without) registry.variants.delete(name);
  return makePrecomposedShaders([{ registry }]);
}

describe('runtimes without the linker (the weft-gpu/vite build), on Dawn', () => {
  test('render, detailed pick and G-buffer come from the table and agree with three.js', async () => {
    const table = pageTable();
    // Fresh module instances in which composer/link.js is the stand-in, as the plugin resolves it.
    vi.resetModules();
    vi.doMock(linkModule, () => import(standIn));
    const engineApi = await import('../../engine/index.js');
    const pickingApi = await import('../../picking/index.js');
    const geometryApi = await import('../../geometry/index.js');
    const composerApi = await import('../../composer/index.js');
    const link = await import('../../composer/link.js');
    expect(link.linkerAvailable, 'the stand-in is in place').toBe(false);

    const engine = await engineApi.createEngineAsync(getNodeGpu(), { width: size, height: size });
    const uncaptured: string[] = [];
    engine.device.addEventListener('uncapturederror', (e) =>
      uncaptured.push((e as GPUUncapturedErrorEvent).error.message),
    );
    try {
      // Without a table nothing composes: the first frame is a typed miss naming usePrecomposedShaders.
      const scene = engineApi.createScene(engine);
      scene.camera = engineApi.makePerspectiveCamera({ position: [0, 0.5, 3.2], target: [0, 0, 0] });
      const meshes = {
        box: engineApi.createMeshFromData(scene, 'box', box, { worldMatrix: worlds.box }),
        sphere: engineApi.createMeshFromData(scene, 'sphere', sphere, { worldMatrix: worlds.sphere }),
      };
      expect(() => engineApi.renderFrame(scene)).toThrow(/No table was given to this engine/);
      engineApi.usePrecomposedShaders(engine, table);
      // The table's shaders compile on the device first: until then frames return false.
      await engineApi.whenEngineReadyAsync(engine);
      engineApi.renderFrame(scene);
      const frame = await engineApi.readEngineFrameAsync(engine);

      const picker = pickingApi.createGpuPicker(scene);
      expect(pickingApi.enableDetailedPicking(picker), 'Dawn on lavapipe has primitive-index').toBe(true);
      const points = Array.from({ length: 64 }, (_, i) => ({ x: 3 + (i % 8) * 6, y: 3 + Math.floor(i / 8) * 6 }));
      const infos = await pickingApi.pickManyAsync(picker, points);

      const geometry = geometryApi.createGeometryRendererTask(scene, {
        size: { width: size, height: size },
        textureDescriptions: [{ type: geometryApi.GeometryTextureType.WORLD_NORMAL }],
      });
      engineApi.runTasks(engine, [geometry]);
      const normalBytes = await engineApi.readRenderTargetPixelsAsync(geometry.geometryWorldNormalTexture!);

      const reference = createReferenceScene(
        (['box', 'sphere'] as const).map((name, id) => {
          const data = name === 'box' ? box : sphere;
          return { id, positions: data.positions!, indices: data.indices ?? null, worldMatrix: worlds[name] };
        }),
      );
      const camera = scene.camera;
      let hits = 0;
      const clear = [...frame.subarray(0, 3)];
      for (const [i, { x, y }] of points.entries()) {
        const ray = cameraPixelRay(camera, x, y, size, size); // float64, from the camera's parameters
        const expected = castReferenceRay(reference, ray.origin, ray.direction);
        const info = infos[i];
        const at = `pixel (${x}, ${y})`;
        expect(info.hit, at).toBe(expected !== null);
        const texel = [...frame.subarray((y * size + x) * 4, (y * size + x) * 4 + 3)];
        if (!expected) {
          expect(texel, `${at}: clear colour`).toEqual(clear);
          continue;
        }
        hits++;
        expect(info.pickedMesh?.name, at).toBe(expected.meshId === 0 ? 'box' : 'sphere');
        expect(texel, `${at}: the mesh is drawn`).not.toEqual(clear);
        for (let k = 0; k < 3; k++) expect(info.pickedPoint![k], at).toBeCloseTo(expected.point[k], 2);
        const onEdge = Math.min(expected.bu, expected.bv, 1 - expected.bu - expected.bv) < 2e-3;
        if (!onEdge) expect(info.faceId, at).toBe(expected.faceId);
        // The G-buffer's world normal (rgba16float) points the way of the reference face normal.
        const half = new Uint16Array(normalBytes.buffer, normalBytes.byteOffset + (y * size + x) * 8, 4);
        const normal = [...half.subarray(0, 3)].map(halfToFloat);
        const dot = normal.reduce((s, v, k) => s + v * expected.faceNormalWorld[k], 0);
        expect(dot, `${at}: G-buffer normal · face normal`).toBeGreaterThan(0.8);
      }
      expect(hits).toBeGreaterThan(12);

      // An undeclared mesh shape: a typed miss that names its key; the declared meshes still draw afterwards.
      const odd = engineApi.createMeshFromData(scene, 'odd', {
        positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
        colors: new Float32Array(12).fill(1),
      });
      let miss: unknown;
      try {
        engineApi.renderFrame(scene);
      } catch (error) {
        miss = error;
      }
      expect(miss).toBeInstanceOf(composerApi.ComposeError);
      expect((miss as InstanceType<typeof composerApi.ComposeError>).code).toBe('not-precomposed');
      expect(String((miss as Error).message)).toMatch(
        /key [0-9a-f]{16} .*color:float32x4.*The table holds .*box-forward/,
      );
      engineApi.disposeMesh(odd);
      engineApi.renderFrame(scene);
      const again = await engineApi.readEngineFrameAsync(engine);
      expect([...again]).toEqual([...frame]);
      expect(meshes.box.disposed).toBe(false);
      expect(uncaptured).toEqual([]);
    } finally {
      engineApi.disposeEngine(engine);
      vi.doUnmock(linkModule);
      vi.resetModules();
    }
  }, 120_000);
});

describe('a marquee over equal meshes without the linker, on Dawn', () => {
  test('draws them as one batch from the table, or one by one when the table lacks the batch shader', async () => {
    vi.resetModules();
    vi.doMock(linkModule, () => import(standIn));
    const engineApi = await import('../../engine/index.js');
    const pickingApi = await import('../../picking/index.js');
    const engine = await engineApi.createEngineAsync(getNodeGpu(), { width: size, height: size });
    try {
      // Six copies of the box data in a row, and the sphere: the boxes form one batch.
      const placed = Array.from({ length: 6 }, (_, i) => mat4.translation([-1.5 + i * 0.6, -0.6, -1]));
      const reference = createReferenceScene([
        ...placed.map((worldMatrix, id) => ({
          id,
          positions: box.positions!,
          indices: box.indices ?? null,
          worldMatrix,
        })),
        { id: 6, positions: sphere.positions!, indices: sphere.indices ?? null, worldMatrix: worlds.sphere },
      ]);
      // Without first: once composed, a device's pipeline cache holds the batch pipeline for every later picker. The
      // sphere's buffers have the box's layout, so its batch shader is the same table entry.
      for (const without of [['box-pick-batched', 'sphere-pick-batched'], []]) {
        const scene = engineApi.createScene(engine);
        scene.camera = engineApi.makePerspectiveCamera({ position: [0, 0.5, 3.2], target: [0, 0, 0] });
        engineApi.usePrecomposedShaders(engine, pageTable(without));
        placed.forEach((worldMatrix, i) =>
          engineApi.createMeshFromData(
            scene,
            `box${i}`,
            { ...box, positions: box.positions!.slice() },
            { worldMatrix },
          ),
        );
        engineApi.createMeshFromData(scene, 'sphere', sphere, { worldMatrix: worlds.sphere });
        const expected = new Set<number>();
        for (let y = 0; y < size; y++)
          for (let x = 0; x < size; x++) {
            const ray = cameraPixelRay(scene.camera, x, y, size, size);
            const hit = castReferenceRay(reference, ray.origin, ray.direction);
            if (hit) expected.add(hit.meshId);
          }
        expect(expected.size, 'every mesh shows').toBe(7);
        const picker = pickingApi.createGpuPicker(scene);
        // Draw calls counted on the real pass encoder (plumbing only): one batch of boxes + the sphere, or 7 draws.
        const proto = GPURenderPassEncoder.prototype;
        const drawIndexed = proto.drawIndexed;
        let draws = 0;
        proto.drawIndexed = function (this: GPURenderPassEncoder, ...args: Parameters<typeof drawIndexed>) {
          draws++;
          return drawIndexed.apply(this, args);
        };
        const found = await pickingApi.pickRectAsync(picker, 0, 0, size, size).finally(() => {
          proto.drawIndexed = drawIndexed;
        });
        expect(draws).toBe(without.length ? 7 : 2);
        const names = [...expected].sort((a, b) => a - b).map((id) => (id === 6 ? 'sphere' : `box${id}`));
        expect(
          found.map((f) => f.mesh!.name),
          `table without ${without.join(', ') || 'nothing'}`,
        ).toEqual(names);
        pickingApi.disposeGpuPicker(picker);
      }
    } finally {
      engineApi.disposeEngine(engine);
      vi.doUnmock(linkModule);
      vi.resetModules();
    }
  }, 120_000);
});

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}
