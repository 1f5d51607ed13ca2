import { mat4 } from 'wgpu-matrix';
import { describe, expect, vi } from 'vitest';
import {
  createBillboardSystem,
  disposeBillboardSystem,
  getPickedSpriteIndex,
} from '../../../entities/billboards/index.js';
import {
  createBoxMesh,
  createScene,
  type Engine,
  EngineError,
  makePerspectiveCamera,
  registerPickSource,
  renderFrame,
  type Scene,
  unregisterPickSource,
  whenEngineReadyAsync,
} from '../../../engine/index.js';
import type { Fragment } from '../../../fragments/index.js';
import {
  contributorPickSpec,
  createContributorGpu,
  createGpuPicker,
  disposeContributorGpu,
  disposeGpuPicker,
  drawContributorItems,
  PickError,
  type PickContributorModule,
  pickAsync,
  pickRectAsync,
} from '../../../picking/index.js';
import { createSplatMesh } from '../../../entities/splats/index.js';
import { cameraBasis, pixelRay } from '../../support/camera-rays.js';
import { gpuTest } from '../../support/gpu.js';
import { countDeviceCreates } from '../../support/create-counter.js';

/** A third contributor type written here, outside weft: an infinite ground plane at height `y`. */
interface Ground {
  name: string;
  y: number;
}

const groundFragment: Fragment = {
  id: 'test-ground-pick',
  source: `import bindings::{ contributorView, groundItems, groundParams };
import io::{ FragmentInput, FragmentOutput, VertexInput, VertexOutput };
import package::contributor_view::{ contributorNdcDepth, contributorPixelRay };
import package::pick_contributor_output::writeContributorPick;

fn groundVertex(input: VertexInput) -> VertexOutput {
  var output: VertexOutput;
  let corner = vec2f(f32((input.vertexIndex << 1u) & 2u), f32(input.vertexIndex & 2u));
  output.position = vec4f(corner * 2.0 - 1.0, 0.5, 1.0);
  return output;
}

fn groundFragment(input: FragmentInput) -> FragmentOutput {
  var output: FragmentOutput;
  let ray = contributorPixelRay(input.position.xy);
  let t = (groundItems[0].x - ray.origin.y) / ray.direction.y;
  if (!(t > 0.0) || groundParams.x != 1.0) {
    discard;
  }
  let depth = contributorNdcDepth(ray.origin + t * ray.direction);
  output.groundDepth = depth;
  writeContributorPick(&output, 0u, depth, vec3u(0u));
  return output;
}
`,
  dependencies: ['contributor-view', 'pick-contributor-output'],
  bindings: [
    { name: 'groundItems', kind: 'read-only-storage', type: 'array<vec4f>', role: 'mesh', visibility: ['fragment'] },
    { name: 'groundParams', kind: 'uniform', type: 'vec4f', role: 'mesh', visibility: ['fragment'] },
  ],
  outputs: [{ name: 'groundDepth', type: 'f32', builtin: 'frag_depth' }],
  fills: [
    { slot: 'vertexStage', fn: 'groundVertex' },
    { slot: 'fragmentStage', fn: 'groundFragment' },
  ],
};

function groundModule(disposed: { count: number }): PickContributorModule<Ground, Float32Array<ArrayBuffer>> {
  return {
    capturePick: (ground) => ({ idCount: 1, captured: new Float32Array([ground.y, 0, 0, 0]) }),
    createPickContributor(device) {
      const gpu = createContributorGpu(device, {
        label: 'test:ground',
        shaderSpec: (detailed) => contributorPickSpec([groundFragment], detailed),
        itemsBinding: 'groundItems',
        paramsBinding: 'groundParams',
        paramsBytes: 16,
      });
      return {
        encode: (captured, context) =>
          drawContributorItems(gpu, context, captured, 1, new Float32Array([1, 0, 0, 0]), 3),
        dispose: () => {
          disposed.count++;
          disposeContributorGpu(gpu);
        },
      };
    },
    resolvePick: (ground) => ({ ground: ground.name }),
  };
}

const cameraPosition: [number, number, number] = [0, 3, 8];

function setUp(engine: Engine): Scene {
  const scene = createScene(engine);
  scene.camera = makePerspectiveCamera({ position: cameraPosition, target: [0, 0, 0], fovY: 0.8 });
  return scene;
}

describe('pick contributor lifecycle', () => {
  gpuTest(
    'a third contributor type plugs in without picker changes; its code loads on the first pick, once',
    async ({ engine }) => {
      const scene = setUp(engine);
      createBoxMesh(scene, 'box', {}, { worldMatrix: mat4.translation([0, 0.5, 0]) });
      const disposed = { count: 0 };
      const ground: Ground = { name: 'ground', y: -0.25 };
      const load = vi.fn(async () => groundModule(disposed));
      registerPickSource(scene, { entity: ground, load });
      renderFrame(scene);
      const picker = createGpuPicker(scene);
      expect(load).not.toHaveBeenCalled();
      const { width, height } = engine;
      const camera = cameraBasis(cameraPosition, [0, 0, 0], 0.8, width, height);
      const [px, py] = [Math.floor(width * 0.2), Math.floor(height * 0.9)];
      const info = await pickAsync(picker, px, py);
      expect(load).toHaveBeenCalledTimes(1);
      expect(info.pickedEntity).toBe(ground);
      expect(info.entityDetail).toEqual({ ground: 'ground' });
      // The point where the pixel ray meets the plane, from the test's own camera maths.
      const ray = pixelRay(camera, px, py, width, height);
      const t = (ground.y - ray.origin[1]) / ray.direction[1];
      const expected = ray.direction.map((d, k) => ray.origin[k] + t * d);
      expect(Math.hypot(...info.pickedPoint!.map((v, k) => v - expected[k]))).toBeLessThan(1e-3 * t);
      // The box stands on the plane and in front of it at the centre.
      expect((await pickAsync(picker, Math.floor(width / 2), Math.floor(height / 2))).pickedMesh?.name).toBe('box');
      // Above the horizon: nothing.
      expect((await pickAsync(picker, 1, 1)).hit).toBe(false);
      expect(load).toHaveBeenCalledTimes(1);
      // Unregistering frees the contributor's GPU state at the next pick; disposing the picker frees the rest.
      unregisterPickSource(scene, ground);
      expect((await pickAsync(picker, px, py)).hit).toBe(false);
      expect(disposed.count).toBe(1);
      registerPickSource(scene, { entity: ground, load });
      expect((await pickAsync(picker, px, py)).pickedEntity).toBe(ground);
      disposeGpuPicker(picker);
      expect(disposed.count).toBe(2);
    },
    [64, 48],
  );

  gpuTest(
    'sources are captured at the call, warm picks create nothing, marquees list sprites, disposed systems vanish',
    async ({ engine }) => {
      const scene = setUp(engine);
      const sprites = createBillboardSystem(scene, 'sprites', {
        positions: new Float32Array([-1.5, 0, 0, 0, 0, 0, 1.5, 0, 0]),
        sizes: [1, 1],
      });
      createSplatMesh(scene, 'splats', {
        centers: new Float32Array([0, -1.5, 0]),
        scales: new Float32Array([0.6, 0.3, 0.3]),
      });
      const picker = createGpuPicker(scene);
      const { width, height } = engine;
      const centre = [Math.floor(width / 2), Math.floor(height / 2)] as const;
      expect(getPickedSpriteIndex(await pickAsync(picker, ...centre))).toBe(1);
      // filterSource leaves the sprites out: the ray goes on to nothing.
      expect((await pickAsync(picker, ...centre, { filterSource: (entity) => entity !== sprites })).hit).toBe(false);
      await expect(pickAsync(picker, ...centre, { filterSource: 3 as unknown as () => boolean })).rejects.toThrow(
        /^pickAsync: filterSource 3 must be a function \(entity\) => boolean$/,
      );
      // Moved during the await: the pick still answers for the sprites as they were at the call.
      const pending = pickAsync(picker, ...centre);
      sprites.positions[3] = 5;
      expect(getPickedSpriteIndex(await pending)).toBe(1);
      expect((await pickAsync(picker, ...centre)).hit).toBe(false);
      sprites.positions[3] = 0;
      await pickAsync(picker, 2, 2);
      const counter = countDeviceCreates(engine.device);
      try {
        for (let i = 0; i < 5; i++) await pickAsync(picker, centre[0] + i, centre[1]);
      } finally {
        counter.restore();
      }
      expect(counter.count()).toBe(0);
      const found = await pickRectAsync(picker, 0, 0, width, height);
      const names = found
        .map((f) =>
          f.entity === sprites ? `sprite#${f.entityDetail!.spriteIndex}` : f.entity ? 'splat' : f.mesh!.name,
        )
        .sort();
      expect(names).toEqual(['splat', 'sprite#0', 'sprite#1', 'sprite#2']);
      disposeBillboardSystem(sprites);
      expect((await pickAsync(picker, ...centre)).hit).toBe(false);
    },
    [64, 48],
  );

  gpuTest(
    'after a device loss sources are drawn again on the new device; a pick in flight is redrawn there',
    async ({ engine }) => {
      const scene = setUp(engine);
      createBillboardSystem(scene, 'sprites', {
        positions: new Float32Array([-1.5, 0, 0, 0, 0, 0, 1.5, 0, 0]),
        sizes: [1, 1],
      });
      const disposed = { count: 0 };
      registerPickSource(scene, {
        entity: { name: 'ground', y: -2 } as Ground,
        load: async () => groundModule(disposed),
      });
      const picker = createGpuPicker(scene);
      const centre = [Math.floor(engine.width / 2), Math.floor(engine.height / 2)] as const;
      const low = [Math.floor(engine.width / 2), engine.height - 2] as const;
      expect(getPickedSpriteIndex(await pickAsync(picker, ...centre))).toBe(1);
      const lost = engine.device;
      const pending = pickAsync(picker, ...centre);
      lost.destroy();
      expect(getPickedSpriteIndex(await pending)).toBe(1);
      await whenEngineReadyAsync(engine);
      expect(engine.device).not.toBe(lost);
      expect(getPickedSpriteIndex(await pickAsync(picker, ...centre))).toBe(1);
      expect((await pickAsync(picker, ...low)).entityDetail).toEqual({ ground: 'ground' });
      expect(picker.gpu!.device).toBe(engine.device);
      // The old device's contributors were freed with the picker's old GPU state.
      expect(disposed.count).toBe(1);
    },
    [64, 48],
  );

  gpuTest(
    'concurrent picks over sprites and splats each get their own answer (per-pick uniforms are not overwritten in flight)',
    async ({ engine }) => {
      const scene = setUp(engine);
      const positions: number[] = [];
      for (let i = 0; i < 8; i++) positions.push(i * 0.8 - 2.8, 0.6, 0);
      createBillboardSystem(scene, 'sprites', { positions: new Float32Array(positions), sizes: [0.6, 0.6] });
      createSplatMesh(scene, 'splats', {
        centers: new Float32Array([-1, -1, 0, 1, -1, 0]),
        scales: new Float32Array([0.4, 0.3, 0.3, 0.4, 0.3, 0.3]),
      });
      const picker = createGpuPicker(scene);
      const points = Array.from({ length: 96 }, (_, i) => ({ x: 2 + (i % 12) * 5, y: 2 + Math.floor(i / 12) * 6 }));
      const summary = (info: Awaited<ReturnType<typeof pickAsync>>) =>
        `${info.hit}:${JSON.stringify(info.entityDetail)}:${info.pickedPoint?.map((v) => v.toFixed(4))}`;
      const sequential: string[] = [];
      for (const p of points) sequential.push(summary(await pickAsync(picker, p.x, p.y)));
      const concurrent = (await Promise.all(points.map((p) => pickAsync(picker, p.x, p.y)))).map(summary);
      expect(concurrent).toEqual(sequential);
      expect(sequential.filter((d) => d.includes('spriteIndex')).length).toBeGreaterThan(3);
      expect(sequential.filter((d) => d.includes('splatIndex')).length).toBeGreaterThan(3);
    },
    [64, 48],
  );

  gpuTest(
    'bad pick sources: typed errors at registration, a failed load rejects and leaves the picker working',
    async ({ engine }) => {
      const scene = setUp(engine);
      createBoxMesh(scene, 'box');
      expect(() =>
        registerPickSource(scene, { entity: null as unknown as object, load: async () => groundModule({ count: 0 }) }),
      ).toThrow(EngineError);
      expect(() => registerPickSource(scene, { entity: {}, load: 'nope' as unknown as () => Promise<never> })).toThrow(
        /source.load "nope" must be a function/,
      );
      const entity = { name: 'broken' };
      registerPickSource(scene, { entity, load: async () => ({ createPickContributor: () => null }) });
      expect(() => registerPickSource(scene, { entity, load: async () => groundModule({ count: 0 }) })).toThrow(
        /already registered/,
      );
      const picker = createGpuPicker(scene);
      const centre = [Math.floor(engine.width / 2), Math.floor(engine.height / 2)] as const;
      await expect(pickAsync(picker, ...centre)).rejects.toThrow(PickError);
      await expect(pickAsync(picker, ...centre)).rejects.toThrow(/without capturePick/);
      unregisterPickSource(scene, entity);
      registerPickSource(scene, { entity: { name: 'failing' }, load: () => Promise.reject(new Error('network down')) });
      await expect(pickAsync(picker, ...centre)).rejects.toThrow(
        /loading the pick source of failing failed: network down/,
      );
      scene.pickSources.length = 0;
      expect((await pickAsync(picker, ...centre)).pickedMesh?.name).toBe('box');
    },
    [64, 48],
  );
});
