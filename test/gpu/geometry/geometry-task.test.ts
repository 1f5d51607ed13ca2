import { mat4, vec4 } from 'wgpu-matrix';
import { describe, expect } from 'vitest';
import { getComposerCounters } from '../../../composer/index.js';
import { getDeviceCaches } from '../../../composer/device-caches.js';
import {
  createForwardRenderTask,
  createMeshFromData,
  createRenderTarget,
  createScene,
  disposeMesh,
  type Engine,
  makeBoxData,
  makePerspectiveCamera,
  makeSphereData,
  makeStandardMaterial,
  makeTorusData,
  type Mesh,
  readRenderTargetPixelsAsync,
  resizeEngine,
  runTasks,
  type Scene,
  whenEngineReadyAsync,
  setMeshWorldMatrix,
  type PerspectiveCamera,
} from '../../../engine/index.js';
import { readTexturePixelsAsync } from '../../../engine/readback.js';
import {
  createCopyToTextureTask,
  createGeometryRendererTask,
  type GeometryRendererTask,
  GeometryTextureType,
  readGeometryFrameIdAsync,
} from '../../../geometry/index.js';
import { createTestEngine, gpuTest } from '../../support/gpu.js';
import { cameraMatrices, countCreates, decodePixels, readPixels } from './geometry-test-helpers.js';

function makeScene(engine: Engine): { scene: Scene; meshes: Mesh[] } {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: [1.6, 1.3, 3], target: [0, 0, 0], fovY: 0.9, far: 30 });
  const instances = new Float32Array(32);
  instances.set(mat4.translation([-0.9, 0.6, 0]), 0);
  instances.set(mat4.translation([0.9, 0.6, -0.3]), 16);
  const meshes = [
    createMeshFromData(scene, 'box', makeBoxData(), {
      worldMatrix: mat4.rotationY(0.3),
      material: makeStandardMaterial({ baseColor: [0.8, 0.3, 0.2] }),
    }),
    createMeshFromData(scene, 'balls', makeSphereData({ radius: 0.3 }), {
      thinInstances: instances,
      material: makeStandardMaterial({ baseColor: [0.2, 0.6, 0.9] }),
    }),
    createMeshFromData(scene, 'ring', makeTorusData({ radius: 0.5, tube: 0.12 }), {
      worldMatrix: mat4.translation([0, -0.7, 0.4]),
    }),
  ];
  return { scene, meshes };
}

const sixOutputs = [
  GeometryTextureType.NORMALIZED_VIEW_DEPTH,
  GeometryTextureType.VIEW_NORMAL,
  GeometryTextureType.WORLD_NORMAL,
  GeometryTextureType.LINEAR_VELOCITY,
  GeometryTextureType.REFLECTIVITY,
  GeometryTextureType.ALBEDO,
];

function pipelineRefs(device: GPUDevice): number {
  return [...getDeviceCaches(device).pipelines.values()].reduce((sum, entry) => sum + entry.refs, 0);
}

describe('geometry renderer task: record / execute', () => {
  gpuTest(
    'a steady frame creates nothing; re-record, resize and a rebuild compile no shader module',
    async ({ engine }) => {
      const { scene, meshes } = makeScene(engine);
      const textureDescriptions = sixOutputs.map((type) => ({ type }));
      const task = createGeometryRendererTask(scene, { textureDescriptions, objectId: true });
      runTasks(engine, [task]);
      const compiled = getComposerCounters(engine.device).modulesCompiled;
      const { counts } = await countCreates(engine.device, task.outputTarget.textures!.colors[0], () => {
        for (let i = 0; i < 3; i++) {
          setMeshWorldMatrix(meshes[0], mat4.rotationY(0.3 + i * 0.1));
          runTasks(engine, [task]);
        }
      });
      console.log('[geometry task] create* calls over 3 steady frames:', counts, 'draws per frame:', task.drawCount);
      expect(counts).toEqual({});
      expect(task.drawCount).toBe(3);
      scene.structureVersion++;
      expect(task.needsRecord()).toBe(true);
      runTasks(engine, [task]);
      resizeEngine(engine, { width: 80, height: 56 });
      runTasks(engine, [task]);
      expect([task.geometryAlbedoTexture!.width, task.geometryAlbedoTexture!.height]).toEqual([80, 56]);
      const rebuilt = createGeometryRendererTask(scene, { textureDescriptions, objectId: true });
      runTasks(engine, [rebuilt]);
      task.dispose();
      runTasks(engine, [rebuilt]);
      const after = getComposerCounters(engine.device);
      console.log(
        '[geometry task] modules compiled by re-record + resize + rebuild:',
        after.modulesCompiled - compiled,
      );
      expect(after.modulesCompiled).toBe(compiled);
      rebuilt.dispose();
      expect(getComposerCounters(engine.device)).toMatchObject({ livePipelines: 0, liveModules: 0 });
    },
    [64, 48],
    { requiredLimits: { maxColorAttachmentBytesPerSample: 64 } },
  );

  gpuTest(
    'a material swap or a new mesh rebuilds only its own entries; a failed rebuild keeps the old list and releases what it acquired',
    async ({ engine }) => {
      const { scene, meshes } = makeScene(engine);
      const bad = new Set<string>();
      const task = createGeometryRendererTask(scene, {
        textureDescriptions: [{ type: GeometryTextureType.ALBEDO }, { type: GeometryTextureType.WORLD_NORMAL }],
        reflectivity: (mesh) => {
          if (bad.has(mesh.name)) throw new Error(`no reflectivity for ${mesh.name}`);
          return [0.04, 0.04, 0.04, 0];
        },
      });
      runTasks(engine, [task]);
      const base = getComposerCounters(engine.device);
      meshes[0].material = makeStandardMaterial({ baseColor: [0.1, 0.9, 0.1] });
      const swap = await countCreates(engine.device, task.outputTarget.textures!.colors[0], () =>
        runTasks(engine, [task]),
      );
      const swapped = getComposerCounters(engine.device);
      console.log(
        '[material swap] creates:',
        swap.counts,
        'pipelines created:',
        swapped.pipelinesCreated - base.pipelinesCreated,
      );
      expect(swapped.pipelinesCreated - base.pipelinesCreated).toBe(0);
      expect(swap.counts.createShaderModule ?? 0).toBe(0);
      expect(swap.counts.createTexture ?? 0).toBe(0);
      const flat = createMeshFromData(scene, 'flat', { positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]) });
      runTasks(engine, [task]);
      const added = getComposerCounters(engine.device);
      console.log(
        '[new mesh, new variant] pipelines created:',
        added.pipelinesCreated - swapped.pipelinesCreated,
        'modules compiled:',
        added.modulesCompiled - swapped.modulesCompiled,
      );
      expect(added.pipelinesCreated - swapped.pipelinesCreated).toBe(1);
      const drawsBefore = task.state.draws;
      const refsBefore = pipelineRefs(engine.device);
      bad.add('broken');
      createMeshFromData(scene, 'broken', makeTorusData({ radius: 0.3, tube: 0.1 }), {
        thinInstances: new Float32Array(mat4.identity()),
      });
      expect(() => runTasks(engine, [task])).toThrow('no reflectivity for broken');
      expect(task.state.draws).toBe(drawsBefore);
      expect(pipelineRefs(engine.device)).toBe(refsBefore);
      expect(getComposerCounters(engine.device)).toMatchObject({
        livePipelines: added.livePipelines,
        liveModules: added.liveModules,
      });
      disposeMesh(scene.meshes.find((m) => m.name === 'broken')!);
      disposeMesh(flat);
      runTasks(engine, [task]);
      expect(task.drawCount).toBe(3);
      task.dispose();
    },
    [64, 48],
  );

  gpuTest(
    'shared depth: the G-buffer writes the shared depth32float; depthLoad keeps what an earlier pass drew in front',
    async ({ engine }) => {
      const { scene, meshes } = makeScene(engine);
      const occluder = createMeshFromData(scene, 'occluder', makeBoxData({ width: 0.5, height: 0.5, depth: 0.1 }), {
        worldMatrix: mat4.translation([0.55, 0.35, 1.6]),
        material: makeStandardMaterial({ baseColor: [1, 0, 1], unlit: true }),
      });
      const target = createRenderTarget(engine, { width: 64, height: 48, depthFormat: 'depth32float' });
      const shared = createGeometryRendererTask(scene, {
        meshes,
        depthTexture: target,
        textureDescriptions: [{ type: GeometryTextureType.SCREENSPACE_DEPTH }, { type: GeometryTextureType.ALBEDO }],
      });
      runTasks(engine, [shared]);
      const depth = decodePixels(
        'depth32float',
        64,
        48,
        await readTexturePixelsAsync(engine.device, target.textures!.depth!),
      );
      const screen = await readPixels(shared.geometryScreenspaceDepthTexture!);
      expect(Array.from(depth.values)).toEqual(Array.from(screen.values));
      expect(screen.values.some((v) => v > 0)).toBe(true);
      // The forward pass's pipelines use depth24plus, so the loading pass shares a depth24plus target with it.
      const forwardTarget = createRenderTarget(engine, { width: 64, height: 48, depthFormat: 'depth24plus' });
      const forward = createForwardRenderTask(scene, { target: forwardTarget, meshes: () => [occluder] });
      const loading = createGeometryRendererTask(scene, {
        meshes,
        depthTexture: forwardTarget,
        depthLoad: true,
        textureDescriptions: [{ type: GeometryTextureType.SCREENSPACE_DEPTH }, { type: GeometryTextureType.ALBEDO }],
      });
      runTasks(engine, [forward, loading]);
      const colour = await readRenderTargetPixelsAsync(forwardTarget);
      const loaded = await readPixels(loading.geometryAlbedoTexture!);
      const plain = await readPixels(shared.geometryAlbedoTexture!);
      let hidden = 0;
      for (let y = 0; y < 48; y++) {
        for (let x = 0; x < 64; x++) {
          const i = (y * 64 + x) * 4;
          const occluded = colour[i] === 255 && colour[i + 1] === 0 && colour[i + 2] === 255;
          if (occluded) hidden++;
          expect(loaded.at(x, y), `(${x}, ${y})`).toEqual(occluded ? [0, 0, 0, 0] : plain.at(x, y));
        }
      }
      console.log('[shared depth] pixels hidden by the earlier pass:', hidden);
      expect(hidden).toBeGreaterThan(50);
      for (const task of [shared, forward, loading]) task.dispose();
    },
    [64, 48],
  );

  gpuTest(
    'config.camera overrides scene.camera',
    async ({ engine }) => {
      const { scene } = makeScene(engine);
      const other = makePerspectiveCamera({ position: [-2, 0.5, 2.2], target: [0, 0.1, 0], fovY: 0.8, far: 30 });
      const follows = createGeometryRendererTask(scene, {
        textureDescriptions: [{ type: GeometryTextureType.WORLD_POSITION }],
      });
      const pinned = createGeometryRendererTask(scene, {
        camera: other,
        textureDescriptions: [{ type: GeometryTextureType.WORLD_POSITION }],
      });
      runTasks(engine, [follows, pinned]);
      const fromScene = await readPixels(follows.geometryWorldPositionTexture!);
      const fromOverride = await readPixels(pinned.geometryWorldPositionTexture!);
      expect(Array.from(fromOverride.values)).not.toEqual(Array.from(fromScene.values));
      scene.camera = other;
      runTasks(engine, [follows]);
      expect(Array.from((await readPixels(follows.geometryWorldPositionTexture!)).values)).toEqual(
        Array.from(fromOverride.values),
      );
      // The override's pixels show what that camera sees: the projected world position lands on its own pixel.
      const { viewProjection } = cameraMatrices(scene, 64 / 48);
      let checked = 0;
      for (let y = 0; y < 48; y++) {
        for (let x = 0; x < 64; x++) {
          const p = fromOverride.at(x, y);
          if (p[3] !== 1) continue;
          const clip = vec4.transformMat4([p[0], p[1], p[2], 1], viewProjection);
          expect(Math.abs(((clip[0] / clip[3]) * 0.5 + 0.5) * 64 - (x + 0.5))).toBeLessThan(1e-2);
          expect(Math.abs((0.5 - (clip[1] / clip[3]) * 0.5) * 48 - (y + 0.5))).toBeLessThan(1e-2);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(300);
      follows.dispose();
      pinned.dispose();
    },
    [64, 48],
  );

  gpuTest(
    'samples 4: hardware resolve for resolvable formats, first-sample resolve for r32float; interior pixels equal the single-sample G-buffer',
    async ({ engine }) => {
      const { scene } = makeScene(engine);
      const textureDescriptions = [
        { type: GeometryTextureType.VIEW_DEPTH },
        { type: GeometryTextureType.WORLD_NORMAL },
        { type: GeometryTextureType.ALBEDO },
      ];
      const msaa = createGeometryRendererTask(scene, { samples: 4, textureDescriptions });
      const single = createGeometryRendererTask(scene, { textureDescriptions });
      expect(msaa.attachments.map((a) => `${a.output}:${a.resolve}`)).toEqual([
        'albedo:hardware',
        'viewDepth:first-sample',
        'worldNormal:hardware',
      ]);
      runTasks(engine, [msaa, single]);
      const frame = await countCreates(engine.device, msaa.outputTarget.textures!.colors[0], () =>
        runTasks(engine, [msaa, single]),
      );
      expect(frame.counts).toEqual({});
      const [depth4, depth1, albedo4, albedo1, normal1] = await Promise.all([
        readPixels(msaa.geometryViewDepthTexture!),
        readPixels(single.geometryViewDepthTexture!),
        readPixels(msaa.geometryAlbedoTexture!),
        readPixels(single.geometryAlbedoTexture!),
        readPixels(single.geometryWorldNormalTexture!),
      ]);
      let interior = 0;
      let edges = 0;
      for (let y = 1; y < 47; y++) {
        for (let x = 1; x < 63; x++) {
          // Interior of one flat face: same colour and same normal all around (every sample saw this plane).
          const around = [-1, 0, 1].flatMap((dy) =>
            [-1, 0, 1].map((dx) => [...albedo1.at(x + dx, y + dy), ...normal1.at(x + dx, y + dy)].join()),
          );
          if (new Set(around).size === 1 && albedo1.at(x, y)[3] > 0) {
            interior++;
            // Equal up to float rounding (the face's other triangle may cover sample 0: same plane, other vertices).
            expect(Math.abs(depth4.at(x, y)[0] - depth1.at(x, y)[0])).toBeLessThanOrEqual(1e-6 * depth1.at(x, y)[0]);
            expect(albedo4.at(x, y)).toEqual(albedo1.at(x, y));
          } else if (depth4.at(x, y)[0] > 0) {
            edges++;
            // Never averaged with the background (0): a real surface depth, at least the nearest around it.
            const nearest = Math.min(
              ...[-1, 0, 1].flatMap((dy) => [-1, 0, 1].map((dx) => depth1.at(x + dx, y + dy)[0])).filter((d) => d > 0),
            );
            expect(depth4.at(x, y)[0]).toBeGreaterThan(0.9 * nearest);
          }
        }
      }
      console.log(
        '[MSAA G-buffer] interior pixels equal:',
        interior,
        'other covered pixels, none averaged with the background:',
        edges,
      );
      expect(interior).toBeGreaterThan(150);
      msaa.dispose();
      single.dispose();
    },
    [64, 48],
  );

  gpuTest(
    'transparent participants draw after the opaque ones and blend every float attachment with the material alpha',
    async ({ engine }) => {
      const scene = createScene(engine);
      scene.camera = makePerspectiveCamera({ position: [0, 0, 4], target: [0, 0, 0], fovY: 0.8, far: 30 });
      const glass = createMeshFromData(scene, 'glass', makeSphereData({ radius: 0.5 }), {
        worldMatrix: mat4.translation([0, 0, 1]),
        material: makeStandardMaterial({ baseColor: [0, 0, 1, 0.5] }),
      });
      createMeshFromData(scene, 'wall', makeBoxData({ width: 2, height: 1.5, depth: 0.2 }), {
        material: makeStandardMaterial({ baseColor: [1, 0, 0, 1] }),
      });
      const task = createGeometryRendererTask(scene, {
        transparentMeshes: [glass],
        textureDescriptions: [
          { type: GeometryTextureType.ALBEDO },
          { type: GeometryTextureType.WORLD_POSITION },
          { type: GeometryTextureType.MESH_BLEND_TAG },
        ],
      });
      runTasks(engine, [task]);
      const albedo = await readPixels(task.geometryAlbedoTexture!);
      const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]) <= 1.5 / 255);
      expect(near(albedo.at(32, 32), [0.5, 0, 0.5, 0.75]), `centre ${albedo.at(32, 32)}`).toBe(true);
      expect(albedo.at(18, 32)).toEqual([1, 0, 0, 1]);
      expect(albedo.at(1, 1)).toEqual([0, 0, 0, 0]);
      expect((await readPixels(task.geometryMeshBlendTagTexture!)).at(32, 32)).toEqual([1]);
      task.dispose();
    },
    [64, 64],
  );
  gpuTest(
    'after a device loss the task and its copies rebuild on the new device: same images, zero motion, hover works',
    async ({ engine }) => {
      const { scene } = makeScene(engine);
      const task = createGeometryRendererTask(scene, {
        textureDescriptions: [{ type: GeometryTextureType.ALBEDO }, { type: GeometryTextureType.LINEAR_VELOCITY }],
        objectId: true,
      });
      const copy = createCopyToTextureTask(scene, { sourceTexture: task.geometryAlbedoTexture!, remap: 'identity' });
      runTasks(engine, [task, copy]);
      const before = await readRenderTargetPixelsAsync(copy.outputTexture);
      const hoverBefore = await readGeometryFrameIdAsync(task, 32, 24);
      const lost = engine.device;
      lost.destroy();
      await lost.lost;
      await whenEngineReadyAsync(engine);
      expect(engine.deviceGeneration).toBe(1);
      (scene.camera as PerspectiveCamera).position[0] += 0.2; // motion across the loss is not reported: history restarts on the new device
      expect(runTasks(engine, [task, copy])).toBe(true);
      expect(task.state.recorded.device).toBe(engine.device);
      const velocity = await readPixels(task.geometryLinearVelocityTexture!);
      expect(
        Math.max(
          ...Array.from(
            { length: 64 * 48 },
            (_, i) => Math.abs(velocity.values[i * 4]) + Math.abs(velocity.values[i * 4 + 1]),
          ),
        ),
      ).toBe(0);
      (scene.camera as PerspectiveCamera).position[0] -= 0.2;
      runTasks(engine, [task, copy]);
      expect(Buffer.from(await readRenderTargetPixelsAsync(copy.outputTexture)).equals(Buffer.from(before))).toBe(true);
      const hoverAfter = await readGeometryFrameIdAsync(task, 32, 24);
      expect(hoverAfter).toEqual(hoverBefore);
      copy.dispose();
      task.dispose();
    },
    [64, 48],
  );
});

describe('geometry renderer task: validation before any pipeline', () => {
  gpuTest(
    'every refused configuration throws a GeometryError naming the value, and builds nothing',
    async ({ engine, adopt }) => {
      const { scene, meshes } = makeScene(engine);
      const make = (config: Partial<Parameters<typeof createGeometryRendererTask>[1]>) => () =>
        createGeometryRendererTask(scene, { textureDescriptions: [], ...config });
      const types = (...list: GeometryTextureType[]) => list.map((type) => ({ type }));
      const tooMuch = make({
        textureDescriptions: types(
          GeometryTextureType.WORLD_POSITION,
          GeometryTextureType.WORLD_NORMAL,
          GeometryTextureType.VIEW_NORMAL,
          GeometryTextureType.ALBEDO,
        ),
      });
      expect(tooMuch).toThrow(
        'createGeometryRendererTask: the attachments need 40 bytes per sample (each starts at a multiple of its component alignment: ALBEDO rgba8unorm 8 B at byte 0, VIEW_NORMAL rgba16float 8 B at byte 8, WORLD_NORMAL rgba16float 8 B at byte 16, WORLD_POSITION rgba32float 16 B at byte 24) but the device allows maxColorAttachmentBytesPerSample = 32; raise the limit with createEngineAsync(gpu, target, { requiredLimits: { maxColorAttachmentBytesPerSample: 40 } }) (this adapter allows up to 256)',
      );
      expect(make({ textureDescriptions: [{ type: GeometryTextureType.MESH_BLEND_TAG, format: 'r16uint' }] })).toThrow(
        'MESH_BLEND_TAG format must be "r8uint" (single-sample, integer 0 clear), got "r16uint"',
      );
      expect(make({ samples: 4, textureDescriptions: types(GeometryTextureType.MESH_BLEND_TAG) })).toThrow(
        'MESH_BLEND_TAG requires samples: 1',
      );
      expect(make({ samples: 4, textureDescriptions: types(GeometryTextureType.ALBEDO), objectId: true })).toThrow(
        'OBJECT_ID requires samples: 1',
      );
      expect(make({ samples: 4, textureDescriptions: types(GeometryTextureType.WORLD_POSITION) })).toThrow(
        'WORLD_POSITION format "rgba32float" cannot be multisampled (samples: 4); override it with a multisampleable format such as rgba16float or r32float, or use samples: 1',
      );
      expect(make({ textureDescriptions: [{ type: GeometryTextureType.ALBEDO, format: 'rgba8uint' }] })).toThrow(
        'ALBEDO writes float values; format "rgba8uint" is a uint format',
      );
      expect(
        make({
          transparentMeshes: [meshes[0]],
          textureDescriptions: [{ type: GeometryTextureType.ALBEDO, format: 'rgba8uint' }],
        }),
      ).toThrow('Transparent geometry output cannot blend integer format "rgba8uint".');
      expect(make({ textureDescriptions: types(GeometryTextureType.ALBEDO, GeometryTextureType.ALBEDO) })).toThrow(
        'requests ALBEDO a second time',
      );
      expect(make({ textureDescriptions: [{ type: 42 as GeometryTextureType }] })).toThrow(
        'textureDescriptions[0].type 42 is not a GeometryTextureType',
      );
      expect(make({ textureDescriptions: [{ type: GeometryTextureType.ALBEDO, format: 'depth32float' }] })).toThrow(
        'ALBEDO format "depth32float" is not a renderable colour format',
      );
      expect(make({ samples: 2 as 4, textureDescriptions: types(GeometryTextureType.ALBEDO) })).toThrow(
        'samples 2 is not allowed; use 1 or 4',
      );
      // With float32-blendable a transparent rgba32float output is fine; without it, refused.
      expect(() =>
        createGeometryRendererTask(scene, {
          transparentMeshes: [meshes[0]],
          textureDescriptions: types(GeometryTextureType.WORLD_POSITION),
        }).dispose(),
      ).not.toThrow();
      const plain = adopt(await createTestEngine(64, 48, { optionalFeatures: [] }));
      expect(plain.features.has('float32-blendable')).toBe(false);
      const plainScene = createScene(plain);
      const glass = createMeshFromData(plainScene, 'glass', makeBoxData());
      expect(() =>
        createGeometryRendererTask(plainScene, {
          transparentMeshes: [glass],
          textureDescriptions: types(GeometryTextureType.WORLD_POSITION),
        }),
      ).toThrow(
        'Transparent geometry output format "rgba32float" requires the float32-blendable WebGPU feature or a blendable format override.',
      );
      // A transparency that appears later is checked by record(), before any pipeline.
      const later: Mesh[] = [];
      const task = createGeometryRendererTask(plainScene, {
        transparentMeshes: later,
        textureDescriptions: types(GeometryTextureType.VIEW_DEPTH),
      });
      later.push(glass);
      plainScene.camera = makePerspectiveCamera();
      expect(() => runTasks(plain, [task])).toThrow(
        'Transparent geometry output format "r32float" requires the float32-blendable WebGPU feature',
      );
      for (const device of [engine.device, plain.device])
        expect(getComposerCounters(device).pipelinesCreated, 'no pipeline was built').toBe(0);
      // Raising the limit as the message says makes the same request work.
      const raised = adopt(
        await createTestEngine(64, 48, { requiredLimits: { maxColorAttachmentBytesPerSample: 40 } }),
      );
      const raisedScene = makeScene(raised).scene;
      const ok = createGeometryRendererTask(raisedScene, {
        textureDescriptions: types(
          GeometryTextureType.WORLD_POSITION,
          GeometryTextureType.WORLD_NORMAL,
          GeometryTextureType.VIEW_NORMAL,
          GeometryTextureType.ALBEDO,
        ),
      });
      runTasks(raised, [ok]);
      ok.dispose();
    },
    [64, 48],
    // WebGPU's default limit (a default engine asks for the adapter's): the 40-byte request below must be refused.
    { requiredLimits: { maxColorAttachmentBytesPerSample: 32 } },
  );

  gpuTest(
    'copy tasks read the aliases like any render target (no MRT knowledge needed)',
    async ({ engine }) => {
      const { scene } = makeScene(engine);
      const task: GeometryRendererTask = createGeometryRendererTask(scene, {
        textureDescriptions: [{ type: GeometryTextureType.ALBEDO }, { type: GeometryTextureType.VIEW_DEPTH }],
      });
      const copy = createCopyToTextureTask(scene, { sourceTexture: task.geometryViewDepthTexture! });
      runTasks(engine, [task, copy]);
      expect(task.geometryViewDepthTexture!.textures!.colors[0]).toBe(
        task.outputTarget.textures!.colors[task.attachments.find((a) => a.output === 'viewDepth')!.location],
      );
      expect(await readRenderTargetPixelsAsync(copy.outputTexture)).toEqual(
        await readRenderTargetPixelsAsync(task.geometryViewDepthTexture!),
      );
      copy.dispose();
      task.dispose();
    },
    [64, 48],
  );
});
