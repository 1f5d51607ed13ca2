import { mat4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import {
  createForwardRenderTask,
  createMeshFromData,
  createRenderTarget,
  createScene,
  type Engine,
  makeBoxData,
  makePerspectiveCamera,
  makeSphereData,
  makeStandardMaterial,
  readRenderTargetPixelsAsync,
  type RenderTarget,
  runTasks,
  type Scene,
} from '../../../engine/index.js';
import { createCopyToTextureTask, createGeometryRendererTask, GeometryTextureType } from '../../../geometry/index.js';
import { gpuTest } from '../../support/gpu.js';
import { countCreates, decodePixels, readPixels } from './geometry-test-helpers.js';

function simpleScene(engine: Engine): Scene {
  const scene = createScene(engine, { clearColor: [0.1, 0.2, 0.3, 1] });
  scene.camera = makePerspectiveCamera({ position: [1.5, 1.2, 2.6], target: [0, 0, 0], fovY: 0.9, far: 20 });
  createMeshFromData(scene, 'box', makeBoxData(), {
    worldMatrix: mat4.rotationY(0.4),
    material: makeStandardMaterial({ baseColor: [0.9, 0.4, 0.2] }),
  });
  createMeshFromData(scene, 'ball', makeSphereData({ radius: 0.45 }), {
    worldMatrix: mat4.translation([0.8, 0.3, 0.5]),
    material: makeStandardMaterial({ baseColor: [0.2, 0.7, 0.9] }),
  });
  return scene;
}

function gbuffer(scene: Scene) {
  return createGeometryRendererTask(scene, {
    textureDescriptions: [
      { type: GeometryTextureType.ALBEDO },
      { type: GeometryTextureType.WORLD_NORMAL },
      { type: GeometryTextureType.NORMALIZED_VIEW_DEPTH },
      { type: GeometryTextureType.MESH_BLEND_TAG },
    ],
  });
}

const bytesOf = (target: RenderTarget) => readRenderTargetPixelsAsync(target);

describe('copy-to-texture', () => {
  gpuTest(
    'fast path: same format and size with COPY_SRC/COPY_DST is an encoder copy; a target without COPY_DST falls back to the blit; both are exact',
    async ({ engine }) => {
      const scene = simpleScene(engine);
      const geometry = gbuffer(scene);
      const fast = createCopyToTextureTask(scene, { sourceTexture: geometry.geometryAlbedoTexture! });
      const plainTarget = createRenderTarget(engine, {
        width: engine.width,
        height: engine.height,
        format: 'rgba8unorm',
        depthFormat: null,
      });
      const blit = createCopyToTextureTask(scene, {
        sourceTexture: geometry.geometryAlbedoTexture!,
        targetTexture: plainTarget,
      });
      const tagFast = createCopyToTextureTask(scene, { sourceTexture: geometry.geometryMeshBlendTagTexture! });
      const tagTarget = createRenderTarget(engine, {
        width: engine.width,
        height: engine.height,
        format: 'r8uint',
        depthFormat: null,
      });
      const tagBlit = createCopyToTextureTask(scene, {
        sourceTexture: geometry.geometryMeshBlendTagTexture!,
        targetTexture: tagTarget,
      });
      runTasks(engine, [geometry, fast, blit, tagFast, tagBlit]);
      expect([fast.path, blit.path, tagFast.path, tagBlit.path]).toEqual(['copy', 'blit', 'copy', 'blit']);
      const source = await bytesOf(geometry.geometryAlbedoTexture!);
      expect(
        source.some((b, i) => i % 4 === 0 && b > 100),
        'the albedo attachment has geometry',
      ).toBe(true);
      expect(await bytesOf(fast.outputTexture)).toEqual(source);
      expect(await bytesOf(blit.outputTexture)).toEqual(source);
      const tags = await bytesOf(geometry.geometryMeshBlendTagTexture!);
      expect(new Set(tags)).toEqual(new Set([0, 1]));
      expect(await bytesOf(tagFast.outputTexture)).toEqual(tags);
      expect(await bytesOf(tagBlit.outputTexture)).toEqual(tags);
      // A steady frame of copies creates nothing.
      const { counts } = await countCreates(engine.device, geometry.outputTarget.textures!.colors[0], () =>
        runTasks(engine, [geometry, fast, blit, tagFast, tagBlit]),
      );
      expect(counts).toEqual({});
      for (const task of [geometry, fast, blit, tagFast, tagBlit]) task.dispose();
    },
    [64, 48],
  );

  gpuTest(
    'blit remaps float attachments to rgba8 (normal, depth), honours a viewport (loadOp load), a flip and an explicit scale/bias',
    async ({ engine }) => {
      const scene = simpleScene(engine);
      const geometry = gbuffer(scene);
      const normals = createCopyToTextureTask(scene, {
        sourceTexture: geometry.geometryWorldNormalTexture!,
        remap: 'normal',
      });
      const depth = createCopyToTextureTask(scene, {
        sourceTexture: geometry.geometryNormalizedViewDepthTexture!,
        remap: 'depth',
        flipY: true,
      });
      const canvas = createRenderTarget(engine, {
        width: 64,
        height: 48,
        format: 'rgba8unorm',
        depthFormat: 'depth24plus',
      });
      const forward = createForwardRenderTask(scene, { target: canvas });
      const inset = createCopyToTextureTask(scene, {
        sourceTexture: geometry.geometryAlbedoTexture!,
        targetTexture: canvas,
        viewport: { x: 0.5, y: 0, width: 0.5, height: 0.5 },
        remap: { scale: [0, 0, 0, 0], bias: [1, 0, 1, 1] },
      });
      runTasks(engine, [geometry, normals, depth]);
      expect([normals.path, depth.path, normals.outputTexture.colorFormats[0]]).toEqual(['blit', 'blit', 'rgba8unorm']);
      const source = await readPixels(geometry.geometryWorldNormalTexture!);
      const mapped = decodePixels('rgba8unorm', 64, 48, await bytesOf(normals.outputTexture));
      const depthSource = await readPixels(geometry.geometryNormalizedViewDepthTexture!);
      const depthMapped = decodePixels('rgba8unorm', 64, 48, await bytesOf(depth.outputTexture));
      let worst = 0;
      for (let y = 0; y < 48; y++) {
        for (let x = 0; x < 64; x++) {
          const n = source.at(x, y);
          const expected = n[3] === 0 ? [0, 0, 0, 1] : [n[0] * 0.5 + 0.5, n[1] * 0.5 + 0.5, n[2] * 0.5 + 0.5, 1];
          worst = Math.max(worst, ...mapped.at(x, y).map((v, i) => Math.abs(v - expected[i])));
          const d = depthSource.at(x, 47 - y)[0];
          worst = Math.max(worst, ...depthMapped.at(x, y).map((v, i) => Math.abs(v - (i < 3 ? d : 1))));
        }
      }
      console.log('[blit remap] worst channel error', worst);
      expect(worst).toBeLessThanOrEqual(0.5 / 255 + 1e-6);
      runTasks(engine, [forward]);
      const before = decodePixels('rgba8unorm', 64, 48, await bytesOf(canvas));
      runTasks(engine, [geometry, inset]);
      const after = decodePixels('rgba8unorm', 64, 48, await bytesOf(canvas));
      const albedo = await readPixels(geometry.geometryAlbedoTexture!);
      for (let y = 0; y < 48; y++) {
        for (let x = 0; x < 64; x++) {
          const inside = x >= 32 && y < 24;
          // Inside: the source texel at twice the coordinates (nearest), remapped to magenta; outside: untouched.
          expect(after.at(x, y), `(${x}, ${y})`).toEqual(inside ? [1, 0, 1, 1] : before.at(x, y));
        }
      }
      expect(albedo.width).toBe(64);
      for (const task of [geometry, normals, depth, forward, inset]) task.dispose();
    },
    [64, 48],
  );

  gpuTest(
    'MSAA source: its resolve is copied by default; readSamples resolves in an empty pass or averages samples with textureLoad',
    async ({ engine }) => {
      const scene = simpleScene(engine);
      const msaa = createRenderTarget(engine, { width: 64, height: 48, samples: 4, format: 'rgba8unorm' });
      const forward = createForwardRenderTask(scene, { target: msaa });
      const resolved = createCopyToTextureTask(scene, { sourceTexture: msaa });
      const hardware = createCopyToTextureTask(scene, { sourceTexture: msaa, readSamples: true });
      const averaged = createCopyToTextureTask(scene, { sourceTexture: msaa, readSamples: true, remap: 'identity' });
      runTasks(engine, [forward, resolved, hardware, averaged]);
      expect([resolved.path, hardware.path, averaged.path]).toEqual(['copy', 'resolve', 'blit']);
      const reference = await bytesOf(msaa);
      expect(await bytesOf(resolved.outputTexture)).toEqual(reference);
      expect(await bytesOf(hardware.outputTexture)).toEqual(reference);
      const mine = await bytesOf(averaged.outputTexture);
      const worst = Math.max(...mine.map((v, i) => Math.abs(v - reference[i])));
      console.log('[MSAA copy] per-sample textureLoad average vs hardware resolve: worst byte difference', worst);
      expect(worst).toBeLessThanOrEqual(1);
      for (const task of [forward, resolved, hardware, averaged]) task.dispose();
    },
    [64, 48],
  );

  gpuTest(
    'LOD: mip level 1 of a mipmapped source is copied (fast path) and blitted (flip) exactly',
    async ({ engine }) => {
      const scene = simpleScene(engine);
      const { device } = engine;
      const texture = device.createTexture({
        label: 'test:mipmapped',
        size: [16, 8],
        mipLevelCount: 2,
        format: 'rgba8unorm',
        usage:
          GPUTextureUsage.TEXTURE_BINDING |
          GPUTextureUsage.COPY_SRC |
          GPUTextureUsage.COPY_DST |
          GPUTextureUsage.RENDER_ATTACHMENT,
      });
      const level1 = new Uint8Array(8 * 4 * 4).map((_, i) => (i * 37) % 256);
      device.queue.writeTexture({ texture, mipLevel: 1 }, level1, { bytesPerRow: 32 }, [8, 4]);
      const source: RenderTarget = {
        name: 'mipmapped',
        engine,
        width: 16,
        height: 8,
        colorFormats: ['rgba8unorm'],
        samples: 1,
        depthFormat: null,
        extraUsage: 0,
        textures: { device, colors: [texture], resolves: [null], depth: null },
        disposed: false,
      };
      const copy = createCopyToTextureTask(scene, { sourceTexture: source, lodLevel: 1 });
      const flipped = createCopyToTextureTask(scene, { sourceTexture: source, lodLevel: 1, flipY: true });
      runTasks(engine, [copy, flipped]);
      expect([copy.path, flipped.path, copy.outputTexture.width, copy.outputTexture.height]).toEqual([
        'copy',
        'blit',
        8,
        4,
      ]);
      expect(await bytesOf(copy.outputTexture)).toEqual(level1);
      const rows = [3, 2, 1, 0].flatMap((row) => Array.from(level1.subarray(row * 32, row * 32 + 32)));
      expect(Array.from(await bytesOf(flipped.outputTexture))).toEqual(rows);
      copy.dispose();
      flipped.dispose();
      texture.destroy();
    },
    [64, 48],
  );

  gpuTest(
    'refuses what it cannot copy, naming the value',
    async ({ engine }) => {
      const scene = simpleScene(engine);
      const geometry = gbuffer(scene);
      const uintTarget = createRenderTarget(engine, { width: 64, height: 48, format: 'r8uint', depthFormat: null });
      expect(() =>
        createCopyToTextureTask(scene, { sourceTexture: geometry.geometryAlbedoTexture!, targetTexture: uintTarget }),
      ).toThrow('createCopyToTextureTask: cannot copy rgba8unorm (float) into "r8uint"');
      expect(() =>
        createCopyToTextureTask(scene, { sourceTexture: geometry.geometryMeshBlendTagTexture!, remap: 'depth' }),
      ).toThrow('remap applies to float sources; r8uint is an unsigned-integer format');
      expect(() =>
        createCopyToTextureTask(scene, {
          sourceTexture: geometry.geometryAlbedoTexture!,
          viewport: { x: 0.5, y: 0, width: 0.6, height: 1 },
        }),
      ).toThrow('x + width ≤ 1');
      expect(() =>
        createCopyToTextureTask(scene, { sourceTexture: geometry.geometryAlbedoTexture!, lodLevel: -1 }),
      ).toThrow('lodLevel -1 must be an integer ≥ 0');
      geometry.dispose();
    },
    [64, 48],
  );
});
